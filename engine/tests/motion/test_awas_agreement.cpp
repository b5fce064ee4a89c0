// Active wave absorption against DualSPHysics 5.4 on the same case (fixtures made by
// tools/dualsphysics/awas_fixture.py from DualSPHysics' CasePistonWallAWAS_REG at dp 0.04): a CPU
// run with each plugin, and the piston's displacement and the elevation its gauge measures at
// DualSPHysics' parts. AwasTank2D makes the example's regular waves and absorbs from 0.25 s;
// AwasIrregular2D makes irregular waves (50 JONSWAP waves, second order, from 0.05 s with a
// 0.15 s ramp) and absorbs from the ramp's end, 0.2 s, aiming at the second-order elevation.
// AwasDrift2D is AwasTank2D with the drift correction on (limit 1.01 S/2, over 0.25 periods, power
// 2) up to 1.9 s: the absorption takes the piston past the limit at about 1.276 s, and the
// correction brings it back over the next 0.5 s, at first as fast as the acceleration cap allows.
//
// Before the absorption starts the piston follows its law alone: DualSPHysics' six printed
// decimals are the bound (1e-6 m, with the interpolation between our steps far below it). Once it
// absorbs, the displacement integrates sqrt(g/d) (target - measured) over the steps, and the
// measurement depends on the flow, computed by two codes with their own rounding and step times:
// both plugins stay within 7.2e-5 m of DualSPHysics in displacement and in elevation over the
// regular case's 0.35 s (0.1% of the largest displacement), and within 1.5e-4 m over the irregular
// case's 0.4 s. The bound is 2e-4 m: an error in the law (a sign, sqrt(g/d), the gauge's place or
// the target's order) moves the piston by millimetres to centimetres here (the correction is
// ~0.05 m/s). The differences grow with the time absorbed: over AwasDrift2D's 1.65 s they reach
// 2.3e-4 m in displacement (2e-4 m already before the correction starts) and 3.6e-4 m in
// elevation (while the cap jerks the piston); its bounds are 4e-4 m and 6e-4 m. The correction
// moves the piston back by 0.084 m: a wrong power or duration would be millimetres to centimetres
// off in the middle of it, and the drift velocity added after the cap instead of before, by
// millimetres. The irregular target, computed where our gauge stands, is within 2e-5 m of
// DualSPHysics' (its slope along the flume, under 0.1, times the gauges' 1e-4 m apart). The drift
// correction starts within 2 ms of DualSPHysics' (it prints the time), 7 steps: the piston moves
// 5e-5 m a step there, so a start a few steps off would come from the displacements' own
// differences (above), not from a different rule, which would start it tenths of a second away
// or never.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kLawTol = 1e-6;     // DualSPHysics' printed decimals
constexpr double kTargetTol = 2e-5;  // see above
constexpr double kDriftStartTol = 2e-3;  // s, see above

// The start of the first drift correction DualSPHysics printed into the fixture's header
// ("# **Drift Correction> time:T0 -> T1 ..."); NaN when it made none.
double driftStart(const std::string& path) {
  std::ifstream in(path);
  const std::string key = "**Drift Correction> time:";
  for (std::string line; std::getline(in, line) && !line.empty() && line[0] == '#';) {
    const size_t at = line.find(key);
    if (at != std::string::npos) return std::stod(line.substr(at + key.size()));
  }
  return std::nan("");
}

// Linear interpolation of column `col` of rows (column 0: time) at t.
double at(const std::vector<std::vector<double>>& rows, size_t col, double t) {
  const auto it = std::lower_bound(rows.begin(), rows.end(), t, [](const auto& r, double v) { return r[0] < v; });
  if (it == rows.begin()) return (*it)[col];
  if (it == rows.end()) return rows.back()[col];
  const auto& b = *it;
  const auto& a = *(it - 1);
  return a[col] + (b[col] - a[col]) * (t - a[0]) / (b[0] - a[0]);
}

struct AwasCase {
  const char* fixture;    // AwasTank2D or AwasIrregular2D
  const char* neighbours;
  double start;           // when the absorption starts, s
  bool hasTarget;         // the fixture has DualSPHysics' target elevation (column 3)
  double xTol = 2e-4;     // m, the displacement once absorbing (see above)
  double zTol = 2e-4;     // m, the measured elevation
};

void PrintTo(const AwasCase& c, std::ostream* os) { *os << c.fixture << " with " << c.neighbours; }

class AwasAgreement : public ::testing::TestWithParam<AwasCase> {};

TEST_P(AwasAgreement, PistonAndGaugeFollowDualSPHysics) {
  const AwasCase& k = GetParam();
  const CaseDefinition c = loadCase(test::dualsphysicsData(std::string(k.fixture) + "_Def.xml"));
  RunOptions o;
  o.device = Device::Cpu;
  o.neighbours = k.neighbours;
  o.progress = false;
  o.writeVtk = false;
  o.outDir = (test::tempDir("awas_agreement") / k.fixture / k.neighbours).string();
  Simulation sim(c, o);
  sim.run();
  const auto ds = test::readFixtureRows(test::dualsphysicsData(std::string(k.fixture) + "_awas.csv"), k.hasTarget ? 4 : 3);
  // Ours, a row per step: time, mkbound, dt, x(t), gauge x, measured, target, ...
  const auto ours = test::readFixtureRows((std::filesystem::path(o.outDir) / "awas.csv").string(), 13);
  ASSERT_GT(ours.size(), 1000u);
  double worstLaw = 0, worstX = 0, worstZ = 0, worstTarget = 0;
  int absorbing = 0;
  for (const auto& r : ds) {
    const double t = r[0];
    const double dx = std::abs(at(ours, 3, t) - r[1]);
    if (t < k.start) {
      worstLaw = std::max(worstLaw, dx);
      continue;
    }
    // DualSPHysics' rows are at its parts; ours are measured at our steps' starts.
    const auto next = std::lower_bound(ours.begin(), ours.end(), t, [](const auto& q, double v) { return q[0] < v; });
    if (next == ours.begin() || next == ours.end() || (next - 1)->at(0) < k.start) continue;
    worstX = std::max(worstX, dx);
    worstZ = std::max(worstZ, std::abs(at(ours, 5, t) - r[2]));
    if (k.hasTarget) worstTarget = std::max(worstTarget, std::abs(at(ours, 6, t) - r[3]));
    ++absorbing;
  }
  std::printf("%s %s: law %.2g m, absorbing x %.3g m, z %.3g m, target %.3g m over %d parts\n", k.fixture,
              k.neighbours, worstLaw, worstX, worstZ, worstTarget, absorbing);
  const double dsDrift = driftStart(test::dualsphysicsData(std::string(k.fixture) + "_awas.csv"));
  const auto drifting = std::find_if(ours.begin(), ours.end(), [](const auto& r) { return r[12] != 0; });
  if (std::isnan(dsDrift)) {
    EXPECT_EQ(drifting, ours.end()) << "a drift correction at " << (*drifting)[0] << " s; DualSPHysics made none";
  } else {
    ASSERT_NE(drifting, ours.end()) << "no drift correction; DualSPHysics started one at " << dsDrift << " s";
    std::printf("drift correction from %.6f s, DualSPHysics' from %.6f s\n", (*drifting)[0], dsDrift);
    EXPECT_NEAR((*drifting)[0], dsDrift, kDriftStartTol);
  }
  EXPECT_GT(absorbing, 30);
  EXPECT_LT(worstLaw, kLawTol);
  EXPECT_LT(worstX, k.xTol);
  EXPECT_LT(worstZ, k.zTol);
  EXPECT_LT(worstTarget, kTargetTol);
}

INSTANTIATE_TEST_SUITE_P(Plugins, AwasAgreement,
                         ::testing::Values(AwasCase{"AwasTank2D", "cell", 0.25, false},
                                           AwasCase{"AwasTank2D", "verlet", 0.25, false},
                                           AwasCase{"AwasIrregular2D", "cell", 0.2, true},
                                           AwasCase{"AwasIrregular2D", "verlet", 0.2, true},
                                           AwasCase{"AwasDrift2D", "verlet", 0.25, false, 4e-4, 6e-4}),
                         [](const auto& info) { return std::string(info.param.fixture) + "_" + info.param.neighbours; });

}  // namespace
}  // namespace sph
