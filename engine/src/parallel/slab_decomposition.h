// How one case is split among ranks (one GPU, or a group of CPU cores, each): slabs of whole cell
// layers along the domain's longest axis, balanced by the particles (or the measured cost) of each
// layer, and moved by whole layers when the ranks' step times drift apart. Layers are cells of
// the interaction range (2h, plus the Verlet skin with lists), so that a rank's halo comes from
// the layers next to its slab alone; a slab holds at least `minLayers` of them.
#pragma once

#include <cstdint>
#include <vector>

namespace sph::parallel {

// The axis (0 x, 1 y, 2 z) along which the box [min, max] is longest; the first of equal ones.
int longestAxis(const double min[3], const double max[3]);

// Rank r owns the layers [begin[r], begin[r + 1]): ranks + 1 entries, begin[0] = 0 and
// begin[ranks] = the number of layers.
using SlabBegins = std::vector<uint32_t>;

// Slabs of at least `minLayers` layers each whose weights (weight[l]: particles of layer l, or its
// cost) are as even as whole layers allow: boundary k goes where the running sum of the weights
// comes nearest to k/ranks of the total, within the room the other slabs' minimum leaves. Where
// no minimum moves a boundary, each boundary lies within half a layer's weight of its target, so
// a slab weighs at most the mean plus half of each of its two end layers. Throws InputError when
// the layers cannot hold `ranks` slabs of `minLayers` (ranks and minLayers at least 1).
SlabBegins balancedSlabs(const std::vector<double>& weight, uint32_t ranks, uint32_t minLayers);

// The rank that owns layer `layer` (begin as balancedSlabs returns it).
uint32_t rankOfLayer(const SlabBegins& begin, uint32_t layer);

// Dynamic rebalancing: when the busiest rank's last step (stepSeconds[r]) exceeds the ranks' mean
// by more than `threshold` (0.1: 10%), new slabs balanced by each layer's cost, a rank's time
// spread over its layers in proportion to their particles (evenly over a slab without any);
// otherwise `begin` unchanged. Boundaries move by whole layers.
SlabBegins rebalancedSlabs(const SlabBegins& begin, const std::vector<double>& stepSeconds,
                           const std::vector<double>& layerParticles, uint32_t minLayers, double threshold);

// The boundaries `to` as far as one exchange can take the particles there: each boundary k kept
// within [from[k - 1] + 1, from[k + 1] - 1], so that a particle of a slab, or less than a layer
// outside it (it moved since the last migration), changes rank by one at most (migration moves
// particles to the ranks beside theirs alone). `from` when the limited boundaries leave a slab
// thinner than `minLayers` layers.
SlabBegins limitedMove(const SlabBegins& from, const SlabBegins& to, uint32_t minLayers);

}  // namespace sph::parallel
