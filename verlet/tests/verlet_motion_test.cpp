// Verlet lists with moving boundaries. The rebuild rule (max displacement since the build
// against dh/2, with dh sized from the fastest particle) covers every particle, boundary ones
// included: a block that moves while the water is still at rest must trigger rebuilds, and the
// run must agree with the cell search, which re-sorts every pass and so can miss nothing.
#include <gtest/gtest.h>

#include "case/loader.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_motion_cases.h"
#include "test_snapshot_compare.h"
#include "test_support.h"

namespace sph {
namespace {

// Water at rest in the tank (the piston stays put) and a block of boundary particles (mkbound
// 2, 0.1 m wide, 3 layers) 0.06 m above it, just beyond the list radius (2h = 0.057 m), driven
// down at 1 m/s (mvrect) or waiting. The water barely moves, so only the block's own
// displacement can tell the lists to take in the water it approaches.
CaseDefinition blockCase(bool moving) {
  test::PistonTank t;
  t.stepAlgorithm = 2;
  t.commands = R"(<setmkbound mk="2" />
<drawbox><boxfill>solid</boxfill><point x="0.2" y="-1" z="0.26" /><size x="0.1" y="2" z="0.04" /></drawbox>)";
  t.motion = moving ? R"(<objreal ref="2"><begin mov="1" start="0" />
<mvrect id="1" duration="10"><vel x="0" y="0" z="-1" /></mvrect></objreal>)"
                    : R"(<objreal ref="2"><begin mov="1" start="0" /><wait id="1" duration="10" /></objreal>)";
  const auto dir = test::tempDir(moving ? "verlet_motion_moving" : "verlet_motion_still");
  return loadCase(test::writeFile(dir / "Block_Def.xml", test::pistonTankXml(t)));
}

// The piston of test_motion_run.cpp: mvrectsinu (2 Hz, 0.02 m) against the water.
CaseDefinition pistonCase() {
  test::PistonTank t;
  t.motion = R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrectsinu id="1" duration="10">
  <freq x="2" y="0" z="0" /><ampl x="0.02" y="0" z="0" /><phase x="0" y="0" z="0" /></mvrectsinu>
</objreal>)";
  return loadCase(test::writeFile(test::tempDir("verlet_motion_piston") / "Piston_Def.xml", test::pistonTankXml(t)));
}

struct Outcome {
  ParticleSnapshot state;
  double rebuilds = 0;
};

Outcome run(const CaseDefinition& c, const std::string& neighbours, Device d, Precision p, int steps) {
  RunOptions o;
  o.neighbours = neighbours;
  o.device = d;
  o.precision = p;
  o.maxSteps = steps;
  // C = 8 (the 3D default) rather than the 2D default of 20: with lists that short-lived, the
  // 200 steps hold enough rebuilds for the moving/still comparison below to be sharp.
  o.strategyOptions["VerletListSteps"] = "8";
  const test::FinishedRun r = test::runQuietly(c, o);
  Outcome out;
  out.state = r.state;
  if (neighbours == "verlet") out.rebuilds = r.report.strategyStats.at("rebuilds");
  return out;
}

struct MotionSetup {
  Device device;
  Precision precision;
};

class VerletMovingBoundary : public ::testing::TestWithParam<MotionSetup> {};

// 200 steps (about 0.04 s: the block comes within 2h of the water after ~3 ms and ends one dp
// above it). The two runs sum the same pairs in another order. Double precision: ~1e-16 per
// operation (measured 2e-16 m); a rule blind to boundary displacement misses block-water pairs
// and differs by ~3e-6 m (checked by breaking the rule on purpose), so 1e-10 m separates the
// two by four orders. Single precision on the CPU: measured 1.2e-7 m, 6.5e-6 m/s, 3.7e-4 kg/m3,
// against 2.9e-6 m, 2e-4 m/s, 1.5e-2 kg/m3 for the blind rule: bounds 8x above the measured
// round-off. On the GPU (fast-math kernels) the looser bounds of
// verlet_run_test.cpp. The piston of test_motion_run.cpp, pushing the water from the start,
// is held to the same bounds.
TEST_P(VerletMovingBoundary, SameAsCellSearchFor200Steps) {
  const MotionSetup s = GetParam();
  if (s.device == Device::Gpu && !gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  const int steps = 200;
  const bool dbl = s.precision == Precision::Double, gpu = s.device == Device::Gpu;
  Outcome moving;
  for (const CaseDefinition& c : {pistonCase(), blockCase(true)}) {
    const Outcome cell = run(c, "cell", s.device, s.precision, steps);
    const Outcome verlet = run(c, "verlet", s.device, s.precision, steps);
    const test::StateDifferences d = test::compareById(verlet.state, cell.state);
    std::printf("%s %s %s: max differences %.3g m, %.3g m/s, %.3g kg/m3; %g rebuilds\n", c.name.c_str(),
                deviceName(s.device), precisionName(s.precision), d.pos, d.vel, d.rho, verlet.rebuilds);
    EXPECT_LT(d.pos, dbl ? 1e-10 : (gpu ? 2e-5 : 1e-6));
    EXPECT_LT(d.vel, dbl ? 1e-8 : (gpu ? 2e-3 : 5e-5));
    EXPECT_LT(d.rho, dbl ? 1e-6 : (gpu ? 5e-2 : 3e-3));
    moving = verlet;
  }

  // The block's displacement drives the rebuilds: the same tank with the block waiting (water
  // at rest) needs far fewer. (Not a sharp test on its own: once the block disturbs the water,
  // the water's displacement triggers rebuilds too.)
  const Outcome still = run(blockCase(false), "verlet", s.device, s.precision, steps);
  std::printf("rebuilds: %g with the block moving, %g with it still\n", moving.rebuilds, still.rebuilds);
  EXPECT_GT(moving.rebuilds, 2 * still.rebuilds + 2);
}

INSTANTIATE_TEST_SUITE_P(Motion, VerletMovingBoundary,
                         ::testing::Values(MotionSetup{Device::Cpu, Precision::Double}, MotionSetup{Device::Cpu, Precision::Single},
                                           MotionSetup{Device::Gpu, Precision::Double}, MotionSetup{Device::Gpu, Precision::Single}),
                         [](const auto& info) {
                           return std::string(deviceName(info.param.device)) + "_" +
                                  precisionName(info.param.precision);
                         });

}  // namespace
}  // namespace sph
