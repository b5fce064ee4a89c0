// Validation: SPHERIC benchmark 10 (lateral water impact in a rolling tank, low filling of 93 mm),
// DualSPHysics' example CaseSloshingAcc at coarse resolution, against the experiment's pressure
// at the wall sensor: the first impact.
//
// Case (data/validation/Spheric10_*, made by tools/validation/fixtures.py): the example
// unchanged except dp 0.008 (four times its own: 1,221 fluid particles, 12 across the depth;
// ~36,000 steps, 40-50 s of one of two busy cores per plugin), 2.75 s, and the engine's pressure gauge at the
// example's sensor point (-0.4461, 0, 0.093), every 0.2 ms. The tank stands still and gravity
// turns with the measured roll through <accinputs> (globalgravity 0), from an acceleration file
// made from the example's roll angle as its FromMotionToAcc.txt says.
//
// Measurement, as tools/validation/waves.py makes it at the example's own resolution: the impact
// starts at the experiment's first sample above 1500 Pa (2.3749 s); over 0.1 s before it to 0.35 s
// after, the onset (the first time above 500 Pa: above the dry sensor's +-80 Pa, below the
// ~650 Pa the water thrown up the wall holds after the impact) and the impulse (the pressure's
// time integral, trapezoids).
//
// Bounds: the onset within 0.05 s, the validation's (3% of the 1.63 s between impacts). The
// impulse within 35% (the validation's bound is 25% at the example's dp): measured 0.74 of the
// experiment's at dp 0.008 and 0.004 and 0.90 at the example's 0.002 (the sensor sits at the
// still water level, where the water thrown up the wall is a few particles thick at this dp).
// The standing pressure after the impact (the mean over its last 0.1 s: the water thrown up the
// wall falling back) within 25%, the validation's bound for the impulse. DualSPHysics 5.4 on this
// case file (its pressure interpolated from parts every 0.5 ms as the gauge does it,
// tools/dualsphysics/point_pressure.py) gives an onset 0.015 s early, an impulse of 0.747 and a
// standing pressure of 1.08 of the experiment's. The peak, a ~1 ms spike,
// is not checked: at this dp it is ~1/3 of the experiment's. A wrong sign or frame in the acceleration inputs moves the
// impact to the other wall or to another time, and the water thrown up by a roll of the wrong
// size changes the impulse by far more than these bounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "dualsphysics_fixture.h"
#include "test_support.h"
#include "validation_metrics.h"

namespace sph {
namespace {

struct Impact {
  double onset = NAN, peak = -1e300, impulse = 0;
};

// Over [t0 - 0.1, t0 + 0.35] of rows (time, pressure, ...): see the header.
Impact impactOf(const std::vector<std::vector<double>>& rows, double t0) {
  Impact m;
  const std::vector<double>* prev = nullptr;
  for (const auto& r : rows) {
    if (r[0] < t0 - 0.1 || r[0] > t0 + 0.35) continue;
    if (std::isnan(m.onset) && r[1] > 500) m.onset = r[0];
    m.peak = std::max(m.peak, r[1]);
    if (prev) m.impulse += 0.5 * (r[1] + (*prev)[1]) * (r[0] - (*prev)[0]);
    prev = &r;
  }
  return m;
}

// The mean pressure of the rows within [lo, hi] (the experiment's rows are its record's minima and
// maxima, whose mean is the signal's to within its noise).
double meanOver(const std::vector<std::vector<double>>& rows, double lo, double hi) {
  double sum = 0;
  int n = 0;
  for (const auto& r : rows)
    if (r[0] >= lo && r[0] <= hi) sum += r[1], ++n;
  return n ? sum / n : NAN;
}

class Spheric10Validation : public ::testing::TestWithParam<const char*> {};

TEST_P(Spheric10Validation, FirstImpactOnTheWallSensor) {
  const auto experiment = test::readFixtureRows(test::validationData("Spheric10_experiment.csv"), 2);
  const auto first = std::find_if(experiment.begin(), experiment.end(), [](const auto& r) { return r[1] > 1500; });
  ASSERT_NE(first, experiment.end());
  const double t0 = (*first)[0];
  ASSERT_NEAR(t0, 2.3749, 1e-9);

  const auto out = test::runValidationCase("Spheric10_Def.xml", GetParam(), "spheric10");
  const auto ours = test::readFixtureRows((out / "gauges" / "P1.csv").string(), 6);
  ASSERT_GT(ours.size(), 10000u);
  ASSERT_GE(ours.back()[0], t0 + 0.35 - 1e-3);

  const Impact e = impactOf(experiment, t0);
  const Impact m = impactOf(ours, t0);
  const double after = meanOver(ours, t0 + 0.25, t0 + 0.35);
  const double afterExperiment = meanOver(experiment, t0 + 0.25, t0 + 0.35);
  std::printf("%s: onset %.4f s (experiment %.4f), impulse %.1f Pa s (%.1f, ratio %.3f), peak %.0f Pa (%.0f), "
              "standing %.0f Pa (%.0f)\n",
              GetParam(), m.onset, e.onset, m.impulse, e.impulse, m.impulse / e.impulse, m.peak, e.peak, after,
              afterExperiment);
  EXPECT_NEAR(m.onset, e.onset, 0.05);
  EXPECT_NEAR(m.impulse / e.impulse, 1.0, 0.35);
  EXPECT_NEAR(after / afterExperiment, 1.0, 0.25);
}

INSTANTIATE_TEST_SUITE_P(Plugins, Spheric10Validation, ::testing::Values("cell", "verlet"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace sph
