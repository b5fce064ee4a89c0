// mDBC normals of planes, spheres and cylinders (geometry/shape_normals.h) against the geometry
// worked by hand: the vector from a boundary particle to the nearest point of the surface, none on
// the wrong side or beyond reach. Exact to rounding (1e-12 m on unit-sized shapes).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>

#include "geometry/shape_normals.h"

namespace sph {
namespace {

constexpr double kTol = 1e-12;
constexpr double kFar = std::numeric_limits<double>::infinity();

void expectVector(const std::optional<Vec3d>& got, const Vec3d& want) {
  ASSERT_TRUE(got.has_value());
  EXPECT_NEAR(got->x, want.x, kTol);
  EXPECT_NEAR(got->y, want.y, kTol);
  EXPECT_NEAR(got->z, want.z, kTol);
}

TEST(ShapeNormals, PlaneProjectsEitherSideWithinReach) {
  const Vec3d up{0, 0, 1};
  // A floor particle 0.015 below the plane z = -0.005: the vector up to it.
  expectVector(planeNormal({0.3, 0, -0.02}, {0, 0, -0.005}, up, 0.04), {0, 0, 0.015});
  // On the fluid side the vector points back down (GenCase does not look at the side).
  expectVector(planeNormal({0.3, 0, 0.01}, {0, 0, -0.005}, up, 0.04), {0, 0, -0.015});
  EXPECT_FALSE(planeNormal({0.3, 0, -0.05}, {0, 0, -0.005}, up, 0.04).has_value());
  // A slanted plane: the distance along its unit normal.
  const Vec3d n{std::sqrt(0.5), 0, std::sqrt(0.5)};
  expectVector(planeNormal({0, 0, 0}, {1, 0, 1}, n, kFar), {1, 0, 1});
}

TEST(ShapeNormals, AutomaticPlanePointIsTheFluidSideOfTheWallPlusAnOffset) {
  const Vec3d lo{-0.03, -1, -0.03}, hi{0.63, 1, -0.01};
  const Vec3d up = autoPlanePoint(lo, hi, {0, 0, 1}, 0, 0.005);
  EXPECT_NEAR(up.z, -0.005, kTol);
  EXPECT_NEAR(up.x, 0.3, kTol);
  const Vec3d left = autoPlanePoint(lo, hi, {-1, 0, 0}, 0, 0.005);
  EXPECT_NEAR(left.x, -0.035, kTol);
  // Slanted: the centre moved along the normal by the farthest particle's distance plus the offset.
  const Vec3d n{0.6, 0, 0.8};
  EXPECT_FALSE(isAxisNormal(n));
  EXPECT_TRUE(isAxisNormal({0, -1, 0}));
  const Vec3d p = autoPlanePoint({0, 0, 0}, {2, 0, 2}, n, 0.5, 0.1);
  EXPECT_NEAR(p.x, 1 + 0.6 * 0.6, kTol);
  EXPECT_NEAR(p.z, 1 + 0.8 * 0.6, kTol);
}

TEST(ShapeNormals, SphereInsideAndOutside) {
  const Vec3d centre{1, 1, 1};
  // A shell holding fluid: a particle 0.05 inside the surface along (3,0,4)/5.
  expectVector(sphereNormal({1 + 0.3 * 0.9, 1, 1 + 0.4 * 0.9}, centre, 0.5, true, 0.2), {0.03, 0, 0.04});
  EXPECT_FALSE(sphereNormal({1.7, 1, 1}, centre, 0.5, true, 0.2).has_value());   // outside a shell
  EXPECT_FALSE(sphereNormal({1.1, 1, 1}, centre, 0.5, true, 0.2).has_value());   // too deep
  // A solid ball: a particle 0.1 outside gets the vector back to the surface.
  expectVector(sphereNormal({1, 1.6, 1}, centre, 0.5, false, 0.2), {0, -0.1, 0});
  EXPECT_FALSE(sphereNormal({1, 1.4, 1}, centre, 0.5, false, 0.2).has_value());
}

TEST(ShapeNormals, CylinderInsideTakesTheNearestWallAndTheRimWhereTwoAreEqual) {
  const Vec3d c1{0, 0, 0}, c2{0, 0, 1};
  const double tol = 1e-3;
  // Near the side wall only.
  expectVector(cylinderNormal({0.45, 0, 0.5}, c1, c2, 0.5, true, true, true, 0.2, tol), {0.05, 0, 0});
  // Nearer the bottom than the side.
  expectVector(cylinderNormal({0.3, 0, 0.05}, c1, c2, 0.5, true, true, true, 0.2, tol), {0, 0, -0.05});
  // Nearer the top.
  expectVector(cylinderNormal({0, 0.2, 0.9}, c1, c2, 0.5, true, true, true, 0.2, tol), {0, 0, 0.1});
  // As near the side as the bottom: to the rim.
  expectVector(cylinderNormal({0, 0.45, 0.05}, c1, c2, 0.5, true, true, true, 0.2, tol), {0, 0.05, -0.05});
  // Without the bottom as a wall (an open pipe) the side wall is the nearest.
  expectVector(cylinderNormal({0.3, 0, 0.05}, c1, c2, 0.5, true, false, true, 0.3, tol), {0.2, 0, 0});
  EXPECT_FALSE(cylinderNormal({0.3, 0, 0.05}, c1, c2, 0.5, true, false, true, 0.1, tol).has_value());
  // Outside the cylinder or beyond reach: nothing.
  EXPECT_FALSE(cylinderNormal({0.6, 0, 0.5}, c1, c2, 0.5, true, true, true, 0.2, tol).has_value());
  EXPECT_FALSE(cylinderNormal({0, 0, 0.5}, c1, c2, 0.5, true, true, true, 0.2, tol).has_value());
}

TEST(ShapeNormals, CylinderOutsideTakesTheSideAnEndOrTheRim) {
  const Vec3d c1{0, 0, 0}, c2{2, 0, 0};  // along x
  const double tol = 1e-3;
  expectVector(cylinderNormal({1, 0, 0.6}, c1, c2, 0.5, false, true, true, 0.2, tol), {0, 0, -0.1});
  expectVector(cylinderNormal({-0.1, 0.2, 0}, c1, c2, 0.5, false, true, true, 0.2, tol), {0.1, 0, 0});
  expectVector(cylinderNormal({2.1, 0, 0}, c1, c2, 0.5, false, true, true, 0.2, tol), {-0.1, 0, 0});
  // Beyond both the side and end 2: to the rim.
  expectVector(cylinderNormal({2.1, 0, 0.6}, c1, c2, 0.5, false, true, true, 0.2, tol), {-0.1, 0, -0.1});
  EXPECT_FALSE(cylinderNormal({1, 0, 0.4}, c1, c2, 0.5, false, true, true, 0.2, tol).has_value());  // inside
  EXPECT_FALSE(cylinderNormal({1, 0, 0.8}, c1, c2, 0.5, false, true, true, 0.2, tol).has_value());  // far
}

}  // namespace
}  // namespace sph
