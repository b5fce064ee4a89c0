// What each rank of a slab decomposition will hold: the layers it owns, its particles, and the
// halo it receives from the ranks beside it (the particles of the layer on each side of its
// slab). Layers are at least the interaction reach thick, so a halo comes from the next slabs
// alone. Used to estimate a rank's memory before a run (`sph info --ranks N`).
#pragma once

#include <cstdint>
#include <vector>

#include "parallel/slab_decomposition.h"

namespace sph::parallel {

struct SlabPlan {
  int axis = 0;           // 0 x, 1 y, 2 z: the domain's longest
  double origin = 0;      // where layer 0 starts along the axis
  double layer = 0;       // a layer's thickness: the reach, or a little more so that whole layers fill the domain
  bool periodic = false;  // the axis is periodic: the first and the last slab are neighbours
  SlabBegins begin;       // ranks + 1 layer boundaries (balancedSlabs)
  std::vector<uint64_t> layerParticles;
  std::vector<uint64_t> owned, halo;  // per rank
  uint32_t ranks() const { return uint32_t(owned.size()); }
};

// Slabs for `ranks` ranks of particles at `along` (their coordinate along the axis, within
// [lo, hi]) in layers at least `reach` thick, balanced by the particles of each layer, each at
// least one layer. Throws InputError when the domain has fewer layers than ranks.
SlabPlan planSlabs(const std::vector<double>& along, int axis, double lo, double hi, double reach, uint32_t ranks,
                   bool periodic);

// plan.owned and plan.halo of the slabs plan.begin.
void countSlabs(SlabPlan& plan);

// Moves `plan`'s slabs so that their inner boundaries lie at `bounds` (ranks - 1 coordinates
// along the axis, increasing), each at the nearest layer boundary, and counts them again. Throws
// InputError when there are not ranks - 1 of them or a slab would hold no layer.
void pinSlabs(SlabPlan& plan, const std::vector<double>& bounds);

}  // namespace sph::parallel
