// The plugin's C entry point (plugin_abi.h): the engine dlopen()s libsph_allpairs.so and calls it.
#include "../allpairs_strategy.h"
#include "sph/plugin/plugin_abi.h"

SPH_DEFINE_PLUGIN(sph::allpairs::AllPairsStrategy, "allpairs",
                  "every particle against every other, O(N^2): the reference for small cases and tests")
