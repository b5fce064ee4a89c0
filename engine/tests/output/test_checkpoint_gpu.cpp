// Checkpoints of GPU runs: the device arrays go to the checkpoint and come back on resume. A GPU
// run resumed from a checkpoint ends where the run made straight through ends, and a GPU
// checkpoint resumes on the CPU. Skips without a usable GPU; run on the GPU machine whenever the
// checkpoint or the GPU state changes.
#include <gtest/gtest.h>

#include <cstdio>

#include "case/loader.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_resume_runs.h"
#include "test_snapshot_compare.h"
#include "test_support.h"

namespace sph {
namespace {

namespace fs = std::filesystem;

CaseDefinition floatingCase() {
  return loadCase(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/dualsphysics/FloatingSmall_Def.xml");
}

RunOptions gpuOptions(Precision p) {
  RunOptions o;
  o.device = Device::Gpu;
  o.precision = p;
  o.progress = false;
  o.checkpointAtStepLimit = true;  // the tests stop at a step to resume from
  o.timeOut = 0.002;
  o.writeVtk = false;
  return o;
}

class CheckpointGpu : public ::testing::TestWithParam<Precision> {};

// The same kernels on the same arrays: equal but for the order of the floating bodies' sums,
// which the device's atomics may change from run to run (a float's round-off, grown over 30
// steps; double precision is ~1e9 tighter).
TEST_P(CheckpointGpu, ResumedRunMatchesTheStraightRun) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const bool dbl = GetParam() == Precision::Double;
  const test::ResumedRun r = test::runStraightAndResumed(floatingCase(), gpuOptions(GetParam()), 12, 25, 40,
                                                         test::tempDir(dbl ? "checkpoint_gpu_d" : "checkpoint_gpu_s"));
  const test::StateDifferences d = test::compareById(r.straight, r.resumed);
  std::printf("resumed vs straight: position %.3g m, velocity %.3g m/s, density %.3g kg/m3\n", d.pos, d.vel, d.rho);
  EXPECT_LT(d.pos, dbl ? 1e-12 : 1e-6);
  EXPECT_LT(d.vel, dbl ? 1e-10 : 1e-4);
  EXPECT_LT(d.rho, dbl ? 1e-9 : 1e-2);
  EXPECT_EQ(test::resultFiles(r.straightDir), test::resultFiles(r.resumedDir));
}

// A checkpoint written on the GPU resumes on the CPU (the arrays are the same in both), and ends
// within the GPU-versus-CPU differences of test_gpu_vs_cpu.cpp.
TEST_P(CheckpointGpu, GpuCheckpointResumesOnTheCpu) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const bool dbl = GetParam() == Precision::Double;
  const CaseDefinition c = floatingCase();
  const auto dir = test::tempDir(dbl ? "checkpoint_gpu_cpu_d" : "checkpoint_gpu_cpu_s");
  RunOptions o = gpuOptions(GetParam());
  o.outDir = (dir / "gpu").string();
  o.maxSteps = 15;
  Simulation(c, o).run();
  o.device = Device::Cpu;
  o.resume = true;
  o.maxSteps = 30;
  Simulation resumed(c, o);
  EXPECT_EQ(resumed.steps(), 15u);
  resumed.run();
  RunOptions straight = gpuOptions(GetParam());
  straight.outDir = (dir / "straight").string();
  straight.maxSteps = 30;
  Simulation s(c, straight);
  s.run();
  const test::StateDifferences d = test::compareById(s.snapshot(), resumed.snapshot());
  std::printf("GPU straight vs GPU then CPU: position %.3g m, velocity %.3g m/s, density %.3g kg/m3\n", d.pos, d.vel,
              d.rho);
  EXPECT_LT(d.pos, dbl ? 1e-10 : 2e-5);
  EXPECT_LT(d.vel, dbl ? 1e-8 : 2e-3);
  EXPECT_LT(d.rho, dbl ? 1e-7 : 5e-2);
}

INSTANTIATE_TEST_SUITE_P(Precisions, CheckpointGpu, ::testing::Values(Precision::Single, Precision::Double),
                         [](const auto& info) { return std::string(precisionName(info.param)); });

}  // namespace
}  // namespace sph
