// The plugin's C entry point (plugin_abi.h): the engine dlopen()s libsph_verlet.so and calls this.
#include "../verlet_strategy.h"
#include "sph/plugin_abi.h"

namespace {

sph::NeighbourStrategy* createVerlet() { return new sph::verlet::VerletStrategy(); }
void destroyVerlet(sph::NeighbourStrategy* s) { delete s; }

}  // namespace

extern "C" __attribute__((visibility("default"))) const SphPluginDescriptor* sph_plugin_descriptor() {
  static const SphPluginDescriptor descriptor{
      SPH_PLUGIN_ABI_VERSION, "verlet",
      "Verlet neighbour lists (warp-interleaved), rebuilt when a particle moved half the skin; "
      "VerletListSteps=C",
      &createVerlet, &destroyVerlet};
  return &descriptor;
}
