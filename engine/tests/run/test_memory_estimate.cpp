// The device memory a run is estimated to need before anything is allocated (run/memory_estimate.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "platform/plugin_loader.h"
#include "run/memory_estimate.h"
#include "sph/plugin/errors.h"

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

TEST(MemoryEstimate, EngineArraysPerParticle) {
  // Two sets of position, velocity-density and their history (with the symplectic integrator
  // the position's too) of 16 bytes in single precision, the positions' rounding remainders in
  // single precision only, code and id; acceleration, viscous dt and permutation. DamBreak
  // (Verlet integrator) measured 158 bytes a particle of peak device memory with the cell plugin
  // at 381 M particles, before the remainders: these 136 and the cell search's 16.
  EXPECT_DOUBLE_EQ(estimateEngineMemory(damBreakLike(1), 1000, Precision::Single), 1000 * (2 * (16 * 4 + 8) + 16 + 4 + 4));
  EXPECT_DOUBLE_EQ(estimateEngineMemory(damBreakLike(2), 1000, Precision::Double), 1000 * (2 * (32 * 4 + 8) + 32 + 8 + 4));
}

// The plugins say what they hold; the run is checked for the need each marks as its minimum.
TEST(MemoryEstimate, ThePluginsNeedsComeFromThePlugins) {
  const SimParameters p = damBreakLike(1);
  const DeviceMemoryEstimate cell = estimateDeviceMemory(p, 1000, Precision::Single, *createStrategy("cell"));
  EXPECT_DOUBLE_EQ(cell.engine, estimateEngineMemory(p, 1000, Precision::Single));
  ASSERT_EQ(cell.strategy.size(), 1u);
  EXPECT_TRUE(cell.strategy[0].minimum);
  // Keys and indices, double-buffered, and the pair-once pass's diffusion sums and flags (the
  // default CellPairs once on the GPU in single precision).
  EXPECT_DOUBLE_EQ(cell.strategyMinimum(), 1000 * 24);
  EXPECT_DOUBLE_EQ(cell.run(), cell.engine + 1000 * 24);
  // A list strategy needs more for its lists, and at least the cell search it falls back to.
  const DeviceMemoryEstimate verlet = estimateDeviceMemory(p, 1000, Precision::Single, *createStrategy("verlet"));
  EXPECT_DOUBLE_EQ(verlet.strategyMinimum(), cell.strategyMinimum());
  int above = 0;
  for (const MemoryNeed& m : verlet.strategy)
    if (!m.minimum) {
      EXPECT_GT(m.bytes, verlet.strategyMinimum()) << m.what;
      ++above;
    }
  EXPECT_GE(above, 1);
  // allpairs keeps nothing of its own.
  EXPECT_DOUBLE_EQ(estimateDeviceMemory(p, 1000, Precision::Single, *createStrategy("allpairs")).run(), cell.engine);
}

TEST(MemoryEstimate, ACaseTooLargeForTheDeviceNamesTheDpThatFits) {
  const SimParameters p = damBreakLike(1);
  const DeviceMemoryEstimate e = estimateDeviceMemory(p, 100000000, Precision::Single, *createStrategy("cell"));
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
    const double fits = p.dp * std::cbrt(1.02 * 1.06 * e.run() / (gib - 48.0 * 1024 * 1024));
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
  const DeviceMemoryEstimate e = estimateDeviceMemory(p, 10000000, Precision::Single, *createStrategy("cell"));  // 1.6 GB
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
      const double deviceFits = p.dp * std::cbrt(1.02 * 1.06 * e.run() / (deviceGiB * gib - 48.0 * 1024 * 1024));
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
