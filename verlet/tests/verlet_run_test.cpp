// Whole runs with --neighbours verlet against the same runs with cell: the physics must agree,
// and a device-memory cap too small for the lists must not stop a run (it falls back to the
// cell search and says how often in the report).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "case/loader.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_snapshot_compare.h"
#include "test_support.h"

namespace sph {
namespace {

using Outcome = test::FinishedRun;

Outcome runCase(const CaseDefinition& c, const std::string& neighbours, Device d, Precision p, int steps,
                const std::map<std::string, std::string>& options = {}) {
  RunOptions o;
  o.neighbours = neighbours;
  o.device = d;
  o.precision = p;
  o.maxSteps = steps;
  o.strategyOptions = options;
  return test::runQuietly(c, o);
}

CaseDefinition damBreak2D() {
  LoadOptions lo;
  lo.dpOverride = 0.04;  // 1,250 fluid particles: 500 steps in a few seconds on two cores
  return loadCase(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml", lo);
}

CaseDefinition smallDamBreak3D(const std::filesystem::path& dir) {
  return loadCase(test::writeFile(
      dir / "Small3D_Def.xml",
      test::smallDamBreak3D(0.025, R"(<parameter key="StepAlgorithm" value="1" /><parameter key="Kernel" value="1" />
<parameter key="Visco" value="0.1" /><parameter key="DensityDT" value="2" />
<parameter key="TimeMax" value="1" /><parameter key="TimeOut" value="1" />)")));
}

struct RunSetup {
  Device device;
  Precision precision;
  bool once = false;  // VerletPairs once (half lists on the GPU in single precision, and on the CPU)
  const char* layout = "indices";
};

class VerletVsCell : public ::testing::TestWithParam<RunSetup> {};

// Same physics, different summation order: the two differ by round-off that the flow amplifies.
// Double precision: ~1e-16 per operation grows to well under 1e-9 m in 500 steps. Single
// precision: the GpuVsCpu bounds for 100 steps (2e-5 m) scaled to 500 steps of a dam break in
// its first 0.05-0.1 s, 1e-4 m (a hundredth of dp); measured values are printed.
TEST_P(VerletVsCell, SamePhysicsFor500Steps) {
  const RunSetup s = GetParam();
  if (s.device == Device::Gpu && !gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  const auto dir = test::tempDir("verlet_vs_cell");
  for (const CaseDefinition& c : {damBreak2D(), smallDamBreak3D(dir)}) {
    const Outcome cell = runCase(c, "cell", s.device, s.precision, 500);
    const Outcome verlet = runCase(c, "verlet", s.device, s.precision, 500,
                                   {{"VerletPairs", s.once ? "once" : "twice"}, {"VerletLayout", s.layout}});
    ASSERT_EQ(verlet.report.strategy, "verlet");
    EXPECT_GT(verlet.report.strategyStats.at("rebuilds"), 1.0);
    EXPECT_EQ(verlet.report.strategyStats.at("builds_pairs_once"),
              s.once ? verlet.report.strategyStats.at("rebuilds") : 0.0);
    const test::StateDifferences d = test::compareById(verlet.state, cell.state);
    std::printf("%s %s %s: max differences %.3g m, %.3g m/s, %.3g kg/m3; %g rebuilds\n", c.name.c_str(),
                deviceName(s.device), precisionName(s.precision), d.pos, d.vel, d.rho,
                verlet.report.strategyStats.at("rebuilds"));
    const bool dbl = s.precision == Precision::Double;
    EXPECT_LT(d.pos, dbl ? 1e-9 : 1e-4);
    EXPECT_LT(d.vel, dbl ? 1e-7 : 1e-2);
    EXPECT_LT(d.rho, dbl ? 1e-5 : 0.5);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Verlet, VerletVsCell,
    ::testing::Values(RunSetup{Device::Cpu, Precision::Double}, RunSetup{Device::Cpu, Precision::Single},
                      RunSetup{Device::Gpu, Precision::Double}, RunSetup{Device::Gpu, Precision::Single},
                      RunSetup{Device::Gpu, Precision::Single, true},
                      RunSetup{Device::Gpu, Precision::Single, true, "clusters"},
                      RunSetup{Device::Cpu, Precision::Single, true, "clusters"}),
    [](const auto& info) {
      return std::string(deviceName(info.param.device)) + "_" + precisionName(info.param.precision) +
             (info.param.once ? "_once" : "") +
             (std::string(info.param.layout) == "indices" ? "" : "_" + std::string(info.param.layout));
    });

// Shifting's passes (the Symplectic corrector's) need every pair from both sides: a run asked
// for half lists builds them once, takes the corrector pass of that step on the cell search, and
// builds full lists from then on; it agrees with a run of full lists as VerletVsCell's runs do.
TEST(VerletPairsOnce, ShiftingRunMovesToFullLists) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  const auto dir = test::tempDir("verlet_pairs_once");
  CaseDefinition c = smallDamBreak3D(dir);
  c.parameters["StepAlgorithm"] = {"2", 0};
  c.parameters["Shifting"] = {"3", 0};
  const Outcome once = runCase(c, "verlet", Device::Gpu, Precision::Single, 200, {{"VerletPairs", "once"}});
  const Outcome twice = runCase(c, "verlet", Device::Gpu, Precision::Single, 200, {{"VerletPairs", "twice"}});
  ASSERT_EQ(once.report.status, "completed") << once.report.error;
  EXPECT_EQ(once.report.strategyStats.at("builds_pairs_once"), 1.0);
  EXPECT_EQ(once.report.strategyStats.at("fallback_passes"), 1.0);
  EXPECT_GT(once.report.strategyStats.at("rebuilds"), 2.0);
  const test::StateDifferences d = test::compareById(once.state, twice.state);
  std::printf("once against twice with shifting: %.3g m, %.3g m/s, %.3g kg/m3\n", d.pos, d.vel, d.rho);
  EXPECT_LT(d.pos, 1e-4);
  EXPECT_LT(d.vel, 1e-2);
  EXPECT_LT(d.rho, 0.5);
}

// From ~600,000 fluid particles the passes over half lists run 4 lanes a particle instead of 8
// (once_forces.cuh, kOnceFewerLanesFrom), index and cluster lists: the small dam break at a
// spacing that makes 680,000 fluid particles, 20 steps, against full index lists. A member missed
// or doubled changes a particle's acceleration by about g, its velocity by g x 20 dt (~1e-3 m/s
// at this spacing's dt); the two summation orders differ by a few ulps of the state.
TEST(VerletPairsOnce, LargeCaseOnFewerLanesAgreesWithFullLists) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  const auto dir = test::tempDir("verlet_pairs_once_large");
  CaseDefinition c = smallDamBreak3D(dir);
  LoadOptions lo;
  lo.dpOverride = 0.0026;
  c = loadCase((dir / "Small3D_Def.xml").string(), lo);
  const Outcome twice =
      runCase(c, "verlet", Device::Gpu, Precision::Single, 20, {{"VerletPairs", "twice"}, {"VerletLayout", "indices"}});
  for (const char* layout : {"indices", "clusters"}) {
    SCOPED_TRACE(layout);
    const Outcome once =
        runCase(c, "verlet", Device::Gpu, Precision::Single, 20, {{"VerletPairs", "once"}, {"VerletLayout", layout}});
    ASSERT_EQ(once.report.status, "completed") << once.report.error;
    ASSERT_GE(once.report.nFluid, 600000u);
    EXPECT_GE(once.report.strategyStats.at("builds_pairs_once"), 1.0);
    EXPECT_GE(once.report.strategyStats.at(std::string("builds_") + layout + "_layout"), 1.0);
    test::expectOnceMatchesTwice(once, twice);
  }
}

// A 1 kB cap for the lists: every rebuild falls back to the cell search; the run completes,
// agrees with the cell plugin, and the report counts the fallback passes.
class VerletMemoryCap : public ::testing::TestWithParam<Device> {};

TEST_P(VerletMemoryCap, RunCompletesOnTheCellSearch) {
  const Device d = GetParam();
  if (d == Device::Gpu && !gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  const CaseDefinition c = damBreak2D();
  const Outcome cell = runCase(c, "cell", d, Precision::Double, 200);
  const Outcome capped = runCase(c, "verlet", d, Precision::Double, 200, {{"VerletMemoryLimit", "1000"}});
  EXPECT_EQ(capped.report.status, "completed");
  EXPECT_GT(capped.report.strategyStats.at("fallback_events"), 0.0);
  EXPECT_EQ(capped.report.strategyStats.at("fallback_passes"), 200.0);
  EXPECT_EQ(capped.report.strategyStats.at("rebuilds"), 0.0);
  const test::StateDifferences diff = test::compareById(capped.state, cell.state);
  EXPECT_LT(diff.pos, 1e-9);
  // With room again (no cap) the lists are used.
  const Outcome free = runCase(c, "verlet", d, Precision::Double, 200);
  EXPECT_EQ(free.report.strategyStats.at("fallback_passes"), 0.0);
}

INSTANTIATE_TEST_SUITE_P(Verlet, VerletMemoryCap, ::testing::Values(Device::Cpu, Device::Gpu),
                         [](const auto& info) { return std::string(deviceName(info.param)); });

// A cap of three quarters of what the index lists took at their largest: the first layout of
// auto (index lists) does not fit at least then, so cluster lists (about a ninth of the size) are
// built instead, the run uses lists throughout (no cell fallback), the later builds start with
// cluster lists, and the physics agrees with the uncapped run. Three quarters of what those took
// leaves the bitmask lists, the last layout.
class VerletLayoutFallback : public ::testing::TestWithParam<Device> {};

TEST_P(VerletLayoutFallback, ListsThatDoNotFitAreBuiltInTheNextLayout) {
  const Device d = GetParam();
  if (d == Device::Gpu && !gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  const CaseDefinition c = damBreak2D();
  const Outcome free = runCase(c, "verlet", d, Precision::Double, 200);
  EXPECT_EQ(free.report.strategyStats.at("builds_indices_layout"), free.report.strategyStats.at("rebuilds"));
  auto cappedRun = [&](double cap, const char* layout) {
    const Outcome capped =
        runCase(c, "verlet", d, Precision::Double, 200, {{"VerletMemoryLimit", fmt::format("{:.0f}", cap)}});
    const StrategyStats& st = capped.report.strategyStats;
    EXPECT_EQ(capped.report.status, "completed");
    EXPECT_EQ(st.at("fallback_passes"), 0.0);
    const double builds = st.at(fmt::format("builds_{}_layout", layout));
    EXPECT_GE(builds, 1.0) << layout;
    EXPECT_EQ(st.at("layout_fallbacks"), st.at("rebuilds") - st.at("builds_indices_layout"));
    EXPECT_EQ(st.at("rebuilds"),
              st.at("builds_bitmask_layout") + st.at("builds_indices_layout") + st.at("builds_clusters_layout"));
    // Same lists, another summation order (the lanes take the members by rank).
    const test::StateDifferences diff = test::compareById(capped.state, free.state);
    EXPECT_LT(diff.pos, 1e-9) << layout;
    return st.at("list_bytes_peak");
  };
  const double clusterPeak = cappedRun(0.75 * free.report.strategyStats.at("list_bytes_peak"), "clusters");
  cappedRun(0.75 * clusterPeak, "bitmask");
}

INSTANTIATE_TEST_SUITE_P(Verlet, VerletLayoutFallback, ::testing::Values(Device::Cpu, Device::Gpu),
                         [](const auto& info) { return std::string(deviceName(info.param)); });

}  // namespace
}  // namespace sph
