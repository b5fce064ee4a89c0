// GenCase's particle patterns (geometry/node_pattern.h): the places of a tile from its text (the
// characters, or hexadecimal digits), scale, gap and border, worked by hand; the errors GenCase
// gives for bad patterns, named at their elements. The drawings with patterns are compared with
// GenCase 5.0 node for node by the parity fixture (GcPatterns_Def.xml, GcPatterns3D_Def.xml in
// tests/data/gencase/parity.csv).
#include <gtest/gtest.h>

#include <string>

#include "geometry/node_pattern.h"
#include "test_support.h"

namespace sph::gen {
namespace {

NodePattern make(const std::string& text, std::array<int64_t, 3> size, std::array<int64_t, 3> scale = {1, 1, 1},
                 std::array<int64_t, 3> gap = {0, 0, 0}, std::array<int64_t, 3> border = {0, 0, 0}) {
  NodePattern p;
  const std::string why = makeNodePattern("p", text, size.data(), scale.data(), gap.data(), border.data(), p);
  EXPECT_EQ(why, "");
  return p;
}

TEST(NodePattern, PlacesScaleGapBorder) {
  // "X-" along x, three nodes high per cell: x even is a particle place.
  const NodePattern dots = make("X-", {2, 1, 1}, {1, 1, 3});
  EXPECT_TRUE(dots.filled(0, 0, 0));
  EXPECT_FALSE(dots.filled(1, 0, 5));
  EXPECT_TRUE(dots.filled(-2, 0, -7));  // a true modulo below the origin
  // Scale 2 and gap 1 in x: nodes 1, 2 are cell 0 ('X'), 3, 4 cell 1 ('-'); node 0 is cell 1 of
  // the tile before.
  const NodePattern scaled = make("X-", {2, 1, 1}, {2, 1, 1}, {1, 0, 0});
  EXPECT_TRUE(scaled.filled(1, 0, 0) && scaled.filled(2, 0, 0));
  EXPECT_FALSE(scaled.filled(3, 0, 0) || scaled.filled(4, 0, 0) || scaled.filled(0, 0, 0));
  // A border of 2 after each tile of one 'X': places 0 and 3, 6, ...
  const NodePattern bordered = make("X", {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {2, 0, 0});
  EXPECT_TRUE(bordered.filled(3, 7, 2));
  EXPECT_FALSE(bordered.filled(4, 0, 0));
  // x fastest, then y, then z: "X------X" puts places at (0,0,0) and (1,1,1).
  const NodePattern corner = make("X------X", {2, 2, 2});
  EXPECT_TRUE(corner.filled(0, 0, 0) && corner.filled(1, 1, 1));
  EXPECT_FALSE(corner.filled(1, 0, 0) || corner.filled(0, 1, 1));
}

// The template's cross_hex is its cross: hexadecimal digits, most significant bit first.
TEST(NodePattern, HexadecimalIsTheCharacters) {
  const NodePattern hex = make("213e420", {5, 1, 5});
  const NodePattern chars = make("--X----X--XXXXX--X----X--", {5, 1, 5});
  EXPECT_EQ(hex.places, chars.places);
  EXPECT_EQ(make("7", {3, 1, 1}).places, (std::vector<uint8_t>{0, 1, 1}));
}

TEST(NodePattern, BadPatternsAreRefused) {
  NodePattern p;
  const int64_t one[3] = {1, 1, 1}, zero[3] = {0, 0, 0}, two[3] = {2, 1, 1}, bad[3] = {0, 1, 1};
  EXPECT_NE(makeNodePattern("p", "X", bad, one, zero, zero, p).find("size X"), std::string::npos);
  EXPECT_NE(makeNodePattern("p", "X", one, bad, zero, zero, p).find("scale X"), std::string::npos);
  EXPECT_NE(makeNodePattern("p", "XX", two, one, two, zero, p).find("gap X"), std::string::npos);
  EXPECT_NE(makeNodePattern("p", "", one, one, zero, zero, p).find("empty"), std::string::npos);
  EXPECT_NE(makeNodePattern("p", "X1", two, one, zero, zero, p).find("not valid"), std::string::npos);
  EXPECT_NE(makeNodePattern("p", "XXX", two, one, zero, zero, p).find("3 characters for 2 places"), std::string::npos);
  EXPECT_NE(makeNodePattern("p", "10", two, one, zero, zero, p).find("hexadecimal"), std::string::npos);
}

TEST(NodePatternReader, ErrorsNameTheElement) {
  const auto withPatterns = [](const std::string& patterns, const std::string& command) {
    std::string xml = test::caseXml(
        R"(<definition dp="0.1"><pointmin x="0" y="0" z="0" /><pointmax x="1" y="0" z="1" /></definition>)",
        command + R"(<setmkfluid mk="0" /><drawbox><boxfill>solid</boxfill><point x="0.1" y="-1" z="0.1" />
<size x="0.5" y="2" z="0.5" /></drawbox>)",
        R"(<parameter key="TimeMax" value="0.1" />)");
    xml.insert(xml.find("<geometry>"), "<patterns>" + patterns + "</patterns>\n");
    return xml;
  };
  const std::string brick = R"(<pattern name="Brick" pattern="X-"><size x="2" y="1" z="1" /></pattern>)";
  test::expectLoadError(
      "pattern_twice",
      withPatterns(brick + R"(<pattern name="brick" pattern="X"><size x="1" y="1" z="1" /></pattern>)", ""),
      "<pattern name=\"brick\"", "<pattern>", "already exists");
  test::expectLoadError("pattern_unknown", withPatterns(brick, R"(<setpattern name="tile" />)"), "<setpattern",
                        "<setpattern>", "no such pattern");
  test::expectLoadError("pattern_length",
                        withPatterns(R"(<pattern name="p" pattern="XXX"><size x="2" y="1" z="1" /></pattern>)", ""),
                        "<pattern name=\"p\"", "<pattern>", "3 characters for 2 places");
  test::expectLoadError("pattern_size",
                        withPatterns(R"(<pattern name="p" pattern="X"><scale x="1" y="1" z="1" /></pattern>)", ""),
                        "<pattern name=\"p\"", "<pattern>", "missing element <size>");
  // Names of any case, and "solid" (no pattern).
  const CaseDefinition c =
      loadCase(test::writeFile(test::tempDir("pattern_ok") / "case.xml",
                               withPatterns(brick, R"(<setpattern name="BRICK" /><setpattern name="Solid" />)")));
  EXPECT_EQ(c.nFluid, 36u);
}

}  // namespace
}  // namespace sph::gen
