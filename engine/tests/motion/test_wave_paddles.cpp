// Wave paddles (<special><wavepaddles>, regular waves): the law of each paddle against the
// motion DualSPHysics 5.4 writes for the same parameters (WavePaddle_mkb0010.csv, made by
// tools/dualsphysics/wave_paddle_fixtures.py), the dispersion relation, the per-step kinematics,
// the reader and its errors, and a run whose paddle particles follow the law.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "case/loader.h"
#include "motion/motion_kinematics.h"
#include "motion/paddle_output.h"
#include "motion/paddle_regular_law.h"
#include "run/simulation.h"
#include "test_motion_cases.h"
#include "test_support.h"
#include "wave_paddle_fixture.h"

namespace sph {
namespace {

constexpr double kPi = std::numbers::pi;

using Sample = test::PaddleSample;

// A fixture's rows and the wave length DualSPHysics printed (its first line).
struct Fixture {
  std::vector<Sample> rows;
  double waveLength = 0;
};

Fixture readFixture(const std::string& name) {
  test::PaddleFixture raw = test::readPaddleFixture(name);
  const size_t at = raw.header.find("wave length ");
  if (at == std::string::npos) throw std::runtime_error(name + ": no wave length in its first line");
  return {std::move(raw.rows), std::stod(raw.header.substr(at + 12))};
}

// The example paddles (CasePistonBeach_REG, CaseFlapBeach_REG): H 0.15 m, T 2 s, d 0.66 m.
WavePaddle examplePiston() {
  WavePaddle p;
  p.type = PaddleType::Piston;
  p.depth = 0.66;
  p.height = 0.15;
  p.period = 2;
  return p;
}

WavePaddle exampleFlap() {
  WavePaddle p = examplePiston();
  p.type = PaddleType::Flap;
  p.axis0 = {0, -1, 0};
  p.axis1 = {0, 1, 0};
  return p;
}

struct Variant {
  const char* fixture;
  WavePaddle paddle;
};

std::vector<Variant> variants() {
  std::vector<Variant> v;
  WavePaddle p = examplePiston();
  p.order = 2;
  p.rampPeriods = 1;
  v.push_back({"piston_order2_ramp", p});
  p = examplePiston();
  p.height = 0.05, p.period = 3, p.depth = 0.4;
  v.push_back({"piston_order1_shallow", p});
  p = examplePiston();
  p.order = 2, p.rampPeriods = 0.5, p.start = 0.5, p.duration = 3.3, p.phase = 0.25 * kPi;
  p.height = 0.1, p.period = 1.5, p.depth = 0.5;
  v.push_back({"piston_start_duration_phase", p});
  p = examplePiston();
  p.order = 2, p.gainStroke = 1.5;
  v.push_back({"piston_gain", p});
  p = exampleFlap();
  p.order = 2, p.rampPeriods = 1;
  v.push_back({"flap_order2_ramp", p});
  p = exampleFlap();
  p.order = 2, p.height = 0.2, p.period = 2.5, p.depth = 1.0;
  v.push_back({"flap_order2_deep", p});
  p = exampleFlap();
  p.draft = 0.2;
  v.push_back({"flap_order1_draft_up", p});
  p = exampleFlap();
  p.draft = -0.1;
  v.push_back({"flap_order1_draft_down", p});
  p = exampleFlap();
  p.order = 2, p.draft = 0.2;
  v.push_back({"flap_order2_draft_up", p});
  p = exampleFlap();
  p.order = 2, p.draft = -0.2;
  v.push_back({"flap_order2_draft_down", p});
  return v;
}

TEST(WavePaddleLaw, WaveNumberSolvesTheDispersionRelation) {
  for (double d : {0.05, 0.4, 0.66, 3.0, 50.0}) {
    for (double T : {0.5, 1.2, 2.0, 8.0, 20.0}) {
      const double k = waveNumber(T, d, 9.81), w = 2 * kPi / T;
      EXPECT_NEAR(9.81 * k * std::tanh(k * d) / (w * w), 1.0, 1e-13) << "T " << T << " d " << d;
    }
  }
}

// DualSPHysics writes the law with 6 decimals (rounding: at most 5e-7); the amplitudes here are
// 0.01-0.44 and the second harmonics 1e-4-1e-2, so a relative error of 1e-5 in the first or of
// 1e-3 in the second would show.
TEST(WavePaddleLaw, MatchesDualSPHysics) {
  for (const Variant& v : variants()) {
    const Fixture f = readFixture(v.fixture);
    ASSERT_GT(f.rows.size(), 100u) << v.fixture;
    const RegularPaddleLaw law(v.paddle);
    EXPECT_NEAR(law.waveLength(), f.waveLength, 5e-6 * f.waveLength) << v.fixture;
    double worst = 0;
    for (const Sample& s : f.rows) {
      const double ours = law.at(s.t);
      worst = std::max(worst, std::abs(ours - s.value));
      ASSERT_NEAR(ours, s.value, 6e-7) << v.fixture << " at t = " << s.t;
    }
    EXPECT_LT(worst, 6e-7) << v.fixture;
  }
}

TEST(WavePaddleLaw, SecondHarmonicIsMadsensForThePiston) {
  WavePaddle p = examplePiston();
  p.order = 2;
  const RegularPaddleLaw law(p);
  const double k = waveNumber(p.period, p.depth, p.gravity), kd = k * p.depth;
  const double m1 = 2 * (std::cosh(2 * kd) - 1) / (std::sinh(2 * kd) + 2 * kd);
  EXPECT_NEAR(law.stroke(), p.height / m1, 1e-15);
  const double e2 = p.height * p.height / (32 * p.depth) * (3 * std::cosh(kd) / std::pow(std::sinh(kd), 3) - 2 / m1);
  EXPECT_NEAR(law.secondOrder(), e2, 1e-16);
  // A quarter period in: first harmonic at its crest, second at a node.
  EXPECT_NEAR(law.at(p.period / 4), law.stroke() / 2, 1e-15);
}

// The kinematics apply the law step by step: the steps' sum telescopes to the law at any step
// size, nothing moves before the start or after the duration, and the flap turns right-handed
// about axis0 -> axis1.
TEST(WavePaddleKinematics, StepsFollowTheLaw) {
  for (PaddleType type : {PaddleType::Piston, PaddleType::Flap}) {
    WavePaddle p = type == PaddleType::Piston ? examplePiston() : exampleFlap();
    p.order = 2, p.rampPeriods = 1, p.start = 0.3, p.duration = 4.1;
    p.direction = {0.6, 0.8, 0};
    p.axis0 = {0.2, -1, -0.66};
    p.axis1 = {0.2, 1, -0.66};
    MotionObject o;
    o.ref = 10;
    o.movements.push_back(Movement{});
    o.movements[0].type = MovementType::Null;
    o.movements[0].id = 1;
    o.begins.push_back(MotionBegin{});
    o.begins[0].mov = 1;
    o.paddle = p;
    MotionKinematics k({o});
    const RegularPaddleLaw law(p);
    const Vec3d x0{0.2, 0.0, 0.3};  // a particle of the paddle, above the flap's hinge
    Vec3d x = x0;
    double t = 0;
    const double dt = 0.0137;
    while (t < 6) {
      const std::vector<ObjectStep> s = k.advance(t, dt);
      ASSERT_EQ(s.size(), 1u);
      const bool moving = t + dt > p.start && t < p.start + p.duration;
      ASSERT_EQ(s[0].moved, moving) << "t " << t;
      x = s[0].transform.apply(x);
      t += dt;
      Vec3d expected;
      const double a = law.at(t);
      if (type == PaddleType::Piston) {
        expected = {x0.x + 0.6 * a, x0.y + 0.8 * a, x0.z};
      } else {
        const RigidTransform r = RigidTransform::rotation(a, p.axis0, p.axis1);
        expected = r.apply(x0);
      }
      ASSERT_NEAR(x.x, expected.x, 1e-12) << "t " << t;
      ASSERT_NEAR(x.y, expected.y, 1e-12) << "t " << t;
      ASSERT_NEAR(x.z, expected.z, 1e-12) << "t " << t;
    }
    if (type == PaddleType::Flap) {
      // A positive angle moves the part above the hinge towards +x (axis along +y).
      const RigidTransform r = RigidTransform::rotation(0.1, p.axis0, p.axis1);
      EXPECT_GT(r.apply(x0).x, x0.x);
    }
  }
}

// <savemotion>: a row at time 0 (the paddle starts later), then the law sampled from the start
// every dt for the time asked, in WavePaddle_mkbNNNN_0000.csv.
TEST(WavePaddleOutput, WritesTheSampledLaw) {
  WavePaddle p = exampleFlap();
  p.mkbound = 7;
  p.start = 0.5;
  p.saveMotions.push_back(PaddleSaveMotion::spanning(4.0, 0.1));
  WavePaddle silent = examplePiston();  // no <savemotion>: no file
  silent.mkbound = 8;
  const auto dir = test::tempDir("wave_paddle_output");
  writeWavePaddleMotions(dir, {p, silent}, 10, 0.1);
  EXPECT_FALSE(std::filesystem::exists(dir / "WavePaddle_mkb0008_0000.csv"));
  const std::vector<Sample> rows = test::readSaveMotionRows((dir / "WavePaddle_mkb0007_0000.csv").string(), "Time [s];Angle [rad]");
  ASSERT_EQ(rows.size(), 42u);
  const RegularPaddleLaw law(p);
  EXPECT_DOUBLE_EQ(rows[0].t, 0);
  EXPECT_DOUBLE_EQ(rows[1].t, 0.5);
  EXPECT_NEAR(rows.back().t, 4.5, 1e-9);
  for (const Sample& r : rows) EXPECT_NEAR(r.value, law.at(r.t), 1e-9 * std::max(1.0, std::abs(r.value)));
}

const char* kPistonSpecial = R"(
  <wavepaddles>
    <piston>
      <mkbound value="1" />
      <waveorder value="2" />
      <start value="0.1" />
      <duration value="0" />
      <depth value="0.2" />
      <pistondir x="2" y="0" z="0" />
      <waveheight value="0.02" />
      <waveperiod value="0.8" />
      <phase value="0.5" />
      <ramp value="1" />
      <gainstroke value="1.1" />
      <savemotion periods="2" periodsteps="20" xpos="0.3" zpos="-0.1" />
      <_awas_zsurf><startawas value="6" /></_awas_zsurf>
    </piston>
  </wavepaddles>)";

const char* kNullMotion = R"(<objreal ref="1"><begin mov="1" start="0" /><mvnull id="1" /></objreal>)";

CaseDefinition loadPaddleCase(const std::string& name, const std::string& special,
                              const std::string& motion = kNullMotion, std::string* xmlOut = nullptr) {
  test::PistonTank t;
  t.motion = motion;
  t.special = special;
  const std::string xml = test::pistonTankXml(t);
  if (xmlOut) *xmlOut = xml;
  return loadCase(test::writeFile(test::tempDir("wave_paddles") / (name + "_Def.xml"), xml));
}

TEST(WavePaddleReader, ReadsAPistonAsDualSPHysicsWritesIt) {
  const CaseDefinition c = loadPaddleCase("Piston", kPistonSpecial);
  ASSERT_EQ(c.motions.size(), 1u);
  ASSERT_TRUE(c.motions[0].paddle.has_value());
  const WavePaddle& p = *c.motions[0].paddle;
  EXPECT_EQ(p.type, PaddleType::Piston);
  EXPECT_EQ(p.mkbound, 1);
  EXPECT_EQ(p.order, 2);
  EXPECT_DOUBLE_EQ(p.start, 0.1);
  EXPECT_DOUBLE_EQ(p.duration, 0);
  EXPECT_DOUBLE_EQ(p.depth, 0.2);
  EXPECT_DOUBLE_EQ(p.direction.x, 1);
  EXPECT_DOUBLE_EQ(p.direction.y, 0);
  EXPECT_DOUBLE_EQ(p.height, 0.02);
  EXPECT_DOUBLE_EQ(p.period, 0.8);
  EXPECT_DOUBLE_EQ(p.phase, 0.5 * kPi);
  EXPECT_DOUBLE_EQ(p.rampPeriods, 1);
  EXPECT_DOUBLE_EQ(p.gainStroke, 1.1);
  EXPECT_DOUBLE_EQ(p.gravity, 9.81);
  ASSERT_EQ(p.saveMotions.size(), 1u);
  EXPECT_DOUBLE_EQ(*p.saveMotions[0].time, 1.6);
  EXPECT_DOUBLE_EQ(*p.saveMotions[0].dt, 0.04);
  EXPECT_DOUBLE_EQ(p.saveMotions[0].xpos, 0.3);
  EXPECT_DOUBLE_EQ(*p.saveMotions[0].zpos, -0.1);
}

TEST(WavePaddleReader, ReadsAFlapWithDefaults) {
  const CaseDefinition c = loadPaddleCase("Flap", R"(
  <wavepaddles>
    <flap>
      <mkbound value="1" />
      <depth value="0.2" />
      <variabledraft value="0.05" />
      <flapaxis0 x="0" y="-1" z="0" />
      <flapaxis1 x="0" y="1" z="0" />
      <waveheight value="0.02" />
      <waveperiod value="0.8" />
      <savemotion time="3" timedt="0.01" />
    </flap>
  </wavepaddles>)");
  const WavePaddle& p = *c.motions.at(0).paddle;
  EXPECT_EQ(p.type, PaddleType::Flap);
  EXPECT_EQ(p.order, 1);
  EXPECT_DOUBLE_EQ(p.start, 0);
  EXPECT_DOUBLE_EQ(p.phase, 0);
  EXPECT_DOUBLE_EQ(p.rampPeriods, 0);
  EXPECT_DOUBLE_EQ(p.draft, 0.05);
  EXPECT_DOUBLE_EQ(p.axis1.y, 1);
  ASSERT_EQ(p.saveMotions.size(), 1u);
  EXPECT_DOUBLE_EQ(*p.saveMotions[0].time, 3);
  EXPECT_DOUBLE_EQ(*p.saveMotions[0].dt, 0.01);
  EXPECT_FALSE(p.saveMotions[0].zpos.has_value());
}

// As DualSPHysics 5.4 writes them (checked with its CPU build on this piston, TimeMax 7.3 and
// TimeOut 0.3): one file per <savemotion>, numbered in order; a <savemotion> without periods
// (time) spans TimeMax, without periodsteps (timedt) steps by TimeOut; the last sample is the
// last one within the span.
TEST(WavePaddleOutput, SaveMotionDefaultsAndSeveralFiles) {
  const CaseDefinition c = loadPaddleCase(
      "Defaults",
      "<wavepaddles>\n<piston>\n<mkbound value=\"1\" />\n<depth value=\"0.2\" />\n<waveheight value=\"0.02\" />\n"
      "<waveperiod value=\"2\" />\n<savemotion xpos=\"6\" zpos=\"-0.26\" />\n"
      "<savemotion periods=\"3\" periodsteps=\"5\" />\n<savemotion periods=\"2\" />\n<savemotion periodsteps=\"4\" />\n"
      "</piston>\n</wavepaddles>\n");
  ASSERT_EQ(c.motions.size(), 1u);
  const WavePaddle& p = *c.motions[0].paddle;
  ASSERT_EQ(p.saveMotions.size(), 4u);
  const auto dir = test::tempDir("savemotion_defaults_out");
  writeWavePaddleMotions(dir, {p}, 7.3, 0.3);
  // DualSPHysics' first and last sample times and counts of the four files.
  const struct {
    double last;
    size_t rows;
  } expected[] = {{7.2, 25}, {6.0, 16}, {3.9, 14}, {7.0, 15}};
  for (size_t n = 0; n < 4; ++n) {
    SCOPED_TRACE(n);
    const std::vector<Sample> rows = test::readSaveMotionRows(
        (dir / ("WavePaddle_mkb0001_000" + std::to_string(n) + ".csv")).string(), "Time [s];Position [m]");
    ASSERT_EQ(rows.size(), expected[n].rows);
    EXPECT_DOUBLE_EQ(rows.front().t, 0);
    EXPECT_NEAR(rows.back().t, expected[n].last, 1e-9);
  }
}

struct BadPaddle {
  const char* name;
  std::string special;
  const char* marker;   // the text on the line the error must name
  const char* element;
  const char* what;
  std::string motion = kNullMotion;
};

std::string piston(const std::string& children) {
  return "<wavepaddles><piston>\n<mkbound value=\"1\" />\n" + children + "\n</piston></wavepaddles>";
}
const std::string kWave = "<depth value=\"0.2\" />\n<waveheight value=\"0.02\" />\n<waveperiod value=\"0.8\" />";

TEST(WavePaddleReader, RefusesBadPaddlesNamingLineAndElement) {
  const std::vector<BadPaddle> bad = {
      {"NoDepth", piston("<waveheight value=\"0.02\" />\n<waveperiod value=\"0.8\" />"), "<piston>", "piston",
       "missing element <depth>"},
      {"Order3", piston(kWave + "\n<waveorder value=\"3\" />"), "<waveorder", "waveorder", "must be 1 or 2"},
      {"NegativeHeight", piston("<depth value=\"0.2\" />\n<waveheight value=\"-1\" />\n<waveperiod value=\"0.8\" />"),
       "<waveheight", "waveheight", "must be positive"},
      {"ZeroDir", piston(kWave + "\n<pistondir x=\"0\" y=\"0\" z=\"0\" />"), "<pistondir", "pistondir",
       "direction is zero"},
      {"Unknown", piston(kWave + "\n<wavelength value=\"3\" />"), "<wavelength", "wavelength", "unknown"},
      {"FlapFocused", "<wavepaddles>\n<flap_focused><mkbound value=\"1\" /></flap_focused></wavepaddles>",
       "<flap_focused", "flap_focused", "not supported"},
      {"Savemotion", piston(kWave + "\n<savemotion time=\"0\" timedt=\"0.1\" />"), "<savemotion", "savemotion",
       "must be positive"},
      {"FlapAxis",
       "<wavepaddles><flap>\n<mkbound value=\"1\" />\n" + kWave +
           "\n<flapaxis0 x=\"0\" y=\"1\" z=\"0\" />\n<flapaxis1 x=\"0\" y=\"1\" z=\"0\" />\n</flap></wavepaddles>",
       "<flapaxis1", "flapaxis1", "same point"},
      {"FlapDraftOrder2",
       "<wavepaddles><flap>\n<mkbound value=\"1\" />\n" + kWave +
           "\n<waveorder value=\"2\" />\n<variabledraft value=\"-0.1\" />\n<flapaxis0 x=\"0\" y=\"-1\" z=\"0\" />\n"
           "<flapaxis1 x=\"0\" y=\"1\" z=\"0\" />\n</flap></wavepaddles>",
       "<variabledraft", "variabledraft", "undefined"},
      {"NoMotion", piston(kWave), "<piston>", "piston", "no <motion> object", ""},
      {"Twice", "<wavepaddles><piston>\n<mkbound value=\"1\" />\n" + kWave + "\n</piston>\n<piston>\n" +
                    "<mkbound value=\"1\" /><depth value=\"0.2\" /><waveheight value=\"0.01\" /><waveperiod value=\"1\" />"
                    "\n</piston></wavepaddles>",
       "<piston>\n<mkbound value=\"1\" /><depth", "mkbound 1", "already has the wave paddle"},
  };
  for (const BadPaddle& b : bad) {
    SCOPED_TRACE(b.name);
    test::PistonTank t;
    t.motion = b.motion;
    t.special = b.special;
    const std::string xml = test::pistonTankXml(t);
    const std::string path = test::writeFile(test::tempDir("wave_paddles") / (std::string(b.name) + "_Def.xml"), xml);
    test::expectInputErrorAt(path, xml, b.marker, b.element, b.what);
  }
}

// A whole CPU run: the piston's particles sit where the law puts them after each step (to the
// round-off of the steps' additions, which single precision keeps to double accuracy:
// physics/position_split.h), the rest of the tank stays where the case put it (a float and its float
// remainder hold a coordinate to 2^-48 of it).
TEST(WavePaddleRun, PistonParticlesFollowTheLaw) {
  std::string special = kPistonSpecial;
  const std::string start = "<start value=\"0.1\" />";
  special.replace(special.find(start), start.size(), "<start value=\"0.01\" />");
  const CaseDefinition c = loadPaddleCase("PistonRun", special);
  RunOptions o;
  o.device = Device::Cpu;
  o.writeOutput = false;
  o.progress = false;
  Simulation sim(c, o);
  const int steps = 200;
  for (int k = 0; k < steps; ++k) sim.step();
  const RegularPaddleLaw law(*c.motions[0].paddle);
  const double x = law.at(sim.time());
  ASSERT_GT(sim.time(), 0.01 + 0.02);  // past the start, the paddle moved
  ASSERT_GT(std::abs(x), 1e-5);
  const ParticleSnapshot p = sim.snapshot();
  // A float's rounding at 0.1 m a step would reach (steps + 1) 2^-24 0.1 m = 1.2e-6 m; with the
  // remainder each step's store errs by 2^-48 0.1 m = 3.6e-16 m at most.
  const double tol = 1e-12;
  int moved = 0;
  for (size_t i = 0; i < p.count(); ++i) {
    const Vec3d& x0 = c.positions[p.id[i]];
    if (p.mk[i] == 11) {
      ++moved;
      ASSERT_NEAR(p.pos[3 * i], x0.x + x, tol) << "paddle particle " << p.id[i];
      ASSERT_NEAR(p.pos[3 * i + 2], x0.z, std::ldexp(std::abs(x0.z), -48));
    } else if (p.mk[i] == 10) {
      ASSERT_NEAR(p.pos[3 * i], x0.x, std::ldexp(std::abs(x0.x), -48));
    }
  }
  EXPECT_GT(moved, 0);
}

}  // namespace
}  // namespace sph
