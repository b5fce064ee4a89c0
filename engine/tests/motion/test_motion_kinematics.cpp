// The motion kinematics against the analytic laws: a point carried by the per-step transforms
// of many uneven steps ends where the law puts it, to round-off; chains hand over at the right
// instants, also inside a step; sinusoids continue their phase.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>

#include "motion/motion_kinematics.h"

namespace sph {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kEps = std::numeric_limits<double>::epsilon();

// Uneven steps around `mean`, so no step boundary falls on a hand-over by construction.
double stepDt(int k, double mean) { return mean * (1.0 + 0.4 * std::sin(0.7 * k)); }

Movement rectSinu(int id, int next, double duration, double freq, double ampl, double phase, bool fromPrevious) {
  Movement m;
  m.type = MovementType::RectSinu;
  m.id = id;
  m.next = next;
  m.duration = duration;
  m.freq = {freq, 0, 0};
  m.ampl = {ampl, 0, 0};
  m.phase = {phase, 0, 0};
  m.phaseFromPrevious = fromPrevious;
  return m;
}

MotionObject object(std::vector<Movement> movs, double start, double finish = -1) {
  MotionObject o;
  o.ref = 1;
  o.mkIndex = 3;
  o.movements = std::move(movs);
  o.begins.push_back({o.movements.front().id, start, finish, 0});
  return o;
}

// Carries `x` through `steps` steps from t = 0; returns the end time.
double carry(MotionKinematics& k, Vec3d& x, int steps, double mean, double* maxStep = nullptr) {
  double t = 0;
  for (int s = 0; s < steps; ++s) {
    const double dt = stepDt(s, mean);
    const std::vector<ObjectStep> st = k.advance(t, dt);
    x = st.at(0).transform.apply(x);
    if (maxStep) *maxStep = std::max(*maxStep, std::abs(st[0].transform.b[0]));
    t += dt;
  }
  return t;
}

// A piston, x = A sin(phi + 2 pi f (t - start)) from start = 0.3 s, after 20,000 uneven steps.
// Each step adds ampl (sin - sin) to x: the sum telescopes, so only the round-off of the
// additions (~|x| eps each, 20,000 of them) separates it from the law.
TEST(MotionKinematics, RectSinuPistonFollowsTheLawToRoundOff) {
  const double A = 0.12, f = 0.8, phi = 30 * kPi / 180, start = 0.3;
  MotionKinematics k({object({rectSinu(1, -1, 100, f, A, phi, false)}, start)});
  Vec3d x{1.5, 0, 0.25};
  const int steps = 20000;
  double maxStep = 0;
  const double t = carry(k, x, steps, 5e-4, &maxStep);
  const double expected = 1.5 + A * (std::sin(phi + 2 * kPi * f * (t - start)) - std::sin(phi));
  EXPECT_NEAR(x.x, expected, steps * 2 * kEps * 1.7);
  EXPECT_EQ(x.y, 0);
  EXPECT_EQ(x.z, 0.25);
  EXPECT_GT(t, 9.0);                           // several periods
  EXPECT_LT(maxStep, A * 2 * kPi * f * 1e-3);  // and each step small (|v| dt_max)
}

// A flap: rotation at 12 deg/s about the y axis through (2, 0, 0.1), from 0.5 s to finish 8 s.
TEST(MotionKinematics, RotatingPaddleFollowsTheLawToRoundOff) {
  Movement m;
  m.type = MovementType::Rot;
  m.id = 4;
  m.duration = 100;
  m.angVel = 12 * kPi / 180;
  m.axisP1 = {2, 0, 0.1};
  m.axisP2 = {2, 1, 0.1};
  MotionKinematics k({object({m}, 0.5, 8.0)});
  const Vec3d x0{2.3, 0, 0.9};
  Vec3d x = x0;
  const int steps = 20000;
  const double t = carry(k, x, steps, 5e-4);
  ASSERT_GT(t, 8.0);
  // DualSPHysics' sense, right-handed about axisP2 -> axisP1 (-y here):
  // x' = cx + dx cos(a) - dz sin(a), z' = cz + dx sin(a) + dz cos(a).
  const double a = m.angVel * (8.0 - 0.5), dx = x0.x - 2, dz = x0.z - 0.1;
  // Each step's matrix and product round at ~4 eps relative; |x| < 3.
  const double tol = steps * 4 * kEps * 3;
  EXPECT_NEAR(x.x, 2 + dx * std::cos(a) - dz * std::sin(a), tol);
  EXPECT_NEAR(x.z, 0.1 + dx * std::sin(a) + dz * std::cos(a), tol);
  EXPECT_NEAR(x.y, 0, tol);
}

TEST(MotionKinematics, RotSinuFlapFollowsTheLaw) {
  Movement m;
  m.type = MovementType::RotSinu;
  m.id = 1;
  m.duration = 50;
  m.freqRot = 0.6;
  m.amplRot = 0.2;
  m.phaseRot = 0.4;
  m.axisP1 = {0, 0, 0};
  m.axisP2 = {0, 1, 0};
  MotionKinematics k({object({m}, 0)});
  const Vec3d x0{0, 0, 1};
  Vec3d x = x0;
  const int steps = 10000;
  const double t = carry(k, x, steps, 5e-4);
  const double a = 0.2 * (std::sin(0.4 + 2 * kPi * 0.6 * t) - std::sin(0.4));
  const double tol = steps * 4 * kEps;
  // (0, 0, 1) turned by a about -y (DualSPHysics' sense for the axis 0 -> +y).
  EXPECT_NEAR(x.x, -std::sin(a), tol);
  EXPECT_NEAR(x.z, std::cos(a), tol);
}

// mvrect 1 m/s for 1 s, wait 0.5 s, mvrect -2 m/s for 0.25 s, back to the first: a 1.75 s
// loop from start 0.2 s, stopped by finish 5 s. Steps of 0.03 s straddle every hand-over.
double loopLaw(double t) {
  if (t <= 0.2) return 0;
  t = std::min(t, 5.0) - 0.2;
  const double period = 1.75, perPeriod = 1.0 - 0.5;
  const double n = std::floor(t / period), r = t - n * period;
  double x = n * perPeriod;
  x += std::min(r, 1.0);
  if (r > 1.5) x -= 2 * (r - 1.5);
  return x;
}

TEST(MotionKinematics, ChainsHandOverAtTheRightTimes) {
  Movement a, w, b;
  a.type = MovementType::Rect;
  a.id = 1;
  a.next = 2;
  a.duration = 1;
  a.vel = {1, 0, 0};
  w.type = MovementType::Wait;
  w.id = 2;
  w.next = 3;
  w.duration = 0.5;
  b.type = MovementType::Rect;
  b.id = 3;
  b.next = 1;
  b.duration = 0.25;
  b.vel = {-2, 0, 0};
  MotionKinematics k({object({a, w, b}, 0.2, 5.0)});
  Vec3d x{0, 0, 0};
  const double dt = 0.03;
  for (int s = 0; s < 220; ++s) {
    const double t = s * dt;
    const ObjectStep st = k.advance(t, dt).at(0);
    EXPECT_EQ(st.mkIndex, 3);
    EXPECT_TRUE(st.transform.linear);
    x = st.transform.apply(x);
    // The law's values at step ends; its pieces are linear, so 1e-12 covers the additions.
    ASSERT_NEAR(x.x, loopLaw(t + dt), 1e-12) << "step " << s << " ending at t = " << t + dt;
    // Moving or not: only in a step that overlaps a movement other than wait.
    const double u = t + dt;
    if (u <= 0.2 || t >= 5.0) {
      EXPECT_FALSE(st.moved) << "t = " << t;
    }
  }
  EXPECT_NEAR(x.x, loopLaw(5.0), 1e-12);
}

// CaseWavemaker's chain: phase 270 deg at 0.5 Hz for 5 s, then 0.75 Hz for 10 s and 0.5 Hz for
// 10 s in a loop, each continuing the phase the previous one reached.
TEST(MotionKinematics, SinusoidsWithoutPhaseContinueThePreviousPhase) {
  const double A = 0.25;
  MotionKinematics k({object({rectSinu(1, 2, 5, 0.5, A, 1.5 * kPi, false), rectSinu(2, 3, 10, 0.75, A, 0, true),
                              rectSinu(3, 2, 10, 0.5, A, 0, true)},
                             0.0)});
  // The law, built independently: phase(t) piecewise linear and continuous; x(t) accumulates
  // A (sin(phase(t)) - sin(phase(segment start))) over the segments.
  auto law = [&](double t) {
    double x = 0, phase = 1.5 * kPi, s = 0;
    struct Seg {
      double f, d;
    };
    const Seg segs[] = {{0.5, 5}, {0.75, 10}, {0.5, 10}};
    int i = 0;
    while (true) {
      const Seg g = segs[i];
      const double e = std::min(t, s + g.d);
      x += A * (std::sin(phase + 2 * kPi * g.f * (e - s)) - std::sin(phase));
      if (t <= s + g.d) return x;
      phase += 2 * kPi * g.f * g.d;
      s += g.d;
      i = i == 0 ? 1 : (i == 1 ? 2 : 1);
    }
  };
  Vec3d x{0, 0, 0};
  double t = 0;
  int checked = 0;
  for (int s = 0; t < 40; ++s) {
    const double dt = stepDt(s, 2e-3);
    x = k.advance(t, dt).at(0).transform.apply(x);
    t += dt;
    if (s % 997 == 0) {
      ASSERT_NEAR(x.x, law(t), 1e-10) << "t = " << t;
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
  EXPECT_NEAR(x.x, law(t), 1e-10);
  // At t = 5 the first segment hands over at the phase 1.5 pi + 5 pi: the piston's velocity
  // A 2 pi f cos(phase) is zero on both sides (cos(6.5 pi) = 0).
  EXPECT_NEAR(law(5.0), A * (std::sin(6.5 * kPi) - std::sin(1.5 * kPi)), 1e-12);
}

// One step covering a rotation (0.5 s at 90 deg/s), then a translation: the step's transform is
// the rotation followed by the translation.
TEST(MotionKinematics, OneStepComposesSeveralMovements) {
  Movement r, m;
  r.type = MovementType::Rot;
  r.id = 1;
  r.next = 2;
  r.duration = 0.5;
  r.angVel = kPi / 2;
  r.axisP1 = {0, 0, 0};
  r.axisP2 = {0, 0, 1};
  m.type = MovementType::Rect;
  m.id = 2;
  m.duration = 0.5;
  m.vel = {0, 0, 2};
  MotionKinematics k({object({r, m}, 0.0)});
  const ObjectStep st = k.advance(0.0, 2.0).at(0);  // longer than the chain: it ends inside
  EXPECT_FALSE(st.transform.linear);
  EXPECT_TRUE(st.moved);
  // (1, 0, 0) turns by 45 deg about -z (0.5 s at 90 deg/s about the axis 0 -> +z, in
  // DualSPHysics' sense), then rises 1 m (0.5 s at 2 m/s).
  const Vec3d y = st.transform.apply({1, 0, 0});
  EXPECT_NEAR(y.x, std::cos(kPi / 4), 1e-15);
  EXPECT_NEAR(y.y, -std::sin(kPi / 4), 1e-15);
  EXPECT_NEAR(y.z, 1.0, 1e-15);
  // The chain has ended: nothing more.
  const ObjectStep after = k.advance(2.0, 0.1).at(0);
  EXPECT_FALSE(after.moved);
  EXPECT_EQ(after.transform.apply({1, 2, 3}).y, 2);
}

Movement movement(MovementType type, int id, int next, double duration) {
  Movement m;
  m.type = type;
  m.id = id;
  m.next = next;
  m.duration = duration;
  return m;
}

Movement rectAce(int id, int next, double duration, Vec3d ace, const Vec3d* velIni) {
  Movement m = movement(MovementType::RectAce, id, next, duration);
  m.ace = ace;
  if (velIni)
    m.vel = *velIni;
  else
    m.velFromPrevious = true;
  return m;
}

// An accelerated chain from start 0.3 s: mvrectace with <velini> (2 s), mvrectace continuing its
// final velocity (1 s), mvrect (0.5 s), mvrectace continuing the mvrect's velocity (1 s), wait
// (0.5 s), mvrectace without <velini> after the wait: from rest (1 s), then the chain ends.
// The law, per axis, is built segment by segment from the closed form x = v0 tau + a tau^2/2.
struct Seg {
  double t0, d, v0, a;  // start, duration, initial velocity, acceleration (x axis)
};
double segLaw(const std::vector<Seg>& segs, double t, double* vel = nullptr) {
  double x = 0;
  if (vel) *vel = 0;
  for (const Seg& g : segs) {
    if (t <= g.t0) break;
    const double tau = std::min(t, g.t0 + g.d) - g.t0;
    x += g.v0 * tau + 0.5 * g.a * tau * tau;
    if (vel && t < g.t0 + g.d) *vel = g.v0 + g.a * tau;
  }
  return x;
}

TEST(MotionKinematics, RectAceChainFollowsTheLawAcrossHandOvers) {
  const Vec3d v1{0.4, 0, -0.1};
  Movement r = movement(MovementType::Rect, 3, 4, 0.5);
  r.vel = {-0.3, 0, 0};
  const Movement w = movement(MovementType::Wait, 5, 6, 0.5);
  MotionKinematics k({object({rectAce(1, 2, 2, {0.5, 0, 0.2}, &v1), rectAce(2, 3, 1, {-1.5, 0, 0}, nullptr), r,
                              rectAce(4, 5, 1, {0.8, 0, 0}, nullptr), w, rectAce(6, -1, 1, {2, 0, 0}, nullptr)},
                             0.3)});
  // x: 0.4 + 0.5*2 = 1.4 at the end of 1; 1.4 - 1.5 = -0.1 at the end of 2; mvrect -0.3; then
  // from -0.3 at 0.8 m/s^2; the wait; from rest at 2 m/s^2.
  const std::vector<Seg> sx = {{0.3, 2, 0.4, 0.5},   {2.3, 1, 1.4, -1.5}, {3.3, 0.5, -0.3, 0},
                               {3.8, 1, -0.3, 0.8}, {4.8, 0.5, 0, 0},    {5.3, 1, 0, 2}};
  // z: only the first movement moves it (-0.1 m/s, 0.2 m/s^2); movement 2 continues its final
  // velocity 0.3 m/s with no acceleration; the mvrect and what follows leave z alone.
  const std::vector<Seg> sz = {{0.3, 2, -0.1, 0.2}, {2.3, 1, 0.3, 0}};
  Vec3d x{1, 2, 3};
  double t = 0;
  int checked = 0;
  for (int s = 0; t < 7; ++s) {
    const double dt = stepDt(s, 7e-3);
    const ObjectStep st = k.advance(t, dt).at(0);
    EXPECT_TRUE(st.transform.linear);
    x = st.transform.apply(x);
    // ~1000 additions of steps to |x| < 5: round-off well under 2e-12.
    ASSERT_NEAR(x.x, 1 + segLaw(sx, t + dt), 2e-12) << "t = " << t + dt;
    ASSERT_NEAR(x.z, 3 + segLaw(sz, t + dt), 2e-12) << "t = " << t + dt;
    EXPECT_EQ(x.y, 2);
    // The imposed velocity, b/dt, is the step's mean velocity: that of its middle for a uniform
    // acceleration, when no hand-over falls inside the step.
    bool inside = true;
    for (const Seg& g : sx)
      if ((t < g.t0 && g.t0 < t + dt) || (t < g.t0 + g.d && g.t0 + g.d < t + dt)) inside = false;
    if (inside && t > 0.3 && t + dt < 6.3) {
      double vmid = 0;
      segLaw(sx, t + dt / 2, &vmid);
      ASSERT_NEAR(st.transform.b[0] / dt, vmid, 1e-9) << "t = " << t;
      ++checked;
    }
    t += dt;
  }
  EXPECT_GT(checked, 800);
  // The chain has ended at 6.3 s: from rest, 2 m/s^2 for 1 s adds 1 m.
  EXPECT_NEAR(x.x, 1 + segLaw(sx, 10), 2e-12);
  EXPECT_NEAR(segLaw(sx, 10) - segLaw(sx, 5.3), 1.0, 1e-12);
}

// DualSPHysics' CasePump: from 0.5 s, 90 deg/s accelerated by 500 deg/s^2 for 2 s, then the
// velocity reached (1090 deg/s) kept by an mvrotace with no acceleration and no <velini>, until
// finish. About +z through (1, 1, 0), so that the axis' position matters.
TEST(MotionKinematics, RotAcePumpFollowsTheLaw) {
  Movement a = movement(MovementType::RotAce, 1, 2, 2), b = movement(MovementType::RotAce, 2, -1, 1000);
  a.angVel = 90 * kPi / 180;
  a.aceAng = 500 * kPi / 180;
  b.velFromPrevious = true;
  a.axisP1 = b.axisP1 = {1, 1, 0};
  a.axisP2 = b.axisP2 = {1, 1, 1};
  MotionKinematics k({object({a, b}, 0.5, 3.2)});
  auto angle = [&](double t) {
    if (t <= 0.5) return 0.0;
    t = std::min(t, 3.2);
    const double tau = std::min(t, 2.5) - 0.5;
    double ang = a.angVel * tau + 0.5 * a.aceAng * tau * tau;
    if (t > 2.5) ang += (a.angVel + a.aceAng * 2) * (t - 2.5);
    return ang;
  };
  const Vec3d x0{2, 1, 0.5};
  Vec3d x = x0;
  double t = 0;
  for (int s = 0; t < 3.5; ++s) {
    const double dt = stepDt(s, 1e-3);
    const ObjectStep st = k.advance(t, dt).at(0);
    x = st.transform.apply(x);
    t += dt;
    const double ang = angle(t);
    // Each step's matrix and product round at a few eps; ~3500 steps, |x| ~ 2.
    ASSERT_NEAR(x.x, 1 + std::cos(ang), 3500 * 8 * kEps) << "t = " << t;
    ASSERT_NEAR(x.y, 1 - std::sin(ang), 3500 * 8 * kEps) << "t = " << t;  // about -z: DualSPHysics' sense
    ASSERT_EQ(x.z, 0.5);
    if (t < 0.5 || t - dt > 3.2) {
      ASSERT_FALSE(st.moved) << "t = " << t;
    }
  }
  // The angle at finish: 90*2 + 250*4 deg, then 1090 deg/s for 0.7 s.
  EXPECT_NEAR(angle(4), (180 + 1000 + 1090 * 0.7) * kPi / 180, 1e-12);
}

// An mvrotace without <velini> after an mvrot starts at the mvrot's velocity; after a wait, from
// rest. One long step covers each whole movement, so its transform is the movement's angle.
TEST(MotionKinematics, RotAceVelocityFromPreviousMovement) {
  Movement r = movement(MovementType::Rot, 1, 2, 1), a = movement(MovementType::RotAce, 2, 3, 1),
           w = movement(MovementType::Wait, 3, 4, 1), b = movement(MovementType::RotAce, 4, -1, 1);
  r.angVel = 0.3;
  a.aceAng = b.aceAng = 0.2;
  a.velFromPrevious = b.velFromPrevious = true;
  for (Movement* m : {&r, &a, &b}) m->axisP2 = {0, 0, 1};
  MotionKinematics k({object({r, a, w, b}, 0)});
  const double expected[] = {0.3, 0.3 + 0.1, 0, 0.1};
  for (int s = 0; s < 4; ++s) {
    const ObjectStep st = k.advance(s, 1.0).at(0);
    const Vec3d y = st.transform.apply({1, 0, 0});
    EXPECT_NEAR(-std::atan2(y.y, y.x), expected[s], 1e-15) << "movement " << s + 1;  // turned about -z
    EXPECT_EQ(st.moved, s != 2);
  }
}

// mvnull moves nothing and ends the chain, wherever it comes in it. Steps of 1/64 s and times
// that are exact in binary, so the steps that move are known exactly.
TEST(MotionKinematics, NullMovementStopsTheObject) {
  Movement r = movement(MovementType::Rect, 1, 2, 0.5);
  r.vel = {1, 0, 0};
  const Movement n = movement(MovementType::Null, 2, -1, 0);
  MotionKinematics k({object({r, n}, 0.125), object({n}, 0)});
  Vec3d x{0, 0, 0};
  const double dt = 1.0 / 64;
  for (int s = 0; s < 100; ++s) {
    const std::vector<ObjectStep> st = k.advance(s * dt, dt);
    x = st.at(0).transform.apply(x);
    EXPECT_FALSE(st.at(1).moved);
    EXPECT_EQ(st.at(0).moved, s >= 8 && s < 40) << "step " << s;
  }
  EXPECT_EQ(x.x, 0.5);
}

}  // namespace
}  // namespace sph
