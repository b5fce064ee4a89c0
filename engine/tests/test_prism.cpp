// <drawprism> geometry: the node rule of prism_shape.h (solid: d < t on every face; a face: the
// layer -t <= d < t), face numbers and masks, and the shapes that are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "case_generator.h"
#include "prism_shape.h"

namespace {

using sph::Vec3d;
using namespace sph::gen;

constexpr double kDp = 0.1;
constexpr int kBoundFirst = 10, kFluidFirst = 1;

LatticeSpec spec3d() { return {kDp, {-1, -1, -1}, {2, 2, 2}, {0, 0, 0}, false}; }

// Bottom square in z = 0 (counter-clockwise seen from +z), top in z = 1: the unit cube.
std::vector<Vec3d> cubePoints() {
  return {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
}

PrismShape makePrism(const std::vector<Vec3d>& pts) {
  PrismShape p;
  const std::string err = PrismShape::build(pts, kDp, p);
  EXPECT_EQ(err, "");
  return p;
}

using Node = std::tuple<long, long, long>;
std::set<Node> nodesOf(const GeneratedParticles& g) {
  std::set<Node> s;
  for (const Vec3d& p : g.positions) s.insert({std::lround(p.x / kDp), std::lround(p.y / kDp), std::lround(p.z / kDp)});
  return s;
}

GeneratedParticles drawPrism(const std::vector<Vec3d>& pts, bool solid, uint64_t faces) {
  ParticleGenerator g(spec3d());
  g.drawPrism(makePrism(pts), solid, faces, g.family(false, 0));
  return g.generate(kBoundFirst, kFluidFirst);
}

GeneratedParticles drawBox(bool solid, uint8_t faces) {
  ParticleGenerator g(spec3d());
  g.drawBox({0, 0, 0}, {1, 1, 1}, solid, faces, g.family(false, 0));
  return g.generate(kBoundFirst, kFluidFirst);
}

uint64_t faceBit(int f) { return uint64_t(1) << (f - 1); }

TEST(Prism, AxisAlignedSolidFillsTheNodesOfTheEqualBox) {
  const auto p = drawPrism(cubePoints(), true, 0);
  EXPECT_EQ(p.nFluid, 11u * 11u * 11u);
  EXPECT_EQ(nodesOf(p), nodesOf(drawBox(true, 0)));
}

TEST(Prism, FaceNumbersFollowTheVertexOrder) {
  // 1 bottom (z min), 2 top (z max), 3 joins vertices 1-2 (y min), 4 vertices 2-3 (x max),
  // 5 vertices 3-4 (y max), 6 vertices 4-1 (x min).
  const std::map<int, uint8_t> boxFace = {{1, kFaceBottom}, {2, kFaceTop},   {3, kFaceFront},
                                          {4, kFaceRight},  {5, kFaceBack}, {6, kFaceLeft}};
  for (const auto& [f, box] : boxFace) {
    SCOPED_TRACE(f);
    const auto p = drawPrism(cubePoints(), false, faceBit(f));
    EXPECT_EQ(p.nFluid, 121u);
    EXPECT_EQ(nodesOf(p), nodesOf(drawBox(false, box)));
  }
  EXPECT_EQ(nodesOf(drawPrism(cubePoints(), false, 0x3F)), nodesOf(drawBox(false, kAllFaces)));
}

TEST(Prism, ReversedVertexOrderGivesTheSameShape) {
  std::vector<Vec3d> pts = cubePoints();
  std::swap(pts[1], pts[3]);  // clockwise bottom
  std::swap(pts[5], pts[7]);
  EXPECT_EQ(nodesOf(drawPrism(pts, true, 0)), nodesOf(drawBox(true, 0)));
}

TEST(Prism, SlopedSideKeepsNodesOnTheInnerSideOfTheHalfLayer) {
  // Right triangle x >= 0, z >= 0, x + z <= 1, extruded in y from 0 to 1. The slope's half
  // layer is t = dp/2 * max|n| = dp/(2 sqrt 2), so a node is inside when (x + z - 1)/sqrt 2 < t,
  // i.e. x + z < 1.05: the nodes with i + k <= 10, 66 per y plane, 11 planes.
  const std::vector<Vec3d> tri = {{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {0, 1, 0}, {1, 1, 0}, {0, 1, 1}};
  const auto solid = drawPrism(tri, true, 0);
  EXPECT_EQ(solid.nFluid, 66u * 11u);
  // The slope alone (face 4 joins vertices 2 and 3) is one node per x column: -t <= d < t holds
  // for i + k = 10 only (d = 0; i + k = 9 gives d = -dp/sqrt2 < -t).
  const auto slope = drawPrism(tri, false, faceBit(4));
  EXPECT_EQ(slope.nFluid, 11u * 11u);
  for (const Vec3d& q : slope.positions) EXPECT_NEAR(q.x + q.z, 1.0, 1e-9);
}

TEST(Prism, GentleSlopeIsOneNodeThickWithoutHoles) {
  // CaseWavemaker's beach slope (1.1 m over 4 m) on a block with vertical sides (a sharp corner
  // would let the layers of two faces reach past the vertex: the rule is d < t on every face).
  // Along z (the axis closest to its normal) every x column of the slope has exactly one node.
  const std::vector<Vec3d> beach = {{1, 0, 0},   {2, 0, 0.275},   {2, 0, -0.5},   {1, 0, -0.5},
                                    {1, 0.5, 0}, {2, 0.5, 0.275}, {2, 0.5, -0.5}, {1, 0.5, -0.5}};
  const auto slope = drawPrism(beach, false, faceBit(3));
  std::map<std::pair<long, long>, int> perColumn;
  for (const Vec3d& q : slope.positions) ++perColumn[{std::lround(q.x / kDp), std::lround(q.y / kDp)}];
  EXPECT_EQ(perColumn.size(), 11u * 6u);  // x = 1.0 .. 2.0, y = 0 .. 0.5
  for (const auto& [col, n] : perColumn) EXPECT_EQ(n, 1) << col.first << "," << col.second;
  for (const Vec3d& q : slope.positions) {
    const double zLine = 0.275 * (q.x - 1);
    EXPECT_LT(std::fabs(q.z - zLine), 0.5 * kDp + 1e-9);  // the node nearest the line
  }
}

TEST(Prism, RefusesShapesItCannotDraw) {
  PrismShape p;
  std::vector<Vec3d> pts = cubePoints();
  pts.pop_back();
  EXPECT_NE(PrismShape::build(pts, kDp, p).find("2n points"), std::string::npos);

  pts = cubePoints();
  pts[2] = {0.4, 0.4, 0};  // dent in the bottom square
  pts[6] = {0.4, 0.4, 1};
  EXPECT_NE(PrismShape::build(pts, kDp, p).find("not convex"), std::string::npos);

  pts = cubePoints();
  pts[2].z = 0.3;  // bottom no longer planar
  EXPECT_NE(PrismShape::build(pts, kDp, p).find("not in the plane"), std::string::npos);

  pts = cubePoints();
  pts[6] = {1.2, 1, 1};  // top is not a translated copy
  EXPECT_NE(PrismShape::build(pts, kDp, p).find("translated copy"), std::string::npos);

  pts = cubePoints();
  for (int i = 4; i < 8; ++i) pts[size_t(i)].z = 0;  // flat
  EXPECT_NE(PrismShape::build(pts, kDp, p).find("plane of the bottom"), std::string::npos);
}

}  // namespace
