// The same case on the GPU and on the CPU gives the same particles after N steps (matched by
// id, since the two sort differently). Skips without a usable GPU; run on the GPU machine
// whenever CUDA code changes.
#include <gtest/gtest.h>

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

std::string smallDamBreak3D() {
  return test::smallDamBreak3D(0.02, R"(<parameter key="StepAlgorithm" value="2" /><parameter key="Kernel" value="2" />
<parameter key="Visco" value="0.1" /><parameter key="DensityDT" value="2" />
<parameter key="TimeMax" value="1" /><parameter key="TimeOut" value="1" />
<simulationdomain><posmin x="default" y="default" z="default" /><posmax x="default" y="default" z="default + 50%" /></simulationdomain>)");
}

ParticleSnapshot runSteps(const CaseDefinition& c, Device d, Precision p, int steps) {
  RunOptions o;
  o.device = d;
  o.precision = p;
  return test::runSteps(c, o, steps);
}

class GpuVsCpu : public ::testing::TestWithParam<Precision> {};

TEST_P(GpuVsCpu, SameStateAfterSteps) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const auto dir = test::tempDir("gpu_vs_cpu");
  const CaseDefinition c = loadCase(test::writeFile(dir / "Small_Def.xml", smallDamBreak3D()));
  const int steps = 100;
  const ParticleSnapshot g = runSteps(c, Device::Gpu, GetParam(), steps);
  const ParticleSnapshot h = runSteps(c, Device::Cpu, GetParam(), steps);
  ASSERT_EQ(g.count(), h.count());
  // The two differ only in the order of the neighbour sums: float round-off (~1e-7 relative)
  // grown over 100 steps of a flow that is still smooth; double precision is ~1e9 tighter.
  const double tolPos = GetParam() == Precision::Double ? 1e-10 : 2e-5;    // metres
  const double tolVel = GetParam() == Precision::Double ? 1e-8 : 2e-3;     // m/s
  const double tolRho = GetParam() == Precision::Double ? 1e-7 : 5e-2;     // kg/m^3
  const test::StateDifferences diff = test::compareById(g, h);
  const double dPos = diff.pos, dVel = diff.vel, dRho = diff.rho;
  std::printf("max differences: position %.3g m, velocity %.3g m/s, density %.3g kg/m3\n", dPos, dVel, dRho);
  EXPECT_LT(dPos, tolPos);
  EXPECT_LT(dVel, tolVel);
  EXPECT_LT(dRho, tolRho);
}

// Exclusion on the device (flags, CUB partition, compaction) drops the same particles as the
// CPU path: water without a floor, its lowest layer on the domain's lower edge, leaks out of
// the domain from the first steps. Double precision, so both see the same positions.
TEST(GpuVsCpuExclusion, SameParticlesExcluded) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const auto dir = test::tempDir("gpu_vs_cpu_exclusion");
  const std::string xml = test::caseXml(
      R"(<definition dp="0.02"><pointmin x="-0.1" y="-0.1" z="-0.1" /><pointmax x="1" y="1" z="1" /></definition>)",
      R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="0.2" y="0.2" z="0.2" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>left | right</boxfill><point x="-0.02" y="0" z="0" /><size x="0.24" y="0.2" z="0.4" /></drawbox>)",
      R"(<parameter key="StepAlgorithm" value="1" /><parameter key="PartsOutMax" value="1" />
<parameter key="TimeMax" value="1" /><parameter key="TimeOut" value="1" />)");
  const CaseDefinition c = loadCase(test::writeFile(dir / "Leak_Def.xml", xml));
  const int steps = 300;
  const ParticleSnapshot g = runSteps(c, Device::Gpu, Precision::Double, steps);
  const ParticleSnapshot h = runSteps(c, Device::Cpu, Precision::Double, steps);
  std::printf("%zu of %zu particles left on the GPU, %zu on the CPU\n", g.count(), c.positions.size(), h.count());
  ASSERT_LT(h.count(), c.positions.size()) << "the case must exclude particles to test anything";
  ASSERT_EQ(g.count(), h.count());
  std::vector<uint32_t> gi(g.id), hi(h.id);
  std::sort(gi.begin(), gi.end());
  std::sort(hi.begin(), hi.end());
  EXPECT_EQ(gi, hi);
}

INSTANTIATE_TEST_SUITE_P(Precisions, GpuVsCpu, ::testing::Values(Precision::Single, Precision::Double),
                         [](const auto& info) { return info.param == Precision::Double ? "Double" : "Single"; });

}  // namespace
}  // namespace sph
