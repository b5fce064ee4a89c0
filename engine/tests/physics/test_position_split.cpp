// Single precision's positions to double accuracy (physics/position_split.h): a float position and its
// rounding remainder. Every pass that moves particles (the integrators, the periodic wrap,
// parking, imposed motion, floating bodies) must keep moves far below the float spacing at the
// particle's coordinate, which the float alone rounds away.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "physics/boundary_motion_physics.h"
#include "physics/floating_body_physics.h"
#include "physics/integrator_physics.h"
#include "physics/position_split.h"
#include "sph/plugin/particle_code.h"

namespace sph {
namespace {

using F4 = Real4<float>;

// Far from the origin: floats are 2^-14 m = 6.1e-5 m apart at 1000 m, so a move below 3.05e-5 m
// is lost to a float position.
constexpr double kFar = 1000.0;
// The move of one step in the tests below: 1 mm/s over dt = 1e-4 s, 1e-7 m, 300 times smaller.
constexpr float kSpeed = 1e-3f;
constexpr float kDt = 1e-4f;
constexpr int kSteps = 2000;
// After kSteps steps of 1e-7 m the particle is 2e-4 m on. The tolerance: each store rounds the
// remainder (|posLo| < 3.1e-5 m, whose float spacing is 3.6e-12 m) by at most 1.8e-12 m, 3.6e-9 m
// over the steps if every rounding went the same way; 1e-8 m is still 20,000 times smaller than
// the move tested.
constexpr double kMoved = double(kSpeed * kDt) * kSteps;
constexpr double kTol = 1e-8;

double whole(const F4& p, const F4& lo) { return double(p.x) + double(lo.x); }

TEST(PositionSplit, StoreThenLoadKeepsTheDouble) {
  const double x[3] = {kFar + 0.123456789012, -7.000000123456, 1e-9};
  F4 p{0, 0, 0, 42.0f}, lo{};
  storePosition(p, &lo, x);
  EXPECT_EQ(p.w, 42.0f);  // the pressure stays
  EXPECT_EQ(p.x, float(x[0]));
  double back[3];
  loadPosition(p, &lo, back);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(back[k], x[k], 4e-12 * std::abs(x[k]) + 1e-20) << k;
  // Without a remainder array the position is the float alone (double-precision runs have none,
  // and their position is exact).
  F4 q{};
  storePosition(q, static_cast<F4*>(nullptr), x);
  loadPosition(q, static_cast<const F4*>(nullptr), back);
  EXPECT_EQ(back[0], double(float(x[0])));
  Real4<double> d{};
  storePosition(d, static_cast<Real4<double>*>(nullptr), x);
  EXPECT_EQ(d.x, x[0]);
}

// One fluid particle (index 1; index 0 is a boundary particle) moving at kSpeed along x with no
// force: its position after kSteps steps of each integrator.
struct OneMovingParticle {
  F4 pos[2] = {{0, 0, 0, 0}, {float(kFar), 0.5f, 0.25f, 0}};
  F4 lo[2] = {};
  F4 vel[2] = {{0, 0, 0, 1000}, {kSpeed, 0, 0, 1000}};
  F4 pre[2] = {{0, 0, 0, 1000}, {kSpeed, 0, 0, 1000}};
  F4 posPre[2] = {};
  F4 ace[2] = {};
  PhysicsConstants<float> c;
  OneMovingParticle() {
    c.rho0 = 1000;
    c.cteB = 1;
  }
  IntegratorArrays<float> arrays(bool split) {
    IntegratorArrays<float> a{pos, vel, pre, posPre, ace, 2, 1};
    if (split) a.posLo = lo;
    return a;
  }
};

TEST(PositionSplit, VerletStepKeepsMovesFarBelowTheFloatSpacing) {
  OneMovingParticle split, plain;
  for (int s = 0; s < kSteps; ++s) {
    verletStepParticle(1, split.arrays(true), split.c, kDt, s % 40 == 39);
    verletStepParticle(1, plain.arrays(false), plain.c, kDt, s % 40 == 39);
  }
  EXPECT_NEAR(whole(split.pos[1], split.lo[1]) - kFar, kMoved, kTol);
  EXPECT_EQ(double(plain.pos[1].x), kFar);  // the float alone never moves: the defect this fixes
  EXPECT_EQ(split.pos[1].y, 0.5f);
}

TEST(PositionSplit, SymplecticPredictorLeavesTheRemainderToTheCorrector) {
  OneMovingParticle o;
  for (int s = 0; s < kSteps; ++s) {
    const F4 start = o.lo[1];
    symplecticPredictParticle(1, o.arrays(true), o.c, kDt);
    EXPECT_EQ(o.lo[1].x, start.x);  // the corrector starts again from posPre + posLo
    symplecticCorrectParticle(1, o.arrays(true), o.c, kDt);
  }
  EXPECT_NEAR(whole(o.pos[1], o.lo[1]) - kFar, kMoved, kTol);
  // The predictor's half-step position is the rounded whole: within a float spacing of it.
  symplecticPredictParticle(1, o.arrays(true), o.c, kDt);
  EXPECT_NEAR(double(o.pos[1].x), whole(o.posPre[1], o.lo[1]) + 0.5 * double(kSpeed * kDt), std::ldexp(1.0, -14));
}

TEST(PositionSplit, PeriodicWrapMovesTheWholePosition) {
  PeriodicBox<float> box;
  box.min[0] = 0;
  box.length[0] = float(kFar);
  const double x[3] = {kFar + 3.3e-7, 0.5, 0.25};  // just out through the upper side
  F4 pos{0, 0, 0, 9.0f}, lo{};
  storePosition(pos, &lo, x);
  wrapPeriodicParticle(0, &pos, &lo, box);
  EXPECT_NEAR(whole(pos, lo), 3.3e-7, 1e-13);
  EXPECT_EQ(pos.w, 9.0f);
  // After the symplectic predictor the remainder is not the position's: the float alone wraps.
  F4 half{float(kFar), 0, 0, 0};
  wrapPeriodicParticle(0, &half, static_cast<F4*>(nullptr), box);
  EXPECT_EQ(half.x, 0.0f);
}

TEST(PositionSplit, ParkingPlacesTheWholePosition) {
  F4 pos{float(kFar), 1, 2, 0}, lo{1e-5f, 1e-6f, 1e-6f, 0}, vel{1, 1, 1, 1000}, pre = vel;
  uint32_t code = code::make(false, 0) | code::kExcludedBit;
  ParkingLot lot;
  lot.axis = 2;
  lot.start = 3.0;
  lot.spacing = 0.1;
  parkParticle(0, 4, &pos, &lo, &vel, &pre, &code, lot);
  EXPECT_NEAR(double(pos.z) + double(lo.z), 3.5, 1e-12);
  EXPECT_NEAR(whole(pos, lo), kFar + 1e-5, 1e-12);  // the other axes keep theirs
  EXPECT_TRUE(code::isParked(code));
}

TEST(PositionSplit, ImposedMotionKeepsASlowPaddleFarFromTheOrigin) {
  int16_t slots[1] = {0};
  MotionTransform t{};
  for (int k = 0; k < 9; ++k) t.r[k] = k % 4 == 0 ? 1 : 0;
  t.b[0] = double(kSpeed) * double(kDt);
  t.invDt = 1 / double(kDt);
  t.linear = 1;
  const MotionTableView m{slots, 1, &t, {}};
  const uint32_t code = code::make(true, 0);
  F4 pos{float(kFar), 0, 0, 0}, lo{}, vel{0, 0, 0, 1000};
  for (int s = 0; s < kSteps; ++s) moveBoundaryParticle(0, &pos, &vel, &code, m, static_cast<F4*>(nullptr), static_cast<F4*>(nullptr), &lo);
  EXPECT_NEAR(whole(pos, lo) - kFar, double(kSpeed) * double(kDt) * kSteps, kTol);
  EXPECT_FLOAT_EQ(vel.x, kSpeed);
  // A rotation about a far centre by a tiny angle: the particle moves along a circle of radius 1
  // by 1e-7 m a step.
  t.linear = 0;
  const double a = 1e-7, cs = std::cos(a), sn = std::sin(a), cx = kFar - 1, cz = 0;
  const double r[9] = {cs, 0, sn, 0, 1, 0, -sn, 0, cs};
  for (int k = 0; k < 9; ++k) t.r[k] = r[k];
  t.b[0] = cx - (cs * cx + sn * cz);
  t.b[1] = 0;
  t.b[2] = cz - (-sn * cx + cs * cz);
  t.anchor[0] = cx;
  const double x[3] = {kFar, 0, 0};
  storePosition(pos, &lo, x);
  for (int s = 0; s < kSteps; ++s) moveBoundaryParticle(0, &pos, &vel, &code, m, static_cast<F4*>(nullptr), static_cast<F4*>(nullptr), &lo);
  double now[3];
  loadPosition(pos, &lo, now);
  EXPECT_NEAR(now[0], cx + std::cos(a * kSteps), kTol);
  EXPECT_NEAR(now[2], cz - std::sin(a * kSteps), kTol);
}

TEST(PositionSplit, FloatingParticlesKeepTheBodysSlowMoves) {
  BodyMotion m{};
  m.dt = double(kDt);
  for (int k = 0; k < 9; ++k) m.rot[k] = k % 4 == 0 ? 1 : 0;
  const F4 v{kSpeed, 0, 0, 1000};
  // DualSPHysics' rules: the particle moves by its own velocity; the predictor writes the float
  // alone and the corrector starts again from the step's start.
  F4 pos{float(kFar), 0, 0, 0}, lo{}, vel{};
  for (int s = 0; s < kSteps; ++s) {
    const F4 start = pos, startLo = lo;
    moveFloatingParticleLinear(start, v, m, PeriodicBox<float>{}, pos, vel, &lo, static_cast<F4*>(nullptr));
    EXPECT_EQ(lo.x, startLo.x);
    moveFloatingParticleLinear(start, v, m, PeriodicBox<float>{}, pos, vel, &startLo, &lo);
  }
  EXPECT_NEAR(whole(pos, lo) - kFar, kMoved, kTol);
  // The rigid rules: r' = c' + R (r - c) with a centre that creeps by 1e-7 m a step.
  F4 rpos{float(kFar), 0, 0, 0}, rlo{}, rvel{};
  double c = kFar - 0.05;
  for (int s = 0; s < kSteps; ++s) {
    m.from[0] = c;
    c += double(kSpeed) * double(kDt);
    m.to[0] = c;
    const F4 start = rpos;
    moveFloatingParticle(start, m, PeriodicBox<float>{}, rpos, rvel, &rlo, &rlo);
  }
  EXPECT_NEAR(whole(rpos, rlo) - kFar, double(kSpeed) * double(kDt) * kSteps, kTol);
}

}  // namespace
}  // namespace sph
