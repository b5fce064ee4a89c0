// A wave flume in miniature on the GPU and on the CPU: a piston wave paddle (second order, with
// ramp, regular or irregular waves, absorbing or not, with or without the absorption's drift
// correction) at one end and a damping zone at the other give the same particles
// after 300 steps, for both neighbour plugins (matched by id). Skips without a usable GPU.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_motion_cases.h"
#include "test_snapshot_compare.h"
#include "test_support.h"

namespace sph {
namespace {

struct FlumeSetup {
  const char* neighbours;
  Precision precision;
  bool absorbs = false;    // active absorption (<awas_zsurf>) from after the ramp
  bool irregular = false;  // a <piston_spectrum> of 20 waves instead of regular waves
  // Absorbing regular waves with the drift correction: its swl 15 cm below the water's asks for
  // about 1.2 m/s of absorption, uncapped, which takes the piston past S/2 within the 300 steps.
  bool drift = false;
};

std::string setupName(const FlumeSetup& s) {
  return std::string(s.neighbours) + "_" + precisionName(s.precision) + (s.absorbs ? "_awas" : "") +
         (s.irregular ? "_irregular" : "") + (s.drift ? "_drift" : "");
}

CaseDefinition flumeCase(const FlumeSetup& s) {
  test::PistonTank t;
  t.motion = R"(<objreal ref="1"><begin mov="1" start="0" /><mvnull id="1" /></objreal>)";
  const std::string awas =
      s.drift ? R"(<awas_zsurf><startawas value="0.045" /><swl value="0.05" /><limitace value="0" /><savedata value="3" />
<gaugex valueh="3" /><gaugezmin value="0.05" /><gaugezmax value="0.35" />
<correction coefstroke="1" coefperiod="0.25" powerfunc="2" /></awas_zsurf>)"
      : s.absorbs ? R"(<awas_zsurf><startawas value="0.045" /><swl value="0.2" />
<gaugex valueh="3" /><gaugezmin value="0.05" /><gaugezmax value="0.35" /></awas_zsurf>)"
                  : "";
  const std::string paddle =
      s.irregular ? R"(<piston_spectrum><mkbound value="1" /><waveorder value="2" /><depth value="0.2" />
<waveheight value="0.03" /><waveperiod value="0.4" /><waves value="20" /><randomseed value="5" />
<ramptime value="0.04" />)" + awas + "</piston_spectrum>"
                  : R"(<piston><mkbound value="1" /><waveorder value="2" /><depth value="0.2" />
<waveheight value="0.03" /><waveperiod value="0.4" /><ramp value="0.1" />)" + awas + "</piston>";
  t.special = "<wavepaddles>" + paddle + R"(</wavepaddles>
<damping><dampingzone><limitmin x="0.35" y="0" z="0" /><limitmax x="0.55" y="0" z="0" />
<overlimit value="0.1" /><redumax value="200" /></dampingzone></damping>)";
  return loadCase(test::writeFile(test::tempDir("waves_gpu") / (setupName(s) + "_Def.xml"), test::pistonTankXml(t)));
}

class WaveFlumeGpuVsCpu : public ::testing::TestWithParam<FlumeSetup> {};

TEST_P(WaveFlumeGpuVsCpu, SameStateAfter300Steps) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const FlumeSetup s = GetParam();
  const CaseDefinition c = flumeCase(s);
  RunOptions o;
  o.neighbours = s.neighbours;
  o.precision = s.precision;
  // The paddle's motion is computed once on the host and the damping is the same formula on both;
  // an absorbing piston's gauge sums in another order on each (gauges/device_gauges.h), a difference
  // that sqrt(g/d) dt turns into round-off of the piston's position.
  test::expectGpuMatchesCpu(c, o, 300, setupName(s));
}

// The drift variant does correct within its 300 steps (on the CPU, its awas.csv).
TEST(WaveFlumeDrift, CorrectsWithinThe300Steps) {
  const FlumeSetup s{"cell", Precision::Single, true, false, true};
  RunOptions o;
  o.device = Device::Cpu;
  o.neighbours = s.neighbours;
  o.maxSteps = 300;
  o.progress = false;
  o.writeVtk = false;
  o.outDir = (test::tempDir("waves_gpu_drift") / "run").string();
  Simulation sim(flumeCase(s), o);
  sim.run();
  int drifting = 0;
  for (const auto& r : test::readFixtureRows((std::filesystem::path(o.outDir) / "awas.csv").string(), 13))
    drifting += r[12] != 0;
  EXPECT_GT(drifting, 20);
}

INSTANTIATE_TEST_SUITE_P(Waves, WaveFlumeGpuVsCpu,
                         ::testing::Values(FlumeSetup{"cell", Precision::Double}, FlumeSetup{"cell", Precision::Single},
                                           FlumeSetup{"verlet", Precision::Double}, FlumeSetup{"verlet", Precision::Single},
                                           FlumeSetup{"cell", Precision::Single, true},
                                           FlumeSetup{"verlet", Precision::Double, true},
                                           FlumeSetup{"cell", Precision::Double, true, true},
                                           FlumeSetup{"verlet", Precision::Single, true, true},
                                           FlumeSetup{"cell", Precision::Double, true, false, true},
                                           FlumeSetup{"verlet", Precision::Single, true, false, true}),
                         [](const auto& info) { return setupName(info.param); });

}  // namespace
}  // namespace sph
