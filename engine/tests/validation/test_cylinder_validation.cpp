// Validation: a heavy cylinder (relative density 1.2, radius r = 1 m) released half submerged and
// falling through water (DualSPHysics' example 11_Floating/CaseFloatingSphereVal2D) at coarse
// resolution, against the two references that ship with the example: Fekken (2004) and Moyo &
// Greenhow (2000), which differ from each other by up to 30% late in the fall.
//
// Case (data/validation/Cylinder_*, made by tools/validation/fixtures.py): the example unchanged
// except dp 0.2 (eight times its own: 5 particles per radius, 3,588 particles; ~2,900 steps, 20-30 s
// of one of two busy cores per plugin), up to 2.28 s (the 1 s the body is held, FtPause, then
// T = t sqrt(g/r) = 4 of the fall: about half of what the references cover, where Fekken's body is
// 1.6 m down).
//
// Metric, as tools/validation/waves.py computes it at the example's own resolution: the NRMSE of
// the body centre's displacement against each reference over T = 0-4, sampled every 0.005 in T
// (RMS difference over the reference's range, no shift).
//
// Bounds: 0.25 against Fekken and 0.30 against Moyo & Greenhow (the validation's bound, 0.15 over
// the whole fall, is met at the example's dp with 0.04 and 0.12). At 5 particles per radius the
// body falls about a quarter slower than the references (measured 0.15 and 0.19, and 0.064 and 0.117 at dp 0.1). DualSPHysics 5.4 on this case file
// falls the same way (0.147 and 0.190, 1.166 m down at T = 4 against our 1.171 m): the slow fall
// is the resolution's, in the SPH model both codes share. A body that
// does not sink gives 0.53 against Fekken; one in free fall is 8 m down at T = 4.
#include <gtest/gtest.h>

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

constexpr double kPause = 1.0;   // FtPause of the example, s
constexpr double kRadius = 1.0;  // m
constexpr double kGravity = 9.81;

class CylinderValidation : public ::testing::TestWithParam<const char*> {};

TEST_P(CylinderValidation, FallFollowsTheReferences) {
  const auto out = test::runValidationCase("Cylinder_Def.xml", GetParam(), "cylinder_validation");
  // time; mkbound; center x y z; vel x y z; omega x y z
  const auto rows = test::readFixtureRows((out / "floating.csv").string(), 11);
  ASSERT_GT(rows.size(), 100u);
  const double timeScale = std::sqrt(kGravity / kRadius);  // T = t sqrt(g / r)
  std::vector<double> T, displacement;
  for (const auto& r : rows) {
    T.push_back((r[0] - kPause) * timeScale);
    displacement.push_back(r[4] - rows.front()[4]);
  }
  ASSERT_GE(T.back(), 4.0 - 0.05);
  const struct {
    const char* file;
    double bound;
  } references[] = {{"Cylinder_Fekken.csv", 0.25}, {"Cylinder_MoyoGreenhow.csv", 0.30}};
  for (const auto& ref : references) {
    std::vector<double> rt, rd;
    for (const auto& r : test::readFixtureRows(test::validationData(ref.file), 2)) rt.push_back(r[0]), rd.push_back(r[1]);
    const double lo = std::max(0.0, rt.front());
    const test::Agreement a = test::compareSeries(T, displacement, rt, rd, lo, 4.0, 0.0);
    std::printf("%s against %s: NRMSE %.3f, displacement at T = 4: %.3f m (reference %.3f m)\n", GetParam(), ref.file,
                a.nrmse, test::interpolate(T, displacement, 4.0), test::interpolate(rt, rd, 4.0));
    EXPECT_LE(a.nrmse, ref.bound) << ref.file;
  }
}

INSTANTIATE_TEST_SUITE_P(Plugins, CylinderValidation, ::testing::Values("cell", "verlet"),
                         [](const auto& info) { return std::string(info.param); });

}  // namespace
}  // namespace sph
