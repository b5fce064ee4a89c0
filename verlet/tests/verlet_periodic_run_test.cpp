// Whole periodic runs with flow across the periodic faces: --neighbours verlet against cell for
// 200 steps. A water column collapses in a channel periodic in x (2D, symplectic) and in x and y
// (3D, Verlet integrator), so fluid leaves through x = min and re-enters at x = max while the
// lists live across several steps.
#include <gtest/gtest.h>

#include <cmath>

#include "case/loader.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_snapshot_compare.h"
#include "test_support.h"

namespace sph {
namespace {

// Coarse particles (dp 0.04 m) and coefsound 10 instead of 20 make the steps long enough for the
// collapse to carry fluid across the periodic face within 200 steps (0.1-0.2 s).
constexpr const char* kFastSound = R"(<coefsound value="10" />)";

CaseDefinition periodicCollapse2D(const std::filesystem::path& dir) {
  return loadCase(test::writeFile(
      dir / "PeriodicCollapse2D_Def.xml",
      test::caseXml(
          R"(<definition dp="0.04"><pointmin x="-0.2" y="0" z="-0.2" /><pointmax x="2" y="0" z="1" /></definition>)",
          R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0.04" /><size x="0.4" y="2" z="0.4" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="-0.04" /><size x="1.2" y="2" z="0.04" /></drawbox>)",
          R"(<parameter key="StepAlgorithm" value="2" /><parameter key="Kernel" value="2" />
<parameter key="Visco" value="0.05" /><parameter key="DensityDT" value="2" />
<parameter key="TimeMax" value="1" /><parameter key="TimeOut" value="1" />
<parameter key="XPeriodicIncZ" value="0" />
<simulationdomain><posmin x="default" y="default" z="default" /><posmax x="default" y="default" z="default + 100%" /></simulationdomain>)",
          kFastSound)));
}

CaseDefinition periodicCollapse3D(const std::filesystem::path& dir) {
  return loadCase(test::writeFile(
      dir / "PeriodicCollapse3D_Def.xml",
      test::caseXml(
          R"(<definition dp="0.04"><pointmin x="-0.2" y="-0.2" z="-0.2" /><pointmax x="1" y="1" z="1" /></definition>)",
          R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0.04" /><size x="0.2" y="0.2" z="0.24" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="-0.04" /><size x="0.6" y="0.4" z="0.04" /></drawbox>)",
          R"(<parameter key="StepAlgorithm" value="1" /><parameter key="Kernel" value="1" />
<parameter key="Visco" value="0.1" /><parameter key="DensityDT" value="2" />
<parameter key="TimeMax" value="1" /><parameter key="TimeOut" value="1" />
<parameter key="XPeriodicIncY" value="0" /><parameter key="YPeriodicIncX" value="0" />
<simulationdomain><posmin x="default" y="default" z="default" /><posmax x="default" y="default" z="default + 100%" /></simulationdomain>)",
          kFastSound)));
}

struct RunSetup {
  Device device;
  Precision precision;
};

ParticleSnapshot run(const CaseDefinition& c, const std::string& neighbours, const RunSetup& s, int steps,
                     RunReport* report = nullptr) {
  RunOptions o;
  o.neighbours = neighbours;
  o.device = s.device;
  o.precision = s.precision;
  o.maxSteps = steps;
  o.writeOutput = false;
  o.progress = false;
  Simulation sim(c, o);
  const RunReport r = sim.run();
  if (report) *report = r;
  return sim.snapshot();
}

class VerletVsCellPeriodic : public ::testing::TestWithParam<RunSetup> {};

// Tolerances as VerletVsCell (verlet_run_test.cpp), which shows them for 500 steps: the two
// searches give the same pairs, so the runs differ only by summation order. Double: ~1e-16 per
// operation grows to well under 1e-9 m in 200 steps; single: 1e-4 m (a two-hundredth of dp).
TEST_P(VerletVsCellPeriodic, SamePhysicsFor200StepsOfFlowAcrossTheFaces) {
  const RunSetup s = GetParam();
  if (s.device == Device::Gpu && !gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  const auto dir = test::tempDir("verlet_vs_cell_periodic");
  for (const CaseDefinition& c : {periodicCollapse2D(dir), periodicCollapse3D(dir)}) {
    const SimParameters p = deriveParameters(c);
    ASSERT_TRUE(p.periodic[0]);
    RunReport report;
    const ParticleSnapshot cell = run(c, "cell", s, 200);
    const ParticleSnapshot verlet = run(c, "verlet", s, 200, &report);
    ASSERT_EQ(report.strategy, "verlet");
    ASSERT_EQ(cell.count(), c.positions.size()) << "nothing is excluded in a periodic channel";
    EXPECT_GT(report.strategyStats.at("rebuilds"), 1.0);
    EXPECT_LT(report.strategyStats.at("rebuilds"), 100.0) << "lists should outlive several steps";
    EXPECT_EQ(report.strategyStats.at("fallback_passes"), 0.0);
    // Fluid crossed x = min and re-entered at the far end of the channel, where none started:
    // there and moving towards -x (the front spreading towards +x moves the other way).
    int reentered = 0;
    for (size_t i = 0; i < cell.count(); ++i)
      if (cell.type[i] == 1 && cell.pos[3 * i] > p.domainMax.x - 0.1 && cell.vel[3 * i] < 0) ++reentered;
    EXPECT_GT(reentered, 3) << "the collapse should carry fluid across the periodic face";  // measured: 7 (2D), 36 (3D)
    const test::StateDifferences d = test::compareById(verlet, cell);
    std::printf("%s %s %s: %d particles re-entered; max differences %.3g m, %.3g m/s, %.3g kg/m3; %g rebuilds\n",
                c.name.c_str(), deviceName(s.device), precisionName(s.precision), reentered, d.pos, d.vel, d.rho,
                report.strategyStats.at("rebuilds"));
    const bool dbl = s.precision == Precision::Double;
    EXPECT_LT(d.pos, dbl ? 1e-9 : 1e-4);
    EXPECT_LT(d.vel, dbl ? 1e-7 : 1e-2);
    EXPECT_LT(d.rho, dbl ? 1e-5 : 0.5);
  }
}

INSTANTIATE_TEST_SUITE_P(Verlet, VerletVsCellPeriodic,
                         ::testing::Values(RunSetup{Device::Cpu, Precision::Double}, RunSetup{Device::Cpu, Precision::Single},
                                           RunSetup{Device::Gpu, Precision::Double}, RunSetup{Device::Gpu, Precision::Single}),
                         [](const auto& info) {
                           return std::string(deviceName(info.param.device)) + "_" +
                                  precisionName(info.param.precision);
                         });

}  // namespace
}  // namespace sph
