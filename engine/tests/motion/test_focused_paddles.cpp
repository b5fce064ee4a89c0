// Focused wave groups (<piston_focused>, motion/paddle_irregular_law.h): the piston's motion against
// what DualSPHysics 5.4 writes for the same parameters (tests/data/dualsphysics/focused/Focused_*.csv,
// made by tools/dualsphysics/focused_paddle_fixtures.py; each fixture's first line is its
// <piston_focused>, put into FocusedPaddle_Def.xml and read by the case loader): JONSWAP and
// Pierson-Moskowitz, regular, stretched and random bands, the second order, start, duration, the
// initial ramp, fmovtime with and without its ramp, fphase, gainstroke, both <maxwaveh> forms. The
// fixtures print 6 decimals: within 1e-6 m (5e-7 m measured, the printing's own).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "case/loader.h"
#include "motion/paddle_law.h"
#include "motion/paddle_output.h"
#include "test_support.h"

namespace sph {
namespace {

const std::string kFocused = std::string(SPH_SOURCE_DIR) + "/engine/tests/data/dualsphysics/focused/";


// FocusedPaddle_Def.xml with its <piston_focused> replaced by `paddle`.
std::string withPaddle(const std::string& paddle) {
  std::string xml = test::readText(kFocused + "FocusedPaddle_Def.xml");
  const size_t a = xml.find("<piston_focused>", xml.find("<wavepaddles>")), b = xml.find("</piston_focused>") + 17;
  return xml.replace(a, b - a, paddle);
}

WavePaddle loadPaddle(const std::string& folder, const std::string& paddle) {
  const CaseDefinition c = loadCase(test::writeFile(test::tempDir(folder) / "Focused_Def.xml", withPaddle(paddle)));
  for (const MotionObject& o : c.motions)
    if (o.paddle) return *o.paddle;
  throw std::runtime_error("no paddle");
}

class FocusedPaddle : public ::testing::TestWithParam<const char*> {};

TEST_P(FocusedPaddle, FollowsDualSPHysics) {
  std::ifstream in(kFocused + "Focused_" + GetParam() + ".csv");
  std::string head;
  std::getline(in, head);
  ASSERT_EQ(head.rfind("# ", 0), 0u);
  const WavePaddle p = loadPaddle(std::string("focused_") + GetParam(), head.substr(2));
  EXPECT_TRUE(p.irregular.focus.on);
  const PaddleLaw law(p);
  double worst = 0, largest = 0;
  size_t rows = 0;
  for (std::string line; std::getline(in, line);) {
    const size_t semi = line.find(';');
    const double t = std::stod(line.substr(0, semi)), x = std::stod(line.substr(semi + 1));
    worst = std::max(worst, std::fabs(law.at(t) - x));
    largest = std::max(largest, std::fabs(x));
    ++rows;
  }
  std::printf("%s: %zu rows, largest |X| %.3g m, largest difference %.2g m\n", GetParam(), rows, largest, worst);
  EXPECT_GT(rows, 250u);
  EXPECT_GT(largest, 1e-3);
  EXPECT_LE(worst, 1e-6);
}

// big1: start 5 s, ramp 20 s, fpretime 30 s, fmovtime 250 s ramped over 30 s, fphase 45; big2:
// Pierson-Moskowitz, stretched, gain 0.8, Nw from <maxwaveh time>; big3: duration 100 s, peakcoef
// 2, fphase 180, <maxwaveh nwaves="200">; o2big: second order, stretched; bigrandom: random bands;
// elev: second order, gain 1.7, start 0.3 s, a 0.4 s ramp, fmovtime 0.8 s ramped over 0.3 s.
INSTANTIATE_TEST_SUITE_P(DualSPHysics, FocusedPaddle,
                         ::testing::Values("big1", "big2", "big3", "o2big", "bigrandom", "elev"));

// DualSPHysics' printed focus (big1): the reach time 93.3863 s and Hmax 18.5555 m.
TEST(FocusedPaddleLaw, FocusTimeAndMaximumHeight) {
  std::ifstream in(kFocused + "Focused_big1.csv");
  std::string head;
  std::getline(in, head);
  const WavePaddle p = loadPaddle("focused_numbers", head.substr(2));
  const PaddleLaw law(p);
  ASSERT_TRUE(law.irregular());
  EXPECT_NEAR(law.irregular()->focusTime(), 93.3863, 1e-4);
  EXPECT_NEAR(law.irregular()->maxHeight(), 18.5555, 1e-4);
  EXPECT_DOUBLE_EQ(law.end(), 5 + 250.0);  // back at rest after fmovtime
  EXPECT_EQ(law.at(5 + 250.5), 0.0);
}

TEST(FocusedPaddleReader, DefaultsAndErrors) {
  const WavePaddle p = loadPaddle("focused_defaults", R"(<piston_focused><mkbound value="10" /><depth value="0.5" />
<spectrum value="jonswap" /><randomseed value="1" /><waveheight value="0.1" /><waveperiod value="1.5" /><xf value="3" />
</piston_focused>)");
  EXPECT_EQ(p.irregular.discretization, IrregularWaves::Discretization::Regular);
  EXPECT_EQ(p.irregular.waves, 128);
  EXPECT_EQ(p.irregular.focus.preTime, 5);
  EXPECT_EQ(p.irregular.focus.maxWaves, 1000);
  EXPECT_EQ(p.irregular.focus.moveTime, 0);
  const auto bad = [](const std::string& name, const std::string& paddle, const std::string& marker,
                      const std::string& element, const std::string& text) {
    SCOPED_TRACE(name);
    test::expectLoadError("focused_bad_" + name, withPaddle(paddle), marker, element, text);
  };
  const std::string base = R"(<piston_focused><mkbound value="10" /><depth value="0.5" /><spectrum value="jonswap" />
<randomseed value="1" /><waveheight value="0.1" /><waveperiod value="1.5" /><xf value="3" />)";
  bad("seed", R"(<piston_focused><mkbound value="10" /><depth value="0.5" /><spectrum value="jonswap" />
<waveheight value="0.1" /><waveperiod value="1.5" /><xf value="3" /></piston_focused>)",
      "<piston_focused><mkbound", "<piston_focused>", "missing element <randomseed>");
  bad("xf", R"(<piston_focused><mkbound value="10" /><depth value="0.5" /><spectrum value="jonswap" />
<randomseed value="1" /><waveheight value="0.1" /><waveperiod value="1.5" /></piston_focused>)",
      "<piston_focused><mkbound", "<piston_focused>", "missing element <xf>");
  bad("fmovtime", base + R"(<fmovtime value="-1" /></piston_focused>)", "<fmovtime", "<fmovtime>",
      "must not be negative");
  bad("maxwaveh", base + R"(<maxwaveh nwaves="1" /></piston_focused>)", "<maxwaveh", "<maxwaveh>", "more than one");
  bad("serieini", base + R"(<serieini value="3" /></piston_focused>)", "<serieini", "<serieini>", "");
  bad("awas", base + R"(<awas_zsurf><swl value="0.5" /></awas_zsurf></piston_focused>)", "<awas_zsurf", "<awas_zsurf>",
      "not available with focused waves");
}

}  // namespace
}  // namespace sph
