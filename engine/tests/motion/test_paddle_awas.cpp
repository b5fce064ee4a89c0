// Active wave absorption of pistons (<awas_zsurf>, motion/paddle_awas.h): the reader with DualSPHysics'
// defaults and its errors, the controller's velocity law against hand-computed values on a
// surface whose height is known, and a CPU run that writes awas.csv.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "motion/paddle_awas.h"
#include "motion/paddle_irregular_law.h"
#include "motion/paddle_regular_law.h"
#include "run/simulation.h"
#include "test_motion_cases.h"
#include "test_support.h"

namespace sph {
namespace {

const char* kNullMotion = R"(<objreal ref="1"><begin mov="1" start="0" /><mvnull id="1" /></objreal>)";

std::string awasPiston(const std::string& awas, const std::string& more = "") {
  return R"(<wavepaddles><piston>
<mkbound value="1" />
<waveorder value="2" />
<depth value="0.2" />
<waveheight value="0.02" />
<waveperiod value="0.8" />
<ramp value="1" />
)" + more + awas +
         "\n</piston></wavepaddles>";
}

CaseDefinition loadAwasCase(const std::string& name, const std::string& special) {
  test::PistonTank t;
  t.motion = kNullMotion;
  t.special = special;
  return loadCase(test::writeFile(test::tempDir("paddle_awas") / (name + "_Def.xml"), test::pistonTankXml(t)));
}

TEST(PaddleAwasReader, ReadsTheExamplesAbsorption) {
  const CaseDefinition c = loadAwasCase("Example", awasPiston(R"(<awas_zsurf>
  <startawas value="6" />
  <swl value="0.2" />
  <elevation value="1" />
  <gaugex valueh="4" />
  <gaugey value="0.5" />
  <gaugezmin value="0.05" />
  <gaugezmax value="0.4" />
  <gaugedp value="0.25" />
  <coefmasslimit value="0.45" />
  <savedata value="3" />
  <limitace value="1.5" />
  <_correction coefstroke="1.8" coefperiod="1" powerfunc="3" />
</awas_zsurf>)"));
  const WavePaddle& p = *c.motions.at(0).paddle;
  ASSERT_TRUE(p.awas.has_value());
  const PaddleAwas& a = *p.awas;
  EXPECT_DOUBLE_EQ(a.start, 6);
  EXPECT_DOUBLE_EQ(a.swl, 0.2);
  EXPECT_EQ(a.elevationOrder, 1);
  EXPECT_EQ(a.gaugeX.unit, CaseLength::Unit::H);
  EXPECT_DOUBLE_EQ(a.gaugeX.metres(0.03, 0.02), 0.12);
  EXPECT_DOUBLE_EQ(a.gaugeY, 0.5);
  EXPECT_DOUBLE_EQ(*a.gaugeZMin, 0.05);
  EXPECT_DOUBLE_EQ(*a.gaugeZMax, 0.4);
  EXPECT_DOUBLE_EQ(a.gaugeDp, 0.25);
  EXPECT_DOUBLE_EQ(*a.massLimitCoef, 0.45);
  EXPECT_EQ(a.saveData, 3);
  EXPECT_DOUBLE_EQ(a.limitAce, 1.5);
  EXPECT_FALSE(a.correction.has_value());  // <_correction> is commented out
}

// <correction>: its three numbers, powerfunc 1 by default; without coefstroke and coefperiod it is
// off, as DualSPHysics prints "Correction: disabled" for it.
TEST(PaddleAwasReader, ReadsTheDriftCorrection) {
  const auto read = [](const std::string& name, const std::string& correction) {
    return loadAwasCase(name, awasPiston("<awas_zsurf><swl value=\"0.2\" />" + correction + "</awas_zsurf>"))
        .motions.at(0)
        .paddle->awas->correction;
  };
  const auto full = read("Correction", R"(<correction coefstroke="1.8" coefperiod="1" powerfunc="3" />)");
  ASSERT_TRUE(full.has_value());
  EXPECT_DOUBLE_EQ(full->coefStroke, 1.8);
  EXPECT_DOUBLE_EQ(full->coefPeriod, 1);
  EXPECT_DOUBLE_EQ(full->powerFunc, 3);
  const auto linear = read("CorrectionLinear", R"(<correction coefstroke="1" coefperiod="0.5" />)");
  ASSERT_TRUE(linear.has_value());
  EXPECT_DOUBLE_EQ(linear->coefStroke, 1);
  EXPECT_DOUBLE_EQ(linear->powerFunc, 1);
  EXPECT_FALSE(read("CorrectionOff", R"(<correction powerfunc="2" />)").has_value());
}

TEST(PaddleAwasReader, DefaultsAreDualSPHysics) {
  const CaseDefinition c = loadAwasCase("Defaults", awasPiston(R"(<awas_zsurf><swl value="0.2" /></awas_zsurf>)"));
  const PaddleAwas& a = *c.motions.at(0).paddle->awas;
  EXPECT_DOUBLE_EQ(a.start, 0.8);  // after the ramp: 1 period of 0.8 s
  EXPECT_EQ(a.elevationOrder, 2);
  EXPECT_EQ(a.gaugeX.unit, CaseLength::Unit::Dp);
  EXPECT_DOUBLE_EQ(a.gaugeX.metres(0.03, 0.02), 0.1);  // 5 dp
  EXPECT_FALSE(a.gaugeZMin.has_value());
  EXPECT_FALSE(a.massLimitCoef.has_value());
  EXPECT_DOUBLE_EQ(a.gaugeDp, 0.1);
  EXPECT_DOUBLE_EQ(a.limitAce, 2);
  EXPECT_EQ(a.saveData, 0);
}

// The default start is the ramp's end counted from the paddle's <start>: start + ramp periods x
// period for regular waves, start + ramptime for irregular ones (DualSPHysics prints StartAWAS
// 0.3 s for both with start 0.1 s and a 0.2 s ramp).
TEST(PaddleAwasReader, StartsAfterTheRampFromThePaddlesStart) {
  const CaseDefinition regular = loadAwasCase(
      "RegularStart", awasPiston(R"(<awas_zsurf><swl value="0.2" /></awas_zsurf>)", "<start value=\"0.3\" />\n"));
  EXPECT_DOUBLE_EQ(regular.motions.at(0).paddle->awas->start, 1.1);
  const CaseDefinition irregular = loadAwasCase("IrregularStart", R"(<wavepaddles><piston_spectrum>
<mkbound value="1" /><start value="0.1" /><depth value="0.2" /><waveheight value="0.03" /><waveperiod value="1.1" />
<ramptime value="0.2" />
<awas_zsurf><swl value="0.2" /><elevation value="1" /></awas_zsurf>
</piston_spectrum></wavepaddles>)");
  const PaddleAwas& a = *irregular.motions.at(0).paddle->awas;
  EXPECT_DOUBLE_EQ(a.start, 0.3);
  EXPECT_EQ(a.elevationOrder, 1);
}

TEST(PaddleAwasReader, RefusesBadAbsorptionNamingLineAndElement) {
  struct Bad {
    const char* name;
    std::string special;
    const char* marker;
    const char* element;
    const char* what;
  };
  const std::string flap = R"(<wavepaddles><flap>
<mkbound value="1" />
<depth value="0.2" /><waveheight value="0.02" /><waveperiod value="0.8" />
<flapaxis0 x="0" y="-1" z="0" /><flapaxis1 x="0" y="1" z="0" />
<awas_zsurf><swl value="0.2" /></awas_zsurf>
</flap></wavepaddles>)";
  const std::string flapSpectrum = R"(<wavepaddles><flap_spectrum>
<mkbound value="1" />
<depth value="0.2" /><waveheight value="0.02" /><waveperiod value="0.8" />
<flapaxis0 x="0" y="-1" z="0" /><flapaxis1 x="0" y="1" z="0" />
<awas_zsurf><swl value="0.2" /></awas_zsurf>
</flap_spectrum></wavepaddles>)";
  const std::vector<Bad> bad = {
      {"BeforeRamp", awasPiston("<awas_zsurf>\n<startawas value=\"0.5\" />\n<swl value=\"0.2\" /></awas_zsurf>"),
       "<startawas", "startawas", "end of the ramp"},
      {"CoefStroke",
       awasPiston("<awas_zsurf><swl value=\"0.2\" />\n<correction coefstroke=\"0.9\" coefperiod=\"1\" /></awas_zsurf>"),
       "<correction", "correction", "coefstroke=\"0.9\" must be at least 1"},
      {"CoefPeriod", awasPiston("<awas_zsurf><swl value=\"0.2\" />\n<correction coefstroke=\"1.8\" /></awas_zsurf>"),
       "<correction", "correction", "coefperiod=\"0\" must be positive"},
      {"PowerFunc",
       awasPiston("<awas_zsurf><swl value=\"0.2\" />\n<correction coefstroke=\"1.8\" coefperiod=\"1\" "
                  "powerfunc=\"0.5\" /></awas_zsurf>"),
       "<correction", "correction", "powerfunc=\"0.5\" must be at least 1"},
      {"TwoUnits", awasPiston("<awas_zsurf><swl value=\"0.2\" />\n<gaugex value=\"0.1\" valueh=\"4\" /></awas_zsurf>"),
       "<gaugex", "gaugex", "exactly one of"},
      {"NoSwl", awasPiston("<awas_zsurf>\n<gaugedp value=\"0.2\" /></awas_zsurf>"), "<awas_zsurf", "awas_zsurf",
       "missing element <swl>"},
      {"Order3", awasPiston("<awas_zsurf><swl value=\"0.2\" />\n<elevation value=\"3\" /></awas_zsurf>"), "<elevation",
       "elevation", "must be 1 or 2"},
      {"HalfOrder", awasPiston("<awas_zsurf><swl value=\"0.2\" />\n<elevation value=\"1.5\" /></awas_zsurf>"),
       "<elevation", "elevation", "must be 1 or 2"},
      {"SaveData", awasPiston("<awas_zsurf><swl value=\"0.2\" />\n<savedata value=\"1e300\" /></awas_zsurf>"),
       "<savedata", "savedata", "must be 0, 1, 2 or 3"},
      {"Direction", awasPiston("<awas_zsurf><swl value=\"0.2\" /></awas_zsurf>", "<pistondir x=\"1\" y=\"1\" z=\"0\" />\n"),
       "<awas_zsurf", "awas_zsurf", "along x"},
      {"Flap", flap, "<awas_zsurf", "awas_zsurf", "for pistons"},
      {"FlapSpectrum", flapSpectrum, "<awas_zsurf", "awas_zsurf", "for pistons"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.name);
    test::PistonTank t;
    t.motion = kNullMotion;
    t.special = b.special;
    const std::string xml = test::pistonTankXml(t);
    const std::string path = test::writeFile(test::tempDir("paddle_awas") / (std::string(b.name) + "_Def.xml"), xml);
    test::expectInputErrorAt(path, xml, b.marker, b.element, b.what);
  }
}

// A flat free surface at surface(x) (z) whose kernel-summed mass falls linearly from a fluid
// particle's mass to zero across `width` around it: with the 3D limit of half the mass, the swl
// crossing is exactly surface(x).
class FlatSurface final : public GaugeSource {
 public:
  explicit FlatSurface(std::function<double(double)> surface, double width = 0.05)
      : surface_(std::move(surface)), width_(width) {}
  void samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) override {
    ++calls;
    lastX = points.front().x;
    out.assign(points.size(), PointSample{});
    for (size_t k = 0; k < points.size(); ++k)
      out[k].shepard = std::clamp(0.5 + (surface_(points[k].x) - points[k].z) / width_, 0.0, 1.0);
  }
  int calls = 0;
  double lastX = 0;

 private:
  std::function<double(double)> surface_;
  double width_;
};

struct Flume {
  WavePaddle paddle;
  SimParameters sp;
  double face = 0.01;
};

// A piston 0.5 m deep making 0.05 m waves of 1.2 s, ramped over one period, absorbing from
// 1.5 s on, its gauge 0.1 m in front; a 3D run of dp 0.01.
Flume flume() {
  Flume f;
  WavePaddle& p = f.paddle;
  p.depth = 0.5;
  p.height = 0.05;
  p.period = 1.2;
  p.order = 2;
  p.rampPeriods = 1;
  PaddleAwas a;
  a.start = 1.5;
  a.swl = 0.5;
  a.gaugeX = {CaseLength::Unit::Metres, 0.1};
  a.gaugeZMin = 0.2;
  a.gaugeZMax = 0.8;
  a.gaugeDp = 0.25;
  p.awas = a;
  f.sp.dim = 3;
  f.sp.dp = 0.01;
  f.sp.h = 0.015;
  f.sp.massFluid = 1e-3;
  f.sp.domainMin = {-0.1, 0, 0};
  f.sp.domainMax = {5, 0.1, 1};
  return f;
}

TEST(PaddleAwasControl, FollowsTheLawBeforeItsStartWithoutMeasuring) {
  const Flume f = flume();
  PaddleAwasControl c(f.paddle, f.face, f.sp);
  FlatSurface s([](double) { return 0.9; });
  for (double t = 0; t < 1.49; t += 0.01) EXPECT_EQ(c.step(t, 0.01, s), 0.0);
  EXPECT_EQ(s.calls, 0);
  EXPECT_TRUE(std::isnan(c.last().measured));
  EXPECT_EQ(c.absorbed(), 0.0);
}

TEST(PaddleAwasControl, AddsNothingWhenTheSurfaceIsTheTarget) {
  const Flume f = flume();
  const RegularPaddleLaw law(f.paddle);
  PaddleAwasControl c(f.paddle, f.face, f.sp);
  double now = 0;
  FlatSurface s([&](double x) { return 0.5 + law.elevation(x - f.face, now, 2); });
  const double dt = 1e-3;
  for (now = 1.5; now < 1.6; now += dt) {
    EXPECT_NEAR(c.step(now, dt, s), 0.0, 1e-12);
    // The gauge stands 0.1 m in front of the face, which the law has moved.
    EXPECT_NEAR(s.lastX, f.face + law.at(now) + 0.1, 1e-12);
    EXPECT_NEAR(c.last().measured, c.last().target, 1e-12);
  }
}

TEST(PaddleAwasControl, CorrectsBySqrtGOverDTimesTheElevationError) {
  Flume f = flume();
  f.paddle.awas->limitAce = 0;  // no cap
  const RegularPaddleLaw law(f.paddle);
  PaddleAwasControl c(f.paddle, f.face, f.sp);
  double now = 0;
  const double excess = 0.004;  // the surface stands 4 mm above the target (a reflected crest)
  FlatSurface s([&](double x) { return 0.5 + law.elevation(x - f.face, now, 2) + excess; });
  const double dt = 1e-3, coef = std::sqrt(9.81 / 0.5);
  double absorbed = 0;
  for (now = 1.5; now < 1.55; now += dt) {
    const double extra = c.step(now, dt, s);
    EXPECT_NEAR(c.last().uCorrection, -coef * excess, 1e-12);
    EXPECT_NEAR(c.last().uTarget, (law.at(now + dt) - law.at(now)) / dt, 1e-12);
    EXPECT_NEAR(extra, -coef * excess * dt, 1e-14);
    // The gauge moves with the piston's whole displacement.
    EXPECT_NEAR(s.lastX, f.face + law.at(now) + absorbed + 0.1, 1e-12);
    absorbed += extra;
  }
  EXPECT_NEAR(c.absorbed(), absorbed, 1e-15);
}

TEST(PaddleAwasControl, CapsTheAccelerationAtLimitaceTimesThePeak) {
  const Flume f = flume();
  const RegularPaddleLaw law(f.paddle);
  PaddleAwasControl c(f.paddle, f.face, f.sp);
  const double omega = 2 * std::acos(-1.0) / 1.2;
  const double cap = 2 * law.amplitude() * omega * omega;
  double now = 0;
  FlatSurface s([&](double x) { return 0.5 + law.elevation(x - f.face, now, 2) + 0.05; });
  const double dt = 1e-3;
  double uBefore = 0;
  for (int k = -100; k < 0; ++k) {
    now = 1.5 + k * dt;
    c.step(now, dt, s);
    uBefore = c.last().u;
  }
  EXPECT_FALSE(c.last().capped);
  // A 5 cm error asks for 0.22 m/s at once; the piston gets cap x dt more each step.
  for (int k = 0; k < 5; ++k) {
    now = 1.5 + k * dt;
    c.step(now, dt, s);
    EXPECT_TRUE(c.last().capped);
    EXPECT_NEAR(c.last().u, uBefore - cap * dt, 1e-12);
    uBefore = c.last().u;
  }
}

// The drift correction's limit, coefstroke x S/2, against the values DualSPHysics 5.4 printed
// ("Correction: enabled (coefstroke:1.8 (L [m]) ..."), depth 0.66 m: 0.149248 m for regular waves
// of H 0.15 m and T 2 s, and 0.105353 m for irregular ones of Hs 0.1 m and Tp 1.5 s with
// gainstroke 1.5 (S/2 of the regular wave of Hs and Tp, with the gain).
TEST(PaddleAwasControl, DriftLimitIsCoefStrokeTimesTheHalfStroke) {
  Flume f = flume();
  f.paddle.depth = 0.66;
  f.paddle.height = 0.15;
  f.paddle.period = 2;
  f.paddle.awas->correction = PaddleAwas::DriftCorrection{1.8, 1, 3};
  EXPECT_NEAR(PaddleAwasControl(f.paddle, f.face, f.sp).driftLimit(), 0.149248, 5e-7);
  WavePaddle irregular = f.paddle;
  irregular.waves = PaddleWaves::Irregular;
  irregular.height = 0.1;
  irregular.period = 1.5;
  irregular.gainStroke = 1.5;
  irregular.irregular.waves = 50;
  irregular.irregular.rampTime = 0.2;
  EXPECT_NEAR(PaddleAwasControl(irregular, f.face, f.sp).driftLimit(), 0.105353, 5e-7);
}

// With the surface held 4 mm above the target the absorption drives the piston back steadily,
// until the step would take it past the limit L = S/2: from that step on, for Tc = 0.5 s, u gets
// L p/Tc (1 - s/Tc)^(p - 1) towards the rest position (p = 3), which adds up to L; then the
// piston drifts again and the next correction starts when it passes the limit again.
TEST(PaddleAwasControl, DriftCorrectionBringsThePistonBackByTheLimit) {
  Flume f = flume();
  f.paddle.awas->limitAce = 0;  // no cap: the correction's velocity shows whole
  f.paddle.awas->correction = PaddleAwas::DriftCorrection{1, 1.0 / 2.4, 3};
  const RegularPaddleLaw law(f.paddle);
  PaddleAwasControl c(f.paddle, f.face, f.sp);
  const double limit = law.amplitude(), tc = (1.0 / 2.4) * 1.2, p = 3;
  EXPECT_DOUBLE_EQ(c.driftLimit(), limit);
  double now = 0;
  FlatSurface s([&](double x) { return 0.5 + law.elevation(x - f.face, now, 2) + 0.004; });
  const double dt = 1e-3;
  double start = -1, sign = 0, moved = 0;
  int corrections = 0;
  for (int k = 0; k < 8000; ++k) {
    now = 1.5 + k * dt;
    c.step(now, dt, s);
    const auto& r = c.last();
    if (sign != 0 && now - start >= tc) {
      EXPECT_NEAR(moved, sign * limit, 0.01 * limit) << "correction from " << start << " s";
      sign = 0;
    }
    const double next = r.displacement + (r.uTarget + r.uCorrection) * dt;
    if (sign == 0 && std::abs(next) > limit) {
      start = now, sign = next > 0 ? -1 : 1, moved = 0;
      ++corrections;
    }
    const double expected = sign == 0 ? 0 : sign * limit * p / tc * std::pow(1 - (now - start) / tc, p - 1);
    ASSERT_NEAR(r.uDrift, expected, 1e-12) << "t = " << now;
    EXPECT_NEAR(r.u, r.uTarget + r.uCorrection + r.uDrift, 1e-12);
    moved += r.uDrift * dt;
  }
  EXPECT_GE(corrections, 2);
}

// DualSPHysics stops absorbing (and writing AWASData.csv) when the paddle's <duration> ends: the
// piston then stays where the law and the absorption left it.
TEST(PaddleAwasControl, StopsWithTheMotion) {
  Flume f = flume();
  f.paddle.duration = 1.6;
  PaddleAwasControl c(f.paddle, f.face, f.sp);
  FlatSurface s([](double) { return 0.56; });  // 6 cm above still water: a correction every step
  const double dt = 1e-3;
  for (int k = 0; k < 100; ++k) EXPECT_NE(c.step(1.5 + k * dt, dt, s), 0.0);
  const int calls = s.calls;
  const double absorbed = c.absorbed();
  EXPECT_FALSE(c.last().ended);
  for (int k = 100; k < 200; ++k) EXPECT_EQ(c.step(1.5 + k * dt, dt, s), 0.0);
  EXPECT_TRUE(c.last().ended);  // awas.csv gets no row for it
  EXPECT_EQ(s.calls, calls);
  EXPECT_EQ(c.absorbed(), absorbed);
}

// The irregular target and cap against DualSPHysics 5.4 (AwasIrregular2D, made by
// tools/dualsphysics/awas_fixture.py: 50 JONSWAP waves of Hs 0.15 m, Tp 2 s, second order,
// starting at 0.05 s with a 0.15 s ramp): the theory's elevation 1 m in front of the piston, of
// first and second order (the bound difference-frequency waves, up to 4 mm here), within its
// six printed decimals, and the peak acceleration it printed within 3e-4 (see
// IrregularPaddleLaw::peakAcceleration).
TEST(IrregularPaddleLaw, TargetElevationAndPeakMatchDualSPHysics) {
  const CaseDefinition c = loadCase(test::dualsphysicsData("AwasIrregular2D_Def.xml"));
  const WavePaddle* paddle = nullptr;
  for (const auto& m : c.motions)
    if (m.paddle) paddle = &*m.paddle;
  ASSERT_NE(paddle, nullptr);
  const IrregularPaddleLaw law(*paddle);
  const auto rows = test::readFixtureRows(test::dualsphysicsData("AwasIrregular2D_elevation.csv"), 3);
  ASSERT_GT(rows.size(), 50u);
  double worst1 = 0, worst2 = 0, largest2 = 0;
  const double timeMax = parameterDouble(c, "TimeMax", 1);
  for (const auto& r : rows) {
    if (r[0] >= timeMax) break;  // DualSPHysics writes zeros once its run (the motion's end) is over
    worst1 = std::max(worst1, std::abs(law.elevation(1.0, r[0], 1) - r[1]));
    worst2 = std::max(worst2, std::abs(law.elevation(1.0, r[0], 2) - r[2]));
    largest2 = std::max(largest2, std::abs(r[2] - r[1]));
  }
  std::printf("first order within %.2g m, second within %.2g m (the second order's part: up to %.2g m)\n", worst1,
              worst2, largest2);
  EXPECT_LT(worst1, 1e-6);
  EXPECT_LT(worst2, 1e-6);
  EXPECT_GT(largest2, 2e-4);  // the check can tell the orders apart
  constexpr double kPrinted = 0.914363;  // m/s^2, in the fixture's header
  EXPECT_NEAR(law.peakAcceleration(timeMax) / kPrinted, 1.0, 3e-4);
}

TEST(PaddleAwasControl, ResumesFromACheckpoint) {
  const Flume f = flume();
  const RegularPaddleLaw law(f.paddle);
  double now = 0;
  FlatSurface s([&](double x) { return 0.5 + law.elevation(x - f.face, now, 2) + 0.01; });
  PaddleAwasControl a(f.paddle, f.face, f.sp), b(f.paddle, f.face, f.sp);
  const double dt = 1e-3;
  for (now = 1.5; now < 1.52; now += dt) a.step(now, dt, s);
  const std::filesystem::path file = test::tempDir("paddle_awas") / "awas.ckpt";
  {
    CheckpointWriter w(file, CheckpointHeader{});
    a.save(w, "awas");
    w.commit();
  }
  b.restore(CheckpointReader(file), "awas");
  const double ea = a.step(now, dt, s), eb = b.step(now, dt, s);
  EXPECT_EQ(ea, eb);
  EXPECT_EQ(a.absorbed(), b.absorbed());
}

// A drift correction under way survives a checkpoint: its start and direction are restored.
TEST(PaddleAwasControl, ResumesADriftCorrectionFromACheckpoint) {
  Flume f = flume();
  f.paddle.awas->limitAce = 0;
  f.paddle.awas->correction = PaddleAwas::DriftCorrection{1, 1, 2};
  const RegularPaddleLaw law(f.paddle);
  double now = 0;
  FlatSurface s([&](double x) { return 0.5 + law.elevation(x - f.face, now, 2) + 0.004; });
  PaddleAwasControl a(f.paddle, f.face, f.sp), b(f.paddle, f.face, f.sp);
  const double dt = 1e-3;
  int k = 0;
  for (; k < 5000 && a.last().uDrift == 0; ++k) a.step(now = 1.5 + k * dt, dt, s);
  ASSERT_NE(a.last().uDrift, 0) << "no correction started";
  for (int j = 0; j < 100; ++j, ++k) a.step(now = 1.5 + k * dt, dt, s);
  const std::filesystem::path file = test::tempDir("paddle_awas") / "drift.ckpt";
  {
    CheckpointWriter w(file, CheckpointHeader{});
    a.save(w, "awas");
    w.commit();
  }
  b.restore(CheckpointReader(file), "awas");
  now = 1.5 + k * dt;
  const double ea = a.step(now, dt, s), eb = b.step(now, dt, s);
  EXPECT_NE(b.last().uDrift, 0);
  EXPECT_EQ(a.last().uDrift, b.last().uDrift);
  EXPECT_EQ(ea, eb);
}

// A CPU run of 400 steps of the piston tank absorbing from its start with savedata 3 (awas.csv
// a row per step); `more` adds elements to the <piston>.
struct AwasRun {
  std::unique_ptr<CaseDefinition> c;  // on the heap: the simulation may keep references into it
  std::unique_ptr<Simulation> sim;
  std::filesystem::path out;
};

AwasRun runAbsorbingTank(const std::string& name, const std::string& more = "") {
  AwasRun r;
  r.c = std::make_unique<CaseDefinition>(loadAwasCase(name, R"(<wavepaddles><piston>
<mkbound value="1" />
<depth value="0.2" />
<waveheight value="0.02" />
<waveperiod value="0.8" />
)" + more + R"(<awas_zsurf><swl value="0.2" /><gaugex valueh="3" /><gaugezmin value="0.05" /><gaugezmax value="0.35" />
<savedata value="3" /></awas_zsurf>
</piston></wavepaddles>)"));
  RunOptions o;
  o.device = Device::Cpu;
  o.progress = false;
  o.writeVtk = false;
  o.maxSteps = 400;
  r.out = test::tempDir("paddle_awas") / name;
  o.outDir = r.out.string();
  r.sim = std::make_unique<Simulation>(*r.c, o);
  r.sim->run();
  return r;
}

// The run's awas.csv rows obey the law (u = u target + u correction, or the cap), and the
// piston's particles sit where the law and the absorption put them.
TEST(PaddleAwasRun, WritesARowPerStepAndMovesThePiston) {
  const AwasRun run = runAbsorbingTank("run");
  const CaseDefinition& c = *run.c;
  std::ifstream f(run.out / "awas.csv");
  ASSERT_TRUE(f) << "no awas.csv";
  std::string line;
  std::getline(f, line);
  EXPECT_EQ(line.rfind("time [s];mkbound;", 0), 0u) << line;
  int rows = 0, capped = 0;
  double lastX = 0, lastU = 0, lastDt = 0;
  const RegularPaddleLaw law(*c.motions[0].paddle);
  const double omega = 2 * std::acos(-1.0) / 0.8, cap = 2 * law.amplitude() * omega * omega;
  while (std::getline(f, line)) {
    std::vector<double> v;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ';');) v.push_back(std::stod(cell));
    ASSERT_EQ(v.size(), 13u) << line;
    EXPECT_EQ(v[1], 1);
    // u = u target + u correction, or within the cap of the step before's.
    EXPECT_EQ(v[12], 0) << line;  // no drift correction
    if (v[11] == 0)
      EXPECT_NEAR(v[9], v[7] + v[8], 1e-8) << line;
    else
      EXPECT_NEAR(std::abs(v[9] - lastU), cap * v[2], 1e-8) << line;
    EXPECT_NEAR(v[6] - v[5], v[8] / std::sqrt(9.81 / 0.2), 1e-8) << line;  // target - measured
    EXPECT_NEAR(v[3], lastX + lastU * lastDt, 1e-9) << line;
    capped += int(v[11]);
    lastX = v[3], lastU = v[9], lastDt = v[2];
    ++rows;
  }
  EXPECT_EQ(rows, 400);
  // Absorbing from the start of an unramped paddle: the first steps are capped, not all.
  EXPECT_GT(capped, 0);
  EXPECT_LT(capped, rows);
  // The piston's particles moved by x(t) of the last row plus its step.
  const ParticleSnapshot p = run.sim->snapshot();
  const double moved = lastX + lastU * lastDt;
  EXPECT_GT(std::abs(moved), 1e-5);
  int checked = 0;
  for (size_t i = 0; i < p.count(); ++i) {
    if (p.mk[i] != 11) continue;
    EXPECT_NEAR(p.pos[3 * i], c.positions[p.id[i]].x + moved, 1e-6);
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// A paddle whose motion ends (<duration>) writes no awas.csv rows after it, as DualSPHysics'
// AWASData.csv stops there.
TEST(PaddleAwasRun, WritesNoRowsAfterTheMotionEnds) {
  const AwasRun run = runAbsorbingTank("run_ends", "<duration value=\"0.02\" />\n");
  ASSERT_GT(run.sim->time(), 0.03);  // the run goes on past the motion's end
  const auto rows = test::readFixtureRows((run.out / "awas.csv").string(), 13);
  ASSERT_GT(rows.size(), 10u);
  EXPECT_LT(rows.size(), 400u);
  for (const auto& r : rows) EXPECT_LT(r[0], 0.02) << "a row at t = " << r[0];
}

}  // namespace
}  // namespace sph
