// Lattice generation: exact node counts and extents for boxes, faces, 2D, void carving, draw
// order and particle ordering (the lattice rule is stated in engine/src/geometry/particle_generator.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "case/simulation_domain.h"
#include "geometry/particle_generator.h"
#include "sph/plugin/errors.h"

namespace {

using sph::Vec3d;
using namespace sph::gen;
using sph::parseDomainAxis;

constexpr double kDp = 0.1;
// Node coordinates are pointmin + i*dp in double precision: a few ulps of the coordinate.
constexpr double kPosTol = 1e-12;
constexpr int kBoundFirst = 10, kFluidFirst = 1;

LatticeSpec spec3d() { return {kDp, {-1, -1, -1}, {2, 2, 2}, false}; }

// dp a power of two: node coordinates and half-way points are exact.
constexpr double kExactDp = 0.125;
LatticeSpec exactSpec(double pmin = -1) { return {kExactDp, {pmin, pmin, pmin}, {2, 2, 2}, false}; }

struct Extent {
  Vec3d lo, hi;
};

Extent extentOf(const GeneratedParticles& g, size_t begin, size_t end) {
  Extent e{g.positions[begin], g.positions[begin]};
  for (size_t n = begin; n < end; ++n) {
    const Vec3d& p = g.positions[n];
    e.lo = {std::min(e.lo.x, p.x), std::min(e.lo.y, p.y), std::min(e.lo.z, p.z)};
    e.hi = {std::max(e.hi.x, p.x), std::max(e.hi.y, p.y), std::max(e.hi.z, p.z)};
  }
  return e;
}

void expectExtent(const Extent& e, Vec3d lo, Vec3d hi) {
  EXPECT_NEAR(e.lo.x, lo.x, kPosTol);
  EXPECT_NEAR(e.lo.y, lo.y, kPosTol);
  EXPECT_NEAR(e.lo.z, lo.z, kPosTol);
  EXPECT_NEAR(e.hi.x, hi.x, kPosTol);
  EXPECT_NEAR(e.hi.y, hi.y, kPosTol);
  EXPECT_NEAR(e.hi.z, hi.z, kPosTol);
}

GeneratedParticles oneBox(bool solid, uint8_t faces, LatticeSpec s = spec3d(),
                          Vec3d lo = {0, 0, 0}, Vec3d hi = {1, 1, 1}) {
  ParticleGenerator g(s);
  g.drawBox(lo, hi, solid, faces, g.family(false, 0));
  return g.generate(kBoundFirst, kFluidFirst);
}

TEST(Generator, SolidBoxOnNodesKeepsBothEnds) {
  const auto g = oneBox(true, 0);
  EXPECT_EQ(g.nFluid, 11u * 11u * 11u);
  EXPECT_EQ(g.nBound, 0u);
  expectExtent(extentOf(g, 0, g.positions.size()), {0, 0, 0}, {1, 1, 1});
}

TEST(Generator, LimitsSnapToNearestNode) {
  // 0.04 -> node 0, 0.96 -> node 10, 0.26 -> node 3, 0.74 -> node 7.
  const auto g = oneBox(true, 0, spec3d(), {0.04, 0.26, 0.04}, {0.96, 0.74, 0.96});
  EXPECT_EQ(g.nFluid, 11u * 5u * 11u);
  expectExtent(extentOf(g, 0, g.nFluid), {0, 0.3, 0}, {1, 0.7, 1});
}

TEST(Generator, HalfWayLimitsRoundUp) {
  // Sides half-way between nodes both go up, as GenCase rounds: the near side inwards, the far
  // side outwards; size/dp nodes per axis, one node further up than the box.
  const auto g = oneBox(true, 0, exactSpec(), {0.0625, 0.0625, 0.0625}, {0.5625, 0.5625, 0.5625});
  EXPECT_EQ(g.nFluid, 5u * 5u * 5u);
  expectExtent(extentOf(g, 0, g.nFluid), {0.125, 0.125, 0.125}, {0.625, 0.625, 0.625});
  // Below the half-way point a limit goes down.
  const auto below = oneBox(true, 0, exactSpec(), {0.0625 - 1e-9, 0, 0}, {0.5625 - 1e-9, 0, 0});
  expectExtent(extentOf(below, 0, below.nFluid), {0, 0, 0}, {0.5, 0, 0});
}

TEST(Generator, LatticeStartsAtPointMin) {
  // Nodes at -0.9375 + i*0.125: the unit box's sides lie half-way, so it holds the nodes from
  // 0.0625 to 1.0625.
  const auto g = oneBox(true, 0, exactSpec(-0.9375));
  EXPECT_EQ(g.nFluid, 9u * 9u * 9u);
  expectExtent(extentOf(g, 0, g.nFluid), {0.0625, 0.0625, 0.0625}, {1.0625, 1.0625, 1.0625});
}

TEST(Generator, NodeOnPointMaxIsLeftOut) {
  // pointmax 1 lies on node 8 of pointmin 0 and dp 0.125: nodes 0..7 only.
  const LatticeSpec s{kExactDp, {0, 0, 0}, {1, 1, 1}, false};
  const auto g = oneBox(true, 0, s, {0, 0, 0}, {1, 1, 1});
  EXPECT_EQ(g.nFluid, 8u * 8u * 8u);
  expectExtent(extentOf(g, 0, g.nFluid), {0, 0, 0}, {0.875, 0.875, 0.875});
}

TEST(Generator, EachFaceIsOnePlaneOfNodes) {
  struct Case {
    uint8_t face;
    Vec3d lo, hi;
  };
  const Case cases[] = {
      {kFaceLeft, {0, 0, 0}, {0, 1, 1}},   {kFaceRight, {1, 0, 0}, {1, 1, 1}},
      {kFaceFront, {0, 0, 0}, {1, 0, 1}},  {kFaceBack, {0, 1, 0}, {1, 1, 1}},
      {kFaceBottom, {0, 0, 0}, {1, 1, 0}}, {kFaceTop, {0, 0, 1}, {1, 1, 1}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(int(c.face));
    const auto g = oneBox(false, c.face);
    EXPECT_EQ(g.nFluid, 121u);
    expectExtent(extentOf(g, 0, g.nFluid), c.lo, c.hi);
  }
}

TEST(Generator, SharedEdgesAndCornersCountOnce) {
  EXPECT_EQ(oneBox(false, kFaceLeft | kFaceBottom).nFluid, 121u + 121u - 11u);
  EXPECT_EQ(oneBox(false, kFaceLeft | kFaceRight).nFluid, 242u);
  // Shell of the 11^3 box: all nodes minus the 9^3 interior.
  EXPECT_EQ(oneBox(false, kAllFaces).nFluid, 1331u - 729u);
  // Open-top tank: the shell minus the 9x9 interior of the top face.
  const auto tank = oneBox(false, kFaceBottom | kFaceLeft | kFaceRight | kFaceFront | kFaceBack);
  EXPECT_EQ(tank.nFluid, 602u - 81u);
  expectExtent(extentOf(tank, 0, tank.nFluid), {0, 0, 0}, {1, 1, 1});
}

TEST(Generator, TwoDimensionalBoxKeepsOnlyThePlane) {
  const LatticeSpec s{kDp, {-1, 0.5, -1}, {2, 0.5, 2}, true};
  const auto solid = oneBox(true, 0, s, {0, -1, 0}, {1, 1, 1});
  EXPECT_EQ(solid.nFluid, 121u);
  expectExtent(extentOf(solid, 0, solid.nFluid), {0, 0.5, 0}, {1, 0.5, 1});
  // front/back lie off the plane; bottom, left and right share two corners.
  const auto tank =
      oneBox(false, kFaceBottom | kFaceLeft | kFaceRight | kFaceFront | kFaceBack, s,
             {0, -1, 0}, {1, 1, 1});
  EXPECT_EQ(tank.nFluid, 11u + 10u + 10u);
  // A box with no thickness in y, lying in the plane, fills it with its front face.
  EXPECT_EQ(oneBox(false, kFaceFront, s, {0, 0.5, 0}, {1, 0.5, 1}).nFluid, 121u);
  // A box that misses the plane draws nothing.
  EXPECT_EQ(oneBox(true, 0, s, {0, 0.7, 0}, {1, 1, 1}).positions.size(), 0u);
}

TEST(Generator, ShapesAreClippedToPointMinMax) {
  // Nodes 0..29 on each axis: pointmax 2 is node 30, left out.
  const auto g = oneBox(true, 0, spec3d(), {-5, -5, -5}, {5, 5, 5});
  EXPECT_EQ(g.nFluid, 30u * 30u * 30u);
  expectExtent(extentOf(g, 0, g.nFluid), {-1, -1, -1}, {1.9, 1.9, 1.9});
}

TEST(Generator, VoidCarvesEarlierShapes) {
  ParticleGenerator g(spec3d());
  g.drawBox({0, 0, 0}, {1, 1, 1}, true, 0, g.family(false, 0));
  g.drawBox({0.3, 0.3, 0.3}, {0.7, 0.7, 0.7}, true, 0, 0);
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  EXPECT_EQ(out.nFluid, 1331u - 125u);
  for (const Vec3d& p : out.positions) {
    const bool inHole = p.x > 0.25 && p.x < 0.75 && p.y > 0.25 && p.y < 0.75 && p.z > 0.25 &&
                        p.z < 0.75;
    EXPECT_FALSE(inHole);
  }
}

TEST(Generator, LaterShapesOverwriteEarlierOnes) {
  // Fluid 11^3, then a boundary floor (bottom face 11x11 of a taller box): the floor wins.
  {
    ParticleGenerator g(spec3d());
    g.drawBox({0, 0, 0}, {1, 1, 1}, true, 0, g.family(false, 0));
    g.drawBox({0, 0, 0}, {1, 1, 2}, false, kFaceBottom, g.family(true, 0));
    const auto out = g.generate(kBoundFirst, kFluidFirst);
    EXPECT_EQ(out.nBound, 121u);
    EXPECT_EQ(out.nFluid, 1331u - 121u);
  }
  // Same shapes in the opposite order: the fluid overwrites the floor where they meet.
  {
    ParticleGenerator g(spec3d());
    g.drawBox({0, 0, 0}, {1, 1, 2}, false, kFaceBottom, g.family(true, 0));
    g.drawBox({0, 0, 0}, {1, 1, 1}, true, 0, g.family(false, 0));
    const auto out = g.generate(kBoundFirst, kFluidFirst);
    EXPECT_EQ(out.nBound, 0u);
    EXPECT_EQ(out.nFluid, 1331u);
  }
}

TEST(Generator, OneBlockPerFamilyInGenCaseOrderWithMkTable) {
  ParticleGenerator g(spec3d());
  const uint16_t fluid = g.family(false, 2);
  const uint16_t wallA = g.family(true, 5);
  const uint16_t wallB = g.family(true, 1);
  const uint16_t unused = g.family(true, 7);
  g.drawBox({0, 0, 0}, {1, 1, 1}, true, 0, fluid);
  g.drawBox({0, 0, 0}, {1, 1, 1}, false, kFaceLeft, wallA);
  g.drawBox({0, 0, 0}, {1, 1, 1}, false, kFaceRight, wallB);
  g.drawBox({5, 5, 5}, {6, 6, 6}, true, 0, unused);  // outside the lattice
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  ASSERT_EQ(out.nBound, 242u);
  ASSERT_EQ(out.nFluid, 1331u - 242u);
  ASSERT_EQ(out.positions.size(), out.mkIndex.size());
  // Used families only: boundary by mk, then fluid.
  ASSERT_EQ(out.mks.size(), 3u);
  EXPECT_TRUE(out.mks[0].bound);
  EXPECT_EQ(out.mks[0].local, 1);
  EXPECT_EQ(out.mks[0].mk, 1 + kBoundFirst);
  EXPECT_EQ(out.mks[0].count, 121u);
  EXPECT_EQ(out.mks[1].local, 5);
  EXPECT_EQ(out.mks[1].mk, 5 + kBoundFirst);
  EXPECT_FALSE(out.mks[2].bound);
  EXPECT_EQ(out.mks[2].mk, 2 + kFluidFirst);
  EXPECT_EQ(out.mks[2].count, out.nFluid);
  // One block per family, in the table's order.
  for (size_t n = 0; n < out.positions.size(); ++n) {
    const uint16_t expected = n < 121 ? 0 : (n < 242 ? 1 : 2);
    EXPECT_EQ(out.mkIndex[n], expected) << n;
    const auto& mk = out.mks[out.mkIndex[n]];
    if (mk.bound) {
      EXPECT_NEAR(out.positions[n].x, mk.local == 5 ? 0.0 : 1.0, kPosTol);
    }
  }
  // Node order within each block: x, then y, then z ascending (z fastest), as GenCase lists them.
  auto key = [&](size_t n) {
    const Vec3d& p = out.positions[n];
    return std::make_tuple(std::lround(p.x / kDp), std::lround(p.y / kDp), std::lround(p.z / kDp));
  };
  for (size_t n = 1; n < out.positions.size(); ++n) {
    if (out.mkIndex[n] != out.mkIndex[n - 1]) continue;
    EXPECT_LT(key(n - 1), key(n)) << n;
  }
}

TEST(Generator, ManyMillionNodesInOneArray) {
  // 4.2 million particles: the dense node array keeps this fast (speed is not asserted here).
  const LatticeSpec s{0.005, {0, 0, 0}, {1.1, 1.1, 1.1}, false};
  ParticleGenerator g(s);
  g.drawBox({0, 0, 0}, {1, 1, 0.5}, true, 0, g.family(false, 0));
  g.drawBox({0, 0, 0}, {1, 1, 1}, false, kAllFaces, g.family(true, 0));
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  const uint32_t shell = 201u * 201u * 201u - 199u * 199u * 199u;
  const uint32_t shellBelowHalf = 201u * 201u * 101u - 199u * 199u * 100u;
  EXPECT_EQ(out.nBound, shell);
  EXPECT_EQ(out.nFluid, 201u * 201u * 101u - shellBelowHalf);
}

TEST(Generator, SolidsGeometryMatchesDualSphysicsCount) {
  // DualSPHysics' CaseSolids (dp 0.01, pointref at the origin): the dam-break column and tank
  // plus 18 blocks of 0.05 x 0.1 x 0.05 m lifted by <move z="0.0085">, touching each other.
  // Takada et al. (2017), "Acceleration of SPH-based fluid simulation on GPU", report 115,016
  // particles for it.
  ParticleGenerator g({0.01, {-0.05, -0.05, -0.05}, {2, 1, 1}, false});
  g.drawBox({0, 0, 0}, {0.4, 0.67, 0.3}, true, 0, g.family(false, 0));
  g.drawBox({0, 0, 0}, {1.6, 0.67, 0.4}, false,
            kFaceBottom | kFaceLeft | kFaceRight | kFaceFront | kFaceBack, g.family(true, 0));
  const double blockY[9] = {0.05, 0.2, 0.35, 0.5, 0.12, 0.27, 0.42, 0.19, 0.32};
  const double blockZ[9] = {0, 0, 0, 0, 0.05, 0.05, 0.05, 0.1, 0.1};
  int mk = 51;
  for (double x : {0.6, 1.3}) {
    for (int b = 0; b < 9; ++b) {
      const Vec3d lo{x, blockY[b], blockZ[b] + 0.0085};
      g.drawBox(lo, {lo.x + 0.05, lo.y + 0.1, lo.z + 0.05}, true, 0, g.family(true, mk++));
    }
  }
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  EXPECT_EQ(out.nBound, 35816u);
  EXPECT_EQ(out.nFluid, 79200u);
  EXPECT_EQ(out.positions.size(), 115016u);
  ASSERT_EQ(out.mks.size(), 20u);
  EXPECT_EQ(out.mks[0].count, 29108u);  // the tank
  EXPECT_EQ(out.mks[10].local, 60);
  EXPECT_EQ(out.mks[10].count, 372u);  // first block of the second stack, partly overdrawn
}

// <fillbox> with modefill void: the empty nodes reachable from the seed inside the box.
TEST(Generator, FillSetsTheEmptyNodesEnclosedByWalls) {
  ParticleGenerator g(spec3d());
  // A closed box of walls (all faces) from 0 to 1: 11^3 nodes, 9^3 inside.
  g.drawBox({0, 0, 0}, {1, 1, 1}, false, kAllFaces, g.family(true, 0));
  // A solid block inside, drawn before the fill: the fill goes round it.
  g.drawBox({0.3, 0.3, 0.3}, {0.5, 0.5, 0.5}, true, 0, g.family(true, 1));
  // The fill box reaches beyond the walls: the walls stop it, not the box.
  g.fillBox({0.8, 0.8, 0.8}, {-0.5, -0.5, -0.5}, {1.5, 1.5, 1.5}, FillKind::Void, g.family(false, 0));
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  EXPECT_EQ(out.nBound, 11u * 11u * 11u - 9u * 9u * 9u + 3u * 3u * 3u);
  EXPECT_EQ(out.nFluid, 9u * 9u * 9u - 3u * 3u * 3u);
  expectExtent(extentOf(out, out.nBound, out.positions.size()), {0.1, 0.1, 0.1}, {0.9, 0.9, 0.9});
}

TEST(Generator, FillStopsAtItsBoxAndAtSeparatingWalls) {
  ParticleGenerator g(spec3d());
  // A floor at z = 0 and a wall across x = 0.5 splitting the space above it in two.
  g.drawBox({0, 0, 0}, {1, 1, 0}, true, 0, g.family(true, 0));
  g.drawBox({0.5, 0, 0}, {0.5, 1, 1}, true, 0, g.family(true, 0));
  g.fillBox({0.2, 0.5, 0.5}, {0, 0, 0}, {1, 1, 0.6}, FillKind::Void, g.family(false, 0));
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  // Strictly inside the box and left of the wall: x 0.1..0.4 (4 nodes), y 0.1..0.9 (9),
  // z 0.1..0.5 (5).
  EXPECT_EQ(out.nFluid, 4u * 9u * 5u);
  expectExtent(extentOf(out, out.nBound, out.positions.size()), {0.1, 0.1, 0.1}, {0.4, 0.9, 0.5});
}

TEST(Generator, FillFromATakenSeedOrFromOutsideItsBoxFillsNothing) {
  ParticleGenerator g(spec3d());
  g.drawBox({0, 0, 0}, {1, 1, 1}, true, 0, g.family(true, 0));
  g.fillBox({0.5, 0.5, 0.5}, {0, 0, 0}, {1, 1, 1}, FillKind::Void, g.family(false, 0));
  EXPECT_EQ(g.generate(kBoundFirst, kFluidFirst).nFluid, 0u);
  ParticleGenerator h(spec3d());
  h.fillBox({1.5, 0.5, 0.5}, {0, 0, 0}, {1, 1, 1}, FillKind::Void, h.family(false, 0));
  h.fillBox({0, 0.5, 0.5}, {0, 0, 0}, {1, 1, 1}, FillKind::Void, h.family(false, 0));  // on the box's side
  EXPECT_EQ(h.generate(kBoundFirst, kFluidFirst).nFluid, 0u);
}

// <modefill>bound</modefill> (fluid): the fill runs through boundary (fluid) nodes of any mk.
TEST(Generator, FillThroughBoundaryOrFluidNodes) {
  ParticleGenerator g(spec3d());
  g.drawBox({0, 0, 0}, {1, 1, 1}, true, 0, g.family(true, 0));
  g.drawBox({0, 0, 0}, {0.5, 1, 1}, true, 0, g.family(true, 1));
  g.drawBox({0.7, 0, 0}, {0.7, 1, 1}, true, 0, g.family(false, 0));  // a fluid wall across x = 0.7
  g.fillBox({0.2, 0.5, 0.5}, {-1, -1, -1}, {2, 2, 2}, FillKind::Bound, g.family(true, 2));
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  // Every boundary node left of the fluid wall (x 0..0.6) becomes mk 2; x 0.8..1 stays mk 0.
  ASSERT_EQ(out.mks.size(), 3u);
  EXPECT_EQ(out.mks[0].local, 0);
  EXPECT_EQ(out.mks[0].count, 3u * 121u);
  EXPECT_EQ(out.mks[1].local, 2);
  EXPECT_EQ(out.mks[1].count, 7u * 121u);
  EXPECT_EQ(out.mks[2].count, 121u);
}

size_t countAt(const GeneratedParticles& g, double x, double y) {
  size_t n = 0;
  for (const Vec3d& p : g.positions) n += std::abs(p.x - x) < 1e-9 && std::abs(p.y - y) < 1e-9;
  return n;
}

// <setdrawmode mode="solid">: the nodes strictly inside the box (7^3 for a box of 8 dp), plus,
// strictly between bottom and top, those within 0.6 dp of the vertical plane through the bottom's
// diagonal from (x max, y min) to (x min, y max): here its two end columns.
TEST(Generator, SolidBoxIsItsInsideAndTheDiagonalsEnds) {
  ParticleGenerator g(exactSpec());
  g.drawBoxInterior({0, 0, 0}, {1, 1, 1}, g.family(false, 0));
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  EXPECT_EQ(out.nFluid, 7u * 7u * 7u + 2u * 7u);
  EXPECT_EQ(countAt(out, 0, 1), 7u);
  EXPECT_EQ(countAt(out, 1, 0), 7u);
  EXPECT_EQ(countAt(out, 0, 0), 0u);
  EXPECT_EQ(countAt(out, 1, 1), 0u);
  expectExtent(extentOf(out, 0, out.nFluid), {0, 0, kExactDp}, {1, 1, 1 - kExactDp});
}

// A box 2 dp wide and 12 dp long (nodes x 0..2, y 0..12): one row inside (y 1..11), and the
// diagonal from (2, 0) to (0, 12) keeps the nodes of the left face with |2 y - 24| < 0.6 sqrt(148)
// (y 9..12) and of the right face with 2 y < 0.6 sqrt(148) (y 0..3); 3 planes between bottom and top.
TEST(Generator, ThinSolidBoxKeepsAStripOfEachSideFace) {
  ParticleGenerator g(exactSpec());
  g.drawBoxInterior({0, 0, 0}, {2 * kExactDp, 12 * kExactDp, 4 * kExactDp}, g.family(true, 0));
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  EXPECT_EQ(out.nBound, 3u * (11u + 4u + 4u));
  for (int j = 0; j <= 12; ++j) {
    SCOPED_TRACE(j);
    EXPECT_EQ(countAt(out, 0, j * kExactDp), j >= 9 ? 3u : 0u);
    EXPECT_EQ(countAt(out, kExactDp, j * kExactDp), j >= 1 && j <= 11 ? 3u : 0u);
    EXPECT_EQ(countAt(out, 2 * kExactDp, j * kExactDp), j <= 3 ? 3u : 0u);
  }
}

// A box whose bottom has no area draws nothing in draw mode solid, in 3D and in 2D.
TEST(Generator, SolidBoxWithoutWidthDrawsNothing) {
  ParticleGenerator g(exactSpec());
  g.drawBoxInterior({0.5, 0, 0}, {0.5, 1, 1}, g.family(false, 0));
  EXPECT_EQ(g.generate(kBoundFirst, kFluidFirst).nFluid, 0u);
  LatticeSpec s = exactSpec();
  s.twoD = true;
  s.pointMin.y = s.pointMax.y = 0;
  ParticleGenerator g2(s);
  g2.drawBoxInterior({0, 0, 0}, {1, 0, 1}, g2.family(false, 0));
  EXPECT_EQ(g2.generate(kBoundFirst, kFluidFirst).nFluid, 0u);
  g2.drawBoxInterior({0, -1, 0}, {1, 1, 1}, g2.family(false, 0));
  EXPECT_EQ(g2.generate(kBoundFirst, kFluidFirst).nFluid, 7u * 7u);
}

TEST(Generator, FillInTwoDimensionsStaysInThePlane) {
  LatticeSpec s = spec3d();
  s.twoD = true;
  s.pointMin.y = s.pointMax.y = 0;
  ParticleGenerator g(s);
  g.drawBox({0, 0, 0}, {1, 0, 1}, false, kFaceLeft | kFaceRight | kFaceBottom | kFaceTop, g.family(true, 0));
  g.fillBox({0.5, 0, 0.5}, {0, 0, 0}, {1, 0, 1}, FillKind::Void, g.family(false, 0));
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  EXPECT_EQ(out.nFluid, 9u * 9u);
  EXPECT_EQ(out.nBound, 11u * 11u - 9u * 9u);
}

// GenCase's sphere: centre snapped (0.52 -> 0.5), radius 0.2 = 2 nodes; the whole sphere is the
// nodes within 2.6 nodes of the centre (81), the surface those between 1.4 and 2.6 (74).
TEST(Generator, SphereWholeAndSurface) {
  for (const bool surface : {false, true}) {
    ParticleGenerator g(spec3d());
    g.drawSphere({0.52, 0.5, 0.5}, 0.2, surface ? ParticleGenerator::SphereDraw::Surface : ParticleGenerator::SphereDraw::Full,
                 g.family(false, 0));
    const auto out = g.generate(kBoundFirst, kFluidFirst);
    EXPECT_EQ(out.nFluid, surface ? 74u : 81u);
    expectExtent(extentOf(out, 0, out.nFluid), {0.3, 0.3, 0.3}, {0.7, 0.7, 0.7});
  }
}

// A sphere in draw mode solid: the nodes within the radius as given, in metres, of the snapped
// centre. Radius 2 dp with exact coordinates: i^2 + j^2 + k^2 <= 4, 1 + 6 + 12 + 8 + 6 nodes.
TEST(Generator, SphereInside) {
  ParticleGenerator g(exactSpec());
  g.drawSphere({0.5, 0.5, 0.52}, 2 * kExactDp, ParticleGenerator::SphereDraw::Inside, g.family(false, 0));
  const auto out = g.generate(kBoundFirst, kFluidFirst);
  EXPECT_EQ(out.nFluid, 33u);
  expectExtent(extentOf(out, 0, out.nFluid), {0.25, 0.25, 0.25}, {0.75, 0.75, 0.75});
}

TEST(DomainSpec, ParsesDualSphysicsForms) {
  auto d = parseDomainAxis("default");
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->useDefault);
  EXPECT_EQ(d->value, 0);
  d = parseDomainAxis(" Default + 50% ");
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->useDefault && d->percent);
  EXPECT_EQ(d->value, 50);
  d = parseDomainAxis("default-0.25");
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->useDefault && !d->percent);
  EXPECT_EQ(d->value, -0.25);
  d = parseDomainAxis("-1.5");
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->useDefault);
  EXPECT_EQ(d->value, -1.5);
  EXPECT_FALSE(parseDomainAxis("defaults"));
  EXPECT_FALSE(parseDomainAxis("default * 2"));
  EXPECT_FALSE(parseDomainAxis("default + x%"));
  EXPECT_FALSE(parseDomainAxis("1.5m"));
}

}  // namespace
