// Floating bodies: the rigid-body step of physics/floating_body_physics.h against analytic results
// (inertia of lattice boxes, free fall, spin, Rodrigues' rotation, periodic wrapping), and the
// pair rules of floating_pair_physics.h (which pairs see each other, with which mass, DEM
// contacts, action and reaction).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "model/sim_parameters.h"
#include "physics/floating_body_physics.h"
#include "sph/plugin/floating_pair_physics.h"

namespace sph {
namespace {

// ---------------------------------------------------------------------------------------------
// Rigid-body step (physics/floating_body_physics.h)

constexpr double kDp = 0.01;
constexpr double kMassP = 700 * kDp * kDp * kDp;  // particles of a body of density 700
const double kNoGravity[3] = {0, 0, 0};
const double kGravity[3] = {0, 0, -9.81};

struct Lattice {
  std::vector<Real4<double>> pos;  // particle positions, pressure in w
  double center[3];
};

// nx x ny x nz particles with spacing dp centred on c (positions built from the centre so that
// r - c is exact up to one rounding).
Lattice lattice(int nx, int ny, int nz, const double c[3]) {
  Lattice l;
  for (int k = 0; k < 3; ++k) l.center[k] = c[k];
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        l.pos.push_back({c[0] + (i - 0.5 * (nx - 1)) * kDp, c[1] + (j - 0.5 * (ny - 1)) * kDp,
                         c[2] + (k - 0.5 * (nz - 1)) * kDp, 1234.5});
  return l;
}

FloatingBody bodyOf(const Lattice& l, const double vel[3], const double omega[3]) {
  FloatingBody b{};
  for (int k = 0; k < 3; ++k) {
    b.center[k] = l.center[k];
    b.vel[k] = vel[k];
    b.omega[k] = omega[k];
  }
  b.count = uint32_t(l.pos.size());
  b.first = 0;
  b.particleMass = kMassP;
  b.pairMass = kMassP;
  b.mass = kMassP * b.count;
  b.ownInertia = b.count * kMassP * kDp * kDp / 6;  // as floating/floating_bodies.cpp sets it
  return b;
}

// Sums over the particles at positions pos about centre c with accelerations acc (or none).
BodySums sumsOf(const std::vector<Real4<double>>& pos, const double c[3],
                const std::vector<std::array<double, 3>>* acc = nullptr) {
  BodySums s;
  const PeriodicBox<double> open;
  for (size_t i = 0; i < pos.size(); ++i) {
    double d[3];
    offsetFromCenter(pos[i], c, open, d);
    const double a[3] = {acc ? (*acc)[i][0] : 0, acc ? (*acc)[i][1] : 0, acc ? (*acc)[i][2] : 0};
    addToBodySums(s, d[0], d[1], d[2], a[0], a[1], a[2], 0);
  }
  return s;
}

TEST(FloatingBody, FreeFallIsSemiImplicitEuler) {
  const double c[3] = {0.3, -0.2, 1.0}, v0[3] = {0.1, -0.2, 0.3}, w0[3] = {0, 0, 0};
  const Lattice l = lattice(3, 3, 3, c);
  FloatingBody b = bodyOf(l, v0, w0);
  const double dt = 1e-3;
  const BodyMotion m = advanceBody(b, BodySums{}, dt, kGravity, 3, false, BodyStep::Euler);
  // One step: v' = v + g dt, c' = c + dt v'. (M g)/M may differ from g by an ulp: 1e-15.
  for (int k = 0; k < 3; ++k) {
    const double v1 = v0[k] + kGravity[k] * dt;
    EXPECT_NEAR(b.vel[k], v1, 1e-15);
    EXPECT_NEAR(m.vel[k], v1, 1e-15);
    EXPECT_NEAR(b.center[k], c[k] + dt * v1, 1e-15);
    EXPECT_EQ(m.from[k], c[k]);
    EXPECT_EQ(m.to[k], b.center[k]);
    EXPECT_EQ(m.omega[k], 0);
  }
  for (int k = 0; k < 9; ++k) EXPECT_EQ(m.rot[k], k % 4 == 0 ? 1.0 : 0.0);  // no spin: identity
  // 499 more steps: v_n = v_0 + n g dt, z_n = z_0 + n dt v_0 + g dt^2 n (n + 1)/2 (velocity
  // before position). 500 steps of round-off ~1e-16 each: 1e-12.
  const int steps = 500;
  for (int s = 1; s < steps; ++s) advanceBody(b, BodySums{}, dt, kGravity, 3, false, BodyStep::Euler);
  EXPECT_NEAR(b.vel[2], v0[2] + steps * kGravity[2] * dt, 1e-12);
  EXPECT_NEAR(b.center[2], c[2] + steps * dt * v0[2] + kGravity[2] * dt * dt * steps * (steps + 1) / 2, 1e-12);
  EXPECT_NEAR(b.center[0], c[0] + steps * dt * v0[0], 1e-12);
  // The particles' accelerations add m_p sum a_p / M: each particle pushed with 2 m/s^2 along x.
  FloatingBody p = bodyOf(l, v0, w0);
  std::vector<std::array<double, 3>> acc(l.pos.size(), {2.0, 0, 0});
  advanceBody(p, sumsOf(l.pos, c, &acc), dt, kGravity, 3, false, BodyStep::Euler);
  EXPECT_NEAR(p.vel[0], v0[0] + 2.0 * dt, 1e-15);
  EXPECT_NEAR(p.vel[2], v0[2] + kGravity[2] * dt, 1e-15);
}

// What a case imposes (BodyDrive), in both sets of rules, as DualSPHysics' FtComputeAceVel: the
// external force joins the weight, imposed components replace the new velocities, restricted ones
// are zero.
TEST(FloatingBody, DriveImposesForcesVelocitiesAndRestrictions) {
  const double c[3] = {0.3, -0.2, 1.0}, v0[3] = {0.1, -0.2, 0.3}, w0[3] = {0.5, -0.4, 0.2};
  const Lattice l = lattice(3, 3, 3, c);
  const double dt = 1e-3;
  for (int rules = 0; rules < 2; ++rules) {
    SCOPED_TRACE(rules == 0 ? "Rigid" : "DualSPHysics");
    const auto step = [&](FloatingBody& b, const BodyDrive* d) {
      return rules == 0 ? advanceBody(b, BodySums{}, dt, kGravity, 3, false, BodyStep::Euler, d)
                        : advanceBodyDualSPHysics(b, BodySums{}, dt, kGravity, 3, false, BodyStep::Euler, d);
    };
    // An external force of 2 M along x accelerates the body by 2 m/s^2 beside gravity.
    FloatingBody pushed = bodyOf(l, v0, w0);
    BodyDrive force{};
    force.force[0] = 2 * pushed.mass;
    step(pushed, &force);
    EXPECT_NEAR(pushed.vel[0], v0[0] + 2 * dt, 1e-14);
    EXPECT_NEAR(pushed.vel[2], v0[2] + kGravity[2] * dt, 1e-14);
    // Imposed x velocity and z spin; y translation and x rotation restricted; the rest free.
    FloatingBody driven = bodyOf(l, v0, w0);
    BodyDrive d{};
    d.vel[0] = 0.7;
    d.setVel = 1u << 0;
    d.omega[2] = -1.5;
    d.setOmega = 1u << 2;
    d.fixedMove = 1u << 1;
    d.fixedTurn = 1u << 0;
    const BodyMotion m = step(driven, &d);
    EXPECT_EQ(driven.vel[0], 0.7);
    EXPECT_EQ(driven.vel[1], 0);
    EXPECT_NEAR(driven.vel[2], v0[2] + kGravity[2] * dt, 1e-14);  // free: gravity
    EXPECT_EQ(driven.omega[0], 0);
    EXPECT_NEAR(driven.omega[1], w0[1], 1e-14);  // free, no torque
    EXPECT_EQ(driven.omega[2], -1.5);
    EXPECT_EQ(m.vel[0], 0.7);
    EXPECT_EQ(m.omega[2], -1.5);
    // The next step moves the centre by the imposed velocity along x and not at all along y.
    const double cx = driven.center[0], cy = driven.center[1];
    step(driven, &d);
    EXPECT_NEAR(driven.center[0], cx + 0.7 * dt, 1e-15);
    EXPECT_EQ(driven.center[1], cy);
  }
}

TEST(FloatingBody, LatticeBoxHasTheInertiaOfTheSolidBox) {
  // n particles per axis stand for a solid of side n dp: I_xx = M (Ly^2 + Lz^2)/12 exactly (the
  // point sum gives M dp^2 (n^2 - 1)/12 per axis, ownInertia the missing M dp^2/12 per axis).
  const double c[3] = {0.3, -0.2, 1.0};
  for (auto n : {std::array<int, 3>{5, 5, 5}, std::array<int, 3>{4, 6, 10}}) {
    const Lattice l = lattice(n[0], n[1], n[2], c);
    const FloatingBody b = bodyOf(l, kNoGravity, kNoGravity);
    const BodySums s = sumsOf(l.pos, c);
    const double M = b.mass, L[3] = {n[0] * kDp, n[1] * kDp, n[2] * kDp};
    const double I[3] = {M * (L[1] * L[1] + L[2] * L[2]) / 12, M * (L[0] * L[0] + L[2] * L[2]) / 12,
                         M * (L[0] * L[0] + L[1] * L[1]) / 12};
    // Sums of up to 240 terms of size ~M L^2: relative round-off ~1e-14; 1e-12 of the largest.
    const double tol = 1e-12 * I[0];
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(kMassP * s.inertia[k] + b.ownInertia, I[k], tol) << "axis " << k;
    for (int k = 3; k < 6; ++k) EXPECT_NEAR(kMassP * s.inertia[k], 0, tol) << "product " << k;

    // A couple on two opposite corners (d_q = -d_p, a_q = -a_p): torque 2 m_p d_p x a_p, no
    // force. One step: omega' = I^-1 T dt with the analytic I (principal axes along x, y, z),
    // v' = v, and the centre does not move.
    std::vector<std::array<double, 3>> acc(l.pos.size(), {0, 0, 0});
    const double a[3] = {0.7, -1.3, 2.3};  // no torque component vanishes on either box
    acc.front() = {a[0], a[1], a[2]};
    acc.back() = {-a[0], -a[1], -a[2]};
    double d[3];
    offsetFromCenter(l.pos.front(), c, PeriodicBox<double>{}, d);
    const double T[3] = {2 * kMassP * (d[1] * a[2] - d[2] * a[1]), 2 * kMassP * (d[2] * a[0] - d[0] * a[2]),
                         2 * kMassP * (d[0] * a[1] - d[1] * a[0])};
    FloatingBody moved = b;
    const double dt = 1e-3;
    const BodyMotion m = advanceBody(moved, sumsOf(l.pos, c, &acc), dt, kNoGravity, 3, false, BodyStep::Euler);
    for (int k = 0; k < 3; ++k) {
      // The inverse of a 3x3 matrix of entries ~1e-3 with round-off ~1e-18: 1e-12 relative.
      EXPECT_NEAR(m.omega[k], T[k] / I[k] * dt, 1e-12 * std::abs(T[k] / I[k] * dt)) << "axis " << k;
      EXPECT_NEAR(m.vel[k], 0, 1e-15);
      EXPECT_NEAR(moved.center[k], c[k], 1e-15);
    }
  }
}

TEST(FloatingBody, SolveInertiaInvertsAFullSymmetricMatrix) {
  // A symmetric positive definite matrix with products of inertia (a tilted body).
  const double I[6] = {4.0, 5.0, 6.0, 0.7, -0.4, 1.1};  // xx yy zz xy xz yz
  const double t[3] = {0.3, -1.2, 0.8};
  double x[3];
  solveInertia(I, t, x);
  // Residual I x - t: round-off of a 3x3 solve with entries ~5 and cofactors ~30: 1e-14.
  EXPECT_NEAR(I[0] * x[0] + I[3] * x[1] + I[4] * x[2], t[0], 1e-14);
  EXPECT_NEAR(I[3] * x[0] + I[1] * x[1] + I[5] * x[2], t[1], 1e-14);
  EXPECT_NEAR(I[4] * x[0] + I[5] * x[1] + I[2] * x[2], t[2], 1e-14);
  // Particles on one line with no own inertia: singular, the torque is ignored (zero, no NaN).
  const double line[6] = {0, 2e-4, 2e-4, 0, 0, 0};
  solveInertia(line, t, x);
  EXPECT_EQ(x[0], 0);
  EXPECT_EQ(x[1], 0);
  EXPECT_EQ(x[2], 0);
}

TEST(FloatingBody, ConstantTorqueSpinsUpAsTorqueOverInertia) {
  // Port of the old RigidBody test: a cube's inertia is isotropic, so a torque about x spins
  // it up as T/I t about x however it turns; the inertia is recomputed from the moving
  // particles every step as the engine does.
  const double c[3] = {0.3, -0.2, 1.0};
  const Lattice l = lattice(5, 5, 5, c);
  FloatingBody b = bodyOf(l, kNoGravity, kNoGravity);
  const double L = 5 * kDp, I = b.mass * (2 * L * L) / 12, T = 1e-3, dt = 1e-3;
  std::vector<Real4<double>> pos = l.pos, src;
  const int steps = 200;
  for (int s = 0; s < steps; ++s) {
    BodySums sums = sumsOf(pos, b.center);
    sums.torque[0] += T / kMassP;  // sums hold sum d x a; the body multiplies by m_p
    const BodyMotion m = advanceBody(b, sums, dt, kNoGravity, 3, false, BodyStep::Euler);
    src = pos;
    Real4<double> vel{};
    for (size_t i = 0; i < pos.size(); ++i) moveFloatingParticle(src[i], m, PeriodicBox<double>{}, pos[i], vel);
  }
  EXPECT_NEAR(b.omega[0], T / I * steps * dt, 1e-12 * T / I * steps * dt);
  EXPECT_NEAR(b.omega[1], 0, 1e-12 * T / I * steps * dt);
  EXPECT_NEAR(b.omega[2], 0, 1e-12 * T / I * steps * dt);
}

TEST(FloatingBody, SpinAboutAPrincipalAxisRotatesParticlesExactly) {
  const double c[3] = {0.3, -0.2, 1.0}, w[3] = {0, 0, 2.0};
  const Lattice l = lattice(4, 6, 8, c);
  FloatingBody b = bodyOf(l, kNoGravity, w);
  Real4<double> corner = l.pos.back(), vel{};
  const double r0[3] = {corner.x - c[0], corner.y - c[1], corner.z - c[2]};
  const double dt = 1e-3;
  const int steps = 1000;
  for (int s = 0; s < steps; ++s) {
    const BodyMotion m = advanceBody(b, BodySums{}, dt, kNoGravity, 3, false, BodyStep::Euler);
    const Real4<double> src = corner;
    moveFloatingParticle(src, m, PeriodicBox<double>{}, corner, vel);
  }
  // No torque, omega on a principal axis: omega stays and the corner turns by 2 rad about z.
  EXPECT_EQ(b.omega[2], 2.0);
  const double a = 2.0 * steps * dt;
  // 1000 compositions of rotations: round-off ~1e-13 of the 5 cm radius.
  EXPECT_NEAR(corner.x, c[0] + std::cos(a) * r0[0] - std::sin(a) * r0[1], 1e-12);
  EXPECT_NEAR(corner.y, c[1] + std::sin(a) * r0[0] + std::cos(a) * r0[1], 1e-12);
  EXPECT_NEAR(corner.z, c[2] + r0[2], 1e-12);
  // v = omega x (r - c) with r - c of the rotated corner.
  EXPECT_NEAR(vel.x, -2.0 * (corner.y - c[1]), 1e-12);
  EXPECT_NEAR(vel.y, 2.0 * (corner.x - c[0]), 1e-12);
  EXPECT_NEAR(vel.z, 0, 1e-12);
}

TEST(FloatingBody, TwoDimensionalBodiesStayInThePlane) {
  // A plate of nx x 1 x nz particles in the x-z plane, with a torque and a force along every
  // axis and initial out-of-plane motion: only vel x, z and omega y survive.
  const double c[3] = {0.5, 0.0, 0.4}, v0[3] = {0.1, 0.3, -0.2}, w0[3] = {0.5, 0.2, -0.7};
  const Lattice l = lattice(6, 1, 4, c);
  FloatingBody b = bodyOf(l, v0, w0);
  b.ownInertia = b.count * kMassP * kDp * kDp / 6;  // a square of side dp about y: m dp^2/6
  std::vector<std::array<double, 3>> acc(l.pos.size(), {0.2, 0.4, -0.1});
  const double a[3] = {0.9, -0.5, 1.7};
  acc.front() = {a[0], a[1], a[2]};
  acc.back() = {-a[0], 0.4, -a[2]};  // a net force along every axis and a torque
  const BodySums s = sumsOf(l.pos, c, &acc);
  const double dt = 1e-3;
  const BodyMotion m = advanceBody(b, s, dt, kGravity, 2, false, BodyStep::Euler);
  EXPECT_EQ(m.vel[1], 0);
  EXPECT_EQ(b.vel[1], 0);
  EXPECT_EQ(m.omega[0], 0);
  EXPECT_EQ(m.omega[2], 0);
  EXPECT_EQ(b.omega[0], 0);
  EXPECT_EQ(b.omega[2], 0);
  EXPECT_EQ(b.center[1], c[1]);
  // omega_y' = omega_y + T_y/I_yy dt with the plate's I_yy = M (Lx^2 + Lz^2)/12.
  const double Lx = 6 * kDp, Lz = 4 * kDp, Iyy = b.mass * (Lx * Lx + Lz * Lz) / 12;
  const double Ty = kMassP * s.torque[1];
  EXPECT_NE(Ty, 0);
  EXPECT_NEAR(m.omega[1], w0[1] + Ty / Iyy * dt, 1e-12 * std::abs(Ty / Iyy * dt));
  EXPECT_NEAR(m.vel[0], v0[0] + kMassP * s.ace[0] / b.mass * dt, 1e-15);
  EXPECT_NEAR(m.vel[2], v0[2] + (kMassP * s.ace[2] / b.mass + kGravity[2]) * dt, 1e-15);
  // The rotation turns about y only: the y row and column are those of the identity.
  EXPECT_EQ(m.rot[4], 1.0);
  EXPECT_EQ(m.rot[1], 0.0);
  EXPECT_EQ(m.rot[3], 0.0);
  EXPECT_EQ(m.rot[5], 0.0);
  EXPECT_EQ(m.rot[7], 0.0);
}

TEST(FloatingBody, PausedBodiesHoldStill) {
  const double c[3] = {0.3, -0.2, 1.0}, v0[3] = {0.1, -0.2, 0.3}, w0[3] = {1, 2, 3};
  const Lattice l = lattice(3, 4, 5, c);
  FloatingBody b = bodyOf(l, v0, w0);
  std::vector<std::array<double, 3>> acc(l.pos.size(), {0, 0, 0});
  acc.front() = {5, 6, 7};
  const BodyMotion m = advanceBody(b, sumsOf(l.pos, c, &acc), 1e-3, kGravity, 3, true, BodyStep::Euler);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(m.vel[k], 0);
    EXPECT_EQ(m.omega[k], 0);
    EXPECT_EQ(b.vel[k], 0);
    EXPECT_EQ(b.omega[k], 0);
    EXPECT_EQ(m.to[k], c[k]);
    EXPECT_EQ(b.center[k], c[k]);
  }
  for (int k = 0; k < 9; ++k) EXPECT_EQ(m.rot[k], k % 4 == 0 ? 1.0 : 0.0);
  // Every particle stays where it is (to round-off of r - c + c) with zero velocity.
  for (const auto& src : l.pos) {
    Real4<double> p{}, v{9, 9, 9, 1000};
    moveFloatingParticle(src, m, PeriodicBox<double>{}, p, v);
    EXPECT_NEAR(p.x, src.x, 1e-15);
    EXPECT_NEAR(p.y, src.y, 1e-15);
    EXPECT_NEAR(p.z, src.z, 1e-15);
    EXPECT_EQ(v.x, 0);
    EXPECT_EQ(v.y, 0);
    EXPECT_EQ(v.z, 0);
    EXPECT_EQ(v.w, 1000);  // the density is the integrator's
  }
}

// The symplectic predictor: half the step from t^n, moved with the velocity at t^n (as the
// fluid's x + dt/2 v), not kept; its new velocities are those of an Euler step of dt/2.
TEST(FloatingBody, PredictorHalfStepLeavesTheBodyUnchanged) {
  const double c[3] = {0.3, -0.2, 1.0}, v0[3] = {0.1, -0.2, 0.3}, w0[3] = {1, 2, 3};
  const Lattice l = lattice(3, 4, 5, c);
  std::vector<std::array<double, 3>> acc(l.pos.size(), {0.5, 0, -1});
  acc.front() = {5, 6, 7};
  const BodySums s = sumsOf(l.pos, c, &acc);
  FloatingBody kept = bodyOf(l, v0, w0), euler = kept;
  const FloatingBody before = kept;
  const BodyMotion half = advanceBody(kept, s, 1e-3, kGravity, 3, false, BodyStep::Predictor);
  const BodyMotion full = advanceBody(euler, s, 5e-4, kGravity, 3, false, BodyStep::Euler);
  double rot[9];
  rotationFromOmega(w0, 5e-4, rot);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(kept.center[k], before.center[k]);
    EXPECT_EQ(kept.vel[k], before.vel[k]);
    EXPECT_EQ(kept.omega[k], before.omega[k]);
    EXPECT_EQ(half.vel[k], full.vel[k]);
    EXPECT_EQ(half.omega[k], full.omega[k]);
    EXPECT_DOUBLE_EQ(half.to[k], c[k] + 5e-4 * v0[k]);
    EXPECT_EQ(euler.center[k], full.to[k]);  // Euler commits
    EXPECT_EQ(euler.vel[k], full.vel[k]);
  }
  EXPECT_NE(euler.vel[2], before.vel[2]);  // the step did change something
  for (int k = 0; k < 9; ++k) EXPECT_DOUBLE_EQ(half.rot[k], rot[k]);
}

// The symplectic corrector: the whole step from t^n with the mean of the old and new velocities
// (as the fluid's x + dt (v + v')/2), kept.
TEST(FloatingBody, CorrectorMovesWithTheMeanVelocityAndCommits) {
  const double c[3] = {0.3, -0.2, 1.0}, v0[3] = {0.1, -0.2, 0.3}, w0[3] = {0, 0, 2};
  const Lattice l = lattice(3, 4, 5, c);
  std::vector<std::array<double, 3>> acc(l.pos.size(), {0.5, 0, -1});
  const BodySums s = sumsOf(l.pos, c, &acc);
  FloatingBody b = bodyOf(l, v0, w0);
  const double dt = 1e-3;
  const BodyMotion m = advanceBody(b, s, dt, kGravity, 3, false, BodyStep::Corrector);
  double rot[9];
  const double wMean[3] = {0.5 * (w0[0] + m.omega[0]), 0.5 * (w0[1] + m.omega[1]), 0.5 * (w0[2] + m.omega[2])};
  rotationFromOmega(wMean, dt, rot);
  for (int k = 0; k < 3; ++k) {
    EXPECT_DOUBLE_EQ(m.to[k], c[k] + dt * 0.5 * (v0[k] + m.vel[k]));
    EXPECT_EQ(b.center[k], m.to[k]);
    EXPECT_EQ(b.vel[k], m.vel[k]);
    EXPECT_EQ(b.omega[k], m.omega[k]);
  }
  EXPECT_NEAR(m.vel[2], v0[2] + dt * (-1 - 9.81), 1e-12);
  for (int k = 0; k < 9; ++k) EXPECT_DOUBLE_EQ(m.rot[k], rot[k]);
}

// ---------------------------------------------------------------------------------------------
// DualSPHysics' rules (advanceBodyDualSPHysics, moveFloatingParticleLinear)

// A body under DualSPHysics' rules: the rigid one plus GenCase's inertia m_p sum (|d|^2 1 - d d^T).
FloatingBody dsBodyOf(const Lattice& l, const double vel[3], const double omega[3]) {
  FloatingBody b = bodyOf(l, vel, omega);
  const BodySums s = sumsOf(l.pos, l.center);
  for (int k = 0; k < 6; ++k) b.inertia0[k] = b.particleMass * s.inertia[k];
  for (int k = 0; k < 3; ++k) b.angles[k] = 0;
  return b;
}

// Explicit Euler for the centre (the old velocity), the new velocity from the forces, and each
// particle by its own old velocity, then the body's new velocity at its new place.
TEST(FloatingBodyDualSPHysics, EulerStepMovesWithTheOldVelocityAndTakesTheNew) {
  const double c[3] = {0.3, -0.2, 1.0}, v0[3] = {0.1, -0.2, 0.3}, w0[3] = {0, 0, 2};
  const Lattice l = lattice(3, 4, 5, c);
  std::vector<std::array<double, 3>> acc(l.pos.size(), {2.0, 0, -1});
  FloatingBody b = dsBodyOf(l, v0, w0);
  const double dt = 1e-3;
  const BodyMotion m = advanceBodyDualSPHysics(b, sumsOf(l.pos, c, &acc), dt, kGravity, 3, false, BodyStep::Euler);
  EXPECT_EQ(m.dt, dt);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(m.from[k], c[k]);
    EXPECT_DOUBLE_EQ(m.to[k], c[k] + dt * v0[k]);
    EXPECT_EQ(b.center[k], m.to[k]);
    EXPECT_EQ(b.vel[k], m.vel[k]);
  }
  EXPECT_NEAR(m.vel[0], v0[0] + 2.0 * dt, 1e-15);
  EXPECT_NEAR(m.vel[2], v0[2] + (-1 - 9.81) * dt, 1e-15);
  // The accelerations are uniform: no torque, the spin stays; the angles grow by omega' dt.
  EXPECT_NEAR(m.omega[2], 2, 1e-12);
  EXPECT_NEAR(b.angles[2], 2 * dt, 1e-15);
  // A particle: r' = r + dt v_p (its own velocity), v' = v_body' + omega' x (r' - c').
  const Real4<double> src = l.pos[7], srcVel{0.4, -0.3, 0.2, 1000};
  Real4<double> pos = src, vr{0, 0, 0, 1001};
  moveFloatingParticleLinear(src, srcVel, m, PeriodicBox<double>{}, pos, vr);
  const double x[3] = {src.x + dt * srcVel.x, src.y + dt * srcVel.y, src.z + dt * srcVel.z};
  EXPECT_DOUBLE_EQ(pos.x, x[0]);
  EXPECT_DOUBLE_EQ(pos.y, x[1]);
  EXPECT_DOUBLE_EQ(pos.z, x[2]);
  EXPECT_EQ(pos.w, src.w);
  EXPECT_EQ(vr.w, 1001);
  const double d[3] = {x[0] - m.to[0], x[1] - m.to[1], x[2] - m.to[2]};
  EXPECT_NEAR(vr.x, m.vel[0] + m.omega[1] * d[2] - m.omega[2] * d[1], 1e-15);
  EXPECT_NEAR(vr.y, m.vel[1] + m.omega[2] * d[0] - m.omega[0] * d[2], 1e-15);
  EXPECT_NEAR(vr.z, m.vel[2] + m.omega[0] * d[1] - m.omega[1] * d[0], 1e-15);
}

// The symplectic predictor takes half the step and keeps nothing; the corrector takes the whole
// step from the same start (here with the same forces: twice the predictor's change).
TEST(FloatingBodyDualSPHysics, PredictorKeepsNothingAndTheCorrectorStartsAgain) {
  const double c[3] = {0.3, -0.2, 1.0}, v0[3] = {0.1, -0.2, 0.3}, w0[3] = {1, 2, 3};
  const Lattice l = lattice(3, 4, 5, c);
  std::vector<std::array<double, 3>> acc(l.pos.size(), {0.5, 0, -1});
  acc.front() = {5, 6, 7};
  const BodySums s = sumsOf(l.pos, c, &acc);
  FloatingBody b = dsBodyOf(l, v0, w0);
  const FloatingBody before = b;
  const double dt = 1e-3;
  const BodyMotion half = advanceBodyDualSPHysics(b, s, dt, kGravity, 3, false, BodyStep::Predictor);
  EXPECT_EQ(half.dt, dt / 2);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(b.center[k], before.center[k]);
    EXPECT_EQ(b.vel[k], before.vel[k]);
    EXPECT_EQ(b.omega[k], before.omega[k]);
    EXPECT_EQ(b.angles[k], 0);
  }
  const BodyMotion full = advanceBodyDualSPHysics(b, s, dt, kGravity, 3, false, BodyStep::Corrector);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(full.vel[k] - v0[k], 2 * (half.vel[k] - v0[k]), 1e-15);
    EXPECT_NEAR(full.omega[k] - w0[k], 2 * (half.omega[k] - w0[k]), 1e-12);
    EXPECT_NEAR(full.to[k] - c[k], 2 * (half.to[k] - c[k]), 1e-15);
    EXPECT_EQ(b.center[k], full.to[k]);
    EXPECT_DOUBLE_EQ(b.angles[k], full.omega[k] * dt);
  }
  EXPECT_NE(full.omega[1], w0[1]);  // the torque did something
}

// The inertia turns with the body: after a quarter turn about z a torque about x meets the
// inertia the body had about y. And a torque about z spins the body up as T/I_zz.
TEST(FloatingBodyDualSPHysics, InertiaTurnsWithTheAccumulatedAngles) {
  const double c[3] = {0, 0, 0}, zero[3] = {0, 0, 0};
  const Lattice l = lattice(3, 7, 5, c);  // Ixx, Iyy, Izz all different
  FloatingBody b = dsBodyOf(l, zero, zero);
  ASSERT_GT(std::abs(b.inertia0[0] - b.inertia0[1]), 0.1 * b.inertia0[0]);
  // Torque T about x from forces on two particles (sum of d x a, times the pair mass).
  BodySums s;
  s.torque[0] = 1e-3 / b.pairMass;
  const double dt = 1e-3;
  FloatingBody turned = b;
  turned.angles[2] = std::acos(-1.0) / 2;
  const BodyMotion straight = advanceBodyDualSPHysics(b, s, dt, kNoGravity, 3, false, BodyStep::Predictor);
  const BodyMotion quarter = advanceBodyDualSPHysics(turned, s, dt, kNoGravity, 3, false, BodyStep::Predictor);
  EXPECT_NEAR(straight.omega[0], 0.5 * dt * 1e-3 / b.inertia0[0], 1e-12);
  EXPECT_NEAR(quarter.omega[0], 0.5 * dt * 1e-3 / b.inertia0[1], 1e-12);
  BodySums z;
  z.torque[2] = 2e-3 / b.pairMass;
  const BodyMotion spin = advanceBodyDualSPHysics(b, z, dt, kNoGravity, 3, false, BodyStep::Euler);
  EXPECT_NEAR(spin.omega[2], dt * 2e-3 / b.inertia0[2], 1e-12);
  EXPECT_NEAR(b.angles[2], spin.omega[2] * dt, 1e-18);
}

// FtPause: the body keeps its state and its particles keep their place and velocity. In 2D the
// body moves in x-z and turns about y only.
TEST(FloatingBodyDualSPHysics, HeldBodiesStayAndTwoDimensionalBodiesStayInThePlane) {
  const double c[3] = {0.3, 0, 1.0}, v0[3] = {0.1, 0, 0.3}, w0[3] = {0, 2, 0};
  const Lattice l = lattice(3, 1, 5, c);
  std::vector<std::array<double, 3>> acc(l.pos.size(), {0.5, 0.7, -1});
  acc.front() = {5, 6, 7};
  FloatingBody held = dsBodyOf(l, v0, w0);
  const FloatingBody before = held;
  const BodyMotion m = advanceBodyDualSPHysics(held, sumsOf(l.pos, c, &acc), 1e-3, kGravity, 2, true,
                                               BodyStep::Euler);
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(held.center[k], before.center[k]);
    EXPECT_EQ(held.vel[k], before.vel[k]);
  }
  const Real4<double> src = l.pos[2], srcVel{0.4, 0, 0.2, 1000};
  Real4<double> pos{9, 9, 9, 5}, vr{9, 9, 9, 1001};
  moveFloatingParticleLinear(src, srcVel, m, PeriodicBox<double>{}, pos, vr);
  EXPECT_EQ(pos.x, src.x);
  EXPECT_EQ(pos.z, src.z);
  EXPECT_EQ(pos.w, 5);
  EXPECT_EQ(vr.x, srcVel.x);
  EXPECT_EQ(vr.z, srcVel.z);
  FloatingBody flat = dsBodyOf(l, v0, w0);
  const BodyMotion f = advanceBodyDualSPHysics(flat, sumsOf(l.pos, c, &acc), 1e-3, kGravity, 2, false,
                                               BodyStep::Euler);
  EXPECT_EQ(f.vel[1], 0);
  EXPECT_EQ(f.omega[0], 0);
  EXPECT_EQ(f.omega[2], 0);
  EXPECT_NE(f.omega[1], w0[1]);
  EXPECT_EQ(flat.center[1], 0);
}

TEST(FloatingBody, RotationFromOmegaIsAProperRotationByTheRightAngle) {
  const double dt = 0.05;
  const double ws[][3] = {{0, 0, 3}, {2, 0, 0}, {0.3, -1.1, 0.7}, {-40, 25, 60}, {1e-9, 0, 0}};
  for (const auto& w : ws) {
    double R[9];
    rotationFromOmega(w, dt, R);
    // Orthonormal with determinant +1: entries ~1, round-off ~1e-16, 1e-14.
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const double dotij = R[3 * i] * R[3 * j] + R[3 * i + 1] * R[3 * j + 1] + R[3 * i + 2] * R[3 * j + 2];
        EXPECT_NEAR(dotij, i == j ? 1.0 : 0.0, 1e-14);
      }
    const double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                       R[2] * (R[3] * R[7] - R[4] * R[6]);
    EXPECT_NEAR(det, 1.0, 1e-14);
    // The axis is fixed and the angle is |w| dt (trace = 1 + 2 cos angle).
    const double wl = std::sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(R[3 * i] * w[0] + R[3 * i + 1] * w[1] + R[3 * i + 2] * w[2], w[i], 1e-14 * wl);
    EXPECT_NEAR(R[0] + R[4] + R[8], 1 + 2 * std::cos(wl * dt), 1e-14);
    // Any vector turns as Rodrigues' formula says, right-handed about k = w/|w|:
    //   R v = v cos a + (k x v) sin a + k (k.v)(1 - cos a). Entries ~1: 1e-14.
    if (wl > 0) {
      const double v[3] = {0.3, -0.5, 0.8}, kx = w[0] / wl, ky = w[1] / wl, kz = w[2] / wl, a = wl * dt;
      const double kv = kx * v[0] + ky * v[1] + kz * v[2];
      const double want[3] = {v[0] * std::cos(a) + (ky * v[2] - kz * v[1]) * std::sin(a) + kx * kv * (1 - std::cos(a)),
                              v[1] * std::cos(a) + (kz * v[0] - kx * v[2]) * std::sin(a) + ky * kv * (1 - std::cos(a)),
                              v[2] * std::cos(a) + (kx * v[1] - ky * v[0]) * std::sin(a) + kz * kv * (1 - std::cos(a))};
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(R[3 * i] * v[0] + R[3 * i + 1] * v[1] + R[3 * i + 2] * v[2], want[i], 1e-14) << "row " << i;
    }
  }
  // About z by 0.15 rad, against the analytic matrix.
  double R[9];
  const double wz[3] = {0, 0, 3};
  rotationFromOmega(wz, dt, R);
  const double a = 3 * dt, expect[9] = {std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1};
  for (int k = 0; k < 9; ++k) EXPECT_NEAR(R[k], expect[k], 1e-15) << k;
  // No spin: the identity exactly.
  const double zero[3] = {0, 0, 0};
  rotationFromOmega(zero, dt, R);
  for (int k = 0; k < 9; ++k) EXPECT_EQ(R[k], k % 4 == 0 ? 1.0 : 0.0);
}

TEST(FloatingBody, MovedParticlesKeepTheirDistancesAndMoveRigidly) {
  const double c[3] = {0.3, -0.2, 1.0}, v0[3] = {0.4, -0.3, 0.2}, w0[3] = {1.5, -2.0, 3.0};
  const Lattice l = lattice(3, 4, 5, c);
  FloatingBody b = bodyOf(l, v0, w0);
  // A large step (an angle of 0.19 rad) so that a wrong rotation could not hide in round-off.
  const BodyMotion m = advanceBody(b, BodySums{}, 0.05, kGravity, 3, false, BodyStep::Euler);
  std::vector<Real4<double>> pos(l.pos.size()), vel(l.pos.size());
  for (size_t i = 0; i < pos.size(); ++i) {
    pos[i].w = l.pos[i].w;
    vel[i] = {0, 0, 0, 1001 + double(i)};
    moveFloatingParticle(l.pos[i], m, PeriodicBox<double>{}, pos[i], vel[i]);
  }
  double mean[3] = {0, 0, 0};
  for (size_t i = 0; i < pos.size(); ++i) {
    EXPECT_EQ(pos[i].w, l.pos[i].w);   // the pressure stays
    EXPECT_EQ(vel[i].w, 1001 + double(i));  // the density stays
    mean[0] += pos[i].x / pos.size();
    mean[1] += pos[i].y / pos.size();
    mean[2] += pos[i].z / pos.size();
    // v = vel' + omega' x (r' - c'): positions ~1, round-off ~1e-16; 1e-13.
    const double d[3] = {pos[i].x - m.to[0], pos[i].y - m.to[1], pos[i].z - m.to[2]};
    EXPECT_NEAR(vel[i].x, m.vel[0] + m.omega[1] * d[2] - m.omega[2] * d[1], 1e-13);
    EXPECT_NEAR(vel[i].y, m.vel[1] + m.omega[2] * d[0] - m.omega[0] * d[2], 1e-13);
    EXPECT_NEAR(vel[i].z, m.vel[2] + m.omega[0] * d[1] - m.omega[1] * d[0], 1e-13);
    // Rigid: every distance is kept (distances ~5 cm, coordinates ~1: round-off 1e-15; 1e-13).
    for (size_t j = 0; j < i; ++j) {
      auto dist = [](const Real4<double>& p, const Real4<double>& q) {
        return std::sqrt((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) + (p.z - q.z) * (p.z - q.z));
      };
      EXPECT_NEAR(dist(pos[i], pos[j]), dist(l.pos[i], l.pos[j]), 1e-13);
    }
  }
  // The centre of the particles is the body's new centre, and the body did turn.
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(mean[k], m.to[k], 1e-13);
  const double before = l.pos.back().x - c[0], after = pos.back().x - m.to[0];
  EXPECT_GT(std::abs(after - before), 1e-3);
}

TEST(FloatingBody, PeriodicParticlesWrapAndUseTheMinimumImage) {
  PeriodicBox<double> box;
  box.min[0] = -0.5;
  box.length[0] = 1.0;  // x wraps over [-0.5, 0.5); y and z are open
  for (int periods : {0, 3, -2}) {
    // The centre is never wrapped: after whole periods of travel it lies far outside the box.
    const double c[3] = {0.496 + periods, 0.8, 0.2}, v0[3] = {1.0, 0, 0}, w0[3] = {0, 0, 0};
    const Lattice l = lattice(1, 1, 1, c);
    FloatingBody b = bodyOf(l, v0, w0);
    // A particle that was wrapped already: 0.007 ahead of the centre through the boundary.
    const Real4<double> wrapped{-0.497, 0.85, 0.2, 0};
    double d[3];
    offsetFromCenter(wrapped, c, box, d);
    EXPECT_NEAR(d[0], 0.007, 1e-12) << "periods " << periods;  // minimum image, round-off of ~3
    EXPECT_NEAR(d[1], 0.05, 1e-15);  // the open axis: the plain difference
    const BodyMotion m = advanceBody(b, BodySums{}, 0.01, kNoGravity, 3, false, BodyStep::Euler);  // c' = c + 0.01
    Real4<double> p{}, v{};
    moveFloatingParticle(wrapped, m, box, p, v);
    EXPECT_GE(p.x, box.min[0]);
    EXPECT_LT(p.x, box.min[0] + box.length[0]);
    EXPECT_NEAR(p.x, -0.487, 1e-12);  // 0.496 + 0.01 + 0.007 = 0.513, one period back
    EXPECT_NEAR(p.y, 0.85, 1e-15);
    // A particle still inside the box that crosses the upper end in this step.
    const Real4<double> inside{0.498, 0.8, 0.2, 0};
    moveFloatingParticle(inside, m, box, p, v);
    EXPECT_GE(p.x, box.min[0]);
    EXPECT_LT(p.x, box.min[0] + box.length[0]);
    EXPECT_NEAR(p.x, -0.492, 1e-12);  // 0.508 - 1
    EXPECT_EQ(v.x, 1.0);
  }
  // Single precision particles with the same rules: float round-off of positions ~0.5, 1e-6.
  PeriodicBox<float> fbox;
  fbox.min[0] = -0.5f;
  fbox.length[0] = 1.0f;
  const double c[3] = {0.496, 0, 0}, v0[3] = {1.0, 0, 0}, w0[3] = {0, 0, 0};
  FloatingBody b = bodyOf(lattice(1, 1, 1, c), v0, w0);
  const BodyMotion m = advanceBody(b, BodySums{}, 0.01, kNoGravity, 3, false, BodyStep::Euler);
  Real4<float> p{}, v{};
  moveFloatingParticle(Real4<float>{-0.497f, 0, 0, 0}, m, fbox, p, v);
  EXPECT_NEAR(p.x, -0.487f, 1e-6f);
}

TEST(FloatingBody, BodySumsHoldForceTorqueAndInertiaTensor) {
  // One particle at d = (1, 2, 3) with a = (4, -5, 6): small integers, so every sum is exact.
  BodySums s;
  addToBodySums(s, 1, 2, 3, 4, -5, 6, 2);
  const double ace[3] = {4, -5, 6};
  const double torque[3] = {2 * 6 - 3 * -5, 3 * 4 - 1 * 6, 1 * -5 - 2 * 4};  // d x a
  const double inertia[6] = {2 * 2 + 3 * 3, 1 * 1 + 3 * 3, 1 * 1 + 2 * 2, -1 * 2, -1 * 3, -2 * 3};  // |d|^2 - d d^T
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(s.ace[k], ace[k]) << k;
    EXPECT_EQ(s.torque[k], torque[k]) << k;
  }
  for (int k = 0; k < 6; ++k) EXPECT_EQ(s.inertia[k], inertia[k]) << k;
  EXPECT_EQ(s.contacts, 2u);
}

TEST(FloatingBody, MergedPartialSumsEqualOneSum) {
  const double c[3] = {0.3, -0.2, 1.0};
  const Lattice l = lattice(3, 4, 5, c);
  std::vector<std::array<double, 3>> acc;
  for (size_t i = 0; i < l.pos.size(); ++i) acc.push_back({0.1 * double(i), -0.2, 0.05 * double(i % 7)});
  const BodySums whole = sumsOf(l.pos, c, &acc);
  BodySums part1, part2;
  for (size_t i = 0; i < l.pos.size(); ++i) {
    double d[3];
    offsetFromCenter(l.pos[i], c, PeriodicBox<double>{}, d);
    addToBodySums(i % 2 ? part1 : part2, d[0], d[1], d[2], acc[i][0], acc[i][1], acc[i][2], 1);
  }
  mergeBodySums(part1, part2);
  // Another order of summation: relative round-off ~1e-15; 1e-12 of the sums' scale.
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(part1.ace[k], whole.ace[k], 1e-12 * (1 + std::abs(whole.ace[k])));
    EXPECT_NEAR(part1.torque[k], whole.torque[k], 1e-12 * (1 + std::abs(whole.torque[k])));
  }
  for (int k = 0; k < 6; ++k) EXPECT_NEAR(part1.inertia[k], whole.inertia[k], 1e-15);
  EXPECT_EQ(part1.contacts, l.pos.size());
}

// ---------------------------------------------------------------------------------------------
// Pairs with floating particles (floating_pair_physics.h)

// mk indices of the table: 0 wall, 1 body 0, 2 body 1, 3 fluid.
constexpr uint32_t kWallMk = 0, kBody0Mk = 1, kBody1Mk = 2, kFluidMk = 3;
const uint32_t kWall = code::make(true, kWallMk);
const uint32_t kBody0 = code::makeFloating(kBody0Mk);
const uint32_t kBody1 = code::makeFloating(kBody1Mk);
const uint32_t kFluid = code::make(false, kFluidMk);

template <typename T>
struct FloatingSetup {
  PhysicsConstants<T> c;
  SolidInfo<T> solids[4];
  uint32_t contacts[2] = {3, 5};  // DEM contacts of bodies 0 and 1 in the last pass
  // Pair masses unlike the fluid's (the engine uses rho0 dp^3), so the tests see which mass a pair took.
  double mp0 = 600 * kDp * kDp * kDp, mp1 = 2000 * kDp * kDp * kDp;
  double m0 = 27 * 600 * kDp * kDp * kDp, m1 = 64 * 2000 * kDp * kDp * kDp;

  // As the engine builds them: SimParameters -> makePhysicsConstants (model/sim_parameters.cpp), the
  // table as floating/floating_bodies.cpp fills it.
  FloatingSetup(KernelKind kernel, int dem) {
    SimParameters p;
    p.dim = 3;
    p.dp = kDp;
    p.h = 1.2 * std::sqrt(3.0) * kDp;
    p.support = 2 * p.h;
    p.rho0 = 1000;
    p.gamma = 7;
    p.c0 = 30;
    p.cteB = p.c0 * p.c0 * p.rho0 / p.gamma;
    p.massFluid = p.massBound = p.rho0 * kDp * kDp * kDp;
    p.gravity = Vec3d{0, 0, -9.81};
    p.kernel = kernel;
    p.visco = 0.1;
    p.viscoBoundFactor = 2;
    p.ddt = DensityDiffusion::Molteni;  // on, so that pairs which must skip it show it
    p.ddtValue = 0.1;
    p.rigidAlgorithm = dem ? 2 : 1;
    c = makePhysicsConstants<T>(p);
    auto mat = [](double young, double nu, double e, double mu) {
      DemMaterial<T> m;
      m.tau = T((1 - nu * nu) / young);
      m.restitution = T(e);
      m.friction = T(mu);
      return m;
    };
    solids[kWallMk].material = mat(2e9, 0.35, 0.6, 0.4);
    solids[kWallMk].hasMaterial = 1;
    solids[kBody0Mk] = {0, T(mp0), T(m0), mat(1e8, 0.3, 0.8, 0.2), 1};
    solids[kBody1Mk] = {1, T(mp1), T(m1), mat(5e8, 0.25, 0.5, 0.3), 1};
    solids[kFluidMk].body = -1;
    c.floating.solids = solids;
    c.floating.bodyContacts = contacts;
    c.floating.dp = T(kDp);
    c.floating.dem = dem;
  }
  FloatingSetup(const FloatingSetup&) = delete;  // c.floating points into this object
};

template <typename T>
Real4<T> withPressure(Real4<T> p, T rho, const PhysicsConstants<T>& c) {
  p.w = taitPressure(rho, c);
  return p;
}

template <typename T>
PairAccum<T> coded(KernelKind k, const Real4<T>& pa, const Real4<T>& va, uint32_t ca, const Real4<T>& pb,
                   const Real4<T>& vb, uint32_t cb, const PhysicsConstants<T>& c, PairAccum<T> acc = {}) {
  if (k == KernelKind::Cubic)
    interactPairCoded<KernelKind::Cubic>(pa, va, ca, pb, vb, cb, c, acc);
  else
    interactPairCoded<KernelKind::Wendland>(pa, va, ca, pb, vb, cb, c, acc);
  return acc;
}

template <typename T>
PairAccum<T> withMass(KernelKind k, const Real4<T>& pa, const Real4<T>& va, bool ba, const Real4<T>& pb,
                      const Real4<T>& vb, bool bb, T massB, bool floatB, const PhysicsConstants<T>& c) {
  PairAccum<T> acc;
  if (k == KernelKind::Cubic)
    interactPairMass<KernelKind::Cubic>(pa, va, ba, pb, vb, bb, massB, floatB, c, acc);
  else
    interactPairMass<KernelKind::Wendland>(pa, va, ba, pb, vb, bb, massB, floatB, c, acc);
  return acc;
}

// Same code path on both sides: equal to a few ulp (EXPECT_DOUBLE_EQ / FLOAT_EQ: 4 ulp).
template <typename T>
void expectSame(const PairAccum<T>& got, const PairAccum<T>& want, const char* what) {
  if constexpr (sizeof(T) == sizeof(double)) {
    EXPECT_DOUBLE_EQ(got.ax, want.ax) << what;
    EXPECT_DOUBLE_EQ(got.ay, want.ay) << what;
    EXPECT_DOUBLE_EQ(got.az, want.az) << what;
    EXPECT_DOUBLE_EQ(got.densityRate(), want.densityRate()) << what;
    EXPECT_DOUBLE_EQ(got.viscdt, want.viscdt) << what;
  } else {
    EXPECT_FLOAT_EQ(got.ax, want.ax) << what;
    EXPECT_FLOAT_EQ(got.ay, want.ay) << what;
    EXPECT_FLOAT_EQ(got.az, want.az) << what;
    EXPECT_FLOAT_EQ(got.densityRate(), want.densityRate()) << what;
    EXPECT_FLOAT_EQ(got.viscdt, want.viscdt) << what;
  }
  EXPECT_EQ(got.ddtSwitchedOff(), want.ddtSwitchedOff()) << what;
  EXPECT_EQ(got.contacts, want.contacts) << what;
}

template <typename T>
void expectNothing(const PairAccum<T>& a, const char* what) {
  EXPECT_EQ(a.ax, 0) << what;
  EXPECT_EQ(a.ay, 0) << what;
  EXPECT_EQ(a.az, 0) << what;
  EXPECT_EQ(a.arho, 0) << what;
  EXPECT_EQ(a.viscdt, 0) << what;
  EXPECT_EQ(a.contacts, 0u) << what;
}

constexpr KernelKind kKernels[] = {KernelKind::Wendland, KernelKind::Cubic};

TEST(FloatingPair, ParticlesOfOneBodyIgnoreEachOther) {
  for (KernelKind k : kKernels)
    for (int dem : {0, 1}) {
      FloatingSetup<double> s(k, dem);
      const Real4<double> va{0.3, -0.1, 0.2, 1003}, vb{-0.2, 0.05, -0.4, 998};
      const Real4<double> pa = withPressure<double>({0.1, 0.2, 0.3, 0}, va.w, s.c);
      const Real4<double> pb = withPressure<double>({0.106, 0.203, 0.296, 0}, vb.w, s.c);  // within dp
      expectNothing(coded(k, pa, va, kBody0, pb, vb, kBody0, s.c), "same body");
      // The test can fail: another body at the same place does interact.
      const auto other = coded(k, pa, va, kBody0, pb, vb, kBody1, s.c);
      EXPECT_NE(other.ax, 0);
    }
}

// DualSPHysics' rules (FloatingPairTable::dualsphysics, without DEM): particles of one body
// interact like any pair, with the body's particle mass and no density diffusion; with DEM they
// ignore each other still.
TEST(FloatingPair, ParticlesOfOneBodyInteractUnderDualSPHysicsRules) {
  for (KernelKind k : kKernels)
    for (int dem : {0, 1}) {
      FloatingSetup<double> s(k, dem);
      s.c.floating.dualsphysics = 1;
      const Real4<double> va{0.3, -0.1, 0.2, 1003}, vb{-0.2, 0.05, -0.4, 998};
      const Real4<double> pa = withPressure<double>({0.1, 0.2, 0.3, 0}, va.w, s.c);
      const Real4<double> pb = withPressure<double>({0.106, 0.203, 0.296, 0}, vb.w, s.c);
      const auto got = coded(k, pa, va, kBody0, pb, vb, kBody0, s.c);
      if (dem) {
        expectNothing(got, "same body, DEM");
        continue;
      }
      auto want = withMass(k, pa, va, false, pb, vb, false, s.mp0, true, s.c);
      want.ddtOff = 1;
      expectSame(got, want, "same body");
      EXPECT_NE(got.ax, 0);
    }
}

TEST(FloatingPair, FluidSeesTheFloatingParticleMassWithoutDiffusion) {
  for (KernelKind k : kKernels)
    for (int dem : {0, 1}) {
      FloatingSetup<double> s(k, dem);
      const Real4<double> va{0.3, -0.1, 0.2, 1003}, vb{-0.2, 0.05, -0.4, 998};
      const Real4<double> pa = withPressure<double>({0.1, 0.2, 0.3, 0}, va.w, s.c);
      const Real4<double> pb = withPressure<double>({0.108, 0.203, 0.291, 0}, vb.w, s.c);
      // Fluid a, floating b: b carries its body's particle mass, and (Molteni's diffusion, as
      // DualSPHysics) switches a's density diffusion off.
      const auto got = coded(k, pa, va, kFluid, pb, vb, kBody0, s.c);
      EXPECT_EQ(got.ddtOff, 1u);
      expectSame(got, withMass(k, pa, va, false, pb, vb, false, s.mp0, true, s.c), "fluid from floating");
      // The comparison can fail: the plain fluid pair (fluid mass, diffusion) differs by ~40%.
      PairAccum<double> plain;
      if (k == KernelKind::Cubic)
        interactPair<KernelKind::Cubic>(pa, va, false, pb, vb, false, s.c, plain);
      else
        interactPair<KernelKind::Wendland>(pa, va, false, pb, vb, false, s.c, plain);
      EXPECT_GT(std::abs(got.ax - plain.ax), 0.1 * std::abs(plain.ax));
      // Floating a, fluid b: the fluid's mass, no diffusion (floating particles have none).
      auto want = withMass(k, pb, vb, false, pa, va, false, s.c.massFluid, false, s.c);
      EXPECT_NE(want.ddt, 0);  // so the switch below is what removes it
      want.ddtOff = 1;
      expectSame(coded(k, pb, vb, kBody0, pa, va, kFluid, s.c), want, "floating from fluid");
    }
}

TEST(FloatingPair, WithoutDemAFloatingWallPairIsTheSphPairWithTheWallMass) {
  FloatingSetup<double> s(KernelKind::Wendland, 0);
  const Real4<double> va{0.3, -0.1, -0.6, 1003}, vb{0, 0, 0, 1010};
  const Real4<double> pa = withPressure<double>({0.1, 0.2, 0.3, 0}, va.w, s.c);
  const Real4<double> pb = withPressure<double>({0.104, 0.198, 0.293, 0}, vb.w, s.c);  // within dp
  const auto got = coded(KernelKind::Wendland, pa, va, kBody0, pb, vb, kWall, s.c);
  expectSame(got, withMass(KernelKind::Wendland, pa, va, false, pb, vb, true, s.c.massBound, false, s.c),
             "floating from wall");
  EXPECT_EQ(got.contacts, 0u);
  EXPECT_NE(got.az, 0);
  // The wall gathers continuity from the floating particle, with the particle's mass.
  expectSame(coded(KernelKind::Wendland, pb, vb, kWall, pa, va, kBody0, s.c),
             withMass(KernelKind::Wendland, pb, vb, true, pa, va, false, s.mp0, false, s.c), "wall from floating");
}

// Expected DEM acceleration of floating particle a (mk ma) from b (mk mb), from demContact.
template <typename T>
PairAccum<T> demExpected(const FloatingSetup<T>& s, const Real4<T>& pa, const Real4<T>& va, uint32_t ma,
                         const Real4<T>& pb, const Real4<T>& vb, uint32_t mb, T dx, T dy, T dz) {
  const SolidInfo<T>& sa = s.solids[ma];
  const SolidInfo<T>& sb = s.solids[mb];
  auto share = [&](const SolidInfo<T>& si) {
    const uint32_t n = s.contacts[si.body];
    return si.bodyMass / T(n > 0 ? n : 1);
  };
  const T massA = share(sa);
  const T massEff = sb.body >= 0 ? massA * share(sb) / (massA + share(sb)) : massA;
  (void)pa;
  (void)pb;
  const auto k = demContact<T>(dx, dy, dz, std::sqrt(dx * dx + dy * dy + dz * dz), va.x - vb.x, va.y - vb.y,
                               va.z - vb.z, T(kDp), massEff, sa.material, sb.material);
  EXPECT_TRUE(k.touching);
  PairAccum<T> acc;
  acc.ax = k.fx / sa.pairMass;
  acc.ay = k.fy / sa.pairMass;
  acc.az = k.fz / sa.pairMass;
  acc.viscdt = k.rate;
  acc.contacts = 1;
  return acc;
}

TEST(FloatingPair, DemContactReplacesTheSphPairBetweenSolids) {
  for (KernelKind k : kKernels) {
    FloatingSetup<double> s(k, 1);
    const Real4<double> va{0.3, -0.1, -0.6, 1003}, vb{0.05, 0, 0.1, 1010};
    const Real4<double> pa = withPressure<double>({0.1, 0.2, 0.3, 0}, va.w, s.c);
    const Real4<double> pb = withPressure<double>({0.104, 0.198, 0.293, 0}, vb.w, s.c);  // r = 0.83 dp
    const double dx = pa.x - pb.x, dy = pa.y - pb.y, dz = pa.z - pb.z;
    // Floating (body 0) on a wall: m* = M0 / its 3 contacts.
    const auto wall = coded(k, pa, va, kBody0, pb, vb, kWall, s.c);
    const auto want = demExpected(s, pa, va, kBody0Mk, pb, vb, kWallMk, dx, dy, dz);
    // The same operations in the same order: 1e-13 relative leaves room for contraction only.
    const double scale = std::sqrt(want.ax * want.ax + want.ay * want.ay + want.az * want.az);
    EXPECT_GT(scale, 0);
    EXPECT_NEAR(wall.ax, want.ax, 1e-13 * scale);
    EXPECT_NEAR(wall.ay, want.ay, 1e-13 * scale);
    EXPECT_NEAR(wall.az, want.az, 1e-13 * scale);
    EXPECT_EQ(wall.contacts, 1u);
    EXPECT_GE(wall.viscdt, want.viscdt * (1 - 1e-13));
    EXPECT_EQ(wall.arho, 0);  // no SPH part: no continuity
    // Body 0 on body 1: m* is the reduced mass of the two shares M0/3 and M1/5.
    const auto other = coded(k, pa, va, kBody0, pb, vb, kBody1, s.c);
    const auto wantOther = demExpected(s, pa, va, kBody0Mk, pb, vb, kBody1Mk, dx, dy, dz);
    EXPECT_NEAR(other.ax, wantOther.ax, 1e-13 * scale);
    EXPECT_NEAR(other.az, wantOther.az, 1e-13 * scale);
    EXPECT_EQ(other.contacts, 1u);
    EXPECT_EQ(other.arho, 0);
    EXPECT_NE(other.ax, wall.ax);  // the material and the mass matter
    // The accumulator keeps its earlier contents: contacts count up, viscdt is a max.
    PairAccum<double> before;
    before.ax = 1;
    before.viscdt = 1e9;
    before.contacts = 2;
    const auto more = coded(k, pa, va, kBody0, pb, vb, kWall, s.c, before);
    EXPECT_EQ(more.contacts, 3u);
    EXPECT_EQ(more.viscdt, 1e9);
    EXPECT_NEAR(more.ax, 1 + want.ax, 1e-13 * (1 + scale));
    // A body with no contacts in the last pass counts as one contact (its whole mass).
    s.contacts[0] = 0;
    const auto alone = coded(k, pa, va, kBody0, pb, vb, kWall, s.c);
    const auto wantAlone = demExpected(s, pa, va, kBody0Mk, pb, vb, kWallMk, dx, dy, dz);
    EXPECT_NEAR(alone.az, wantAlone.az, 1e-13 * std::abs(wantAlone.az));
    EXPECT_NE(alone.az, wall.az);
    s.contacts[0] = 3;
    // Beyond dp but within the kernel support: nothing at all, the SPH pair is not used.
    const Real4<double> far = withPressure<double>({0.1, 0.2, 0.3 - 1.5 * kDp, 0}, vb.w, s.c);
    expectNothing(coded(k, pa, va, kBody0, far, vb, kWall, s.c), "wall beyond dp");
    expectNothing(coded(k, pa, va, kBody0, far, vb, kBody1, s.c), "other body beyond dp");
  }
}

// Under DualSPHysics' rules the DEM pair is DualSPHysics' contact (dem_physics.h) with the
// body's pair mass: a pair within the support but apart gives its rate and nothing else, and the
// rate sets the particle's time step only once a pair touches.
TEST(FloatingPair, DualSPHysicsDemRateCountsOnlyForTouchedParticles) {
  FloatingSetup<double> s(KernelKind::Wendland, 1);
  s.c.floating.dualsphysics = 1;
  s.c.floating.demDt = 3e-5;
  const Real4<double> va{0, 0, -0.2, 1000}, vb{0, 0, 0, 1000};
  const Real4<double> pa = withPressure<double>({0.1, 0.2, 0.3, 0}, va.w, s.c);
  const Real4<double> apart = withPressure<double>({0.1, 0.2, 0.3 - 1.5 * kDp, 0}, vb.w, s.c);
  const Real4<double> touching = withPressure<double>({0.1, 0.2, 0.3 - 0.99 * kDp, 0}, vb.w, s.c);
  const auto far = coded(KernelKind::Wendland, pa, va, kBody0, apart, vb, kWall, s.c);
  EXPECT_EQ(far.ax, 0);
  EXPECT_EQ(far.az, 0);
  EXPECT_EQ(far.contacts, 0u);
  EXPECT_GT(far.demdt, 0);
  EXPECT_EQ(far.timeStepRate(), far.viscdt);
  auto both = coded(KernelKind::Wendland, pa, va, kBody0, touching, vb, kWall, s.c, far);
  EXPECT_EQ(both.contacts, 1u);
  EXPECT_GT(both.az, 0);  // pushed up, off the wall below
  EXPECT_EQ(both.timeStepRate(), both.demdt);
  const auto want = demContactDualSPHysics<double>(0, 0, 0.99 * kDp, 0.99 * kDp, 0, 0, -0.2, kDp,
                                                   0.5 * s.solids[kBody0Mk].bodyMass, s.solids[kBody0Mk].pairMass,
                                                   3e-5, s.solids[kBody0Mk].material, s.solids[kWallMk].material);
  EXPECT_NEAR(both.az, want.az, 1e-9 * std::abs(want.az));
}

TEST(FloatingPair, WithDemWallsGatherNothingFromFloatingParticles) {
  FloatingSetup<double> s(KernelKind::Wendland, 1);
  const Real4<double> va{0.3, -0.1, -0.6, 1003}, vb{0, 0, 0, 1010};
  const Real4<double> pa = withPressure<double>({0.1, 0.2, 0.3, 0}, va.w, s.c);
  const Real4<double> pb = withPressure<double>({0.104, 0.198, 0.293, 0}, vb.w, s.c);
  for (const Real4<double>& p : {pa, withPressure<double>({0.1, 0.2, 0.3 + 1.5 * kDp, 0}, va.w, s.c)})
    expectNothing(coded(KernelKind::Wendland, pb, vb, kWall, p, va, kBody0, s.c), "wall from floating, DEM");
  // Without DEM the same wall does gather continuity (so the check above can fail).
  FloatingSetup<double> sph(KernelKind::Wendland, 0);
  EXPECT_NE(coded(KernelKind::Wendland, pb, vb, kWall, pa, va, kBody0, sph.c).arho, 0);
  // Fluid particles still gather from walls and floating particles as SPH pairs.
  EXPECT_NE(coded(KernelKind::Wendland, pa, va, kFluid, pb, vb, kWall, s.c).az, 0);
}

TEST(FloatingPair, DemContactsWorkAcrossAPeriodicBoundary) {
  FloatingSetup<double> s(KernelKind::Wendland, 1);
  s.c.periodic.min[0] = -0.5;
  s.c.periodic.length[0] = 1.0;
  const Real4<double> va{0.3, 0, -0.1, 1000}, vb{0, 0, 0, 1000};
  const Real4<double> pa{0.497, 0.2, 0.3, 0}, pb{-0.499, 0.201, 0.3, 0};  // 0.004 apart through x
  const auto got = coded(KernelKind::Wendland, pa, va, kBody0, pb, vb, kWall, s.c);
  const auto want = demExpected(s, pa, va, kBody0Mk, pb, vb, kWallMk, pa.x - (pb.x + 1.0), pa.y - pb.y, pa.z - pb.z);
  EXPECT_EQ(got.contacts, 1u);
  // The image difference is formed as (0.497 - (-0.499)) - 1 in the header and 0.497 - 0.501
  // here: 1e-16 absolute on 0.004, so the force agrees to ~1e-12 relative.
  EXPECT_NEAR(got.ax, want.ax, 1e-10 * std::abs(want.ax));
  EXPECT_NEAR(got.az, want.az, 1e-10 * std::abs(want.ax));
  EXPECT_LT(got.ax, 0);  // pushed back from the wall image at x = 0.501
}

TEST(FloatingPair, TheBodyReceivesExactlyTheReaction) {
  // Fluid a and floating b: m_a acc_a(from b) = -m_b acc_b(from a), so the body's sum
  // m_p sum a_p holds exactly the reaction of the force on the fluid. Different densities and
  // pressures: the pair formula is symmetric in a and b anyway.
  for (KernelKind k : kKernels)
    for (int dem : {0, 1}) {
      FloatingSetup<double> s(k, dem);
      const Real4<double> va{0.3, -0.1, 0.2, 1003}, vb{-0.2, 0.05, -0.4, 998};
      const Real4<double> pa = withPressure<double>({0.1, 0.2, 0.3, 0}, va.w, s.c);
      const Real4<double> pb = withPressure<double>({0.108, 0.203, 0.291, 0}, vb.w, s.c);
      const auto a = coded(k, pa, va, kFluid, pb, vb, kBody0, s.c);
      const auto b = coded(k, pb, vb, kBody0, pa, va, kFluid, s.c);
      const double ma = s.c.massFluid, mb = s.mp0;
      const double scale = ma * std::sqrt(a.ax * a.ax + a.ay * a.ay + a.az * a.az);
      EXPECT_GT(scale, 0);
      // Same terms in another order: round-off ~1e-16 relative; 1e-13.
      EXPECT_NEAR(ma * a.ax, -mb * b.ax, 1e-13 * scale);
      EXPECT_NEAR(ma * a.ay, -mb * b.ay, 1e-13 * scale);
      EXPECT_NEAR(ma * a.az, -mb * b.az, 1e-13 * scale);
      // Continuity: drho_a = m_b (rho_a/rho_b) v_ab.grad_a W and drho_b = m_a (rho_b/rho_a)
      // v_ba.grad_b W, the same product.
      const double ra = a.arho / (mb * va.w / vb.w), rb = b.arho / (ma * vb.w / va.w);
      EXPECT_NEAR(ra, rb, 1e-13 * std::abs(ra));
    }
}

TEST(FloatingPair, SinglePrecisionFollowsTheSameRules) {
  FloatingSetup<float> s(KernelKind::Wendland, 1);
  const Real4<float> va{0.3f, -0.1f, -0.6f, 1003}, vb{0.05f, 0, 0.1f, 1010};
  const Real4<float> pa = withPressure<float>({0.1f, 0.2f, 0.3f, 0}, va.w, s.c);
  const Real4<float> pb = withPressure<float>({0.104f, 0.198f, 0.293f, 0}, vb.w, s.c);
  const auto got = coded(KernelKind::Wendland, pa, va, kBody0, pb, vb, kWall, s.c);
  const auto want = demExpected(s, pa, va, kBody0Mk, pb, vb, kWallMk, pa.x - pb.x, pa.y - pb.y, pa.z - pb.z);
  // The same float operations: a few ulp (2e-6 relative of the force's size).
  const float scale = std::sqrt(want.ax * want.ax + want.ay * want.ay + want.az * want.az);
  EXPECT_NEAR(got.ax, want.ax, 2e-6f * scale);
  EXPECT_NEAR(got.ay, want.ay, 2e-6f * scale);
  EXPECT_NEAR(got.az, want.az, 2e-6f * scale);
  EXPECT_EQ(got.contacts, 1u);
  EXPECT_EQ(got.arho, 0.0f);
  // Against double: the overlap (~1.7e-3) is formed from float positions ~0.3 (ulp 3e-8), so
  // the force (delta^1.5) agrees to ~1e-4 relative.
  FloatingSetup<double> d(KernelKind::Wendland, 1);
  const Real4<double> pad{pa.x, pa.y, pa.z, pa.w}, pbd{pb.x, pb.y, pb.z, pb.w};
  const Real4<double> vad{va.x, va.y, va.z, va.w}, vbd{vb.x, vb.y, vb.z, vb.w};
  const auto dbl = coded(KernelKind::Wendland, pad, vad, kBody0, pbd, vbd, kWall, d.c);
  EXPECT_NEAR(got.az, dbl.az, 1e-4 * std::abs(dbl.az));
  // Fluid next to a floating particle in float: the particle's mass, no diffusion.
  const Real4<float> pf = withPressure<float>({0.1f, 0.21f, 0.3f, 0}, 1001.f, s.c);
  const Real4<float> vf{0.1f, 0.f, 0.f, 1001.f};
  expectSame(coded(KernelKind::Wendland, pf, vf, kFluid, pb, vb, kBody0, s.c),
             withMass(KernelKind::Wendland, pf, vf, false, pb, vb, false, float(s.mp0), true, s.c),
             "float fluid from floating");
}

}  // namespace
}  // namespace sph
