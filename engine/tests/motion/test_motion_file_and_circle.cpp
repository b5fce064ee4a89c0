// The kinematics of the file movements (mvfile, mvrotfile) against the file's linear
// interpolation, and of the circular movements (mvcir, mvcirsinu, mvcirace) against the closed
// form of their reference point: a point carried by the per-step transforms of many uneven steps
// ends where the law puts it, to round-off.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

#include "motion/motion_kinematics.h"

namespace sph {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kEps = std::numeric_limits<double>::epsilon();

double stepDt(int k, double mean) { return mean * (1.0 + 0.4 * std::sin(0.7 * k)); }

Movement movement(MovementType type, int id, int next, double duration) {
  Movement m;
  m.type = type;
  m.id = id;
  m.next = next;
  m.duration = duration;
  return m;
}

MotionObject object(std::vector<Movement> movs, double start, double finish = -1) {
  MotionObject o;
  o.ref = 1;
  o.mkIndex = 2;
  o.movements = std::move(movs);
  o.begins.push_back({o.movements.front().id, start, finish, 0});
  return o;
}

// Turned by `a` about the axis through (cx, *, cz) along +y, in DualSPHysics' sense (the
// right-hand rule about -y, as its runs show: test_motion_dualsphysics).
Vec3d turnedAboutY(const Vec3d& p, double cx, double cz, double a) {
  const double dx = p.x - cx, dz = p.z - cz;
  return {cx + dx * std::cos(a) - dz * std::sin(a), p.y, cz + dx * std::sin(a) + dz * std::cos(a)};
}

// The file's value at t by a plain scan: linear between rows, the first/last row's outside.
double interpolate(const std::vector<double>& time, const std::vector<double>& v, double t) {
  if (t <= time.front()) return v.front();
  for (size_t k = 1; k < time.size(); ++k)
    if (t <= time[k]) return v[k - 1] + (t - time[k - 1]) / (time[k] - time[k - 1]) * (v[k] - v[k - 1]);
  return v.back();
}

std::shared_ptr<const MotionTable> positions(std::vector<double> time, const std::vector<Vec3d>& pos) {
  auto t = std::make_shared<MotionTable>();
  t->path = "test.csv";
  t->time = std::move(time);
  t->pos = pos;
  return t;
}

// A file from 2 s to 2.4 s (its times count from the first row, which the start at 0.3 s meets),
// whose first position is not zero: the object moves by the file's position less the first
// row's, then keeps the last row's for the rest of the 1 s movement.
TEST(MotionFileKinematics, RectFileFollowsTheInterpolatedFile) {
  const std::vector<double> time{2.0, 2.1, 2.25, 2.4};
  const std::vector<double> xs{0.10, 0.13, 0.05, -0.02}, zs{0.02, 0.05, 0.11, 0.04};
  std::vector<Vec3d> pos;
  for (size_t k = 0; k < time.size(); ++k) pos.push_back({xs[k], 0, zs[k]});
  Movement m = movement(MovementType::RectFile, 1, -1, 1.0);
  m.table = positions(time, pos);
  MotionKinematics k({object({m}, 0.3)});
  const Vec3d x0{1, 2, 3};
  Vec3d x = x0;
  double t = 0;
  for (int s = 0; t < 1.6; ++s) {
    const double dt = stepDt(s, 2e-3);
    const ObjectStep st = k.advance(t, dt).at(0);
    EXPECT_TRUE(st.transform.linear);
    x = st.transform.apply(x);
    t += dt;
    const double tau = std::clamp(std::min(t, 1.3) - 0.3, 0.0, 1.0);
    // Each step adds a difference of two interpolations (a few eps of |x| ~ 3); ~800 steps.
    ASSERT_NEAR(x.x, x0.x + interpolate(time, xs, 2.0 + tau) - xs[0], 800 * 8 * kEps) << "t = " << t;
    ASSERT_NEAR(x.z, x0.z + interpolate(time, zs, 2.0 + tau) - zs[0], 800 * 8 * kEps) << "t = " << t;
    ASSERT_EQ(x.y, x0.y);
  }
}

// A chain that comes back to a file movement reads the file again from its first row, so each
// pass moves the object by the last row's position less the first's.
TEST(MotionFileKinematics, EachPassReadsTheFileFromItsFirstRow) {
  Movement f = movement(MovementType::RectFile, 1, 2, 0.5), w = movement(MovementType::Wait, 2, 1, 0.25);
  f.table = positions({0, 0.2}, {{0.3, 0, 0}, {0.5, 0, -0.1}});
  MotionKinematics k({object({f, w}, 0)});
  Vec3d x{0, 0, 0};
  for (int s = 0; s < 3; ++s) {  // one step per movement: passes of 0.5 s, waits of 0.25 s
    x = k.advance(0.75 * s, 0.5).at(0).transform.apply(x);
    EXPECT_FALSE(k.advance(0.75 * s + 0.5, 0.25).at(0).moved);
    EXPECT_NEAR(x.x, 0.2 * (s + 1), 1e-15) << "pass " << s + 1;
    EXPECT_NEAR(x.z, -0.1 * (s + 1), 1e-15) << "pass " << s + 1;
  }
}

// A time given twice (as DualSPHysics' CaseWaveRunup's file starts): up to that time the first of
// the two rows holds, just after it the second; the jump falls in the step after.
TEST(MotionFileKinematics, ARepeatedTimeJumpsJustAfterIt) {
  Movement f = movement(MovementType::RectFile, 1, -1, 1);
  f.table = positions({0, 0.5, 0.5, 1}, {{0, 0, 0}, {1, 0, 0}, {3, 0, 0}, {3, 0, 0}});
  MotionKinematics k({object({f}, 0)});
  EXPECT_EQ(k.advance(0, 0.5).at(0).transform.b[0], 1);
  EXPECT_EQ(k.advance(0.5, 0.25).at(0).transform.b[0], 2);
  EXPECT_EQ(k.advance(0.75, 0.25).at(0).transform.b[0], 0);
}

// mvrotfile turns by the file's angle less the first row's, about its axis, from its start.
TEST(MotionFileKinematics, RotFileTurnsByTheFileAngle) {
  auto table = std::make_shared<MotionTable>();
  table->time = {0, 0.1, 0.2, 0.35, 0.5};
  table->angle = {0.2, 0.35, 0.1, -0.3, -0.25};
  Movement m = movement(MovementType::RotFile, 1, -1, 0.8);
  m.table = table;
  m.axisP1 = {0.9, -1, 1.05};
  m.axisP2 = {0.9, 1, 1.05};
  MotionKinematics k({object({m}, 0.1)});
  const Vec3d x0{1.0, 0, 1.1};
  Vec3d x = x0;
  double t = 0;
  for (int s = 0; t < 1.0; ++s) {
    const double dt = stepDt(s, 1e-3);
    x = k.advance(t, dt).at(0).transform.apply(x);
    t += dt;
    const double tau = std::clamp(std::min(t, 0.9) - 0.1, 0.0, 0.8);
    const Vec3d want = turnedAboutY(x0, 0.9, 1.05, interpolate(table->time, table->angle, tau) - 0.2);
    // Each step's matrix and product round at a few eps; ~1000 steps, |x| ~ 1.
    ASSERT_NEAR(x.x, want.x, 1000 * 8 * kEps) << "t = " << t;
    ASSERT_NEAR(x.z, want.z, 1000 * 8 * kEps) << "t = " << t;
  }
}

Movement circle(MovementType type, int id, int next, double duration) {
  Movement m = movement(type, id, next, duration);
  m.ref = {1.4, 0, 1.1};
  m.axisP1 = {1.3, -1, 1.2};
  m.axisP2 = {1.3, 1, 1.2};
  return m;
}

// mvcir translates the object (it never turns) so that its reference point goes round the axis;
// the point stays where it went, so a chain that loops back through a wait goes on round from
// there: after 0.2 s of each of three passes, the point has turned by 3 * 0.2 * omega.
TEST(MotionCircleKinematics, CirTranslatesAndItsPointGoesOnRoundAfterALoop) {
  Movement c = circle(MovementType::Cir, 1, 2, 0.2);
  c.angVel = kPi;
  const Movement w = movement(MovementType::Wait, 2, 1, 0.1);
  MotionKinematics k({object({c, w}, 0, 0.8)});
  Vec3d x{5, 1, 7};
  const Vec3d x0 = x;
  double t = 0;
  for (int s = 0; t < 0.9; ++s) {
    const double dt = stepDt(s, 1e-3);
    const ObjectStep st = k.advance(t, dt).at(0);
    EXPECT_TRUE(st.transform.linear);
    x = st.transform.apply(x);
    t += dt;
  }
  const Vec3d p = turnedAboutY(c.ref, 1.3, 1.2, 3 * 0.2 * kPi);
  EXPECT_NEAR(x.x, x0.x + p.x - c.ref.x, 900 * 8 * kEps);
  EXPECT_NEAR(x.z, x0.z + p.z - c.ref.z, 900 * 8 * kEps);
  EXPECT_EQ(x.y, x0.y);
}

// mvcirsinu, then one without <phase> (it continues the phase), then an mvrotace without
// <velini> after an mvcir (it starts at the mvcir's angular velocity). Each circular movement
// has its own reference point: the second starts from its own <ref>, not from where the first
// left the object. One step per movement: each step's translation is the closed form.
TEST(MotionCircleKinematics, SinuAndAceContinueThePreviousMovementWithTheirOwnPoints) {
  Movement s1 = circle(MovementType::CirSinu, 1, 2, 0.3), s2 = circle(MovementType::CirSinu, 2, 3, 0.5);
  s1.freqRot = s2.freqRot = 1.5;
  s1.amplRot = 0.6;
  s2.amplRot = 0.4;
  s1.phaseRot = 0.3;
  s2.phaseFromPrevious = true;
  Movement a1 = circle(MovementType::CirAce, 3, 4, 0.3), a2 = circle(MovementType::CirAce, 4, 5, 0.5);
  a1.angVel = 0.5;
  a1.aceAng = 3.5;
  a2.aceAng = -2.6;
  a2.velFromPrevious = true;
  Movement c = circle(MovementType::Cir, 5, 6, 0.25), r = circle(MovementType::RotAce, 6, -1, 0.4);
  c.angVel = 0.7;
  r.aceAng = 1.1;
  r.velFromPrevious = true;
  MotionKinematics k({object({s1, s2, a1, a2, c, r}, 0)});
  const double ph1 = 0.3 + 2 * kPi * 1.5 * 0.3;
  const double angles[] = {0.6 * (std::sin(ph1) - std::sin(0.3)),
                           0.4 * (std::sin(ph1 + 2 * kPi * 1.5 * 0.5) - std::sin(ph1)), 0.5 * 0.3 + 0.5 * 3.5 * 0.09,
                           (0.5 + 3.5 * 0.3) * 0.5 - 0.5 * 2.6 * 0.25, 0.7 * 0.25};
  double t = 0;
  for (int s = 0; s < 5; ++s) {
    const double d = (s == 4) ? 0.25 : (s % 2 ? 0.5 : 0.3);
    const RigidTransform tr = k.advance(t, d).at(0).transform;
    t += d;
    EXPECT_TRUE(tr.linear) << "movement " << s + 1;
    const Vec3d p = turnedAboutY(s1.ref, 1.3, 1.2, angles[s]);
    // One rotation of a point ~1.5 from the origin and a difference: a few eps of it.
    EXPECT_NEAR(tr.b[0], p.x - s1.ref.x, 16 * kEps) << "movement " << s + 1;
    EXPECT_NEAR(tr.b[2], p.z - s1.ref.z, 16 * kEps) << "movement " << s + 1;
  }
  // The mvrotace turns the object, from the mvcir's 0.7 rad/s: 0.7 * 0.4 + 1.1 * 0.4^2 / 2.
  const RigidTransform tr = k.advance(t, 0.4).at(0).transform;
  const Vec3d want = turnedAboutY({2, 0, 2}, 1.3, 1.2, 0.7 * 0.4 + 0.5 * 1.1 * 0.16);
  const Vec3d got = tr.apply({2, 0, 2});
  EXPECT_NEAR(got.x, want.x, 16 * kEps);
  EXPECT_NEAR(got.z, want.z, 16 * kEps);
}

}  // namespace
}  // namespace sph
