// GenCase's drawing transformation (<move>, <rotateline>, <rotate>: geometry/draw_transform.h), boxes under
// a rotation (geometry/box_triangles.h), <drawextrude> (geometry/extrude_shape.h) and face boxes without area, as the
// loader draws them, and the errors for bad input. Whole cases are compared with GenCase in
// test_gencase_parity (RotateLine_Def.xml, Extrude2D_Def.xml).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include "case/loader.h"
#include "geometry/draw_transform.h"
#include "model/case_model.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace {

using sph::CaseDefinition;
using sph::InputError;
using sph::Vec3d;
using sph::gen::DrawTransform;

// A rotation matrix of a few products: entries a few ulps from their exact value.
constexpr double kRotTol = 1e-15;

// A case on a lattice of dp 0.1 around the unit cube (2D: the plane y = 0) drawing `commands`, with
// a fluid particle far from them (the loader wants fluid).
std::string caseXml(const std::string& commands, bool twoD = false) {
  const std::string y0 = twoD ? "0" : "-1", y1 = twoD ? "0" : "2";
  return "<?xml version=\"1.0\" ?>\n<case>\n<casedef>\n<constantsdef />\n"
         "<mkconfig boundcount=\"240\" fluidcount=\"9\" />\n<geometry>\n"
         "<definition dp=\"0.1\">\n<pointmin x=\"-1\" y=\"" +
         y0 +
         "\" z=\"-1\" />\n"
         "<pointmax x=\"2\" y=\"" +
         y1 +
         "\" z=\"2\" />\n</definition>\n"
         "<commands>\n<mainlist>\n<setdrawmode mode=\"full\" />\n" +
         commands +
         "<matrixreset />\n<setdrawmode mode=\"full\" />\n<setmkfluid mk=\"0\" />\n"
         "<drawpoint x=\"1.8\" y=\"0\" z=\"1.8\" />\n"
         "</mainlist>\n</commands>\n</geometry>\n</casedef>\n<execution>\n"
         "<parameters>\n<parameter key=\"TimeMax\" value=\"0.1\" />\n</parameters>\n</execution>\n</case>\n";
}

CaseDefinition load(const std::string& xml) {
  return sph::loadCase(sph::test::writeFile(sph::test::tempDir("transform") / "case_Def.xml", xml));
}

// The boundary particles as node indices, sorted.
std::vector<std::array<long long, 3>> boundaryNodes(const CaseDefinition& c) {
  std::vector<std::array<long long, 3>> out;
  for (size_t n = 0; n < c.nBound; ++n)
    out.push_back({std::llround((c.positions[n].x - c.pointMin.x) / c.dp),
                   std::llround((c.positions[n].y - c.pointMin.y) / c.dp),
                   std::llround((c.positions[n].z - c.pointMin.z) / c.dp)});
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::array<long long, 3>> nodesOf(const std::string& commands, bool twoD = false) {
  return boundaryNodes(load(caseXml("<setmkbound mk=\"0\" />\n" + commands, twoD)));
}

std::string point(double x, double y, double z) {
  return "<point x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" z=\"" + std::to_string(z) + "\" />\n";
}

std::string rotateLine(double ang, const Vec3d& a, const Vec3d& b) {
  return "<rotateline ang=\"" + std::to_string(ang) + "\">\n" + point(a.x, a.y, a.z) + point(b.x, b.y, b.z) +
         "</rotateline>\n";
}

void expectNear(const Vec3d& got, const Vec3d& want) {
  EXPECT_NEAR(got.x, want.x, kRotTol);
  EXPECT_NEAR(got.y, want.y, kRotTol);
  EXPECT_NEAR(got.z, want.z, kRotTol);
}

TEST(DrawTransform, RotationTurnsClockwiseAboutTheAxis) {
  // GenCase 5.0: ang="90" about +y takes +x to +z; about +z, +x to -y; about +x, +y to -z.
  DrawTransform y, z, x, back;
  y.rotateLine(90, {0, 0, 0}, {0, 1, 0});
  z.rotateLine(90, {0, 0, 0}, {0, 0, 1});
  x.rotateLine(90, {0, 0, 0}, {1, 0, 0});
  back.rotateLine(90, {0, 0, 1}, {0, 0, 0});  // the axis the other way round turns the other way
  expectNear(y.apply({1, 0, 0}), {0, 0, 1});
  expectNear(z.apply({1, 0, 0}), {0, -1, 0});
  expectNear(x.apply({0, 1, 0}), {0, 0, -1});
  expectNear(back.apply({1, 0, 0}), {0, 1, 0});
  // About an axis through (0.5, 0, 0): the point turns about it.
  DrawTransform off;
  off.rotateLine(90, {0.5, 0, 0}, {0.5, 0, 1});
  expectNear(off.apply({0.3, 0, 0}), {0.5, 0.2, 0});
  EXPECT_FALSE(y.translationOnly());
}

TEST(DrawTransform, TheCommandGivenLastActsFirst) {
  DrawTransform rotateThenMove, moveThenRotate;
  rotateThenMove.rotateLine(90, {0, 0, 0}, {0, 0, 1});
  rotateThenMove.move({0.2, 0, 0});
  moveThenRotate.move({0.2, 0, 0});
  moveThenRotate.rotateLine(90, {0, 0, 0}, {0, 0, 1});
  expectNear(rotateThenMove.apply({0, 0, 0}), {0, -0.2, 0});  // moved, then turned
  expectNear(moveThenRotate.apply({0, 0, 0}), {0.2, 0, 0});   // turned (in place), then moved
  DrawTransform moves;
  moves.move({0.1, 0.2, 0.3});
  moves.move({0.3, 0, 0});
  EXPECT_TRUE(moves.translationOnly());
  // A translation adds exactly, as the <move> offset always did.
  const Vec3d p = moves.apply({0.7, 0.1, -0.4});
  EXPECT_EQ(p.x, 0.7 + (0.3 + 0.1));
  EXPECT_EQ(p.y, 0.1 + (0 + 0.2));
  EXPECT_EQ(p.z, -0.4 + (0 + 0.3));
}

// <rotateadv>'s rotations are right-handed about +x, +y, +z, which is <rotateline> about -x, -y, -z
// (it turns the other way); intrinsic chains R1 R2 R3 as commands given in that order would,
// extrinsic R3 R2 R1.
TEST(DrawTransform, ThreeAxisRotationIsThreeLineRotationsInTurn) {
  const Vec3d o{0, 0, 0}, minusX{-1, 0, 0}, minusY{0, -1, 0}, minusZ{0, 0, -1};
  const Vec3d probes[] = {{0.3, -0.7, 1.1}, {1, 0, 0}, {0, 1, 0}, {-0.2, 0.4, 0.05}};
  auto axis = [&](char c) { return c == 'X' ? minusX : c == 'Y' ? minusY : minusZ; };
  for (const char* axes : {"ZYZ", "XYZ", "ZXY", "XYX", "YZY"}) {
    const double degrees[3] = {45, 30, -10};
    const char a[3] = {axes[0], axes[1], axes[2]};
    DrawTransform intrinsic, extrinsic, chainIn, chainEx;
    intrinsic.rotateAxes(degrees, a, true, o);
    extrinsic.rotateAxes(degrees, a, false, o);
    for (int k = 0; k < 3; ++k) chainIn.rotateLine(degrees[k], o, axis(a[k]));
    for (int k = 2; k >= 0; --k) chainEx.rotateLine(degrees[k], o, axis(a[k]));
    for (const Vec3d& p : probes) {
      SCOPED_TRACE(axes);
      expectNear(intrinsic.apply(p), chainIn.apply(p));
      expectNear(extrinsic.apply(p), chainEx.apply(p));
    }
  }
  // Right-handed quarter turns: +y to +z about x, +z to +x about y, +x to +y about z.
  const char x[3] = {'X', 'X', 'X'}, y[3] = {'Y', 'Y', 'Y'}, z[3] = {'Z', 'Z', 'Z'};
  const double quarter[3] = {90, 0, 0};
  DrawTransform rx, ry, rz;
  rx.rotateAxes(quarter, x, true, o);
  ry.rotateAxes(quarter, y, true, o);
  rz.rotateAxes(quarter, z, true, o);
  expectNear(rx.apply({0, 1, 0}), {0, 0, 1});
  expectNear(ry.apply({0, 0, 1}), {1, 0, 0});
  expectNear(rz.apply({1, 0, 0}), {0, 1, 0});
  // Zero angles leave the matrix exactly as it was.
  const double none[3] = {0, 0, 0};
  DrawTransform still;
  still.rotateAxes(none, z, false, {0.1, 0.2, 0.3});
  EXPECT_TRUE(still.translationOnly());
  EXPECT_EQ(still.apply({0.7, 0.1, -0.4}).x, 0.7);
  // About a centre: the same as moving it to the origin, turning and moving it back.
  const Vec3d c{0.1, 0.2, 0};
  const double d[3] = {45, 30, -10};
  const char xyx[3] = {'X', 'Y', 'X'};
  DrawTransform centred, byMoves;
  centred.rotateAxes(d, xyx, false, c);
  byMoves.move(c);
  byMoves.rotateAxes(d, xyx, false, o);
  byMoves.move({-c.x, -c.y, -c.z});
  for (const Vec3d& p : probes) expectNear(centred.apply(p), byMoves.apply(p));
  expectNear(centred.apply(c), c);
}

TEST(CaseTransform, PointsFollowRotationsSavesAndResets) {
  const std::string about = rotateLine(90, {0, 0, 0}, {0, 1, 0});
  const std::string p = "<drawpoint x=\"0.3\" y=\"0\" z=\"0\" />\n";
  using Nodes = std::vector<std::array<long long, 3>>;
  EXPECT_EQ(nodesOf(about + p), (Nodes{{10, 10, 13}}));  // (0, 0, 0.3)
  EXPECT_EQ(nodesOf("<rotate ang=\"90\" x=\"0\" y=\"2\" z=\"0\" />\n" + p), (Nodes{{10, 10, 13}}));
  EXPECT_EQ(nodesOf("<matrixsave />\n" + about + "<matrixload />\n" + p), (Nodes{{13, 10, 10}}));
  EXPECT_EQ(nodesOf(about + "<matrixreset />\n" + p), (Nodes{{13, 10, 10}}));
  EXPECT_EQ(nodesOf(about + "<resetdraw />\n<setdrawmode mode=\"full\" />\n" + p), (Nodes{{13, 10, 10}}));
  EXPECT_EQ(nodesOf("<move x=\"0.2\" y=\"0\" z=\"0\" />\n" + about + p), (Nodes{{12, 10, 13}}));
  // <rotateadv>: a quarter turn about +y takes +z to +x (here (0.3, 0, 0) to (0, 0, -0.3)); after
  // it, one about +z about the centre (0.5, 0, 0) takes (0.3, 0, 0) to (0.5, -0.2, 0).
  EXPECT_EQ(nodesOf("<rotateadv ang1=\"90\" ang2=\"0\" ang3=\"0\" axes=\"yzy\" intrinsic=\"true\" />\n" + p),
            (Nodes{{10, 10, 7}}));
  EXPECT_EQ(nodesOf("<rotateadv ang1=\"0\" ang2=\"0\" ang3=\"90\" axes=\"XYZ\" intrinsic=\"false\">\n"
                    "<center x=\"0.5\" y=\"0\" z=\"0\" />\n</rotateadv>\n" +
                    p),
            (Nodes{{15, 8, 10}}));
}

TEST(CaseTransform, QuarterTurnedBoxIsTheBoxTurned) {
  // A quarter turn about z takes the box x 0..0.4, y 0..0.2 to x 0..0.2, y -0.4..0: drawn as
  // triangles (faces) or as a prism (solid), it has the unrotated box's nodes.
  const std::string turn = rotateLine(90, {0, 0, 0}, {0, 0, 1});
  auto box = [](const std::string& fill, const Vec3d& p, const Vec3d& s) {
    return "<drawbox>\n<boxfill>" + fill + "</boxfill>\n" + point(p.x, p.y, p.z) + "<size x=\"" + std::to_string(s.x) +
           "\" y=\"" + std::to_string(s.y) + "\" z=\"" + std::to_string(s.z) + "\" />\n</drawbox>\n";
  };
  for (const char* fill : {"all", "solid", "left | top"}) {
    SCOPED_TRACE(fill);
    // left | top turned: left (x 0) goes to y 0 (back), top stays top.
    const std::string turnedFill = std::string(fill) == "left | top" ? "back | top" : fill;
    EXPECT_EQ(nodesOf(turn + box(fill, {0, 0, 0}, {0.4, 0.2, 0.3})),
              nodesOf(box(turnedFill, {0, -0.4, 0}, {0.2, 0.4, 0.3})));
  }
}

TEST(CaseTransform, FacesWithoutAreaDrawNothing) {
  // 2D, a box of no thickness in y: its front and back are the rectangle, its other faces are
  // lines of no area, which GenCase does not draw.
  const std::string flat = "<point x=\"0\" y=\"0\" z=\"0\" />\n<size x=\"0.3\" y=\"0\" z=\"0.2\" />\n";
  auto count = [&](const std::string& fill) {
    return nodesOf("<drawbox>\n<boxfill>" + fill + "</boxfill>\n" + flat + "</drawbox>\n", true).size();
  };
  EXPECT_EQ(count("left | right | bottom | top"), 0u);
  EXPECT_EQ(count("front"), 4u * 3u);
  EXPECT_EQ(count("all"), 4u * 3u);
  // A thickness under half a dp snaps to none; 0.06 snaps to one node and draws the edges.
  EXPECT_EQ(nodesOf("<drawbox>\n<boxfill>left</boxfill>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
                    "<size x=\"0.3\" y=\"0.04\" z=\"0.2\" />\n</drawbox>\n",
                    true)
                .size(),
            0u);
  EXPECT_EQ(nodesOf("<drawbox>\n<boxfill>left</boxfill>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
                    "<size x=\"0.3\" y=\"0.06\" z=\"0.2\" />\n</drawbox>\n",
                    true)
                .size(),
            3u);
}

TEST(CaseTransform, SolidBoxDrawsItsLargestLayer) {
  // GenCase draws a solid box once, grown by its largest layer, in every draw mode.
  auto box = [](const std::string& mode, const std::string& vdp) {
    return nodesOf("<setdrawmode mode=\"" + mode + "\" />\n<drawbox>\n<boxfill>solid</boxfill>\n" + point(0, 0, 0) +
                   "<size x=\"0.4\" y=\"0.3\" z=\"0.2\" />\n<layers vdp=\"" + vdp + "\" />\n</drawbox>\n");
  };
  for (const char* mode : {"face", "full", "solid"}) {
    SCOPED_TRACE(mode);
    EXPECT_EQ(box(mode, "0,1"), box(mode, "1"));
    EXPECT_EQ(box(mode, "-2,-1"), box(mode, "-1"));
  }
}

std::string extrude(const char* closed, const std::vector<Vec3d>& points, const Vec3d& v,
                    const std::string& layers = "") {
  std::string s = std::string("<drawextrude closed=\"") + closed + "\">\n";
  for (const Vec3d& p : points) s += point(p.x, p.y, p.z);
  return s + "<extrude x=\"" + std::to_string(v.x) + "\" y=\"" + std::to_string(v.y) + "\" z=\"" + std::to_string(v.z) +
         "\" />\n" + layers + "</drawextrude>\n";
}

TEST(CaseTransform, ExtrudeIsAPrismsSides) {
  // The sides of a prism are cut as an extrusion's (geometry/prism_shape.h): a closed extrusion is the
  // prism without its caps, an open one also without the closing side.
  const std::vector<Vec3d> base{{-0.33, -0.21, -0.3}, {0.41, -0.18, -0.35}, {0.3, 0.44, -0.2}};
  const Vec3d v{0.05, 0.1, 0.6};
  std::string prism;
  for (const Vec3d& p : base) prism += point(p.x, p.y, p.z);
  for (const Vec3d& p : base) prism += point(p.x + v.x, p.y + v.y, p.z + v.z);
  EXPECT_EQ(nodesOf(extrude("true", base, v)), nodesOf("<drawprism mask=\"1 | 2\">\n" + prism + "</drawprism>\n"));
  EXPECT_EQ(nodesOf(extrude("false", base, v)), nodesOf("<drawprism mask=\"1 | 2 | 5\">\n" + prism + "</drawprism>\n"));
  // Every draw mode draws the same sides.
  EXPECT_EQ(nodesOf("<setdrawmode mode=\"solid\" />\n" + extrude("true", base, v)), nodesOf(extrude("true", base, v)));
}

TEST(CaseTransform, ExtrudeLayersMoveTheSidesAcross) {
  // An L in the plane y = 0 swept along +y: n = segment x v points up from the floor and left
  // from the wall; a layer of 2 dp moves both by 0.2 and the corner to where they meet.
  const std::vector<Vec3d> l{{0, 0, 0}, {0.5, 0, 0}, {0.5, 0, 0.5}};
  const Vec3d v{0, 0.1, 0};
  const std::vector<Vec3d> moved{{0, 0, 0.2}, {0.3, 0, 0.2}, {0.3, 0, 0.5}};
  EXPECT_EQ(nodesOf(extrude("false", l, v, "<layers vdp=\"2\" />\n"), true), nodesOf(extrude("false", moved, v), true));
  // Two layers draw both.
  auto both = nodesOf(extrude("false", l, v) + extrude("false", moved, v), true);
  both.erase(std::unique(both.begin(), both.end()), both.end());
  EXPECT_EQ(nodesOf(extrude("false", l, v, "<layers vdp=\"0,2\" />\n"), true), both);
  // A rotation turns the whole extrusion.
  EXPECT_EQ(nodesOf(rotateLine(90, {0, 0, 0}, {0, 1, 0}) + extrude("false", l, v), true),
            nodesOf(extrude("false", {{0, 0, 0}, {0, 0, 0.5}, {-0.5, 0, 0.5}}, v), true));
}

void expectBad(const std::string& xml, const std::string& marker, const std::string& element,
               const std::string& text) {
  sph::test::expectLoadError("transform_bad", xml, marker, element, text);
}

TEST(CaseTransform, BadInputIsAnError) {
  const std::string b = "<setmkbound mk=\"0\" />\n";
  expectBad(caseXml("<rotateline ang=\"30\">\n" + point(0, 0, 0) + "</rotateline>\n"), "<rotateline", "<rotateline>",
            "needs 2 points");
  expectBad(caseXml("<rotateline ang=\"30\">\n" + point(0.1, 0, 0) + point(0.1, 0, 0) + "</rotateline>\n"),
            "<rotateline", "<rotateline>", "same point");
  expectBad(caseXml("<rotateline>\n" + point(0, 0, 0) + point(0, 1, 0) + "</rotateline>\n"), "<rotateline",
            "<rotateline>", "ang");
  expectBad(caseXml("<rotate ang=\"30\" x=\"0\" y=\"0\" z=\"0\" />\n"), "<rotate ", "<rotate>", "axis");
  const std::string adv = "<rotateadv ang1=\"45\" ang2=\"30\" ang3=\"-10\" ";
  expectBad(caseXml(adv + "axes=\"ZY\" intrinsic=\"true\" />\n"), "<rotateadv", "<rotateadv>", "axes=\"ZY\"");
  expectBad(caseXml(adv + "axes=\"ZWZ\" intrinsic=\"true\" />\n"), "<rotateadv", "<rotateadv>", "three of X, Y and Z");
  expectBad(caseXml(adv + "axes=\"ZYZ\" />\n"), "<rotateadv", "<rotateadv>", "intrinsic");
  expectBad(caseXml("<rotateadv ang1=\"45\" ang3=\"-10\" axes=\"ZYZ\" intrinsic=\"true\" />\n"), "<rotateadv",
            "<rotateadv>", "ang2");
  expectBad(caseXml(adv + "axes=\"ZYZ\" intrinsic=\"true\">\n<centre x=\"0\" y=\"0\" z=\"0\" />\n</rotateadv>\n"),
            "<centre", "<centre>", "");
  const std::string tri = point(0, 0, 0) + point(0.5, 0, 0) + point(0.5, 0, 0.5);
  expectBad(caseXml(b + "<drawextrude>\n" + tri + "<extrude x=\"0\" y=\"0.1\" z=\"0\" />\n</drawextrude>\n"),
            "<drawextrude", "<drawextrude>", "needs closed=");
  expectBad(
      caseXml(b + "<drawextrude closed=\"maybe\">\n" + tri + "<extrude x=\"0\" y=\"0.1\" z=\"0\" />\n</drawextrude>\n"),
      "<drawextrude", "<drawextrude>", "closed=\"maybe\"");
  expectBad(caseXml(b + "<drawextrude closed=\"false\">\n" + point(0, 0, 0) +
                    "<extrude x=\"0\" y=\"0.1\" z=\"0\" />\n</drawextrude>\n"),
            "<drawextrude", "<drawextrude>", "at least 2 points");
  expectBad(caseXml(b + "<drawextrude closed=\"false\">\n" + tri + "</drawextrude>\n"), "<drawextrude", "<drawextrude>",
            "<extrude>");
  expectBad(caseXml(b + extrude("false", {{0, 0, 0}, {0.2, 0, 0}, {0.5, 0, 0}}, {0, 0.1, 0}, "<layers vdp=\"1\" />\n")),
            "<drawextrude", "<drawextrude>", "one line");
  expectBad(caseXml(b + extrude("false", {{0, 0, 0}, {0.5, 0, 0}}, {0.3, 0, 0}, "<layers vdp=\"1\" />\n")),
            "<drawextrude", "<drawextrude>", "along <extrude>");
  expectBad(caseXml(b + extrude("false", {{0, 0, 0}, {0.5, 0, 0}}, {0, 0, 0}, "<layers vdp=\"1\" />\n")),
            "<drawextrude", "<drawextrude>", "non-zero <extrude>");
  expectBad(caseXml(b + extrude("false", {{0, 0, 0}, {0.5, 0, 0}}, {0, 0.1, 0}, "<layers vdp=\"1,x\" />\n")), "<layers",
            "<layers>", "not a number");
  expectBad(caseXml("<setmkbound mk=\"0\" />\n" + rotateLine(30, {0, 0, 0}, {0, 0, 1}) +
                    "<fillbox x=\"0\" y=\"0\" z=\"0\">\n<modefill>void</modefill>\n" + point(-0.5, -0.5, -0.5) +
                    "<size x=\"1\" y=\"1\" z=\"1\" />\n</fillbox>\n"),
            "<fillbox", "<fillbox>", "under a rotation");
}

}  // namespace
