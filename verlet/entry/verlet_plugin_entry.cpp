// The plugin's C entry point (plugin_abi.h): the engine dlopen()s libsph_verlet.so and calls it.
#include "../verlet_strategy.h"
#include "sph/plugin/plugin_abi.h"

SPH_DEFINE_PLUGIN(sph::verlet::VerletStrategy, "verlet",
                  "Verlet neighbour lists (warp-interleaved), rebuilt when a particle moved half the skin; "
                  "VerletListSteps=C")
