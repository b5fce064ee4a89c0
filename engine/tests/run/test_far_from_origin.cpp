// A case far from the origin in single precision (physics/position_split.h): a block of water drifting
// at 2 mm/s, 1 km along x. Each step moves it by 5.7e-7 m, below half the float spacing there
// (3.1e-5 m): with float positions alone it would not move at all. Both precisions must give the
// drift v t, and give each other's positions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "case/loader.h"
#include "model/case_model.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kFar = 1000.0;
constexpr double kDrift = 0.002;  // m/s

// No gravity and a uniform velocity: no pair sees a velocity difference or a density other than
// rho0, so every fluid particle keeps kDrift and moves by exactly kDrift t. The wall lies 0.5 m
// below the water, out of its reach; c0 is given since no gravity leaves nothing to derive it from.
std::string driftingBlock(int algorithm, double far = kFar) {
  const std::string x0 = std::to_string(far);
  return R"(<?xml version="1.0" ?>
<case>
<casedef>
<constantsdef>
<gravity x="0" y="0" z="0" /><rhop0 value="1000" /><gamma value="7" />
<speedsystem value="1" auto="false" /><coefsound value="10" /><speedsound value="10" auto="false" />
<coefh value="1.0" /><cflnumber value="0.2" />
</constantsdef>
<mkconfig boundcount="240" fluidcount="9" />
<geometry>
<definition dp="0.01"><pointmin x=")" + x0 + R"(" y="0" z="-1" /><pointmax x=")" + std::to_string(far + 1) +
         R"(" y="0" z="1" /></definition>
<commands><mainlist>
<setdrawmode mode="full" />
<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x=")" + std::to_string(far + 0.2) + R"(" y="-1" z="0" /><size x="0.2" y="2" z="0.2" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>solid</boxfill><point x=")" + std::to_string(far + 0.2) + R"(" y="-1" z="-0.55" /><size x="0.2" y="2" z="0.04" /></drawbox>
</mainlist></commands>
</geometry>
<initials><velocity mkfluid="0" x="0.002" y="0" z="0" /></initials>
</casedef>
<execution><parameters>
<parameter key="StepAlgorithm" value=")" + std::to_string(algorithm) + R"(" />
<parameter key="TimeMax" value="1" />
</parameters></execution>
</case>
)";
}

// Mean x displacement of the fluid after `steps` steps, and the time reached.
struct Drift {
  double dx = 0, t = 0;
  ParticleSnapshot end;
};

Drift runBlock(int algorithm, Device device, Precision precision, int steps) {
  const std::string xml = driftingBlock(algorithm);
  const auto dir = test::tempDir("far_from_origin");
  const CaseDefinition c = loadCase(test::writeFile(dir / "Drift_Def.xml", xml));
  RunOptions o;
  o.device = device;
  o.precision = precision;
  o.writeOutput = false;
  o.progress = false;
  Simulation sim(c, o);
  const ParticleSnapshot start = sim.snapshot();
  for (int s = 0; s < steps; ++s) sim.step();
  Drift d;
  d.end = sim.snapshot();
  d.t = sim.time();
  std::map<uint32_t, double> x0;  // by id: the strategies reorder the particles
  for (size_t i = 0; i < start.count(); ++i) x0[start.id[i]] = start.pos[3 * i];
  double sum = 0;
  int n = 0;
  for (size_t i = 0; i < d.end.count(); ++i) {
    if (d.end.type[i] != 1) continue;
    sum += d.end.pos[3 * i] - x0.at(d.end.id[i]);
    ++n;
  }
  d.dx = sum / n;
  return d;
}

// The integrator (StepAlgorithm 1 or 2) and the device.
class FarFromOrigin : public ::testing::TestWithParam<std::tuple<int, Device>> {};

TEST_P(FarFromOrigin, SlowDriftIsKeptInSinglePrecision) {
  const auto [algorithm, device] = GetParam();
  if (device == Device::Gpu && !gpu::available())
    GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  constexpr int kSteps = 100;
  const Drift single = runBlock(algorithm, device, Precision::Single, kSteps);
  const Drift twin = runBlock(algorithm, device, Precision::Double, kSteps);
  // Each step moves the water by ~5.7e-7 m; 100 steps by 5.7e-5 m.
  ASSERT_GT(single.t, 0.02);
  // The initial velocity is a float in both precisions (GenCase's), float(0.002) 4.7e-8 off, and
  // in single precision each step's dt is rounded to a float, 6e-8 at most: 1e-7 and 1e-6 of the
  // drift. Float positions alone drift 0.
  EXPECT_NEAR(single.dx, kDrift * single.t, 1e-6 * kDrift * single.t);
  EXPECT_NEAR(twin.dx, kDrift * twin.t, 1e-7 * kDrift * twin.t);
  // Particle by particle, the two precisions agree to those roundings (1e-6 of 5.7e-5 m) and the
  // single-precision position's 48 bits at 1 km (2e-12 m).
  ASSERT_EQ(single.end.count(), twin.end.count());
  std::map<uint32_t, size_t> rowOf;
  for (size_t i = 0; i < twin.end.count(); ++i) rowOf[twin.end.id[i]] = i;
  double worst = 0;
  for (size_t i = 0; i < single.end.count(); ++i) {
    const size_t j = rowOf.at(single.end.id[i]);
    for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(single.end.pos[3 * i + k] - twin.end.pos[3 * j + k]));
  }
  EXPECT_LT(worst, 1e-10);
}

INSTANTIATE_TEST_SUITE_P(IntegratorsAndDevices, FarFromOrigin,
                         ::testing::Combine(::testing::Values(1, 2), ::testing::Values(Device::Cpu, Device::Gpu)),
                         [](const ::testing::TestParamInfo<std::tuple<int, Device>>& i) {
                           return std::string(std::get<0>(i.param) == 1 ? "Verlet" : "Symplectic") +
                                  (std::get<1>(i.param) == Device::Gpu ? "Gpu" : "Cpu");
                         });

bool warnsOfFloatPositions(const Simulation& sim) {
  const auto& w = sim.parameters().warnings;
  return std::any_of(w.begin(), w.end(), [](const std::string& s) { return s.find("positions as floats") != std::string::npos; });
}

TEST(FarFromOrigin, RunsWhosePairsAreReadCoarselyAreWarned) {
  // run/float_positions.h: at 1 km floats are 6.1e-5 m apart, 0.6% of dp; at 20 km 2e-3 m, 20%.
  RunOptions o;
  o.device = Device::Cpu;
  o.writeOutput = false;
  o.progress = false;
  const auto dir = test::tempDir("far_from_origin_warning");
  const CaseDefinition nearCase = loadCase(test::writeFile(dir / "Near_Def.xml", driftingBlock(1)));
  const CaseDefinition farCase = loadCase(test::writeFile(dir / "Far_Def.xml", driftingBlock(1, 20000)));
  EXPECT_FALSE(warnsOfFloatPositions(Simulation(nearCase, o)));
  EXPECT_TRUE(warnsOfFloatPositions(Simulation(farCase, o)));
  o.precision = Precision::Double;
  EXPECT_FALSE(warnsOfFloatPositions(Simulation(farCase, o)));
}

}  // namespace
}  // namespace sph
