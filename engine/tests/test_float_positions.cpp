// What single precision's float positions cost a case (float_positions.h): the speed below which
// a step's move is lost far from the origin, and the run's warning when it is a large part of the
// case's wave speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "sph/case_model.h"
#include "sph/float_positions.h"
#include "sph/simulation.h"
#include "validation_metrics.h"

namespace sph {
namespace {

SimParameters floatingBoxAt(double dp) {
  LoadOptions load;
  load.dpOverride = dp;
  return deriveParameters(loadCase(test::validationData("FloatingBox_Def.xml"), load));
}

TEST(FloatPositions, LostSpeedIsHalfTheFloatSpacingOverTheCflStep) {
  // 12_FloatingWaves' flume reaches x = 10 m, where floats are 2^-20 m apart.
  const SimParameters p = floatingBoxAt(0.002);
  const FloatPositionLimit l = floatPositionLimit(p);
  EXPECT_DOUBLE_EQ(l.farthest, 10.0);
  EXPECT_DOUBLE_EQ(l.spacing, std::ldexp(1.0, -20));
  EXPECT_DOUBLE_EQ(l.stepDt, p.cfl * p.h / p.c0);
  EXPECT_NEAR(l.stepDt, 2.3e-5, 0.05e-5);  // 12 s took 538,973 steps on the GPU
  EXPECT_DOUBLE_EQ(l.lostSpeed, std::ldexp(1.0, -21) / l.stepDt);
  EXPECT_NEAR(l.waveSpeed, std::sqrt(9.81 * p.hswl), 1e-12);
  // Each halving of dp halves the step and doubles the speed lost.
  EXPECT_NEAR(floatPositionLimit(floatingBoxAt(0.004)).lostSpeed / l.lostSpeed, 0.5, 0.02);
}

TEST(FloatPositions, WarnsWhereTheFloatingBoxDriftedAndNotWhereItHeld) {
  // Measured on the GPU in single precision: the box drifted off at dp 0.002 and held at 0.004.
  const SimParameters drifted = floatingBoxAt(0.002), held = floatingBoxAt(0.004);
  EXPECT_GT(floatPositionLimit(drifted).ratio(), kFloatPositionWarnRatio);
  EXPECT_LT(floatPositionLimit(held).ratio(), kFloatPositionWarnRatio);
  const auto w = floatPositionWarning(drifted, Precision::Single);
  ASSERT_TRUE(w.has_value());
  EXPECT_NE(w->find("--precision double"), std::string::npos) << *w;
  EXPECT_NE(w->find("|x| = 10 m"), std::string::npos) << *w;
  EXPECT_FALSE(floatPositionWarning(held, Precision::Single).has_value());
  EXPECT_FALSE(floatPositionWarning(drifted, Precision::Double).has_value());
}

TEST(FloatPositions, NoWarningWithoutAStillWaterLevel) {
  SimParameters p = floatingBoxAt(0.002);
  p.hswl = 0;
  EXPECT_EQ(floatPositionLimit(p).ratio(), 0.0);
  EXPECT_FALSE(floatPositionWarning(p, Precision::Single).has_value());
}

bool warnsOfFloatPositions(const Simulation& sim) {
  const auto& w = sim.parameters().warnings;
  return std::any_of(w.begin(), w.end(), [](const std::string& s) { return s.find("positions in floats") != std::string::npos; });
}

TEST(FloatPositions, RunsInSinglePrecisionCarryTheWarning) {
  LoadOptions load;
  load.dpOverride = 0.002;
  const CaseDefinition c = loadCase(test::validationData("FloatingBox_Def.xml"), load);
  RunOptions o;
  o.device = Device::Cpu;
  o.writeOutput = false;
  o.progress = false;
  EXPECT_TRUE(warnsOfFloatPositions(Simulation(c, o)));
  o.precision = Precision::Double;
  EXPECT_FALSE(warnsOfFloatPositions(Simulation(c, o)));
}

}  // namespace
}  // namespace sph
