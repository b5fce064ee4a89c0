// Imposed motion in whole runs (CPU): a 2D tank whose piston (mkbound 1) moves by mvrectsinu.
// After N steps the piston's particles sit where the law puts them (to the round-off of N
// additions in the run's precision) and move at the law's mean velocity over the last step; the
// tank's other boundary particles have not moved; the water in front of the piston is pushed.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "case/loader.h"
#include "physics/integrator_physics.h"
#include "run/simulation.h"
#include "test_motion_cases.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kA = 0.02, kF = 2.0;  // piston amplitude (m) and frequency (Hz), phase 0
constexpr int kSteps = 300;
constexpr int kPistonMk = 11, kTankMk = 10;  // mkbound 1 and 0 with fluidcount 9

double pistonLaw(double t) { return kA * std::sin(2 * std::numbers::pi * kF * t); }

CaseDefinition pistonCase(int stepAlgorithm) {
  test::PistonTank t;
  t.stepAlgorithm = stepAlgorithm;
  t.motion = R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrectsinu id="1" duration="10">
  <freq x="2" y="0" z="0" /><ampl x="0.02" y="0" z="0" /><phase x="0" y="0" z="0" /></mvrectsinu>
</objreal>)";
  return loadCase(test::writeFile(test::tempDir("motion_run") / "Piston_Def.xml", test::pistonTankXml(t)));
}

struct RunSetup {
  int stepAlgorithm;
  Precision precision;
};

class MovingPiston : public ::testing::TestWithParam<RunSetup> {};

TEST_P(MovingPiston, BoundaryFollowsTheLawAndPushesTheWater) {
  const RunSetup s = GetParam();
  const CaseDefinition c = pistonCase(s.stepAlgorithm);
  RunOptions o;
  o.device = Device::Cpu;
  o.precision = s.precision;
  o.writeOutput = false;
  o.progress = false;
  Simulation sim(c, o);
  for (int k = 0; k < kSteps; ++k) sim.step();
  const double t = sim.time(), dt = sim.lastDt();
  const ParticleSnapshot p = sim.snapshot();

  const bool dbl = s.precision == Precision::Double;
  // Each step adds the displacement to the stored coordinate in double and rounds once to what
  // the run keeps: a double, or in single precision a float and its float remainder
  // (physics/position_split.h), within 2^-48 |x|. |x| < 0.07 m here: half a unit per step.
  const double unit = (dbl ? std::numeric_limits<double>::epsilon() : std::ldexp(1.0, -47)) * 0.07;
  const double tolPos = (kSteps + 1) * unit;
  // What the run keeps of a coordinate it never moved: the case's double, to 2^-48 |v| in single.
  auto stored = [&](double kept, double v) {
    return dbl ? kept == v : std::abs(kept - v) <= std::ldexp(std::abs(v), -48);
  };
  const double law = pistonLaw(t), vLaw = (pistonLaw(t) - pistonLaw(t - dt)) / dt;
  int piston = 0, tank = 0;
  double pistonFront = -1e9, minFluidX = 1e9, nearSum = 0;
  int near = 0;
  for (size_t i = 0; i < p.count(); ++i) {
    const Vec3d& x0 = c.positions[p.id[i]];
    const double x = p.pos[3 * i], z = p.pos[3 * i + 2];
    if (p.mk[i] == kPistonMk) {
      ++piston;
      ASSERT_NEAR(x, x0.x + law, tolPos) << "piston particle " << p.id[i];
      ASSERT_TRUE(stored(z, x0.z)) << z << " " << x0.z;
      // The imposed velocity, rounded once to float in the snapshot.
      ASSERT_NEAR(p.vel[3 * i], vLaw, 1e-6 + (dbl ? 0 : 1e-4 * std::abs(vLaw)));
      ASSERT_EQ(p.vel[3 * i + 2], 0.0f);
      pistonFront = std::max(pistonFront, x);
    } else if (p.mk[i] == kTankMk) {
      ++tank;
      ASSERT_TRUE(stored(x, x0.x)) << x << " " << x0.x;
      ASSERT_TRUE(stored(z, x0.z)) << z << " " << x0.z;
      ASSERT_EQ(p.vel[3 * i], 0.0f);
    } else if (p.type[i] == 1) {
      minFluidX = std::min(minFluidX, x);
      if (x < 4 * c.dp + law) {
        nearSum += p.vel[3 * i];
        ++near;
      }
    }
  }
  uint32_t pistonCount = 0;
  for (const MkEntry& m : c.mks)
    if (m.mk == kPistonMk) pistonCount = m.count;
  EXPECT_EQ(uint32_t(piston), pistonCount);
  EXPECT_EQ(pistonCount, 3u * 20u);  // 3 layers from z = dp to 0.4 m
  EXPECT_GT(tank, 0);
  ASSERT_GT(near, 5);
  std::printf("t=%.4f s: piston at %+.5f m moving %+.3f m/s; water within 4 dp moves %+.3f m/s on average\n", t,
              law, vLaw, nearSum / near);
  ASSERT_GT(vLaw, 0.1);  // the piston still advances at the end of the run
  // The water next to the piston follows it: mean speed at least half the piston's (without
  // motion it would be ~0, the tank being at rest).
  EXPECT_GT(nearSum / near, 0.5 * vLaw);
  // and stays in front of it (DBC keeps about one dp between them).
  EXPECT_GT(minFluidX, pistonFront + 0.5 * c.dp);
}

INSTANTIATE_TEST_SUITE_P(Motion, MovingPiston,
                         ::testing::Values(RunSetup{1, Precision::Double}, RunSetup{2, Precision::Double},
                                           RunSetup{1, Precision::Single}, RunSetup{2, Precision::Single}),
                         [](const auto& info) {
                           return std::string(info.param.stepAlgorithm == 1 ? "Verlet" : "Symplectic") + "_" +
                                  precisionName(info.param.precision);
                         });

// The integrators leave a boundary particle's position and velocity to the motion: the halves
// and the Verlet step only integrate its density (and refresh the pressure in pos.w).
TEST(MovingBoundary, IntegratorsKeepBoundaryPositionAndVelocity) {
  PhysicsConstants<double> c;
  c.rho0 = 1000;
  c.gamma = 7;
  c.cteB = 1e5;
  c.gz = -9.81;
  Real4<double> pos{0.1, 0, 0.2, 0}, vel{0.3, 0, -0.1, 1001}, velPre = vel, posPre = pos, ace{5, 0, 7, 3};
  const IntegratorArrays<double> a{&pos, &vel, &velPre, &posPre, &ace, 1, 1};
  verletStepParticle(0, a, c, 1e-3, false);
  verletStepParticle(0, a, c, 1e-3, true);
  symplecticPredictParticle(0, a, c, 1e-3);
  symplecticCorrectParticle(0, a, c, 1e-3);
  EXPECT_EQ(pos.x, 0.1);
  EXPECT_EQ(pos.z, 0.2);
  EXPECT_EQ(vel.x, 0.3);
  EXPECT_EQ(vel.z, -0.1);
  EXPECT_NE(vel.w, 1001);  // the density did change
}

// The phase appears in the report, once per step, in the "other" group.
TEST(MovingBoundary, MotionIsTimedAsSuMotion) {
  const CaseDefinition c = pistonCase(1);
  RunOptions o;
  o.device = Device::Cpu;
  o.writeOutput = false;
  o.progress = false;
  o.maxSteps = 20;
  Simulation sim(c, o);
  const RunReport r = sim.run();
  bool found = false;
  for (const PhaseTime& ph : r.phases) {
    if (ph.name != "SU-Motion") continue;
    found = true;
    EXPECT_EQ(ph.group, "other");
    EXPECT_EQ(ph.calls, 20u);
  }
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace sph
