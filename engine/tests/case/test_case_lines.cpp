// GenCase's line commands, mk stepping, draw distances and two-particles-per-node lattice as the
// loader reads them (the rules in engine/src/geometry/particle_generator.h; whole cases are compared with
// GenCase in test_gencase_parity), and the errors for bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "case/loader.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace {

using sph::CaseDefinition;
using sph::InputError;
using sph::Vec3d;

// Positions are made from dp in a few double operations: a few ulps of the coordinate.
constexpr double kPosTol = 1e-12;

// A case with a fluid particle far from the shapes (the loader wants fluid) after `commands`.
std::string caseXml(const std::string& commands, const std::string& constants = "", bool twoD = false) {
  const std::string y = twoD ? "0" : "-1";
  const std::string y1 = twoD ? "0" : "2";
  return "<?xml version=\"1.0\" ?>\n<case>\n<casedef>\n<constantsdef>\n" + constants +
         "</constantsdef>\n<mkconfig boundcount=\"240\" fluidcount=\"9\" />\n<geometry>\n"
         "<definition dp=\"0.1\">\n<pointmin x=\"-1\" y=\"" + y + "\" z=\"-1\" />\n"
         "<pointmax x=\"2\" y=\"" + y1 + "\" z=\"2\" />\n</definition>\n"
         "<commands>\n<mainlist>\n<setdrawmode mode=\"full\" />\n" + commands +
         "<setmkfluid mk=\"0\" />\n<drawpoint x=\"1.5\" y=\"0\" z=\"1.5\" />\n"
         "</mainlist>\n</commands>\n</geometry>\n</casedef>\n<execution>\n"
         "<parameters>\n<parameter key=\"TimeMax\" value=\"0.1\" />\n</parameters>\n</execution>\n</case>\n";
}

CaseDefinition load(const std::string& xml) {
  return sph::loadCase(sph::test::writeFile(sph::test::tempDir("lines") / "case_Def.xml", xml));
}

// The boundary positions of `c` in (x, z), in GenCase's order.
std::vector<std::pair<double, double>> boundaryXz(const CaseDefinition& c) {
  std::vector<std::pair<double, double>> out;
  for (size_t n = 0; n < c.nBound; ++n) out.push_back({c.positions[n].x, c.positions[n].z});
  return out;
}

void expectBad(const std::string& xml, const std::string& marker, const std::string& element,
               const std::string& text) {
  sph::test::expectLoadError("lines_bad", xml, marker, element, text);
}

const char* kLine =
    "<drawline>\n<point x=\"0\" y=\"0\" z=\"0\" />\n<point x=\"0.5\" y=\"0\" z=\"0.2\" />\n</drawline>\n";

TEST(CaseLines, LineNodesAreGenCases) {
  // GenCase 5.0 draws these 8 nodes for this line at dp 0.1 (2D), in node order.
  const CaseDefinition c = load(caseXml("<setmkbound mk=\"0\" />\n" + std::string(kLine), "", true));
  const std::vector<std::pair<double, double>> expected{{0, 0},     {0.1, 0},   {0.1, 0.1}, {0.2, 0.1},
                                                        {0.3, 0.1}, {0.4, 0.1}, {0.4, 0.2}, {0.5, 0.2}};
  const auto got = boundaryXz(c);
  ASSERT_EQ(got.size(), expected.size());
  for (size_t n = 0; n < got.size(); ++n) {
    EXPECT_NEAR(got[n].first, expected[n].first, kPosTol) << n;
    EXPECT_NEAR(got[n].second, expected[n].second, kPosTol) << n;
  }
}

TEST(CaseLines, ReachAndEndsOnOneNode) {
  // cteline widens (1.3 dp) or narrows (0.3 dp) the line; GenCase 5.0 draws 8 nodes by
  // default, 4 at 0.3 and 14 at 1.3 (the ends' box has 18).
  auto count = [](const std::string& ctes) {
    return load(caseXml(ctes + "<setmkbound mk=\"0\" />\n" + kLine, "", true)).nBound;
  };
  EXPECT_EQ(count(""), 8u);
  EXPECT_EQ(count("<setdpctes cteline=\"0.3\" />\n"), 4u);
  EXPECT_EQ(count("<setdpctes cteline=\"1.3\" />\n"), 14u);
  EXPECT_EQ(count("<setdpctes cteline=\"0.3\" />\n<setdpctes cteline=\"-1\" />\n"), 4u);  // -1: unchanged
  EXPECT_EQ(count("<setdpctes cteline=\"0.3\" />\n<dpctesreset />\n"), 8u);
  EXPECT_EQ(count("<dpctessave />\n<setdpctes cteline=\"0.3\" />\n<dpctesload />\n"), 8u);
  EXPECT_EQ(count("<setdpctes cteline=\"0.3\" />\n<resetdraw />\n<setdrawmode mode=\"full\" />\n"), 8u);
  // Both ends on one node: nothing.
  const CaseDefinition c = load(caseXml(
      "<setmkbound mk=\"0\" />\n<drawline>\n<point x=\"0.5\" y=\"0\" z=\"0.5\" />\n"
      "<point x=\"0.54\" y=\"0\" z=\"0.46\" />\n</drawline>\n",
      "", true));
  EXPECT_EQ(c.nBound, 0u);
}

TEST(CaseLines, NextBoundStepsTheMk) {
  auto mks = [](const std::string& commands) {
    std::vector<int> out;
    for (const sph::MkEntry& m : load(caseXml(commands)).mks)
      if (m.bound) out.push_back(m.local);
    return out;
  };
  const std::string p0 = "<drawpoint x=\"0\" y=\"0\" z=\"0\" />\n", p1 = "<drawpoint x=\"0.1\" y=\"0\" z=\"0\" />\n";
  const std::string p2 = "<drawpoint x=\"0.2\" y=\"0\" z=\"0\" />\n";
  EXPECT_EQ(mks("<setmkbound mk=\"3\" />\n" + p0 + "<setmknextbound next=\"true\" />\n" + p1 +
                "<setmknextbound next=\"true\" />\n" + p2),
            (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(mks("<setmkbound mk=\"3\" />\n" + p0 + "<setmknextbound next=\"false\" />\n" + p1),
            (std::vector<int>{2, 3}));
  // From a fluid or void mk it selects mkbound 0, whichever the direction.
  EXPECT_EQ(mks("<setmkbound mk=\"5\" />\n" + p0 + "<setmkfluid mk=\"2\" />\n<setmknextbound next=\"true\" />\n" + p1),
            (std::vector<int>{0, 5}));
  EXPECT_EQ(mks("<setmkbound mk=\"5\" />\n" + p0 + "<setmkvoid />\n<setmknextbound next=\"false\" />\n" + p1),
            (std::vector<int>{0, 5}));
}

// The speed of sound, given: one fluid particle has no height to derive it from.
const std::string kSound = "<speedsound value=\"10\" auto=\"false\" />\n";

TEST(CaseLines, TwoParticlesPerNode) {
  const std::string box =
      "<setmkbound mk=\"0\" />\n<drawbox>\n<boxfill>solid</boxfill>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
      "<size x=\"0.1\" y=\"0\" z=\"0\" />\n</drawbox>\n";
  const CaseDefinition c = load(caseXml(box, "<lattice bound=\"2\" fluid=\"1\" />\n" + kSound));
  // Nodes (0,0,0) and (0.1,0,0), each as node - dp/4 (1,1,1) then node + dp/4 (1,1,1).
  const std::vector<Vec3d> expected{{-0.025, -0.025, -0.025}, {0.025, 0.025, 0.025},
                                    {0.075, -0.025, -0.025}, {0.125, 0.025, 0.025}};
  ASSERT_EQ(c.nBound, expected.size());
  for (size_t n = 0; n < expected.size(); ++n) {
    EXPECT_NEAR(c.positions[n].x, expected[n].x, kPosTol) << n;
    EXPECT_NEAR(c.positions[n].y, expected[n].y, kPosTol) << n;
    EXPECT_NEAR(c.positions[n].z, expected[n].z, kPosTol) << n;
  }
  EXPECT_EQ(c.nFluid, 1u);
  EXPECT_NEAR(c.positions[4].x, 1.5, kPosTol);  // the fluid stays on its node
  const sph::SimParameters p = sph::deriveParameters(c);
  EXPECT_DOUBLE_EQ(p.massBound, 0.5);  // GenCase: rhop0 dp^3 / 2
  EXPECT_DOUBLE_EQ(p.massFluid, 1.0);

  // 2D: the pair keeps the plane's y; the fluid lattice doubles (and halves its mass) alike
  // (GenCase: fluid at (1.475, 0, 1.475) and (1.525, 0, 1.525), mass 5).
  const std::string box2d =
      "<setmkbound mk=\"0\" />\n<drawbox>\n<boxfill>solid</boxfill>\n<point x=\"0\" y=\"-0.1\" z=\"0\" />\n"
      "<size x=\"0.1\" y=\"0.2\" z=\"0\" />\n</drawbox>\n";
  const CaseDefinition d = load(caseXml(box2d, "<lattice bound=\"1\" fluid=\"2\" />\n" + kSound, true));
  ASSERT_EQ(d.nBound, 2u);
  ASSERT_EQ(d.nFluid, 2u);
  EXPECT_NEAR(d.positions[2].x, 1.475, kPosTol);
  EXPECT_NEAR(d.positions[2].y, 0, kPosTol);
  EXPECT_NEAR(d.positions[3].z, 1.525, kPosTol);
  EXPECT_DOUBLE_EQ(sph::deriveParameters(d).massFluid, 5.0);
}

TEST(CaseLinesErrors, BadInput) {
  expectBad(caseXml("", "<lattice bound=\"3\" fluid=\"1\" />\n"), "<lattice", "<lattice>", "bound=\"3\"");
  expectBad(caseXml("", "<lattice bound=\"1\" fluid=\"0\" />\n"), "<lattice", "<lattice>", "fluid=\"0\"");
  expectBad(caseXml("", "<lattice bound=\"1.5\" fluid=\"1\" />\n"), "<lattice", "<lattice>", "bound");
  std::string inDefinition = caseXml("");
  inDefinition.replace(inDefinition.find("<pointmin"), 0, "<lattice bound=\"2\" fluid=\"1\" />\n");
  expectBad(inDefinition, "<lattice", "<lattice>", "belongs in <constantsdef>");

  const std::string b = "<setmkbound mk=\"0\" />\n";
  expectBad(caseXml(b + "<drawline>\n<point x=\"0\" y=\"0\" z=\"0\" />\n</drawline>\n"), "<drawline>", "<drawline>",
            "needs 2 points");
  expectBad(caseXml(b + "<drawlines>\n<point x=\"0\" y=\"0\" z=\"0\" />\n</drawlines>\n"), "<drawlines>",
            "<drawlines>", "at least 2 points");
  expectBad(caseXml("<drawline>\n<point x=\"0\" y=\"0\" z=\"0\" />\n<point x=\"1\" y=\"0\" z=\"0\" />\n</drawline>\n"),
            "<drawline>", "<drawline>", "no mk selected");

  expectBad(caseXml(b + "<setdpctes ctelines=\"0.9\" />\n"), "<setdpctes", "<setdpctes>", "unknown attribute ctelines");
  expectBad(caseXml(b + "<setdpctes cteline=\"0\" />\n"), "<setdpctes", "<setdpctes>", "positive number of dp");
  expectBad(caseXml(b + "<setdpctes ctesphere=\"-0.5\" />\n"), "<setdpctes", "<setdpctes>", "positive number of dp");
  expectBad(caseXml(b + "<setdpctes ctecylindertube=\"abc\" />\n"), "<setdpctes", "<setdpctes>", "ctecylindertube");
  expectBad(caseXml(b + "<setdpctes ctetriangleweight=\"0.9\" />\n"), "<setdpctes", "<setdpctes>", "not supported");
  // The numbers of sides change no particle: accepted.
  EXPECT_NO_THROW(load(caseXml(b + "<setdpctes ctespherenumsides=\"12\" ctecylindernumsides=\"8\" />\n" + kLine)));

  expectBad(caseXml("<setmkbound mk=\"239\" />\n<setmknextbound next=\"true\" />\n"), "<setmknextbound",
            "<setmknextbound>", "mk 240 is outside 0..239");
  expectBad(caseXml("<setmkbound mk=\"0\" />\n<setmknextbound next=\"false\" />\n"), "<setmknextbound",
            "<setmknextbound>", "mk -1 is outside");
  expectBad(caseXml("<setmknextbound />\n"), "<setmknextbound", "<setmknextbound>", "needs next=");
}

}  // namespace
