// <drawprism> geometry, GenCase's rule (geometry/prism_shape.h): snapped vertices, faces as the nodes within
// 0.6 dp of their triangles, the interior strictly inside and only for the bottom polygon's
// right-hand winding, face numbers, and the shapes that are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "geometry/particle_generator.h"
#include "geometry/prism_shape.h"

namespace {

using sph::Vec3d;
using namespace sph::gen;

constexpr double kDp = 0.1;
constexpr int kBoundFirst = 10, kFluidFirst = 1;

LatticeSpec spec3d() { return {kDp, {-1, -1, -1}, {2, 2, 2}, false}; }

// Bottom square in z = 0 (counter-clockwise seen from +z, so its right-hand normal points to the
// top), top in z = 1: the unit cube.
std::vector<Vec3d> cubePoints() {
  return {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
}

using Node = std::tuple<long, long, long>;
std::set<Node> nodesOf(const GeneratedParticles& g) {
  std::set<Node> s;
  for (const Vec3d& p : g.positions) s.insert({std::lround(p.x / kDp), std::lround(p.y / kDp), std::lround(p.z / kDp)});
  return s;
}

GeneratedParticles drawPrism(const std::vector<Vec3d>& pts, uint64_t faces, bool interior) {
  ParticleGenerator g(spec3d());
  EXPECT_EQ(g.drawPrism(pts, faces, interior, g.family(false, 0)), "");
  return g.generate(kBoundFirst, kFluidFirst);
}

GeneratedParticles drawBox(bool solid, uint8_t faces) {
  ParticleGenerator g(spec3d());
  g.drawBox({0, 0, 0}, {1, 1, 1}, solid, faces, g.family(false, 0));
  return g.generate(kBoundFirst, kFluidFirst);
}

uint64_t faceBit(int f) { return uint64_t(1) << (f - 1); }
constexpr uint64_t kAll = ~uint64_t(0);

TEST(Prism, AxisAlignedPrismIsTheEqualBox) {
  // Faces and interior: the solid box; faces only: its shell.
  EXPECT_EQ(nodesOf(drawPrism(cubePoints(), kAll, true)), nodesOf(drawBox(true, 0)));
  EXPECT_EQ(nodesOf(drawPrism(cubePoints(), kAll, false)), nodesOf(drawBox(false, kAllFaces)));
}

TEST(Prism, FaceNumbersFollowTheVertexOrder) {
  // 1 bottom (z = 0), 2 top (z = 1), 3 the side from vertex 1 to 2 (y = 0), 4 from 2 to 3
  // (x = 1), 5 from 3 to 4 (y = 1), 6 from 4 to 1 (x = 0).
  const std::map<int, uint8_t> boxFace = {{1, kFaceBottom}, {2, kFaceTop}, {3, kFaceFront},
                                          {4, kFaceRight},  {5, kFaceBack}, {6, kFaceLeft}};
  for (const auto& [face, bit] : boxFace) {
    SCOPED_TRACE(face);
    EXPECT_EQ(nodesOf(drawPrism(cubePoints(), faceBit(face), false)), nodesOf(drawBox(false, bit)));
  }
}

TEST(Prism, InteriorOnlyForTheRightHandWinding) {
  // The bottom square listed clockwise seen from +z (its normal points away from the top):
  // GenCase draws the faces but no interior.
  const std::vector<Vec3d> reversed = {{0, 0, 0}, {0, 1, 0}, {1, 1, 0}, {1, 0, 0},
                                       {0, 0, 1}, {0, 1, 1}, {1, 1, 1}, {1, 0, 1}};
  EXPECT_EQ(nodesOf(drawPrism(reversed, kAll, true)), nodesOf(drawBox(false, kAllFaces)));
}

TEST(Prism, VerticesSnapToNodes) {
  // Vertices 0.04 off the nodes draw the same prism as on them.
  std::vector<Vec3d> off = cubePoints();
  for (Vec3d& v : off) v = {v.x + 0.04, v.y - 0.04, v.z + 0.04};
  EXPECT_EQ(nodesOf(drawPrism(off, kAll, true)), nodesOf(drawPrism(cubePoints(), kAll, true)));
}

// A side of slope 1:2 (z = x / 2 from x = 0 to 1.6): its plane's distance |x - 2z| / sqrt(5) dp is
// below 0.6 dp for x - 2z in {-1, 0, 1} (node units), so the face is three nodes thick along x.
TEST(Prism, SlopedFaceKeepsTheNodesWithin0p6Dp) {
  // A wedge extruded along y: bottom triangle (0,0)-(1.6,0)-(1.6,0.8) in x-z at y = 0, top at y = 1.
  const std::vector<Vec3d> wedge = {{0, 0, 0}, {1.6, 0, 0}, {1.6, 0, 0.8}, {0, 1, 0}, {1.6, 1, 0}, {1.6, 1, 0.8}};
  // Face 5 joins vertex 3 (1.6, 0, 0.8) to vertex 1 (0, 0, 0): the slope.
  const std::set<Node> slope = nodesOf(drawPrism(wedge, faceBit(5), false));
  ASSERT_FALSE(slope.empty());
  std::map<long, int> perRow;  // z row -> nodes at y = 0.5
  for (const auto& [i, j, k] : slope) {
    EXPECT_LE(std::abs(i - 2 * k), 1) << i << " " << j << " " << k;
    if (j == 5) ++perRow[k];
  }
  for (long k = 1; k < 8; ++k) EXPECT_EQ(perRow[k], 3) << k;
}

// Mode solid (interior only): a prism standing on a square is GenCase's solid box, the inside plus
// the strip along the cut of its bottom.
TEST(Prism, SolidCubeIsTheSolidBox) {
  ParticleGenerator g(spec3d());
  g.drawBoxInterior({0, 0, 0}, {1, 1, 1}, g.family(false, 0));
  EXPECT_EQ(nodesOf(drawPrism(cubePoints(), 0, true)), nodesOf(g.generate(kBoundFirst, kFluidFirst)));
}

TEST(Prism, SolidRectangleIsCutAtItsFirstListedCorner) {
  // Every corner is 90 degrees: the first listed is clipped, so the cut joins its neighbours and
  // keeps a strip of the sides at their ends (in dp: the square spans 0..10).
  const Node corner0{0, 0, 5}, corner1{10, 0, 5}, corner2{10, 10, 5}, corner3{0, 10, 5};
  const std::set<Node> asListed = nodesOf(drawPrism(cubePoints(), 0, true));
  EXPECT_EQ(asListed.count(corner0), 0u);
  EXPECT_EQ(asListed.count(corner1), 1u);
  EXPECT_EQ(asListed.count(corner2), 0u);
  EXPECT_EQ(asListed.count(corner3), 1u);
  std::vector<Vec3d> fromSecond = cubePoints();
  std::rotate(fromSecond.begin(), fromSecond.begin() + 1, fromSecond.begin() + 4);
  std::rotate(fromSecond.begin() + 4, fromSecond.begin() + 5, fromSecond.end());
  const std::set<Node> rotated = nodesOf(drawPrism(fromSecond, 0, true));
  EXPECT_EQ(rotated.count(corner0), 1u);
  EXPECT_EQ(rotated.count(corner1), 0u);
  EXPECT_EQ(rotated.count(corner2), 1u);
  EXPECT_EQ(rotated.count(corner3), 0u);
}

TEST(Prism, SolidQuadrilateralDoesNotDependOnTheFirstVertex) {
  // Corners of different angles: the cut follows the shape (the smallest corner is clipped).
  const std::vector<Vec3d> bottom = {{0, 0, 0}, {1.2, 0.1, 0}, {1, 0.9, 0}, {0.2, 1.1, 0}};
  std::set<Node> first;
  for (int r = 0; r < 4; ++r) {
    std::vector<Vec3d> pts;
    for (int i = 0; i < 4; ++i) pts.push_back(bottom[size_t((i + r) % 4)]);
    for (int i = 0; i < 4; ++i) pts.push_back({pts[size_t(i)].x, pts[size_t(i)].y, 0.7});
    const std::set<Node> nodes = nodesOf(drawPrism(pts, 0, true));
    if (r == 0) first = nodes;
    EXPECT_EQ(nodes, first) << "listed from vertex " << r;
  }
  EXPECT_FALSE(first.empty());
}

TEST(Prism, RefusesShapesItCannotDraw) {
  ParticleGenerator g(spec3d());
  const uint16_t f = g.family(false, 0);
  EXPECT_NE(g.drawPrism({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, kAll, true, f), "");     // 4 points
  EXPECT_NE(g.drawPrism({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}}, kAll, true, f), "");  // odd
}

TEST(Prism, FlatTrianglesDrawNothing) {
  // Every vertex in the plane z = 0: the caps coincide, the sides have no area; only the caps'
  // own triangles (the square) are drawn.
  const std::vector<Vec3d> flat = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},
                                   {0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
  const auto out = drawPrism(flat, kAll, true);
  EXPECT_EQ(out.nFluid, 121u);
}

}  // namespace
