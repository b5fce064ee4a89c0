// What each rank of a slab decomposition holds: its layers' particles and the layer beside its
// slab on each side, open and periodic, and the errors of a domain too thin for its ranks.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "parallel/slab_plan.h"
#include "sph/plugin/errors.h"

namespace sph::parallel {
namespace {

// 10 particles at the centre of each 0.1 m of [0, 2]: 20 layers of 0.1 m hold 10 each.
std::vector<double> evenRow() {
  std::vector<double> x;
  for (int l = 0; l < 20; ++l)
    for (int k = 0; k < 10; ++k) x.push_back(0.1 * l + 0.005 + 0.009 * k);
  return x;
}

TEST(SlabPlan, OwnedParticlesAndTheLayerOnEachSide) {
  const SlabPlan p = planSlabs(evenRow(), 0, 0.0, 2.0, 0.1, 4, false);
  EXPECT_EQ(p.layerParticles, std::vector<uint64_t>(20, 10));
  EXPECT_NEAR(p.layer, 0.1, 1e-12);
  EXPECT_EQ(p.begin, (SlabBegins{0, 5, 10, 15, 20}));
  EXPECT_EQ(p.owned, (std::vector<uint64_t>{50, 50, 50, 50}));
  EXPECT_EQ(p.halo, (std::vector<uint64_t>{10, 20, 20, 10}));  // the end slabs have one neighbour
  EXPECT_EQ(std::accumulate(p.owned.begin(), p.owned.end(), uint64_t(0)), 200u);
}

TEST(SlabPlan, PeriodicEndsAreNeighbours) {
  const SlabPlan p = planSlabs(evenRow(), 2, 0.0, 2.0, 0.1, 4, true);
  EXPECT_EQ(p.axis, 2);
  EXPECT_EQ(p.halo, (std::vector<uint64_t>{20, 20, 20, 20}));
  // One rank: its own images are the cell search's, no halo.
  EXPECT_EQ(planSlabs(evenRow(), 0, 0.0, 2.0, 0.1, 1, true).halo, (std::vector<uint64_t>{0}));
}

TEST(SlabPlan, LayersAreAtLeastTheReachAndFillTheDomain) {
  // A reach of 0.3 m over 2 m: 6 layers of 0.333 m; particles on the far face count in the last.
  std::vector<double> x = evenRow();
  x.push_back(2.0);
  const SlabPlan p = planSlabs(x, 0, 0.0, 2.0, 0.3, 2, false);
  EXPECT_EQ(p.layerParticles.size(), 6u);
  EXPECT_NEAR(p.layer, 2.0 / 6, 1e-12);
  EXPECT_EQ(std::accumulate(p.layerParticles.begin(), p.layerParticles.end(), uint64_t(0)), 201u);
  // [1.667, 2]: 3 particles of the row at 1.6 (from 1.668), the 30 from 1.7 on, and the one at 2.
  EXPECT_EQ(p.layerParticles.back(), 34u);
}

TEST(SlabPlan, BalancesUnevenLayers) {
  // A dam: 180 particles in the first 0.5 m, 20 in the rest.
  std::vector<double> x;
  for (int k = 0; k < 180; ++k) x.push_back(0.5 * (k + 0.5) / 180);
  for (int k = 0; k < 20; ++k) x.push_back(0.5 + 1.5 * (k + 0.5) / 20);
  const SlabPlan p = planSlabs(x, 0, 0.0, 2.0, 0.1, 2, false);
  EXPECT_EQ(p.begin[1], 3u);  // 108 of 200 in the first 0.3 m: the nearest boundary to 100
  EXPECT_EQ(p.owned[0] + p.owned[1], 200u);
}

TEST(SlabPlan, TooThinADomainForItsRanksIsAnInputError) {
  EXPECT_THROW(planSlabs(evenRow(), 0, 0.0, 2.0, 0.5, 5, false), InputError);  // 4 layers, 5 ranks
  EXPECT_THROW(planSlabs(evenRow(), 0, 0.0, 2.0, 0.0, 2, false), InputError);
  EXPECT_THROW(planSlabs(evenRow(), 0, 2.0, 2.0, 0.1, 2, false), InputError);
}

// Slabs set by hand (RunOptions::rankSlabBounds): each boundary at the nearest layer's, each slab
// at least a layer, as many boundaries as ranks less one.
TEST(SlabPlan, SlabsAtGivenBoundsTakeTheNearestLayers) {
  SlabPlan p = planSlabs(evenRow(), 0, 0.0, 2.0, 0.25, 3, false);  // 8 layers of 0.25 m, 25 particles each
  EXPECT_THROW(pinSlabs(p, {0.3, 1.9}), InputError);               // 7.6 rounds to the end: no last slab
  EXPECT_THROW(pinSlabs(p, {0.1, 1.0}), InputError);               // 0.4 rounds to the start
  EXPECT_THROW(pinSlabs(p, {1.0, 0.5}), InputError);               // not increasing
  EXPECT_THROW(pinSlabs(p, {1.0}), InputError);                    // 3 ranks take 2
  pinSlabs(p, {0.3, 1.4});                                         // 1.2 and 5.6 layers
  EXPECT_EQ(p.begin, (SlabBegins{0, 1, 6, 8}));
  EXPECT_EQ(p.owned, (std::vector<uint64_t>{25, 125, 50}));
  EXPECT_EQ(p.halo, (std::vector<uint64_t>{25, 50, 25}));
}

}  // namespace
}  // namespace sph::parallel
