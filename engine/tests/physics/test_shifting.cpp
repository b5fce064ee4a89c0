// Particle shifting (physics/shifting_physics.h): the sums of the pair loop against the formula written
// out with the Wendland gradient, which neighbours stop a shift in each mode, the displacement
// rule (magnitude, the dp/10 clamp, the free-surface threshold), and where the integrators
// apply it.
#include <gtest/gtest.h>

#include <cmath>

#include "physics/integrator_physics.h"
#include "physics/shifting_physics.h"
#include "sph/plugin/floating_pair_physics.h"
#include "sph/plugin/pair_physics.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/sph_kernels.h"

namespace sph {
namespace {

constexpr double kDp = 0.01;

PhysicsConstants<double> constants(Shifting mode) {
  PhysicsConstants<double> c;
  const double h = 1.2 * std::sqrt(3.0) * kDp;
  c.dim = 3;
  c.kernel = KernelKind::Wendland;
  c.h = h;
  c.support = 2 * h;
  c.support2 = 4 * h * h;
  c.eta2 = 0.01 * h * h;
  c.kernelNorm = kernelNormalisation(KernelKind::Wendland, 3, h);
  c.rho0 = 1000;
  c.massFluid = c.rho0 * kDp * kDp * kDp;
  c.massBound = 0.7 * c.massFluid;  // different, to see which mass a wall pair uses
  c.c0 = 30;
  c.cteB = c.c0 * c.c0 * c.rho0 / 7;
  c.visco = 0.1;
  c.viscoBound = 0.1;
  c.gz = -9.81;
  c.shifting = mode;
  c.shiftCoef = -2;
  c.shiftMax = 0.1 * kDp;
  foldDerivedConstants(c);
  return c;
}

// dW/dr of the 3D Wendland kernel, written out: W = aD (1 - q/2)^4 (2q + 1), q = r/h.
double wendlandDwDr(double r, double h) {
  const double aD = 21.0 / (16.0 * 3.14159265358979323846 * h * h * h);
  const double q = r / h, u = 1 - q / 2;
  return aD * (-5.0 * q * u * u * u) / h;
}

// One neighbour b of fluid particle a at the origin, through interactPairCoded (the coded path
// every shifting pass takes).
PairAccum<double, true> sumsWith(const PhysicsConstants<double>& c, const Real4<double>& posB, double rhoB,
                                 uint32_t codeB) {
  PairAccum<double, true> acc;
  const Real4<double> posA{0, 0, 0, taitPressure(1000.0, c)};
  const Real4<double> velA{0.1, 0, -0.2, 1000};
  const Real4<double> pb{posB.x, posB.y, posB.z, taitPressure(rhoB, c)};
  const Real4<double> vb{0, 0.05, 0, rhoB};
  interactPairCoded<KernelKind::Wendland>(posA, velA, code::make(false, 0), pb, vb, codeB, c, acc);
  return acc;
}

TEST(Shifting, PairSumsAreVolumeTimesKernelGradient) {
  const auto c = constants(Shifting::Full);
  const Real4<double> b{0.6 * c.h, 0.2 * c.h, -0.3 * c.h, 0};
  const double rhoB = 1004;
  const double r = std::sqrt(b.x * b.x + b.y * b.y + b.z * b.z);
  const double dwdr = wendlandDwDr(r, c.h);
  // grad_a W_ab = dW/dr (r_a - r_b)/r with r_a - r_b = -b.
  for (bool wall : {false, true}) {
    const double vol = (wall ? c.massBound : c.massFluid) / rhoB;
    const auto acc = sumsWith(c, b, rhoB, code::make(wall, 0));
    const Real4<double> s = acc.shiftSums();
    EXPECT_NEAR(s.x, vol * dwdr * (-b.x) / r, 1e-12 * std::abs(s.x)) << (wall ? "wall" : "fluid");
    EXPECT_NEAR(s.y, vol * dwdr * (-b.y) / r, 1e-12 * std::abs(s.y));
    EXPECT_NEAR(s.z, vol * dwdr * (-b.z) / r, 1e-12 * std::abs(s.z));
    // -V_b r_ab . grad_a W_ab = -V_b dW/dr r > 0: a neighbour adds to the divergence of r.
    EXPECT_NEAR(s.w, -vol * dwdr * r, 1e-12 * s.w);
    EXPECT_GT(s.w, 0);
  }
  // A particle out of reach adds nothing.
  const auto far = sumsWith(c, Real4<double>{2.01 * c.h, 0, 0, 0}, 1000, code::make(false, 0));
  EXPECT_EQ(far.sx, 0);
  EXPECT_EQ(far.sdiv, 0);
}

TEST(Shifting, TheModeSaysWhichWallsStopTheShift) {
  const Real4<double> b{0.5 * kDp, 0, -0.8 * kDp, 0};
  const uint32_t fixedWall = code::make(true, 0);
  const uint32_t movingWall = code::make(true, 1) | code::kMovingBit;
  const uint32_t fluid = code::make(false, 2);
  struct Expect {
    Shifting mode;
    bool fixedStops, movingStops;
  } cases[] = {{Shifting::NoBound, true, true}, {Shifting::NoFixed, true, false}, {Shifting::Full, false, false}};
  for (const Expect& e : cases) {
    const auto c = constants(e.mode);
    SCOPED_TRACE(int(e.mode));
    EXPECT_EQ(sumsWith(c, b, 1000, fixedWall).shiftOff, e.fixedStops ? 1u : 0u);
    EXPECT_EQ(sumsWith(c, b, 1000, movingWall).shiftOff, e.movingStops ? 1u : 0u);
    EXPECT_EQ(sumsWith(c, b, 1000, fluid).shiftOff, 0u);
    // A stopped particle writes zero sums: no shift whatever its other neighbours.
    PairAccum<double, true> acc = sumsWith(c, b, 1000, fluid);
    acc.add(sumsWith(c, b, 1000, fixedWall));
    const Real4<double> s = acc.shiftSums();
    EXPECT_EQ(s.x == 0 && s.z == 0 && s.w == 0, e.fixedStops);
  }
}

TEST(Shifting, DisplacementIsCoefTimesHSpeedDtGradientClampedToATenthOfDp) {
  auto c = constants(Shifting::Full);
  const double dt = 1e-4, vx = 0.3, vz = -0.4;  // |v| = 0.5
  const Real4<double> sums{2.0, 0.0, -1.0, 2.9};
  const ShiftDisplacement d = shiftDisplacement(sums, vx, 0.0, vz, dt, c);
  const double k = -2 * c.h * 0.5 * dt;
  EXPECT_NEAR(d.x, k * 2.0, 1e-15);
  EXPECT_EQ(d.y, 0.0);
  EXPECT_NEAR(d.z, k * -1.0, 1e-15);
  // Large gradients: each component is clamped to +-dp/10, keeping its sign.
  const ShiftDisplacement big = shiftDisplacement(Real4<double>{1e6, 0, -1e6, 3}, vx, 0.0, vz, dt, c);
  EXPECT_DOUBLE_EQ(big.x, -0.1 * kDp);
  EXPECT_DOUBLE_EQ(big.z, 0.1 * kDp);
  // A particle at rest does not move.
  const ShiftDisplacement rest = shiftDisplacement(sums, 0.0, 0.0, 0.0, dt, c);
  EXPECT_EQ(rest.x, 0.0);
}

TEST(Shifting, FreeSurfaceThresholdScalesTheShiftByTheDivergence) {
  auto c = constants(Shifting::Full);
  c.shiftTfs = 2.75;
  const double dt = 1e-4;
  const double full = shiftDisplacement(Real4<double>{1, 0, 0, 0}, 1.0, 0.0, 0.0, dt, constants(Shifting::Full)).x;
  // Below the threshold (a free surface): no shift.
  EXPECT_EQ(shiftDisplacement(Real4<double>{1, 0, 0, 2.7}, 1.0, 0.0, 0.0, dt, c).x, 0.0);
  // Above: the factor (div r - TFS)/(dim - TFS).
  EXPECT_NEAR(shiftDisplacement(Real4<double>{1, 0, 0, 2.9}, 1.0, 0.0, 0.0, dt, c).x, full * (0.15 / 0.25),
              1e-12 * std::abs(full));
  EXPECT_NEAR(shiftDisplacement(Real4<double>{1, 0, 0, 3.0}, 1.0, 0.0, 0.0, dt, c).x, full, 1e-12 * std::abs(full));
}

// The integrators add the shift of the force pass's sums to the displacement of fluid particles
// (Verlet: velocity at n; symplectic corrector: velocity at n+1/2) and never move boundaries.
TEST(Shifting, IntegratorsAddTheShiftToFluidParticlesOnly) {
  const auto c = constants(Shifting::Full);
  const double dt = 2e-4;
  const Real4<double> sums{-3.0, 1.0, 2.0, 3.0};
  for (int scheme : {0, 1}) {
    SCOPED_TRACE(scheme == 0 ? "verlet" : "symplectic corrector");
    Real4<double> pos[2] = {{0, 0, 0, 0}, {0.1, 0.2, 0.3, 0}};
    Real4<double> vel[2] = {{0, 0, 0, 1000}, {0.2, -0.1, 0.4, 1001}};
    Real4<double> pre[2] = {{0, 0, 0, 1000}, {0.1, -0.2, 0.3, 1000.5}};
    Real4<double> posPre[2] = {pos[0], pos[1]};
    const Real4<double> ace[2] = {{0, 0, 0, 1}, {0.5, 0, -1, 2}};
    const Real4<double> shift[2] = {sums, sums};
    Real4<double> pos2[2] = {pos[0], pos[1]}, vel2[2] = {vel[0], vel[1]}, pre2[2] = {pre[0], pre[1]},
                  posPre2[2] = {posPre[0], posPre[1]};
    IntegratorArrays<double> plain{pos, vel, pre, posPre, ace, 2, 1};
    IntegratorArrays<double> shifted{pos2, vel2, pre2, posPre2, ace, 2, 1, nullptr, shift};
    const Real4<double> v = vel[1];
    for (uint32_t i = 0; i < 2; ++i) {
      if (scheme == 0) {
        verletStepParticle(i, plain, c, dt, false);
        verletStepParticle(i, shifted, c, dt, false);
      } else {
        symplecticCorrectParticle(i, plain, c, dt);
        symplecticCorrectParticle(i, shifted, c, dt);
      }
    }
    const ShiftDisplacement d = shiftDisplacement(sums, v.x, v.y, v.z, dt, c);
    EXPECT_NE(d.x, 0.0);
    EXPECT_NEAR(pos2[1].x - pos[1].x, d.x, 1e-15);
    EXPECT_NEAR(pos2[1].y - pos[1].y, d.y, 1e-15);
    EXPECT_NEAR(pos2[1].z - pos[1].z, d.z, 1e-15);
    EXPECT_EQ(vel2[1].x, vel[1].x);  // the shift moves particles; velocities and densities stay
    EXPECT_EQ(vel2[1].w, vel[1].w);
    EXPECT_EQ(pos2[0].x, pos[0].x);  // boundary particle 0
    EXPECT_EQ(pos2[0].z, pos[0].z);
  }
}

}  // namespace
}  // namespace sph
