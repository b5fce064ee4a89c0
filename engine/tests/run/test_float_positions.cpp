// What single precision's float positions cost a case (run/float_positions.h): how coarsely the pair
// kernels read positions far from the origin, and the run's warning when it is a large part of dp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "case/loader.h"
#include "model/case_model.h"
#include "run/float_positions.h"
#include "run/simulation.h"
#include "validation_metrics.h"

namespace sph {
namespace {

SimParameters floatingBoxAt(double dp) {
  LoadOptions load;
  load.dpOverride = dp;
  return deriveParameters(loadCase(test::validationData("FloatingBox_Def.xml"), load));
}

TEST(FloatPositions, PairDistancesAreWithinTheFloatSpacingAtTheFarthestCoordinate) {
  // 12_FloatingWaves' flume reaches x = 10 m, where floats are 2^-20 m apart.
  const SimParameters p = floatingBoxAt(0.002);
  const FloatPositionLimit l = floatPositionLimit(p);
  EXPECT_DOUBLE_EQ(l.farthest, 10.0);
  EXPECT_DOUBLE_EQ(l.spacing, std::ldexp(1.0, -20));
  EXPECT_DOUBLE_EQ(l.ratio(), std::ldexp(1.0, -20) / 0.002);
  EXPECT_LT(l.ratio(), 5e-4);
}

// The same flume 5 km along x: floats are 2^-11 m apart at 5 km, 24% of dp 0.002.
SimParameters farAway(SimParameters p) {
  p.domainMin.x += 5000;
  p.domainMax.x += 5000;
  return p;
}

TEST(FloatPositions, WarnsWherePairsAreReadCoarselyOnly) {
  const SimParameters near = floatingBoxAt(0.002), far = farAway(near);
  EXPECT_DOUBLE_EQ(floatPositionLimit(far).spacing, std::ldexp(1.0, -11));
  EXPECT_GT(floatPositionLimit(far).ratio(), kFloatPositionWarnRatio);
  const auto w = floatPositionWarning(far, Precision::Single);
  ASSERT_TRUE(w.has_value());
  EXPECT_NE(w->find("--precision double"), std::string::npos) << *w;
  EXPECT_NE(w->find("|x| = 5010 m"), std::string::npos) << *w;
  EXPECT_FALSE(floatPositionWarning(near, Precision::Single).has_value());
  EXPECT_FALSE(floatPositionWarning(far, Precision::Double).has_value());
}

TEST(FloatPositions, NoWarningWithoutADp) {
  SimParameters p = farAway(floatingBoxAt(0.002));
  p.dp = 0;
  EXPECT_EQ(floatPositionLimit(p).ratio(), 0.0);
  EXPECT_FALSE(floatPositionWarning(p, Precision::Single).has_value());
}

}  // namespace
}  // namespace sph
