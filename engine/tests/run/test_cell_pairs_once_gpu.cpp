// The cell plugin's pass that computes each pair once (CellPairs once, the default on the GPU in
// single precision) against the same runs with every pair twice. Small cases run it inside the
// conformance suite and every GPU run test; this one is large enough for the kernel variant of
// large cases (cell_gpu_forces.cu, kOnceLargeFrom: more blocks an SM, fewer registers). Skips
// without a usable GPU.
#include <gtest/gtest.h>

#include <cstdio>

#include "case/loader.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_snapshot_compare.h"
#include "test_support.h"

namespace sph {
namespace {

test::FinishedRun runCell(const CaseDefinition& c, const char* pairs, int steps) {
  RunOptions o;
  o.neighbours = "cell";
  o.device = Device::Gpu;
  o.precision = Precision::Single;
  o.maxSteps = steps;
  o.strategyOptions["CellPairs"] = pairs;
  return test::runQuietly(c, o);
}

// A small dam break at a spacing that makes 680,000 fluid particles, 20 steps. A neighbour missed
// or taken twice changes a particle's acceleration by about g, its velocity by g x 20 dt (~1e-3
// m/s at this spacing's dt); the two summation orders differ by a few ulps of the state.
TEST(CellPairsOnce, LargeCaseAgreesWithEveryPairTwice) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const auto dir = test::tempDir("cell_pairs_once_large");
  const std::string xml =
      test::smallDamBreak3D(0.025, R"(<parameter key="StepAlgorithm" value="2" /><parameter key="Kernel" value="2" />
<parameter key="Visco" value="0.1" /><parameter key="DensityDT" value="3" />
<parameter key="TimeMax" value="1" /><parameter key="TimeOut" value="1" />)");
  LoadOptions lo;
  lo.dpOverride = 0.0026;
  const CaseDefinition c = loadCase(test::writeFile(dir / "Large_Def.xml", xml), lo);
  const test::FinishedRun once = runCell(c, "once", 20);
  const test::FinishedRun twice = runCell(c, "twice", 20);
  ASSERT_EQ(once.report.status, "completed") << once.report.error;
  ASSERT_EQ(twice.report.status, "completed") << twice.report.error;
  ASSERT_GE(once.report.nFluid, 300000u);
  EXPECT_GE(once.report.strategyStats.at("passes_pairs_once"), 40.0);  // Symplectic: two a step
  EXPECT_EQ(twice.report.strategyStats.at("passes_pairs_once"), 0.0);
  test::expectOnceMatchesTwice(once, twice);
}

}  // namespace
}  // namespace sph
