# sph_discover_tests(TARGET [ENVIRONMENT VAR=VALUE...]): registers a GoogleTest binary's tests
# with CTest in three disjoint sets by label, so that `ctest -L validation`, `ctest -L gpu` and
# `ctest -L unit` pick them:
#   validation  suites named *Validation* (cases run for minutes against experiments); a high
#               COST makes a parallel CTest start them first, so the short tests fill the
#               other cores around them
#   gpu         tests named *Gpu*, *GPU* or with a gpu parameter (*gpu*): they skip without a GPU
#   unit        every other test
function(sph_discover_tests target)
  cmake_parse_arguments(ARG "" "" "ENVIRONMENT" ${ARGN})
  set(env)
  if(ARG_ENVIRONMENT)
    set(env ENVIRONMENT "${ARG_ENVIRONMENT}")
  endif()
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 TEST_FILTER "-*Validation*:*gpu*:*Gpu*:*GPU*"
                       PROPERTIES ${env} LABELS unit)
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 TEST_FILTER "*Validation*"
                       PROPERTIES ${env} COST 1000 LABELS validation)
  gtest_discover_tests(${target} DISCOVERY_TIMEOUT 60 TEST_FILTER "*gpu*:*Gpu*:*GPU*-*Validation*"
                       PROPERTIES ${env} LABELS gpu)
endfunction()

# sph_test_build(TARGET [HEADERS...]): how a test binary's own sources compile. They are assertions
# and fixtures; the engine and plugin code they exercise is in the libraries, built as the build
# type says. So in a Release build they compile at -O1, and GoogleTest, the standard headers and
# the HEADERS most of them include are parsed once, into a precompiled header. At -O3 without it
# the tests were 45% of a build's compile time (one test source: 14.4 s at -O3, 9.1 s at -O1, of
# which 2.7 s parsing these headers).
function(sph_test_build target)
  if(CMAKE_BUILD_TYPE STREQUAL "Release")
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-O1>)
  endif()
  # GCC 12 warns of bounds and overflows in std::string's concatenation of literals that its copies
  # do not cross (known false positives of its inlined char_traits copies), once the standard
  # headers come from the precompiled header.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:CXX>:-Wno-array-bounds;-Wno-stringop-overflow>")
  endif()
  target_precompile_headers(${target} PRIVATE <gtest/gtest.h> <algorithm> <cmath> <filesystem> <fstream> <map>
                            <sstream> <string> <vector> ${ARGN})
endfunction()
