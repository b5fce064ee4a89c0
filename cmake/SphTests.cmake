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
