// Rigid-body mechanics of floating bodies (engine/src/rigid_body.h) against analytic results:
// inertia of lattice boxes, free fall, spin and spin-up about a principal axis.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "rigid_body.h"

namespace {

using sph::Vec3d;
using namespace sph::rigid;

constexpr double kDp = 0.01;
constexpr double kMassP = 1000 * kDp * kDp * kDp;  // water-density particles

std::vector<Vec3d> latticeBox(int nx, int ny, int nz, Vec3d origin = {0.3, -0.2, 1.0}) {
  std::vector<Vec3d> p;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) p.push_back({origin.x + i * kDp, origin.y + j * kDp, origin.z + k * kDp});
  return p;
}

TEST(RigidBody, LatticeBoxHasTheInertiaOfTheSolidBox) {
  // n particles per axis stand for a solid of side n dp: I_xx = M (Ly^2 + Lz^2) / 12 exactly
  // (point sum M dp^2 (n^2 - 1)/12 per axis plus each particle's own M dp^2 / 12 per axis).
  const int nx = 4, ny = 6, nz = 10;
  const MassProperties p = massProperties(latticeBox(nx, ny, nz), kMassP, kDp);
  const double M = kMassP * nx * ny * nz, Lx = nx * kDp, Ly = ny * kDp, Lz = nz * kDp;
  EXPECT_DOUBLE_EQ(p.mass, M);
  EXPECT_NEAR(p.center.x, 0.3 + 1.5 * kDp, 1e-14);
  EXPECT_NEAR(p.center.z, 1.0 + 4.5 * kDp, 1e-14);
  // Sums of ~240 terms of size ~M L^2: relative round-off ~1e-13.
  const double tol = 1e-12 * M * Lz * Lz;
  EXPECT_NEAR(p.inertia.m[0][0], M * (Ly * Ly + Lz * Lz) / 12, tol);
  EXPECT_NEAR(p.inertia.m[1][1], M * (Lx * Lx + Lz * Lz) / 12, tol);
  EXPECT_NEAR(p.inertia.m[2][2], M * (Lx * Lx + Ly * Ly) / 12, tol);
  EXPECT_NEAR(p.inertia.m[0][1], 0, tol);
  EXPECT_NEAR(p.inertia.m[1][2], 0, tol);
}

TEST(RigidBody, FreeFallFollowsTheSemiImplicitEulerSum) {
  BodyState b{massProperties(latticeBox(3, 3, 3), kMassP, kDp), {}, {}};
  const Vec3d start = b.props.center;
  const double g = -9.81, dt = 1e-3;
  const int steps = 500;
  for (int s = 0; s < steps; ++s) advance(b, {0, 0, b.props.mass * g}, {}, dt);
  // v_n = n g dt; z_n = z_0 + g dt^2 n (n + 1) / 2 (velocity updated before position).
  EXPECT_NEAR(b.vel.z, steps * g * dt, 1e-12);
  EXPECT_NEAR(b.props.center.z, start.z + g * dt * dt * steps * (steps + 1) / 2, 1e-12);
  EXPECT_NEAR(b.props.center.x, start.x, 1e-15);
}

TEST(RigidBody, SpinAboutAPrincipalAxisRotatesParticlesExactly) {
  BodyState b{massProperties(latticeBox(4, 6, 8), kMassP, kDp), {}, {0, 0, 2.0}};
  const Vec3d c = b.props.center;
  Vec3d corner = latticeBox(4, 6, 8).back();
  const Vec3d r0 = corner - c;
  const double dt = 1e-3;
  const int steps = 1000;
  for (int s = 0; s < steps; ++s) corner = advance(b, {}, {}, dt).apply(corner);
  // No torque, omega on a principal axis: omega stays constant and the corner turns by 2 rad.
  EXPECT_NEAR(b.omega.z, 2.0, 1e-12);
  EXPECT_NEAR(b.omega.x, 0, 1e-12);
  const double a = 2.0 * steps * dt;
  // 1000 compositions of rotations: round-off ~1e-13 of the 5 cm radius.
  EXPECT_NEAR(corner.x, c.x + std::cos(a) * r0.x - std::sin(a) * r0.y, 1e-12);
  EXPECT_NEAR(corner.y, c.y + std::sin(a) * r0.x + std::cos(a) * r0.y, 1e-12);
  EXPECT_NEAR(corner.z, c.z + r0.z, 1e-12);
}

TEST(RigidBody, ConstantTorqueSpinsUpAsTorqueOverInertia) {
  BodyState b{massProperties(latticeBox(5, 5, 5), kMassP, kDp), {}, {}};
  const double Ixx = b.props.inertia.m[0][0], T = 1e-3, dt = 1e-3;
  for (int s = 0; s < 200; ++s) advance(b, {}, {T, 0, 0}, dt);
  // A cube's inertia is isotropic: it stays T/I t about x however it turns.
  EXPECT_NEAR(b.omega.x, T / Ixx * 200 * dt, 1e-12 * T / Ixx);
  EXPECT_NEAR(b.omega.y, 0, 1e-12);
}

TEST(RigidBody, VelocityOfAParticleIncludesTheSpin) {
  BodyState b{massProperties(latticeBox(3, 3, 3), kMassP, kDp), {1, 0, 0}, {0, 0, 3}};
  const StepMotion m = advance(b, {}, {}, 1e-4);
  const Vec3d x = m.centerAfter + Vec3d{0.02, 0, 0};
  const Vec3d v = m.velocityAt(x);
  EXPECT_NEAR(v.x, 1.0, 1e-12);
  EXPECT_NEAR(v.y, 3 * 0.02, 1e-12);  // omega x r = (0, 0, 3) x (0.02, 0, 0)
}

TEST(RigidBody, ParticlesOnOneLineHaveNoInvertibleInertia) {
  const std::vector<Vec3d> line = {{0, 0, 0}, {kDp, 0, 0}, {2 * kDp, 0, 0}};
  BodyState b{massProperties(line, kMassP, 0.0), {}, {}};  // no particle extent: singular
  EXPECT_THROW(advance(b, {}, {1, 0, 0}, 1e-3), std::domain_error);
}

}  // namespace
