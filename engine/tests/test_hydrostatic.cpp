// A 2D tank of water at rest must stay at rest with the hydrostatic pressure profile
// (DualSPHysics' DBC walls, Wendland kernel, Fourtakas density diffusion, both integrators).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sph/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kDp = 0.02;     // 25 x 25 fluid particles: the whole test runs in seconds on 2 cores
constexpr double kDepth = 0.5;   // water depth (m)
constexpr double kWidth = 0.5;
constexpr double kG = 9.81;

std::string tankCase(int stepAlgorithm) {
  return test::caseXml(R"(<definition dp="0.02"><pointmin x="-0.1" y="0" z="-0.1" /><pointmax x="1" y="0" z="1" /></definition>)",
                       R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="0.5" y="2" z="0.5" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right</boxfill><point x="0" y="-1" z="0" /><size x="0.5" y="2" z="0.8" /></drawbox>)",
                       R"(<parameter key="StepAlgorithm" value=")" + std::to_string(stepAlgorithm) + R"(" />
<parameter key="VerletSteps" value="40" />
<parameter key="Kernel" value="2" />
<parameter key="ViscoTreatment" value="1" />
<parameter key="Visco" value="0.02" />
<parameter key="DensityDT" value="2" />
<parameter key="DensityDTvalue" value="0.1" />
<parameter key="TimeMax" value="0.5" />
<parameter key="TimeOut" value="0.5" />
<simulationdomain><posmin x="default" y="default" z="default" /><posmax x="default" y="default" z="default + 50%" /></simulationdomain>)");
}

class Hydrostatic : public ::testing::TestWithParam<int> {};

TEST_P(Hydrostatic, TankAtRestKeepsHydrostaticPressure) {
  const auto dir = test::tempDir("hydrostatic" + std::to_string(GetParam()));
  const CaseDefinition c = loadCase(test::writeFile(dir / "Tank_Def.xml", tankCase(GetParam())));
  RunOptions o;
  o.device = Device::Cpu;
  o.writeOutput = false;
  o.progress = false;
  Simulation sim(c, o);
  while (!sim.finished()) sim.step();
  const ParticleSnapshot s = sim.snapshot();
  ASSERT_EQ(s.count(), c.positions.size()) << "no particle may be excluded from a tank at rest";

  // The free surface is half a particle spacing above the top particle row.
  double top = 0;
  for (size_t i = 0; i < s.count(); ++i)
    if (s.type[i] == 1) top = std::max(top, c.positions[i].z);
  const double surface = top + 0.5 * kDp;
  ASSERT_NEAR(surface, kDepth, 0.6 * kDp);

  // At rest: the largest fluid speed is a small fraction of the dam-break speed sqrt(g H)
  // (weakly compressible SPH keeps acoustic noise of order a few percent of it).
  double vmax = 0;
  for (size_t i = 0; i < s.count(); ++i)
    if (s.type[i] == 1)
      vmax = std::max(vmax, std::sqrt(double(s.vel[3 * i]) * s.vel[3 * i] + double(s.vel[3 * i + 2]) * s.vel[3 * i + 2]));
  EXPECT_LT(vmax, 0.03 * std::sqrt(kG * kDepth));

  // Pressure profile, averaged over horizontal layers away from the side walls (3h) and
  // below the surface layer: within 5% of rho0 g (H - z). The top layers are skipped because
  // the kernel is truncated at the free surface, which lowers their density by design.
  const double h = sim.parameters().h;
  const int layers = int(kDepth / kDp);
  std::vector<double> sum(layers, 0), count(layers, 0);
  for (size_t i = 0; i < s.count(); ++i) {
    if (s.type[i] != 1) continue;
    const double x = s.pos[3 * i], z = s.pos[3 * i + 2];
    if (x < 3 * h || x > kWidth - 3 * h) continue;
    const int k = std::clamp(int(z / kDp), 0, layers - 1);
    sum[k] += s.press[i];
    count[k] += 1;
  }
  int checked = 0;
  for (int k = 0; k < layers; ++k) {
    const double z = (k + 0.5) * kDp;
    if (count[k] == 0 || surface - z < 3 * h) continue;
    const double expected = 1000 * kG * (surface - z);
    EXPECT_NEAR(sum[k] / count[k], expected, 0.05 * expected) << "layer at z=" << z;
    ++checked;
  }
  EXPECT_GE(checked, layers / 2);
}

INSTANTIATE_TEST_SUITE_P(Integrators, Hydrostatic, ::testing::Values(1, 2),
                         [](const auto& info) { return info.param == 1 ? "Verlet" : "Symplectic"; });

}  // namespace
}  // namespace sph
