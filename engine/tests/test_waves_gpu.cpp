// A wave flume in miniature on the GPU and on the CPU: a piston wave paddle (second order, with
// ramp) at one end and a damping zone at the other give the same particles after 200 steps, for
// both neighbour plugins (matched by id). Skips without a usable GPU.
#include <gtest/gtest.h>

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
};

class WaveFlumeGpuVsCpu : public ::testing::TestWithParam<FlumeSetup> {};

TEST_P(WaveFlumeGpuVsCpu, SameStateAfter200Steps) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const FlumeSetup s = GetParam();
  test::PistonTank t;
  t.motion = R"(<objreal ref="1"><begin mov="1" start="0" /><mvnull id="1" /></objreal>)";
  t.special = R"(<wavepaddles><piston><mkbound value="1" /><waveorder value="2" /><depth value="0.2" />
<waveheight value="0.03" /><waveperiod value="0.4" /><ramp value="0.1" /></piston></wavepaddles>
<damping><dampingzone><limitmin x="0.35" y="0" z="0" /><limitmax x="0.55" y="0" z="0" />
<overlimit value="0.1" /><redumax value="200" /></dampingzone></damping>)";
  const CaseDefinition c = loadCase(test::writeFile(test::tempDir("waves_gpu") / "Flume_Def.xml", test::pistonTankXml(t)));
  RunOptions o;
  o.neighbours = s.neighbours;
  o.precision = s.precision;
  // The paddle's motion is computed once on the host and the damping is the same formula on both.
  test::expectGpuMatchesCpu(c, o, 200, std::string(s.neighbours) + " " + precisionName(s.precision));
}

INSTANTIATE_TEST_SUITE_P(Waves, WaveFlumeGpuVsCpu,
                         ::testing::Values(FlumeSetup{"cell", Precision::Double}, FlumeSetup{"cell", Precision::Single},
                                           FlumeSetup{"verlet", Precision::Double}, FlumeSetup{"verlet", Precision::Single}),
                         [](const auto& info) {
                           return std::string(info.param.neighbours) + "_" + precisionName(info.param.precision);
                         });

}  // namespace
}  // namespace sph
