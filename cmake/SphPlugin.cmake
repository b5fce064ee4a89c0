# sph_add_strategy_plugin(TARGET ENTRY file [SOURCES files...] [GPU_SOURCES files...])
# A neighbour-search plugin: lib<TARGET>.so in build/lib/sph/plugins (and, installed, in
# lib/sph/plugins), linked to the engine's neighbour toolkit. SOURCES and GPU_SOURCES (built only
# with CUDA) go into TARGET_impl, a static library that the plugin's tests link without dlopen;
# ENTRY (the file with SPH_DEFINE_PLUGIN) goes into the plugin alone.
function(sph_add_strategy_plugin target)
  cmake_parse_arguments(P "" "ENTRY" "SOURCES;GPU_SOURCES" ${ARGN})
  set(srcs ${P_SOURCES})
  if(SPH_WITH_CUDA)
    list(APPEND srcs ${P_GPU_SOURCES})
  endif()
  add_library(${target}_impl INTERFACE)
  if(srcs)
    add_library(${target}_objects STATIC ${srcs})
    target_link_libraries(${target}_objects PUBLIC sph_neighbours)
    target_link_libraries(${target}_impl INTERFACE ${target}_objects)
  endif()
  target_link_libraries(${target}_impl INTERFACE sph_neighbours)
  add_library(${target} MODULE ${P_ENTRY})
  target_link_libraries(${target} PRIVATE ${target}_impl)
  # $ORIGIN/../..: libsph_neighbours.so (build/lib, or lib when installed); ../../../bin: the
  # shared libraries copied beside the binary on machines without them installed.
  set_target_properties(${target} PROPERTIES PREFIX "lib" LIBRARY_OUTPUT_DIRECTORY ${SPH_PLUGIN_OUTPUT_DIR}
    BUILD_RPATH "\$ORIGIN;\$ORIGIN/../..;\$ORIGIN/../../../bin"
    INSTALL_RPATH "\$ORIGIN;\$ORIGIN/../..;\$ORIGIN/../../../bin")
  install(TARGETS ${target} LIBRARY DESTINATION lib/sph/plugins)
endfunction()
