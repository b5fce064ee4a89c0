// The plugin's C entry point (plugin_abi.h): the engine dlopen()s libsph_cell.so and calls this.
#include "../cell_strategy.h"
#include "sph/plugin_abi.h"

namespace {

sph::NeighbourStrategy* createCell() { return new sph::cell::CellStrategy(); }
void destroyCell(sph::NeighbourStrategy* s) { delete s; }

}  // namespace

extern "C" __attribute__((visibility("default"))) const SphPluginDescriptor* sph_plugin_descriptor() {
  static const SphPluginDescriptor descriptor{
      SPH_PLUGIN_ABI_VERSION, "cell",
      "DualSPHysics cell-linked list: particles re-sorted by cell every step; CellMode=full|half",
      &createCell, &destroyCell};
  return &descriptor;
}
