// Validation: the CIEMito wave flume (Altomare et al. 2017; DualSPHysics' example
// 07_WavemakerFile/CaseWavemaker2D) at coarse resolution, against the experiment's three wave
// gauges: the piston follows its measured motion (mvfile) and the engine's swl gauges measure
// the surface where the experiment's gauges stood (x = 1.38, 2.83 and 4.12 m; the piston's face
// at about 1.03 m).
//
// Case (data/validation/Ciemito_*, made by tools/validation/fixtures.py): the example
// unchanged except dp 0.02 (four times its own: 3,587 particles, 16 across the 0.31 m depth;
// ~16,000 steps, 100 s of one of two busy cores), 4 s, and the gauges. The Verlet plugin only: the
// plugins' agreement is tested elsewhere, and one run is what CI can afford here.
//
// Metrics, as tools/validation/waves.py computes them at the example's own resolution, over
// 2-4 s (the first waves reach WG3 at ~2 s): the amplitude ratio (standard deviation of ours over
// the experiment's, both sampled every 5 ms), the lag (the shift of ours, within +-0.5 s, that
// correlates best with the experiment; positive when ours is late).
//
// Bounds: at WG1, 0.35 m from the piston, the validation's own (amplitude within 15%, lag within
// 0.1 s): there the wave has not travelled far enough for the coarse resolution to damp it
// (measured 0.90, -0.07 s; 0.94, -0.055 s at the example's dp). At WG2 and WG3 amplitude within
// 30% and lag within 0.15 s: with 4 to 5 particles per wave height SPH damps the wave along its
// 1.8 m to WG2 (measured 0.77, -0.095 s), and WG3 stands beside the structure, whose reflection
// these few particles resolve poorly (1.12, +0.035 s). DualSPHysics 5.4 on this case file gives
// 0.903, 0.774 and 1.141 with the same lags. A piston moved the wrong way, a wrong
// interpolation of the motion file or a gauge at the wrong place shifts the phase by a large part
// of the ~1.5 s period or changes the amplitude by far more.
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

TEST(CiemitoValidation, WaveGaugesFollowTheExperiment) {
  const auto out = test::runValidationCase("Ciemito_Def.xml", "verlet", "ciemito");
  const auto exp = test::readFixtureRows(test::validationData("Ciemito_experiment.csv"), 4);
  std::vector<double> et;
  for (const auto& r : exp) et.push_back(r[0]);
  const double amplitudeTol[3] = {0.15, 0.30, 0.30}, lagTol[3] = {0.1, 0.15, 0.15};
  for (int g = 0; g < 3; ++g) {
    const std::string name = "WG" + std::to_string(g + 1);
    // time; swlx; swly; swlz; pos0 x y z; pos2 x y z: the elevation is swlz from its first value.
    const auto rows = test::readFixtureRows((out / "gauges" / (name + ".csv")).string(), 10);
    ASSERT_GT(rows.size(), 100u) << name;
    ASSERT_GE(rows.back()[0], 4.0 - 0.03) << name;
    std::vector<double> ot, ov, ev;
    for (const auto& r : rows) ot.push_back(r[0]), ov.push_back(r[3] - rows.front()[3]);
    for (const auto& r : exp) ev.push_back(r[1 + g]);
    const test::Agreement a = test::compareSeries(ot, ov, et, ev, 2.0, 4.0, 0.5);
    std::printf("%s: amplitude %.3f, lag %+.3f s\n", name.c_str(), a.amplitude, a.lag);
    EXPECT_NEAR(a.amplitude, 1.0, amplitudeTol[g]) << name;
    EXPECT_LE(std::abs(a.lag), lagTol[g]) << name;
  }
}

}  // namespace
}  // namespace sph
