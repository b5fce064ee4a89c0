// The plugin's C entry point (plugin_abi.h): the engine dlopen()s libsph_cell.so and calls it.
#include "../cell_strategy.h"
#include "sph/plugin/plugin_abi.h"

SPH_DEFINE_PLUGIN(sph::cell::CellStrategy, "cell",
                  "DualSPHysics cell-linked list: particles re-sorted by cell before every force pass; CellMode=full|half")
