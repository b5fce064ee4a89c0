// CUDA-graph replay of steady steps (run/step_graphs.h). The recorder on one of the engine's
// kernels: it records, replays what the key names on the data as it is now, records again when
// the key changes, and when recording fails it runs the work eagerly and switches itself off.
// Whole runs with replay must give the very bits of the same runs launched kernel by kernel:
// a replay launches the same kernels with the same arguments in the same order. Skips without
// a usable GPU; run on the GPU machine whenever CUDA code changes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "case/loader.h"
#include "platform/device_array.h"
#include "platform/gpu_runtime.h"
#include "platform/phase_timers.h"
#include "run/engine_ops.h"
#include "run/simulation.h"
#include "run/step_graphs.h"
#include "sph/plugin/pair_physics.h"
#include "test_snapshot_compare.h"
#include "test_support.h"

namespace sph {
namespace {

// One engine kernel to record: pos.w = Tait pressure of velrho.w.
struct PressurePass {
  static constexpr uint32_t kN = 1000;
  std::unique_ptr<EngineOps<float>> ops = makeGpuOps<float>();
  DeviceArray<Real4<float>> pos{Device::Gpu, kN, "test positions"};
  DeviceArray<Real4<float>> velrho{Device::Gpu, kN, "test densities"};
  PhysicsConstants<float> c{};
  int hostRuns = 0;  // how often the work's host code ran

  PressurePass() {
    c.rho0 = 1000.0f;
    c.gamma = 7.0f;
    c.cteB = 2.0e5f;
    pos.upload(std::vector<Real4<float>>(kN, Real4<float>{0, 0, 0, 0}), "clearing test positions");
    setDensity(1010.0f);
  }
  void setDensity(float rho) {
    velrho.upload(std::vector<Real4<float>>(kN, Real4<float>{0, 0, 0, rho}), "uploading test densities");
  }
  void work() {
    ++hostRuns;
    ops->computePressure(pos.data(), velrho.data(), kN, c);
  }
  // Every pressure is the Tait pressure of `rho` (to float round-off: the device may contract
  // the polynomial into fused multiply-adds; the densities tried differ by 1%, the pressures by
  // ~7%, so 1e-5 tells them apart).
  bool pressuresAre(float rho) const {
    gpu::synchronize("finishing the test pass");
    PhysicsConstants<double> exact{};
    exact.rho0 = c.rho0;
    exact.gamma = c.gamma;
    exact.cteB = c.cteB;
    const double want = taitPressure(double(rho), exact);
    for (const Real4<float>& p : pos.download(kN, "downloading test pressures"))
      if (std::abs(double(p.w) - want) > 1e-5 * want) return false;
    return true;
  }
};

TEST(StepGraphs, RecordsReplaysAndRecordsAgainWhenTheKeyChanges) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  PressurePass pass;
  auto graphs = makeStepGraphs();
  int replayedCalls = 0;
  const auto work = [&] { pass.work(); };
  const auto replayed = [&] { ++replayedCalls; };
  const StepGraphKey key{7, pass.pos.data(), PressurePass::kN, 0};

  graphs->run(key, work, replayed);  // records: the host code runs once, the graph once
  EXPECT_EQ(pass.hostRuns, 1);
  EXPECT_EQ(graphs->recordings(), 1u);
  EXPECT_EQ(replayedCalls, 0);
  EXPECT_TRUE(pass.pressuresAre(1010.0f));

  pass.setDensity(1020.0f);  // a replay reads the data as it is at its launch
  graphs->run(key, work, replayed);
  EXPECT_EQ(pass.hostRuns, 1) << "a replay runs none of the work's host code";
  EXPECT_EQ(replayedCalls, 1);
  EXPECT_EQ(graphs->replays(), 1u);
  EXPECT_TRUE(pass.pressuresAre(1020.0f));

  StepGraphKey other = key;
  other.token = 8;
  pass.setDensity(1030.0f);
  graphs->run(other, work, replayed);
  EXPECT_EQ(pass.hostRuns, 2) << "a new token is recorded, not replayed";
  EXPECT_EQ(graphs->recordings(), 2u);
  EXPECT_TRUE(pass.pressuresAre(1030.0f));

  other.token = 0;  // "call me every step"
  graphs->run(other, work, replayed);
  EXPECT_EQ(pass.hostRuns, 3);
  EXPECT_EQ(graphs->recordings(), 2u);

  pass.setDensity(1040.0f);  // the first key is still cached
  graphs->run(key, work, replayed);
  EXPECT_EQ(replayedCalls, 2);
  EXPECT_TRUE(pass.pressuresAre(1040.0f));
  EXPECT_TRUE(graphs->enabled());
}

// A recorded step must not wait for the device: if its work does, recording fails. The step is
// not lost (the work runs eagerly), replay is off for the rest of the run with the reason
// kept, and CUDA is left without an error.
TEST(StepGraphs, AFailedRecordingRunsTheWorkEagerlyAndSwitchesReplayOff) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  PressurePass pass;
  auto graphs = makeStepGraphs();
  int replayedCalls = 0;
  const auto work = [&] {
    pass.work();
    gpu::synchronize("waiting inside a step");
  };
  const StepGraphKey key{1, pass.pos.data(), PressurePass::kN, 0};
  graphs->run(key, work, [&] { ++replayedCalls; });
  EXPECT_EQ(pass.hostRuns, 2) << "the failed recording, then the eager run";
  EXPECT_FALSE(graphs->enabled());
  EXPECT_NE(graphs->disabledReason().find("recording a step failed"), std::string::npos) << graphs->disabledReason();
  EXPECT_EQ(graphs->recordings(), 0u);
  EXPECT_TRUE(pass.pressuresAre(1010.0f));

  pass.setDensity(1020.0f);
  graphs->run(key, work, [&] { ++replayedCalls; });
  EXPECT_EQ(pass.hostRuns, 3);
  EXPECT_EQ(replayedCalls, 0);
  EXPECT_TRUE(pass.pressuresAre(1020.0f));
}

// Timed replay: a phase measured inside the recorded work is timed at every launch of its
// graph, as the work is at every eager run, also after its slot was evicted and re-recorded (a
// graph update with new events) and when the work runs eagerly.
TEST(StepGraphs, PhasesInsideRecordedStepsAreTimedAtEveryLaunch) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  PressurePass pass;
  auto timer = makeGpuTimer();  // outlives the graphs, whose nodes record its events
  auto graphs = makeStepGraphs();
  const auto work = [&] {
    ScopedPhase phase(timer.get(), "P-Pressure", PhaseGroup::Other);
    pass.work();
  };
  // Tokens 1-5 fill the four slots and evict 1; 0 runs eagerly.
  const uint64_t tokens[] = {1, 1, 1, 2, 2, 3, 4, 5, 1, 1, 0, 2, 5, 5};
  uint64_t replayedCalls = 0;
  for (uint64_t token : tokens) {
    runTimedStep(*graphs, *timer, StepGraphKey{token, pass.pos.data(), PressurePass::kN, 0}, work,
                 [&] { ++replayedCalls; });
    gpu::synchronize("the step's wait");
    timer->stepFinished();
  }
  EXPECT_TRUE(graphs->enabled());
  EXPECT_EQ(graphs->recordings(), 7u);  // 1, 2, 3, 4, 5, 1 again, 2 again
  EXPECT_EQ(replayedCalls, 6u);
  EXPECT_EQ(pass.hostRuns, 8) << "seven recordings and one eager run";
  EXPECT_TRUE(pass.pressuresAre(1010.0f));
  const std::vector<PhaseTotal> totals = timer->totals();
  ASSERT_EQ(totals.size(), 1u);
  EXPECT_EQ(totals[0].name, "P-Pressure");
  EXPECT_EQ(totals[0].calls, std::size(tokens));
  EXPECT_GT(totals[0].seconds, 0.0);
  EXPECT_LT(totals[0].seconds, 1.0) << "a pass over 1000 particles";
}

// A recording that fails inside a timed phase: the capture is invalidated, so the phase's stop
// event cannot be recorded either, while the exception unwinds through the phase. The step
// still runs eagerly and is timed once; the failed recording's events are dropped.
TEST(StepGraphs, AFailedRecordingInsideATimedPhaseRunsTheStepEagerlyAndTimesItOnce) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  PressurePass pass;
  auto timer = makeGpuTimer();
  auto graphs = makeStepGraphs();
  const auto work = [&] {
    ScopedPhase phase(timer.get(), "P-Waiting", PhaseGroup::Other);
    pass.work();
    gpu::synchronize("waiting inside a timed step");
  };
  runTimedStep(*graphs, *timer, StepGraphKey{1, pass.pos.data(), PressurePass::kN, 0}, work, [] {});
  gpu::synchronize("the step's wait");
  timer->stepFinished();
  EXPECT_FALSE(graphs->enabled());
  EXPECT_EQ(pass.hostRuns, 2) << "the failed recording, then the eager run";
  EXPECT_TRUE(pass.pressuresAre(1010.0f));
  const std::vector<PhaseTotal> totals = timer->totals();
  ASSERT_EQ(totals.size(), 1u);
  EXPECT_EQ(totals[0].calls, 1u);
  EXPECT_GT(totals[0].seconds, 0.0);
}

// The spillway of test_exclusion_parking.cpp with the Verlet integrator: water runs off the
// floor, so particles are parked and compacted away (the engine's arrays and the particle count
// change) and the lists are rebuilt many times, each time on the other array set.
std::string spillwayVerletIntegrator() {
  return test::spillwayCase(R"(<parameter key="StepAlgorithm" value="1" /><parameter key="VerletSteps" value="40" />)", 0.6);
}

// VerletPairs twice: a pass that computes each pair once adds by atomics in no fixed order, and
// only runs that repeat bit for bit can show that a replayed step is the recorded one.
test::FinishedRun runOnGpu(const CaseDefinition& c, Precision precision, bool graphs, bool timers = false,
                           const char* pairs = "twice", std::optional<uint64_t> steps = std::nullopt) {
  RunOptions o;
  o.maxSteps = steps;
  o.device = Device::Gpu;
  o.precision = precision;
  o.neighbours = "verlet";
  o.phaseTimers = timers;
  o.stepGraphs = graphs;
  o.strategyOptions["VerletPairs"] = pairs;
  return test::runQuietly(c, o);
}

class GpuStepGraphs : public ::testing::TestWithParam<Precision> {};

TEST_P(GpuStepGraphs, ReplayedRunGivesTheSameBitsAsAnEagerRun) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const auto dir = test::tempDir("step_graphs");
  const CaseDefinition c = loadCase(test::writeFile(dir / "Spill_Def.xml", spillwayVerletIntegrator()));
  const test::FinishedRun replayed = runOnGpu(c, GetParam(), true);
  const test::FinishedRun eager = runOnGpu(c, GetParam(), false);
  ASSERT_EQ(replayed.report.status, "completed") << replayed.report.error;
  ASSERT_EQ(eager.report.status, "completed") << eager.report.error;
  const std::string summary = replayed.report.extra.at("step_graphs");
  std::printf("%llu steps, %llu excluded, %s compactions, %.0f rebuilds; graphs: %s\n",
              static_cast<unsigned long long>(replayed.report.steps),
              static_cast<unsigned long long>(replayed.report.excluded),
              replayed.report.extra.at("exclusion_compactions").c_str(),
              replayed.report.strategyStats.at("rebuilds"), summary.c_str());
  EXPECT_EQ(eager.report.extra.at("step_graphs"), "off (--no-graphs)");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(summary, m, std::regex(R"(on \((\d+) recorded, (\d+) steps replayed\))"))) << summary;
  const uint64_t recorded = std::stoull(m[1]), replays = std::stoull(m[2]);
  EXPECT_GT(replays, replayed.report.steps / 2) << "most steps are steady";
  EXPECT_LT(recorded, replays / 10) << "a graph is reused across rebuilds into the same buffers";
  EXPECT_GT(std::stoull(replayed.report.extra.at("exclusion_compactions")), 0u) << "the case must compact";

  EXPECT_EQ(replayed.report.steps, eager.report.steps);
  EXPECT_EQ(replayed.report.excluded, eager.report.excluded);
  ASSERT_EQ(replayed.state.count(), eager.state.count());
  EXPECT_EQ(replayed.state.id, eager.state.id);
  EXPECT_EQ(replayed.state.pos, eager.state.pos);
  EXPECT_EQ(replayed.state.vel, eager.state.vel);
  EXPECT_EQ(replayed.state.rho, eager.state.rho);

  // Timed, the same steps are replayed (the phases' events inside the graphs) and every step's
  // phases are counted, replayed or not: one force pass and one integration per step.
  const test::FinishedRun timed = runOnGpu(c, GetParam(), true, true);
  ASSERT_EQ(timed.report.status, "completed") << timed.report.error;
  EXPECT_EQ(timed.report.extra.at("step_graphs"), summary);
  EXPECT_EQ(timed.state.pos, eager.state.pos);
  EXPECT_EQ(timed.state.vel, eager.state.vel);
  EXPECT_EQ(timed.state.rho, eager.state.rho);
  std::map<std::string, PhaseTime> phases;
  for (const PhaseTime& p : timed.report.phases) phases[p.name] = p;
  for (const char* name : {"CF-Forces", "SU-ComputeStep", "SU-DtVariable"}) {
    ASSERT_TRUE(phases.count(name)) << name;
    EXPECT_EQ(phases[name].calls, timed.report.steps) << name;
    EXPECT_GT(phases[name].seconds, 0.0) << name;
  }
  EXPECT_EQ(phases["VL-Build"].calls, uint64_t(timed.report.strategyStats.at("rebuilds")));
}

// Pairs once (the default in single precision): steps are recorded and replayed too (the pass
// clears its sums inside the graph), and the run stays within the rounding of an eager one.
TEST(GpuStepGraphs, PairsOnceStepsAreReplayed) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const auto dir = test::tempDir("step_graphs_once");
  const CaseDefinition c = loadCase(test::writeFile(dir / "Spill_Def.xml", spillwayVerletIntegrator()));
  // 400 steps: the column's collapse, before the splashing flow amplifies rounding to a dp.
  const test::FinishedRun replayed = runOnGpu(c, Precision::Single, true, false, "once", 400);
  const test::FinishedRun eager = runOnGpu(c, Precision::Single, false, false, "once", 400);
  ASSERT_EQ(replayed.report.status, "completed") << replayed.report.error;
  ASSERT_EQ(eager.report.status, "completed") << eager.report.error;
  EXPECT_GT(replayed.report.strategyStats.at("builds_pairs_once"), 1.0);
  const std::string summary = replayed.report.extra.at("step_graphs");
  std::smatch m;
  ASSERT_TRUE(std::regex_match(summary, m, std::regex(R"(on \((\d+) recorded, (\d+) steps replayed\))"))) << summary;
  EXPECT_GT(std::stoull(m[2]), replayed.report.steps / 2) << "most steps are steady";
  // Sums in no fixed order: the two runs differ by rounding that the flow amplifies, and the
  // exclusions may differ by a particle at the edge. Positions of the particles both kept.
  EXPECT_NEAR(double(replayed.state.count()), double(eager.state.count()), 0.01 * double(eager.state.count()));
  std::map<uint32_t, size_t> byId;
  for (size_t i = 0; i < eager.state.count(); ++i) byId[eager.state.id[i]] = i;
  double worst = 0;
  for (size_t i = 0; i < replayed.state.count(); ++i) {
    const auto it = byId.find(replayed.state.id[i]);
    if (it == byId.end()) continue;
    for (int k = 0; k < 3; ++k)
      worst = std::max(worst, std::fabs(replayed.state.pos[3 * i + k] - eager.state.pos[3 * it->second + k]));
  }
  std::printf("pairs once, replayed against eager: %.3g m\n", worst);
  EXPECT_LT(worst, 5e-3);  // half the spillway's dp
}

INSTANTIATE_TEST_SUITE_P(Precisions, GpuStepGraphs, ::testing::Values(Precision::Single, Precision::Double),
                         [](const auto& info) { return std::string(precisionName(info.param)); });

// mDBC's correction runs inside a recorded step on the cell tables of the Verlet plugin's last
// rebuild, which the recorded launch holds by value (grid, tables): a graph must not be replayed
// after a rebuild that changed them. MdbcDamBreak2D with the Verlet integrator, 0.1 s (a dozen
// rebuilds, the skin and so the cells changing with the flow).
TEST(GpuStepGraphs, MdbcReplayedRunGivesTheSameBitsAsAnEagerRun) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  CaseDefinition c = loadCase(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/dualsphysics/MdbcDamBreak2D_Def.xml");
  c.parameters["StepAlgorithm"] = {"1", 0};
  c.parameters["TimeMax"] = {"0.1", 0};
  const test::FinishedRun replayed = runOnGpu(c, Precision::Single, true);
  const test::FinishedRun eager = runOnGpu(c, Precision::Single, false);
  ASSERT_EQ(replayed.report.status, "completed") << replayed.report.error;
  ASSERT_EQ(eager.report.status, "completed") << eager.report.error;
  std::printf("%llu steps, %.0f rebuilds; graphs: %s\n", static_cast<unsigned long long>(replayed.report.steps),
              replayed.report.strategyStats.at("rebuilds"), replayed.report.extra.at("step_graphs").c_str());
  EXPECT_GT(replayed.report.strategyStats.at("rebuilds"), 5.0);
  EXPECT_EQ(replayed.report.steps, eager.report.steps);
  ASSERT_EQ(replayed.state.count(), eager.state.count());
  EXPECT_EQ(replayed.state.pos, eager.state.pos);
  EXPECT_EQ(replayed.state.vel, eager.state.vel);
  EXPECT_EQ(replayed.state.rho, eager.state.rho);
}

}  // namespace
}  // namespace sph
