// Validation: a floating box in waves from a flap (Hadzic et al. 2005; DualSPHysics' example
// 12_FloatingWaves/CaseFloatingWavesVal) at coarse resolution, against the experiment's two wave
// probes (x = 1.16 and 2.66 m) and the box's heave, roll and sway. The flap follows its measured
// angle (mvrotfile) and sends a wave group that passes the box (0.1 x 0.05 m, relative weight
// 0.68, at x = 2.06-2.16 m) between 6.3 and 8.1 s, the time the experiment recorded it.
//
// Case (data/validation/FloatingBox_*, made by tools/validation/fixtures.py): the example
// unchanged except dp 0.016 (eight times its own: 9,642 particles, the box 6 x 3 of them; 43,262
// steps), up to 8.2 s, and the probes. On the GPU, with the Verlet plugin: on one CPU core the run
// takes over ten minutes, a quarter of what the whole suite may spend on a 2-core CI machine, so
// it skips without a GPU; the physics it checks is the code the CPU runs too (physics/), and the
// CPU's loops are checked against brute force. The cell plugin gives the same to 0.04 in
// amplitude and 0.005 s in lag.
//
// Measured on the GPU: N1 0.896, -0.035 s; N2 0.747, +0.060 s; heave 0.951, 0.000 s;
// roll 0.606, -0.060 s; sway 0.500, -0.005 s. On the CPU: 0.919, 0.779, 0.986, 0.629, 0.555, the
// same lags to 0.005 s.
//
// Metrics, as tools/validation/waves.py computes them at the example's own resolution: the
// amplitude ratio (standard deviation of ours over the experiment's, both sampled every 5 ms) and
// the lag (the shift of ours, within +-0.5 s, that correlates best with the experiment; positive
// when ours is late), over 3-8.2 s for N1, 5-8.2 s for N2 (the record's starts) and 6.3-8.2 s
// for the box.
//
// Bounds, with what DualSPHysics 5.4 gives on this case file (GenCase and its CPU build; the box's
// roll from its particles' positions in the parts) and what this engine gives at finer dp:
//   * N1: the validation's own (amplitude within 15%, lag within 0.1 s); DualSPHysics 0.90,
//     -0.035 s.
//   * N2: amplitude within 30%, lag within 0.15 s: with 3 to 6 particles per wave height SPH damps
//     the group along its 2.7 m (DualSPHysics 0.76, +0.065 s).
//   * heave: the validation's own (20%, 0.15 s); DualSPHysics 0.95, +0.005 s.
//   * roll and sway: amplitude between 0.4 and 1.2, lag within 0.15 s. A box 6 particles wide
//     rolls and drifts too little: DualSPHysics gives 0.62 (-0.05 s) and 0.50 (0.00 s); this engine
//     0.75 and 0.71 at dp 0.008 and 1.00 and 0.95 at dp 0.004 (docs/validation.md), so the
//     shortfall is the resolution's.
// A box that does not move, rolls the wrong way (its roll then correlates best half a period
// away) or rides late on the wave fails; so does a wave group shifted by the flap's data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <string>
#include <vector>

#include "dualsphysics_fixture.h"
#include "platform/gpu_runtime.h"
#include "test_support.h"
#include "validation_metrics.h"

namespace sph {
namespace {

constexpr double kEnd = 8.2;  // s

struct Signal {
  const char* name;
  double from;                      // the window's start, s
  double amplitudeLo, amplitudeHi;  // bounds of the amplitude ratio
  double lag;                       // bound of |lag|, s
};

TEST(FloatingBoxValidation, ProbesAndBoxFollowTheExperimentOnTheGpu) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (over ten minutes of one CPU core)";
  const auto out = test::runValidationCase("FloatingBox_Def.xml", "verlet", "floatingbox", Device::Gpu);
  // The record: (signal, time, value), signal 0 N1, 1 N2, 2 heave, 3 roll [deg], 4 sway.
  std::vector<double> et[5], ev[5];
  for (const auto& r : test::readFixtureRows(test::validationData("FloatingBox_experiment.csv"), 3)) {
    const int k = int(r[0]);
    ASSERT_TRUE(k >= 0 && k < 5);
    et[k].push_back(r[1]), ev[k].push_back(r[2]);
  }
  std::vector<double> ot[5], ov[5];
  for (int g = 0; g < 2; ++g) {
    // time; swlx; swly; swlz; pos0 x y z; pos2 x y z: the elevation is swlz from its first value.
    const std::string gauge = g == 0 ? "N1.csv" : "N2.csv";
    const auto rows = test::readFixtureRows((out / "gauges" / gauge).string(), 10);
    ASSERT_GT(rows.size(), 100u);
    for (const auto& r : rows) ot[g].push_back(r[0]), ov[g].push_back(r[3] - rows.front()[3]);
  }
  // time; mkbound; center x y z; vel x y z; omega x y z. Heave and sway from the start; the roll
  // integrated from omega y, in degrees and positive the other way round (the experiment's sign).
  const auto body = test::readFixtureRows((out / "floating.csv").string(), 11);
  ASSERT_GT(body.size(), 100u);
  ASSERT_GE(body.back()[0], kEnd - 0.02);
  double roll = 0;
  for (size_t i = 0; i < body.size(); ++i) {
    const auto& r = body[i];
    if (i > 0) roll += 0.5 * (r[9] + body[i - 1][9]) * (r[0] - body[i - 1][0]);
    for (int k = 2; k < 5; ++k) ot[k].push_back(r[0]);
    ov[2].push_back(r[4] - body.front()[4]);
    ov[3].push_back(-roll * 180 / std::numbers::pi);
    ov[4].push_back(r[2] - body.front()[2]);
  }
  const Signal signals[5] = {{"N1", 3.0, 0.85, 1.15, 0.10},
                             {"N2", 5.0, 0.70, 1.30, 0.15},
                             {"heave", 6.3, 0.80, 1.20, 0.15},
                             {"roll", 6.3, 0.40, 1.20, 0.15},
                             {"sway", 6.3, 0.40, 1.20, 0.15}};
  for (int k = 0; k < 5; ++k) {
    const Signal& s = signals[k];
    ASSERT_GT(et[k].size(), 50u) << s.name;
    const test::Agreement a = test::compareSeries(ot[k], ov[k], et[k], ev[k], s.from, std::min(kEnd, et[k].back()), 0.5);
    std::printf("%s: amplitude %.3f, lag %+.3f s\n", s.name, a.amplitude, a.lag);
    EXPECT_GE(a.amplitude, s.amplitudeLo) << s.name;
    EXPECT_LE(a.amplitude, s.amplitudeHi) << s.name;
    EXPECT_LE(std::abs(a.lag), s.lag) << s.name;
  }
}

}  // namespace
}  // namespace sph
