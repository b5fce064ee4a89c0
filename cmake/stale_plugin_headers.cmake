# Makes DEST, a copy of the engine's public headers (SOURCE) as an older engine might have had them:
# ParticleView with one member more. The stale test plugin (engine/tests/plugin_fixtures) is built
# from this copy, with its own ABI tag (plugin_abi_tag.cmake), so that the loader's refusal of a
# plugin built from other headers is tested with a real one.
cmake_minimum_required(VERSION 3.24)
file(REMOVE_RECURSE "${DEST}")
file(COPY "${SOURCE}/" DESTINATION "${DEST}")
set(view "${DEST}/sph/plugin/particle_view.h")
file(READ "${view}" text)
string(REPLACE "  uint32_t nBound = 0;\n" "  uint32_t nBound = 0;\n  uint32_t nFluidOld = 0;  // the older engine's member\n"
       stale "${text}")
if(stale STREQUAL text)
  message(FATAL_ERROR "stale_plugin_headers.cmake: ParticleView::nBound not found in ${view}")
endif()
file(WRITE "${view}" "${stale}")
file(GLOB_RECURSE HEADERS "${DEST}/sph/plugin/*.h" "${DEST}/sph/plugin/*.cuh")
string(REPLACE ";" "|" HEADERS "${HEADERS}")
set(ROOT "${DEST}")
set(OUTPUT "${DEST}/sph/plugin_abi_tag.h")
include("${CMAKE_CURRENT_LIST_DIR}/plugin_abi_tag.cmake")
