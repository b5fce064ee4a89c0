// What Verlet lists are estimated to hold before anything is allocated (verlet_memory_estimate.h):
// each layout's entries counted on a lattice of dp with a list radius of 2h and a twentieth.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "neighbours/cell_mode.h"
#include "verlet_memory_estimate.h"
#include "verlet_strategy.h"

namespace sph::verlet {
namespace {

constexpr double kDp = 0.01;
// DamBreak's: coefh 1 in 3D, 2h = 2 sqrt(3) dp; the list radius 2.1h = 3.64 dp.
constexpr double kDamBreakRadius = 1.05 * 2 * 1.7320508075688772;

// Full index lists (VerletPairs twice) unless a test asks otherwise: the layouts are compared
// against them.
MemoryQuery query(int dim, uint64_t particles, double support = 2 * 1.7320508075688772 * kDp) {
  MemoryQuery q;
  q.options["VerletPairs"] = "twice";
  q.dim = dim;
  q.dp = kDp;
  q.support = support;
  q.particles = particles;
  return q;
}

const MemoryNeed& need(const std::vector<MemoryNeed>& needs, const std::string& what) {
  for (const MemoryNeed& m : needs)
    if (m.what == what) return m;
  throw std::runtime_error("no need named " + what);
}

TEST(VerletMemoryEstimate, IndexListsCountTheLatticeNeighbours) {
  // Radius 1.5 dp: 6 neighbours at 1 dp and 12 at sqrt(2) dp in 3D, 4 and 4 in 2D.
  EXPECT_DOUBLE_EQ(latticeNeighbours(1.5, 3), 18.0);
  EXPECT_DOUBLE_EQ(latticeNeighbours(1.5, 2), 8.0);
  // DamBreak (coefh 1): 170 lattice neighbours within 2h, 202 within 2.1h. Its lists held 166
  // entries a particle on average at 18 M particles after 300 steps (particles near walls and
  // the surface have fewer, the skin was 1% of 2h then), about 230 at the peak of a whole run
  // (a wider skin, warp padding, storage headroom): the estimate lies between.
  EXPECT_EQ(latticeNeighbours(kDamBreakRadius, 3), 202);
  // Entries, lengths, region offsets and the build's positions, beside the cell search (full
  // lists: VerletPairs twice, and the GPU in double precision whatever it says).
  EXPECT_DOUBLE_EQ(need(estimateVerletMemory(query(3, 1000)), "index lists").bytes,
                   1000 * 16 + 1000 * (4 * 202 + 4 + 8.0 / 32 + 16));
  MemoryQuery gpuDouble = query(3, 1000);
  gpuDouble.options.clear();  // the default, once, has no double-precision GPU pass
  gpuDouble.precision = sph::Precision::Double;
  EXPECT_DOUBLE_EQ(need(estimateVerletMemory(gpuDouble), "index lists").bytes,
                   1000 * 16 + 1000 * (4 * 202 + 4 + 8.0 / 32 + 32));
}

// Half lists (VerletPairs once, the default on the GPU in single precision): a node lists the
// neighbours after it in the build's order, a warp the room of its longest; beside them the
// pass's diffusion sums and flags.
TEST(VerletMemoryEstimate, HalfListsTakeHalfTheEntriesAndTheWarpsLongest) {
  const double half = latticeHalfListEntries(kDamBreakRadius, 3);
  EXPECT_GT(half, 202 / 2.0);
  EXPECT_LT(half, 0.8 * 202);  // the warp's longest: its first particles hold more than half
  const double half2D = latticeHalfListEntries(kDamBreakRadius, 2);
  EXPECT_GT(half2D, latticeNeighbours(kDamBreakRadius, 2) / 2);
  EXPECT_LT(half2D, latticeNeighbours(kDamBreakRadius, 2));
  MemoryQuery q = query(3, 1000);
  q.options.clear();  // the default
  EXPECT_DOUBLE_EQ(need(estimateVerletMemory(q), "index lists").bytes,
                   1000 * 16 + 1000 * (4 * half + 4 + 8.0 / 32 + 16 + 8));
  q.options["VerletPairs"] = "ONCE";  // as given: the engine checks values without case
  EXPECT_DOUBLE_EQ(need(estimateVerletMemory(q), "index lists").bytes,
                   1000 * 16 + 1000 * (4 * half + 4 + 8.0 / 32 + 16 + 8));
  // The CPU's pass (no atomics; taken only when asked for) keeps its diffusion sums and flags and
  // its parts' spill windows (cell::pairOnceScratchBytes): 4 + 4 + 5 x 4 bytes a particle in
  // single precision. Without the option the CPU takes every pair twice.
  q.device = Device::Cpu;
  EXPECT_DOUBLE_EQ(need(estimateVerletMemory(q), "index lists").bytes,
                   1000 * 16 + 1000 * (4 * half + 4 + 8.0 / 32 + 16 + 28));
  q.options.clear();
  EXPECT_DOUBLE_EQ(need(estimateVerletMemory(q), "index lists").bytes,
                   1000 * 16 + 1000 * (4 * 202 + 4 + 8.0 / 32 + 16));
  q.options["VerletPairs"] = "once";
  EXPECT_DOUBLE_EQ(need(estimateVerletMemory(q), "index lists").bytes,
                   1000 * 16 + 1000 * (4 * half + 4 + 8.0 / 32 + 16 + 28));
  std::printf("half lists on the lattice: %.1f entries a particle in 3D, %.1f in 2D\n", half, half2D);
}

TEST(VerletMemoryEstimate, BitmaskListsCountTheCandidatesOfTheTrimmedRows) {
  // DamBreak: cells of 1.82 dp hold 6.0 nodes; the trimmed rows keep about 86 of the 125 cells of
  // the 5x5x5 block, 517 candidates, 17 words a particle: a tenth of the index lists' 808 bytes.
  const double candidates = latticeCandidates(kDamBreakRadius, 3);
  EXPECT_NEAR(candidates, 517.3, 0.1);
  const auto needs = estimateVerletMemory(query(3, 1000));
  const double cell = 1000 * 16;
  EXPECT_DOUBLE_EQ(need(needs, "bitmask lists").bytes, cell + 1000 * (4 * (candidates / 32 + 1.5) + 4 + 8.0 / 32 + 16));
  EXPECT_LT((need(needs, "bitmask lists").bytes - cell) * 9, need(needs, "index lists").bytes - cell);
  // 2D: 5 rows of at most 5 cells.
  EXPECT_LT(latticeCandidates(kDamBreakRadius, 2), 25 * std::pow(1.82, 2));
}

TEST(VerletMemoryEstimate, ClusterListsCountTheJClustersOfALatticeBlock) {
  // DamBreak: the 8 nodes of a cluster reach about 83 clusters of 8 (entries of 12 bytes shared
  // by the 8), against 202 neighbours a node: ~125 bytes a particle, a sixth of the index lists'
  // 808. (Measured on DamBreak: 79 bytes, fewer neighbours at the walls and the surface.)
  const double entries = latticeClusterEntries(kDamBreakRadius, 3);
  EXPECT_NEAR(entries, 10.355, 0.001);
  const auto needs = estimateVerletMemory(query(3, 1000));
  const double cell = 1000 * 16;
  EXPECT_DOUBLE_EQ(need(needs, "cluster lists").bytes, cell + 1000 * (12 * entries + 2 + 16));
  EXPECT_LT((need(needs, "cluster lists").bytes - cell) * 5, need(needs, "index lists").bytes - cell);
  // Fewer in 2D, where the clusters' 8 nodes are a row along x.
  EXPECT_GT(latticeClusterEntries(kDamBreakRadius, 2), 1.0);
  EXPECT_LT(latticeClusterEntries(kDamBreakRadius, 2) * 8, latticeNeighbours(kDamBreakRadius, 2));
}

// Half cluster lists (VerletPairs once, the GPU's default): a cluster's entries are the j-clusters
// holding a node whose pair one of its nodes holds. Clusters I < J that meet keep one entry, in I,
// instead of two, and a cluster keeps its own: about half the entries (5.18 of 10.355 in 3D; no
// padding, unlike half index lists, which keep a warp's longest).
TEST(VerletMemoryEstimate, HalfClusterListsKeepTheJClustersAfterTheirOwn) {
  const double full = latticeClusterEntries(kDamBreakRadius, 3);
  const double half = latticeClusterEntries(kDamBreakRadius, 3, true);
  EXPECT_NEAR(half, full / 2, 0.02 * full);
  EXPECT_NEAR(latticeClusterEntries(kDamBreakRadius, 2, true), latticeClusterEntries(kDamBreakRadius, 2) / 2,
              0.1 * latticeClusterEntries(kDamBreakRadius, 2));
  MemoryQuery q = query(3, 1000);
  q.options.clear();  // the default: once
  EXPECT_DOUBLE_EQ(need(estimateVerletMemory(q), "cluster lists").bytes, 1000 * 16 + 1000 * (12 * half + 2 + 16 + 8));
  std::printf("cluster entries a particle on the lattice: %.3f, %.3f for half lists\n", full, half);
}

// When no layout fits, the strategy runs the cell search: that is the least it needs, and what a
// run is checked for.
TEST(VerletMemoryEstimate, TheMinimumIsTheCellSearchItFallsBackTo) {
  const auto needs = VerletStrategy().estimateMemory(query(3, 1000));
  int minima = 0;
  for (const MemoryNeed& m : needs)
    if (m.minimum) {
      ++minima;
      // query() asks for VerletPairs twice, which the cell search is given too.
      MemoryQuery twice = query(3, 1000);
      twice.options["CellPairs"] = "twice";
      EXPECT_DOUBLE_EQ(m.bytes, cell::cellSearchMemory(twice).bytes);
      EXPECT_DOUBLE_EQ(m.bytes, 1000 * 16);
    }
  EXPECT_EQ(minima, 1);
  EXPECT_EQ(needs.size(), 4u);
}

// The options a user may give it, each with a flag, a key and a default said.
TEST(VerletMemoryEstimate, OptionsNameTheirFlagKeyAndDefault) {
  const auto options = VerletStrategy().options();
  bool layout = false;
  for (const StrategyOption& o : options) {
    EXPECT_FALSE(o.key.empty());
    EXPECT_NE(o.help.find("default"), std::string::npos) << o.key;
    if (o.key == "VerletLayout") {
      layout = true;
      EXPECT_EQ(o.flag, "--verlet-layout");
      EXPECT_EQ(o.choices.size(), 4u);
    }
  }
  EXPECT_TRUE(layout);
}

}  // namespace
}  // namespace sph::verlet
