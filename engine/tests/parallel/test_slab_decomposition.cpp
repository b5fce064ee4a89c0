// The slabs of the domain decomposition: balanced by the layers' weights in whole layers, each at
// least the minimum thick, rebalanced only past the threshold, clear errors for impossible splits.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "parallel/slab_decomposition.h"
#include "sph/plugin/errors.h"

namespace sph::parallel {
namespace {

double slabWeight(const std::vector<double>& w, const SlabBegins& b, size_t r) {
  return std::accumulate(w.begin() + b[r], w.begin() + b[r + 1], 0.0);
}

TEST(SlabDecomposition, LongestAxis) {
  const double min[3] = {0, -1, 0}, x[3] = {4, 1, 1}, y[3] = {1, 5, 1}, z[3] = {1, 1, 3}, tie[3] = {2, 1, 2};
  EXPECT_EQ(longestAxis(min, x), 0);
  EXPECT_EQ(longestAxis(min, y), 1);
  EXPECT_EQ(longestAxis(min, z), 2);
  EXPECT_EQ(longestAxis(min, tie), 0);
}

TEST(SlabDecomposition, EvenLayersGiveEqualSlabs) {
  const std::vector<double> w(100, 7.0);
  EXPECT_EQ(balancedSlabs(w, 4, 1), (SlabBegins{0, 25, 50, 75, 100}));
  EXPECT_EQ(balancedSlabs(w, 1, 1), (SlabBegins{0, 100}));
  const SlabBegins three = balancedSlabs(w, 3, 1);  // 33.3 layers a slab: nearest whole layers
  EXPECT_EQ(three, (SlabBegins{0, 33, 67, 100}));
  EXPECT_EQ(rankOfLayer(three, 0), 0u);
  EXPECT_EQ(rankOfLayer(three, 32), 0u);
  EXPECT_EQ(rankOfLayer(three, 33), 1u);
  EXPECT_EQ(rankOfLayer(three, 99), 2u);
  EXPECT_THROW(rankOfLayer(three, 100), RunError);
}

// A dam break: the water in the first fifth of the tank, a thin film beyond. Each slab ends
// within half a layer of its share.
TEST(SlabDecomposition, UnevenLayersAreSplitByWeight) {
  std::vector<double> w(200, 1.0);
  for (int l = 0; l < 40; ++l) w[l] = 500.0 + 10.0 * l;
  const double total = std::accumulate(w.begin(), w.end(), 0.0);
  for (uint32_t ranks : {2u, 3u, 5u, 8u}) {
    const SlabBegins b = balancedSlabs(w, ranks, 1);
    ASSERT_EQ(b.size(), ranks + 1);
    EXPECT_EQ(b.front(), 0u);
    EXPECT_EQ(b.back(), 200u);
    for (uint32_t r = 0; r < ranks; ++r) {
      ASSERT_LT(b[r], b[r + 1]) << "rank " << r << " of " << ranks;
      const double ends = 0.5 * (w[b[r]] + w[b[r + 1] - 1]);
      EXPECT_LE(slabWeight(w, b, r), total / ranks + ends + 1e-9) << "rank " << r << " of " << ranks;
    }
  }
  // Most ranks go to the water.
  EXPECT_LE(balancedSlabs(w, 8, 1)[7], 40u);
}

// All the weight in one layer: every slab still holds the minimum, and the layers fill in order.
TEST(SlabDecomposition, EverySlabKeepsItsMinimum) {
  std::vector<double> w(12, 0.0);
  w[5] = 1.0;
  const SlabBegins b = balancedSlabs(w, 4, 3);
  EXPECT_EQ(b, (SlabBegins{0, 3, 6, 9, 12}));
  std::vector<double> empty(10, 0.0);
  const SlabBegins e = balancedSlabs(empty, 3, 2);
  for (uint32_t r = 0; r < 3; ++r) EXPECT_GE(e[r + 1] - e[r], 2u);
}

TEST(SlabDecomposition, ImpossibleSplitsSayWhy) {
  const std::vector<double> w(10, 1.0);
  try {
    balancedSlabs(w, 4, 3);
    FAIL() << "4 ranks of 3 layers in 10";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("4 ranks need at least 12 cell layers"), std::string::npos) << e.what();
  }
  EXPECT_THROW(balancedSlabs(w, 0, 1), InputError);
  EXPECT_THROW(balancedSlabs(w, 2, 0), InputError);
  EXPECT_THROW(balancedSlabs({1.0, -1.0}, 1, 1), InputError);
}

// Two ranks on even layers, the second three times as slow a particle (a busier device, or
// denser flow): past the threshold the boundary moves towards the second rank by whole layers
// until both cost the same; within it nothing moves.
TEST(SlabDecomposition, RebalancingMovesBoundariesPastTheThreshold) {
  const std::vector<double> particles(60, 100.0);
  const SlabBegins even{0, 30, 60};
  EXPECT_EQ(rebalancedSlabs(even, {1.0, 1.05}, particles, 2, 0.1), even);
  // Costs: 1/30 a layer on rank 0, 3/30 on rank 1; half of the total 4 is reached at layer 40.
  EXPECT_EQ(rebalancedSlabs(even, {1.0, 3.0}, particles, 2, 0.1), (SlabBegins{0, 40, 60}));
  // A rank without particles spreads its time evenly over its layers.
  std::vector<double> dry(particles);
  for (int l = 30; l < 60; ++l) dry[l] = 0.0;
  EXPECT_EQ(rebalancedSlabs(even, {1.0, 3.0}, dry, 2, 0.1), (SlabBegins{0, 40, 60}));
  EXPECT_THROW(rebalancedSlabs(even, {1.0}, particles, 2, 0.1), RunError);
}

// A boundary stays a layer inside the boundaries beside it: a particle of a slab, or less than a
// layer outside it, then changes rank by one at most in the exchange that follows. Where the limit would leave a slab
// too thin, nothing moves.
TEST(SlabDecomposition, AMoveIsLimitedToTheSlabsBeside) {
  const SlabBegins from{0, 10, 20, 30, 40};
  EXPECT_EQ(limitedMove(from, {0, 12, 18, 33, 40}, 1), (SlabBegins{0, 12, 18, 33, 40}));
  // Boundary 2 wants to go past boundary 3's old place, boundaries 2 and 3 below 1's and 2's.
  EXPECT_EQ(limitedMove(from, {0, 2, 35, 38, 40}, 1), (SlabBegins{0, 2, 29, 38, 40}));
  EXPECT_EQ(limitedMove(from, {0, 1, 2, 3, 40}, 1), (SlabBegins{0, 1, 11, 21, 40}));
  // Between two slabs of one layer a boundary has no room: it stays where it was.
  EXPECT_EQ(limitedMove({0, 1, 2, 40}, {0, 2, 30, 40}, 1), (SlabBegins{0, 1, 30, 40}));
  // Limited, slab 1 would end before it starts, or be thinner than the minimum: no move at all.
  EXPECT_EQ(limitedMove(from, {0, 15, 5, 30, 40}, 1), from);
  EXPECT_EQ(limitedMove(from, {0, 19, 21, 30, 40}, 3), from);
  EXPECT_THROW(limitedMove(from, {0, 20, 40}, 1), RunError);
}

}  // namespace
}  // namespace sph::parallel
