// Irregular-wave paddles (<piston_spectrum>, <flap_spectrum>, motion/paddle_irregular_law.h): the motion
// against what DualSPHysics 5.4 writes for the same parameters (WavePaddle_mkb0010.csv, made by
// tools/dualsphysics/irregular_paddle_fixtures.py) for both spectra, the four discretizations,
// autofit, ramp, start, duration, gain, a flap's hinge and the second order (the example's 1024
// waves, a shallow piston, a flap with its hinge up); the spectrum's energy; the reader and
// its errors; the files <savemotion> and <saveserie> write; a run whose piston follows the law.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "motion/paddle_irregular_law.h"
#include "motion/paddle_irregular_serie.h"
#include "motion/paddle_output.h"
#include "run/simulation.h"
#include "test_motion_cases.h"
#include "test_support.h"
#include "wave_paddle_fixture.h"

namespace sph {
namespace {

using Spectrum = IrregularWaves::Spectrum;
using Discretization = IrregularWaves::Discretization;

// DualSPHysics' CasePistonBeach_IRREG paddle at first order: Hs 0.15 m, Tp 2 s, d 0.66 m,
// JONSWAP gamma 3.3, 1024 stretched waves, seed 1234, series from 560 s with autofit.
WavePaddle examplePiston() {
  WavePaddle p;
  p.type = PaddleType::Piston;
  p.waves = PaddleWaves::Irregular;
  p.depth = 0.66;
  p.height = 0.15;
  p.period = 2;
  p.irregular.waves = 1024;
  p.irregular.seed = 1234;
  p.irregular.serieIni = 560;
  p.irregular.autofit = true;
  return p;
}

// CaseFlapBeach_IRREG's: the same sea state, 50 waves, seed 2, series from 140 s with autofit.
WavePaddle exampleFlap() {
  WavePaddle p = examplePiston();
  p.type = PaddleType::Flap;
  p.axis0 = {0, -1, 0};
  p.axis1 = {0, 1, 0};
  p.irregular.waves = 50;
  p.irregular.seed = 2;
  p.irregular.serieIni = 140;
  return p;
}

struct Variant {
  const char* fixture;
  WavePaddle paddle;
  double serieStart;  // what DualSPHysics printed (after autofit)
};

std::vector<Variant> variants() {
  std::vector<Variant> v;
  v.push_back({"irregular_piston_stretched_autofit", examplePiston(), 560.169});
  WavePaddle pm = examplePiston();
  pm.irregular.spectrum = Spectrum::PiersonMoskowitz;
  pm.irregular.discretization = Discretization::Regular;
  pm.irregular.waves = 50;
  pm.irregular.seed = 2;
  pm.irregular.serieIni = 0;
  pm.irregular.autofit = false;
  pm.irregular.rampTime = 2;
  v.push_back({"irregular_piston_pm_regular", pm, 0});
  WavePaddle random = examplePiston();
  random.irregular.discretization = Discretization::Random;
  random.irregular.waves = 20;
  random.irregular.seed = 7;
  random.irregular.peakCoef = 7;
  random.period = 1.3;
  random.height = 0.1;
  random.irregular.serieIni = 37.5;
  v.push_back({"irregular_piston_random_steep", random, 38.1034});
  WavePaddle cos = examplePiston();
  cos.irregular.discretization = Discretization::CosStretched;
  cos.irregular.waves = 40;
  cos.irregular.rampTime = 3;
  cos.start = 2;
  cos.duration = 6;
  cos.gainStroke = 1.3;
  cos.irregular.serieIni = 10;
  cos.irregular.autofit = false;
  v.push_back({"irregular_piston_cos_ramp_start", cos, 10});
  v.push_back({"irregular_flap_stretched_autofit", exampleFlap(), 140.496});
  WavePaddle draft = exampleFlap();
  draft.irregular.discretization = Discretization::Regular;
  draft.irregular.waves = 30;
  draft.irregular.peakCoef = 2.5;
  draft.draft = 0.1;
  draft.irregular.seed = 11;
  draft.irregular.serieIni = 0;
  draft.irregular.autofit = false;
  draft.irregular.rampTime = 1.5;
  v.push_back({"irregular_flap_draft", draft, 0});
  WavePaddle order2 = examplePiston();
  order2.order = 2;
  v.push_back({"irregular_piston_order2", order2, 560.075});
  WavePaddle shallow = examplePiston();
  shallow.order = 2;
  shallow.irregular.discretization = Discretization::Random;
  shallow.irregular.waves = 30;
  shallow.depth = 0.3;
  shallow.period = 3;
  shallow.height = 0.06;
  shallow.irregular.seed = 21;
  shallow.irregular.serieIni = 100;
  v.push_back({"irregular_piston_order2_shallow", shallow, 100.555});
  WavePaddle flap2 = exampleFlap();
  flap2.order = 2;
  flap2.irregular.discretization = Discretization::CosStretched;
  flap2.irregular.waves = 40;
  flap2.draft = 0.1;
  flap2.irregular.seed = 3;
  flap2.irregular.serieIni = 50;
  v.push_back({"irregular_flap_order2_draft", flap2, 50.2629});
  // The hinge 0.2 m above the bottom in the second order's terms: its motion drifts enough that
  // autofit finds its first zero 35 s after serieini.
  flap2.draft = -0.2;
  v.push_back({"irregular_flap_order2_draft_down", flap2, 85.3479});
  return v;
}

// DualSPHysics prints 6 decimals: its positions (m) and angles (rad) are known to 5e-7; ours are
// within that plus the rounding of the last decimal.
TEST(IrregularPaddleLaw, MatchesDualSPHysics) {
  for (const Variant& v : variants()) {
    SCOPED_TRACE(v.fixture);
    const test::PaddleFixture f = test::readPaddleFixture(v.fixture);
    ASSERT_GT(f.rows.size(), 500u);
    const IrregularPaddleLaw law(v.paddle);
    EXPECT_NEAR(law.serieStart(), v.serieStart, 1e-9);
    double worst = 0, largest = 0;
    for (const test::PaddleSample& s : f.rows) {
      // At its start DualSPHysics prints where the series starts (ramped); the particles, which
      // rest until then, go there in the first step (law.at() is 0 at the start).
      const bool first = s.t <= v.paddle.start;
      const double ours = !first ? law.at(s.t)
                          : v.paddle.irregular.rampTime > 0 ? 0.0
                                                            : law.serieMotion(law.serieStart());
      worst = std::max(worst, std::abs(ours - s.value));
      largest = std::max(largest, std::abs(s.value));
    }
    EXPECT_LT(worst, 6e-7);
    EXPECT_GT(largest, 0.01);  // the fixture moves
  }
}

TEST(IrregularPaddleLaw, StopsAfterItsDurationAndRestsBeforeItsStart) {
  const Variant v = variants()[3];  // start 2 s, duration 6 s
  const IrregularPaddleLaw law(v.paddle);
  EXPECT_EQ(law.at(1.9), 0.0);
  EXPECT_EQ(law.at(8.0), law.at(9.5));
  EXPECT_NE(law.at(7.9), law.at(8.0));
}

// The waves carry the spectrum's energy (sum a^2/2 = integral of S over the range), whatever the
// discretization; DualSPHysics' beta is Goda's without his correction, so that integral is not
// Hs^2/16 but 2.5% below it for gamma 3.3.
TEST(IrregularPaddleLaw, WavesCarryTheSpectrumsEnergy) {
  WavePaddle p = examplePiston();
  p.irregular.autofit = false;
  const auto [fmin, fmax] = spectrumRange(p);
  EXPECT_DOUBLE_EQ(fmin, 0.325);  // as DualSPHysics prints for Tp 2 s, gamma 3.3
  EXPECT_DOUBLE_EQ(fmax, 1.26);
  double integral = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) integral += spectrumDensity(p, fmin + (fmax - fmin) * (i + 0.5) / n) * (fmax - fmin) / n;
  EXPECT_NEAR(integral / (p.height * p.height / 16), 0.975, 0.01);
  for (Discretization d : {Discretization::Regular, Discretization::Random, Discretization::Stretched,
                           Discretization::CosStretched}) {
    p.irregular.discretization = d;
    const IrregularPaddleLaw law(p);
    double energy = 0, bands = 0;
    for (const auto& w : law.waves()) energy += w.amplitude * w.amplitude / 2, bands += w.df;
    EXPECT_NEAR(bands, fmax - fmin, 1e-12) << int(d);
    EXPECT_NEAR(energy / integral, 1.0, 2e-3) << int(d);
  }
}

// Stretched bands hold about the same energy: those the 2 df cap leaves free within 10% (each band
// overshoots its share by up to a cell's energy, which the last bands, at the peak, make up for).
TEST(IrregularPaddleLaw, StretchedBandsHoldAboutEqualEnergy) {
  WavePaddle p = examplePiston();
  p.irregular.waves = 100;
  p.irregular.autofit = false;
  const IrregularPaddleLaw law(p);
  const double df = (law.fmax() - law.fmin()) / 100;
  std::vector<double> energy;
  for (const auto& w : law.waves()) {
    EXPECT_LE(w.df, 2 * df * (1 + 1e-12));
    if (w.df < 1.99 * df) energy.push_back(w.amplitude * w.amplitude);
  }
  ASSERT_GT(energy.size(), 60u);
  const double mean = std::accumulate(energy.begin(), energy.end(), 0.0) / double(energy.size());
  for (double e : energy) EXPECT_NEAR(e / mean, 1.0, 0.1);
}

const char* kNullMotion = R"(<objreal ref="1"><begin mov="1" start="0" /><mvnull id="1" /></objreal>)";

CaseDefinition loadSpectrumCase(const std::string& name, const std::string& special) {
  test::PistonTank t;
  t.motion = kNullMotion;
  t.special = special;
  return loadCase(test::writeFile(test::tempDir("irregular_paddles") / (name + "_Def.xml"), test::pistonTankXml(t)));
}

TEST(IrregularPaddleReader, ReadsASpectrumPaddle) {
  const CaseDefinition c = loadSpectrumCase("Read", R"(<wavepaddles><piston_spectrum>
<mkbound value="1" />
<waveorder value="1" />
<start value="0.5" />
<duration value="20" />
<depth value="0.2" />
<pistondir x="1" y="0" z="0" />
<spectrum value="pierson-moskowitz" />
<discretization value="cosstretched" />
<waveheight value="0.03" />
<waveperiod value="1.1" />
<peakcoef value="2" />
<waves value="64" />
<randomseed value="99" />
<serieini value="12.5" autofit="true" />
<ramptime value="1.5" />
<gainstroke value="0.9" />
<savemotion time="3" timedt="0.05" />
<saveserie timemin="1" timemax="11" timedt="0.5" xpos="0.3" />
<saveseriewaves timemin="2" timemax="1000" xpos="0.4" />
<calcserielength timemax="600" />
</piston_spectrum></wavepaddles>)");
  const WavePaddle& p = *c.motions.at(0).paddle;
  EXPECT_EQ(p.waves, PaddleWaves::Irregular);
  EXPECT_EQ(p.type, PaddleType::Piston);
  EXPECT_DOUBLE_EQ(p.start, 0.5);
  EXPECT_DOUBLE_EQ(p.duration, 20);
  EXPECT_DOUBLE_EQ(p.height, 0.03);
  EXPECT_DOUBLE_EQ(p.period, 1.1);
  EXPECT_DOUBLE_EQ(p.gainStroke, 0.9);
  const IrregularWaves& w = p.irregular;
  EXPECT_EQ(w.spectrum, Spectrum::PiersonMoskowitz);
  EXPECT_EQ(w.discretization, Discretization::CosStretched);
  EXPECT_DOUBLE_EQ(w.peakCoef, 2);
  EXPECT_EQ(w.waves, 64);
  EXPECT_EQ(w.seed, 99u);
  EXPECT_DOUBLE_EQ(w.serieIni, 12.5);
  EXPECT_TRUE(w.autofit);
  EXPECT_DOUBLE_EQ(w.rampTime, 1.5);
  ASSERT_EQ(p.saveMotions.size(), 1u);
  EXPECT_DOUBLE_EQ(*p.saveMotions[0].time, 3);
  EXPECT_DOUBLE_EQ(w.serieTimeMin, 1);
  EXPECT_DOUBLE_EQ(w.serieTimeMax, 11);
  EXPECT_DOUBLE_EQ(w.serieTimeDt, 0.5);
  EXPECT_DOUBLE_EQ(w.serieX, 0.3);
  EXPECT_DOUBLE_EQ(w.wavesTimeMin, 2);
  EXPECT_DOUBLE_EQ(w.wavesTimeMax, 1000);
  EXPECT_DOUBLE_EQ(w.wavesX, 0.4);
  EXPECT_DOUBLE_EQ(w.lengthTime, 600);
}

TEST(IrregularPaddleReader, DefaultsAreDualSPHysics) {
  const CaseDefinition c = loadSpectrumCase("Defaults", R"(<wavepaddles><flap_spectrum>
<mkbound value="1" /><depth value="0.2" /><waveheight value="0.03" /><waveperiod value="1.1" />
<flapaxis0 x="0" y="-1" z="0" /><flapaxis1 x="0" y="1" z="0" />
</flap_spectrum></wavepaddles>)");
  const WavePaddle& p = *c.motions.at(0).paddle;
  EXPECT_EQ(p.type, PaddleType::Flap);
  EXPECT_EQ(p.order, 1);
  const IrregularWaves& w = p.irregular;
  EXPECT_EQ(w.spectrum, Spectrum::Jonswap);
  EXPECT_EQ(w.discretization, Discretization::Stretched);
  EXPECT_DOUBLE_EQ(w.peakCoef, 3.3);
  EXPECT_EQ(w.waves, 50);
  EXPECT_EQ(w.seed, 0u);
  EXPECT_FALSE(w.autofit);
  EXPECT_DOUBLE_EQ(w.serieTimeDt, 0);
  EXPECT_DOUBLE_EQ(w.wavesTimeMax, 0);
  EXPECT_DOUBLE_EQ(w.lengthTime, 0);
}

TEST(IrregularPaddleReader, RefusesBadSpectrumPaddlesNamingLineAndElement) {
  struct Bad {
    const char* name;
    std::string children;
    const char* marker;
    const char* element;
    const char* what;
  };
  const std::string sea = "<depth value=\"0.2\" />\n<waveheight value=\"0.03\" />\n<waveperiod value=\"1.1\" />";
  const std::vector<Bad> bad = {
      {"Spectrum", sea + "\n<spectrum value=\"bretschneider\" />", "<spectrum", "spectrum", "not a spectrum"},
      {"Discretization", sea + "\n<discretization value=\"even\" />", "<discretization", "discretization",
       "not a discretization"},
      {"NoWaves", sea + "\n<waves value=\"0\" />", "<waves", "waves", "whole number"},
      {"HalfWave", sea + "\n<waves value=\"2.5\" />", "<waves", "waves", "whole number"},
      {"Seed", sea + "\n<randomseed value=\"-1\" />", "<randomseed", "randomseed", "whole number"},
      {"Gamma", sea + "\n<peakcoef value=\"0.5\" />", "<peakcoef", "peakcoef", "at least 1"},
      {"SerieWaves", sea + "\n<saveseriewaves timemin=\"10\" timemax=\"10\" xpos=\"0\" />", "<saveseriewaves",
       "saveseriewaves", "timemax must be above timemin"},
      {"SerieWavesSamples", sea + "\n<saveseriewaves timemax=\"1e9\" />", "<saveseriewaves", "saveseriewaves",
       "100 million samples"},
      {"SerieLength", sea + "\n<calcserielength timemax=\"-1\" />", "<calcserielength", "calcserielength",
       "must be positive"},
      {"AwasBeforeRamp", sea + "\n<ramptime value=\"2\" />\n<awas_zsurf><swl value=\"0.2\" />\n<startawas value=\"1\" /></awas_zsurf>",
       "<startawas", "startawas", "end of the ramp (2 s)"},
      {"AwasPairs", sea + "\n<waves value=\"5000\" />\n<awas_zsurf><swl value=\"0.2\" /></awas_zsurf>", "<waves", "waves",
       "second-order absorption target"},
      {"Order3", sea + "\n<waveorder value=\"3\" />", "<waveorder", "waveorder", "must be 1 or 2"},
      {"Pairs", sea + "\n<waveorder value=\"2\" />\n<waves value=\"5000\" />", "<waves", "waves",
       "every pair"},
      {"Serie", sea + "\n<saveserie timemin=\"5\" timemax=\"1\" timedt=\"0.1\" />", "<saveserie", "saveserie",
       "timemax above timemin"},
      {"Periods", sea + "\n<savemotion periods=\"3\" periodsteps=\"20\" />", "<savemotion", "savemotion",
       "time and timedt"},
      {"Unknown", sea + "\n<wavelength value=\"3\" />", "<wavelength", "wavelength", "unknown"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.name);
    test::PistonTank t;
    t.motion = kNullMotion;
    t.special = "<wavepaddles><piston_spectrum>\n<mkbound value=\"1\" />\n" + b.children + "\n</piston_spectrum></wavepaddles>";
    const std::string xml = test::pistonTankXml(t);
    const std::string path = test::writeFile(test::tempDir("irregular_paddles") / (std::string(b.name) + "_Def.xml"), xml);
    test::expectInputErrorAt(path, xml, b.marker, b.element, b.what);
  }
}

// The second order's lever is depth + variabledraft: a hinge at or above the surface in its
// terms is refused.
TEST(IrregularPaddleReader, RefusesASecondOrderFlapWithoutLever) {
  test::PistonTank t;
  t.motion = kNullMotion;
  t.special = R"(<wavepaddles><flap_spectrum>
<mkbound value="1" /><waveorder value="2" /><depth value="0.2" /><waveheight value="0.03" /><waveperiod value="1.1" />
<variabledraft value="-0.2" />
<flapaxis0 x="0" y="-1" z="0" /><flapaxis1 x="0" y="1" z="0" />
</flap_spectrum></wavepaddles>)";
  const std::string xml = test::pistonTankXml(t);
  const std::string path = test::writeFile(test::tempDir("irregular_paddles") / "FlapDraft_Def.xml", xml);
  test::expectInputErrorAt(path, xml, "<variabledraft", "variabledraft", "above minus the depth");
}

// The rows of a paddle output file that start with a digit (its header lines do not), split at ';'.
std::vector<std::vector<double>> numericRows(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<std::vector<double>> out;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || !std::isdigit(static_cast<unsigned char>(line[0]))) continue;
    std::vector<double> v;
    size_t at = 0;
    for (size_t semi; (semi = line.find(';', at)) != std::string::npos; at = semi + 1)
      v.push_back(std::stod(line.substr(at, semi - at)));
    v.push_back(std::stod(line.substr(at)));
    out.push_back(v);
  }
  return out;
}

// <savemotion> writes the law at its sample times, <saveserie> the series (motion and the
// first-order elevation at xpos) at serie times.
TEST(IrregularPaddleOutput, WritesTheMotionAndTheSerie) {
  WavePaddle p = exampleFlap();
  p.mkbound = 7;
  p.saveMotions.push_back(PaddleSaveMotion::spanning(4.0, 0.5));
  p.irregular.serieTimeMin = 100;
  p.irregular.serieTimeMax = 102;
  p.irregular.serieTimeDt = 0.25;
  p.irregular.serieX = 1.5;
  const std::filesystem::path dir = test::tempDir("irregular_paddles") / "output";
  std::filesystem::create_directories(dir);
  writeWavePaddleMotions(dir, {p}, 10, 0.1);
  const IrregularPaddleLaw law(p);
  const auto motion = numericRows(dir / "WavePaddle_mkb0007_0000.csv");
  ASSERT_EQ(motion.size(), 9u);
  for (const auto& r : motion) EXPECT_NEAR(r[1], law.at(r[0]), 1e-9);
  const auto serie = numericRows(dir / "WavePaddle_mkb0007_Serie.csv");
  ASSERT_EQ(serie.size(), 9u);
  EXPECT_DOUBLE_EQ(serie.front()[0], 100);
  for (const auto& r : serie) {
    EXPECT_NEAR(r[1], law.serieElevation(1.5, r[0]), 1e-11);
    EXPECT_NEAR(r[2], law.serieMotion(r[0]), 1e-11);
  }
}

// <saveseriewaves> writes the series' waves of both orders, as serieWaves gives them, to
// WavePaddle_mkbNNNN_SerieWaves_o1.csv and _o2.csv in DualSPHysics' format.
TEST(IrregularPaddleOutput, WritesTheSeriesWaves) {
  WavePaddle p = examplePiston();
  p.mkbound = 3;
  p.irregular.waves = 40;
  p.irregular.wavesTimeMin = 5;
  p.irregular.wavesTimeMax = 25;
  p.irregular.wavesX = 0.5;
  const std::filesystem::path dir = test::tempDir("irregular_paddles") / "serie_waves";
  std::filesystem::create_directories(dir);
  writeWavePaddleMotions(dir, {p}, 10, 0.1);
  const IrregularPaddleLaw law(p);
  for (int order : {1, 2}) {
    const std::vector<SerieWave> expected = serieWaves(law, p, 0.5, 5, 25, order);
    ASSERT_GT(expected.size(), 5u);
    const auto rows = numericRows(dir / ("WavePaddle_mkb0003_SerieWaves_o" + std::to_string(order) + ".csv"));
    size_t n = 0;
    for (; n < rows.size(); ++n) {
      ASSERT_LT(n, expected.size());
      const std::vector<double>& v = rows[n];
      ASSERT_EQ(v.size(), 4u);
      EXPECT_EQ(v[0], double(n + 1));
      EXPECT_NEAR(v[1], expected[n].start, 1e-11 * expected[n].start);
      EXPECT_NEAR(v[2], expected[n].height, 1e-11 * expected[n].height);
      EXPECT_NEAR(v[3], expected[n].period, 1e-11 * expected[n].period);
    }
    EXPECT_EQ(n, expected.size());
  }
}

// The series' waves and length against DualSPHysics 5.4 (tools/dualsphysics/serie_waves_fixtures.py):
// a first-order piston of 50 waves analysed at x = 0 over 0-100 s, and a second-order one of 30
// random-band waves of Tp 1.5 s at x = 1 m over 10-60 s. DualSPHysics prints 13 digits; ours
// differ by a few 1e-10 s (its sample times are accumulated, ours multiplied) and, at second
// order, by up to 2e-9 m in height (the bound waves interpolated between 0.01 s samples): 1e-8 s
// and 5e-9 m. A sampling other than Tp/1000 moves the crossings by 1e-7 s or more, the
// first-order elevation in place of the second moves the heights by millimetres.
TEST(IrregularPaddleLaw, SeriesWavesAndLengthMatchDualSPHysics) {
  struct Case {
    const char* fixture;
    WavePaddle paddle;
    double x, timeMin, timeMax, lengthTime;
    long length;  // the waves DualSPHysics printed
  };
  WavePaddle first = examplePiston();
  first.irregular.waves = 50;
  WavePaddle second = examplePiston();
  second.order = 2;
  second.irregular.waves = 30;
  second.irregular.discretization = Discretization::Random;
  second.irregular.seed = 7;
  second.period = 1.5;
  const Case cases[] = {{"serie_waves_first", first, 0, 0, 100, 1000, 597},
                        {"serie_waves_second", second, 1, 10, 60, 300, 240}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fixture);
    const IrregularPaddleLaw law(c.paddle);
    const auto rows = test::readFixtureRows(test::dualsphysicsData(std::string("wave_paddles/") + c.fixture + ".csv"), 5);
    for (int order : {1, 2}) {
      const std::vector<SerieWave> ours = serieWaves(law, c.paddle, c.x, c.timeMin, c.timeMax, order);
      size_t n = 0;
      for (const auto& r : rows) {
        if (int(r[0]) != order) continue;
        ASSERT_LT(n, ours.size()) << "order " << order;
        EXPECT_NEAR(ours[n].start, r[2], 1e-8) << "order " << order << " wave " << r[1];
        EXPECT_NEAR(ours[n].height, r[3], 5e-9) << "order " << order << " wave " << r[1];
        EXPECT_NEAR(ours[n].period, r[4], 1e-8) << "order " << order << " wave " << r[1];
        ++n;
      }
      EXPECT_EQ(n, ours.size()) << "order " << order;
      EXPECT_GT(n, 30u);
    }
    EXPECT_EQ(serieLengthWaves(law, c.paddle, c.lengthTime), c.length);
  }
}

// A whole CPU run: the piston's particles sit where the law puts them after each step.
TEST(IrregularPaddleRun, PistonParticlesFollowTheLaw) {
  const CaseDefinition c = loadSpectrumCase("Run", R"(<wavepaddles><piston_spectrum>
<mkbound value="1" /><depth value="0.2" /><waveheight value="0.03" /><waveperiod value="0.9" />
<waves value="30" /><randomseed value="5" /><serieini value="20" autofit="true" />
</piston_spectrum></wavepaddles>)");
  RunOptions o;
  o.device = Device::Cpu;
  o.writeOutput = false;
  o.progress = false;
  Simulation sim(c, o);
  const int steps = 200;
  for (int k = 0; k < steps; ++k) sim.step();
  const IrregularPaddleLaw law(*c.motions[0].paddle);
  const double x = law.at(sim.time());
  ASSERT_GT(std::abs(x), 1e-5);
  const ParticleSnapshot p = sim.snapshot();
  const double tol = (steps + 1) * std::numeric_limits<float>::epsilon() * 0.1;
  int moved = 0;
  for (size_t i = 0; i < p.count(); ++i) {
    if (p.mk[i] != 11) continue;
    ++moved;
    ASSERT_NEAR(p.pos[3 * i], c.positions[p.id[i]].x + x, tol) << "paddle particle " << p.id[i];
  }
  EXPECT_GT(moved, 0);
}

}  // namespace
}  // namespace sph
