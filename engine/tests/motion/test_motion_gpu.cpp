// The moving-piston tank on the GPU and on the CPU gives the same particles after 200 steps, for
// both neighbour plugins (matched by id). Skips without a usable GPU.
#include <gtest/gtest.h>

#include "case/loader.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_motion_cases.h"
#include "test_snapshot_compare.h"
#include "test_support.h"

namespace sph {
namespace {

struct MotionSetup {
  const char* neighbours;
  Precision precision;
};

class MotionGpuVsCpu : public ::testing::TestWithParam<MotionSetup> {};

TEST_P(MotionGpuVsCpu, SameStateAfter200Steps) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const MotionSetup s = GetParam();
  test::PistonTank t;
  t.motion = R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrectsinu id="1" duration="10">
  <freq x="2" y="0" z="0" /><ampl x="0.02" y="0" z="0" /><phase x="0" y="0" z="0" /></mvrectsinu>
</objreal>)";
  const CaseDefinition c = loadCase(test::writeFile(test::tempDir("motion_gpu") / "Piston_Def.xml", test::pistonTankXml(t)));
  RunOptions o;
  o.neighbours = s.neighbours;
  o.precision = s.precision;
  test::expectGpuMatchesCpu(c, o, 200, std::string(s.neighbours) + " " + precisionName(s.precision));
}

INSTANTIATE_TEST_SUITE_P(Motion, MotionGpuVsCpu,
                         ::testing::Values(MotionSetup{"cell", Precision::Double}, MotionSetup{"cell", Precision::Single},
                                           MotionSetup{"verlet", Precision::Double}, MotionSetup{"verlet", Precision::Single}),
                         [](const auto& info) {
                           return std::string(info.param.neighbours) + "_" + precisionName(info.param.precision);
                         });

}  // namespace
}  // namespace sph
