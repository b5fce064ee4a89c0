// A wave flume in miniature on the GPU and on the CPU: a piston wave paddle (second order, with
// ramp, regular or irregular waves, absorbing or not) at one end and a damping zone at the other give the same particles
// after 300 steps, for both neighbour plugins (matched by id). Skips without a usable GPU.
#include <gtest/gtest.h>

#include <string>

#include "sph/gpu_runtime.h"
#include "sph/simulation.h"
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
};

class WaveFlumeGpuVsCpu : public ::testing::TestWithParam<FlumeSetup> {};

TEST_P(WaveFlumeGpuVsCpu, SameStateAfter300Steps) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const FlumeSetup s = GetParam();
  test::PistonTank t;
  t.motion = R"(<objreal ref="1"><begin mov="1" start="0" /><mvnull id="1" /></objreal>)";
  const std::string awas = s.absorbs ? R"(<awas_zsurf><startawas value="0.045" /><swl value="0.2" />
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
  const CaseDefinition c = loadCase(test::writeFile(test::tempDir("waves_gpu") / "Flume_Def.xml", test::pistonTankXml(t)));
  RunOptions o;
  o.neighbours = s.neighbours;
  o.precision = s.precision;
  // The paddle's motion is computed once on the host and the damping is the same formula on both;
  // an absorbing piston's gauge sums in another order on each (device_gauges.h), a difference
  // that sqrt(g/d) dt turns into round-off of the piston's position.
  test::expectGpuMatchesCpu(c, o, 300,
                            std::string(s.neighbours) + " " + precisionName(s.precision) + (s.absorbs ? " awas" : "") +
                                (s.irregular ? " irregular" : ""));
}

INSTANTIATE_TEST_SUITE_P(Waves, WaveFlumeGpuVsCpu,
                         ::testing::Values(FlumeSetup{"cell", Precision::Double}, FlumeSetup{"cell", Precision::Single},
                                           FlumeSetup{"verlet", Precision::Double}, FlumeSetup{"verlet", Precision::Single},
                                           FlumeSetup{"cell", Precision::Single, true},
                                           FlumeSetup{"verlet", Precision::Double, true},
                                           FlumeSetup{"cell", Precision::Double, true, true},
                                           FlumeSetup{"verlet", Precision::Single, true, true}),
                         [](const auto& info) {
                           return std::string(info.param.neighbours) + "_" + precisionName(info.param.precision) +
                                  (info.param.absorbs ? "_awas" : "") + (info.param.irregular ? "_irregular" : "");
                         });

}  // namespace
}  // namespace sph
