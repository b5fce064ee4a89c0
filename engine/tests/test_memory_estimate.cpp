// The device memory a run is estimated to need before anything is allocated (memory_estimate.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "sph/plugin/errors.h"
#include "sph/memory_estimate.h"

namespace sph {
namespace {

SimParameters damBreakLike(int stepAlgorithm) {
  SimParameters p;
  p.dim = 3;
  p.dp = 0.01;
  p.support = 2 * std::sqrt(3.0) * p.dp;  // coefh 1
  p.stepAlgorithm = stepAlgorithm;
  return p;
}

TEST(MemoryEstimate, EngineArraysAndCellSearchPerParticle) {
  // Two sets of position, velocity-density and their history (with the symplectic integrator
  // the position's too) of 16 bytes in single precision, the positions' rounding remainders in
  // single precision only, code and id; acceleration, viscous dt and permutation; the cell
  // search's 16. DamBreak (Verlet integrator) measured 158 bytes a particle of peak device
  // memory with the cell plugin at 381 M particles, before the remainders.
  const DeviceMemoryEstimate verletIntegrator = estimateDeviceMemory(damBreakLike(1), 1000, Precision::Single);
  EXPECT_DOUBLE_EQ(verletIntegrator.engine, 1000 * (2 * (16 * 4 + 8) + 16 + 4 + 4));
  EXPECT_DOUBLE_EQ(verletIntegrator.cellSearch, 1000 * 16);
  const DeviceMemoryEstimate symplectic = estimateDeviceMemory(damBreakLike(2), 1000, Precision::Double);
  EXPECT_DOUBLE_EQ(symplectic.engine, 1000 * (2 * (32 * 4 + 8) + 32 + 8 + 4));
}

TEST(MemoryEstimate, VerletListsCountTheLatticeNeighbours) {
  // Radius 1.5 dp (with the skin's twentieth): 6 neighbours at 1 dp and 12 at sqrt(2) dp in 3D,
  // 4 and 4 in 2D.
  SimParameters p = damBreakLike(1);
  p.support = 1.5 / 1.05 * p.dp;
  EXPECT_DOUBLE_EQ(estimateDeviceMemory(p, 10, Precision::Single).listEntriesPerParticle, 18.0);
  p.dim = 2;
  EXPECT_DOUBLE_EQ(estimateDeviceMemory(p, 10, Precision::Single).listEntriesPerParticle, 8.0);
  // DamBreak (coefh 1): 170 lattice neighbours within 2h, 202 within 2.1h. Its lists held 166
  // entries a particle on average at 18 M particles after 300 steps (particles near walls and
  // the surface have fewer, the skin was 1% of 2h then), about 230 at the peak of a whole run
  // (a wider skin, warp padding, storage headroom): the estimate lies between.
  const double entries = estimateDeviceMemory(damBreakLike(1), 10, Precision::Single).listEntriesPerParticle;
  EXPECT_EQ(entries, 202);
}

TEST(MemoryEstimate, BitmaskListsCountTheCandidatesOfTheTrimmedRows) {
  // DamBreak (coefh 1, Rc = 2.1h = 3.64 dp): cells of 1.82 dp hold 6.0 nodes; the trimmed rows
  // keep about 86 of the 125 cells of the 5x5x5 block, 517 candidates, 17 words a particle: a
  // tenth of the index lists' 808 bytes.
  const DeviceMemoryEstimate e = estimateDeviceMemory(damBreakLike(1), 1000, Precision::Single);
  EXPECT_NEAR(e.maskCandidatesPerParticle, 517.3, 0.1);
  EXPECT_DOUBLE_EQ(e.verletMasks, 1000 * (4 * (e.maskCandidatesPerParticle / 32 + 1.5) + 4 + 8.0 / 32 + 16));
  EXPECT_LT(e.verletMasks * 9, e.verletLists);
  // 2D: 5 rows of at most 5 cells.
  SimParameters p = damBreakLike(1);
  p.dim = 2;
  EXPECT_LT(estimateDeviceMemory(p, 10, Precision::Single).maskCandidatesPerParticle, 25 * std::pow(1.82, 2));
}

TEST(MemoryEstimate, ClusterListsCountTheJClustersOfALatticeBlock) {
  // DamBreak (coefh 1, Rc = 2.1h = 3.64 dp): the 8 nodes of a cluster reach about 83 clusters of
  // 8 (entries of 12 bytes shared by the 8), against 202 neighbours a node: ~125 bytes a particle,
  // a sixth of the index lists' 808. (Measured on DamBreak: 79 bytes, fewer neighbours at the
  // walls and the surface.)
  const DeviceMemoryEstimate e = estimateDeviceMemory(damBreakLike(1), 1000, Precision::Single);
  EXPECT_NEAR(e.clusterEntriesPerParticle, 10.355, 0.001);
  EXPECT_DOUBLE_EQ(e.verletClusters, 1000 * (12 * e.clusterEntriesPerParticle + 2 + 16));
  EXPECT_LT(e.verletClusters * 5, e.verletLists);
  EXPECT_DOUBLE_EQ(e.verletClustered(), e.engine + e.cellSearch + e.verletClusters);
  // Fewer in 2D, where the clusters' 8 nodes are a row along x.
  SimParameters p = damBreakLike(1);
  p.dim = 2;
  const DeviceMemoryEstimate e2 = estimateDeviceMemory(p, 10, Precision::Single);
  EXPECT_GT(e2.clusterEntriesPerParticle, 1.0);
  EXPECT_LT(e2.clusterEntriesPerParticle * 8, e2.listEntriesPerParticle);
}

TEST(MemoryEstimate, ACaseTooLargeForTheDeviceNamesTheDpThatFits) {
  const SimParameters p = damBreakLike(1);
  const DeviceMemoryEstimate e = estimateDeviceMemory(p, 100000000, Precision::Single);
  const double gib = 1024.0 * 1024 * 1024;
  const HostMemoryEstimate host;  // nothing on the host
  EXPECT_NO_THROW(requireRunMemory(host, 100 * gib, &e, 80 * gib, p, "a large GPU"));
  try {
    requireRunMemory(host, 100 * gib, &e, 1 * gib, p, "a small GPU");
    FAIL() << "no error";
  } catch (const InputError& err) {
    const std::string what = err.what();
    EXPECT_NE(what.find("a small GPU"), std::string::npos) << what;
    EXPECT_EQ(what.find("host memory"), std::string::npos) << what;
    // 16.0 GB (and 6% the estimate leaves out) for 1 GiB less the 48 MiB that do not scale: dp grows
    // by the cube root of the ratio (and 2% to spare).
    const double fits = p.dp * std::cbrt(1.02 * 1.06 * e.cell() / (gib - 48.0 * 1024 * 1024));
    EXPECT_NE(what.find(fmt::format("a dp of about {:.3g}", fits)), std::string::npos) << what;
  }
}

// The host's need is the larger of the generator's peak and the case with the run's arrays; the
// dp suggested makes both the host and the device fit.
TEST(MemoryEstimate, TheHostAndTheDeviceBothFitAtTheDpSuggested) {
  const SimParameters p = damBreakLike(1);
  const double gib = 1024.0 * 1024 * 1024;
  HostMemoryEstimate host;
  host.caseData = 3 * gib;
  host.run = 5 * gib;
  host.generatorPeak = 6 * gib;
  EXPECT_DOUBLE_EQ(host.peak(), 8 * gib);
  host.generatorPeak = 9 * gib;
  EXPECT_DOUBLE_EQ(host.peak(), 9 * gib);
  const DeviceMemoryEstimate e = estimateDeviceMemory(p, 10000000, Precision::Single);  // 1.6 GB
  for (const double deviceGiB : {0.5, 100.0}) {
    try {
      requireRunMemory(host, 2 * gib, &e, deviceGiB * gib, p, "a GPU");
      FAIL() << "no error";
    } catch (const InputError& err) {
      const std::string what = err.what();
      EXPECT_NE(what.find("9.00 GiB of host memory"), std::string::npos) << what;
      EXPECT_EQ(what.find("on the device") != std::string::npos, deviceGiB < 1) << what;
      // The larger of the two dps.
      const double hostFits = p.dp * std::cbrt(1.02 * 9 / 2.0);
      const double deviceFits = p.dp * std::cbrt(1.02 * 1.06 * e.cell() / (deviceGiB * gib - 48.0 * 1024 * 1024));
      EXPECT_NE(what.find(fmt::format("a dp of about {:.3g}", std::max({p.dp, hostFits, deviceFits}))),
                std::string::npos)
          << what;
    }
  }
  // On the CPU (no device estimate) only the host counts.
  EXPECT_NO_THROW(requireRunMemory(host, 10 * gib, nullptr, 0, p, "none"));
}

}  // namespace
}  // namespace sph
