// Imposed motion across periodic faces (physics/boundary_motion_physics.h): a moving boundary particle
// that leaves [min, min + L) comes back through the other side with the velocity of the motion,
// and a rotation turns an object that straddles the face as one piece.
#include <gtest/gtest.h>

#include <cmath>

#include "physics/boundary_motion_physics.h"

namespace sph {
namespace {

constexpr uint32_t kMovingMk = 1;

struct OneObject {
  int16_t slots[2] = {-1, 0};  // mk index 1 moves (object 0)
  MotionTransform t{};
  MotionTableView view() const {
    MotionTableView m{slots, 2, &t, {}};
    m.box.min[0] = 0.0;
    m.box.length[0] = 1.0;  // x wraps over [0, 1)
    return m;
  }
};

void move(Real4<double>& p, Real4<double>& v, const OneObject& o) {
  const uint32_t code = code::make(true, kMovingMk);
  moveBoundaryParticle(0, &p, &v, &code, o.view());
}

TEST(PeriodicMotion, TranslationWrapsAcrossTheFaceWithTheMotionsVelocity) {
  OneObject o;
  for (int k = 0; k < 9; ++k) o.t.r[k] = k % 4 == 0 ? 1 : 0;
  o.t.b[0] = 0.05;
  o.t.invDt = 100;
  o.t.linear = 1;
  Real4<double> p{0.98, 0.2, 0.3, 7}, v{0, 0, 0, 1000};
  move(p, v, o);
  EXPECT_NEAR(p.x, 0.03, 1e-15);
  EXPECT_EQ(p.y, 0.2);
  EXPECT_EQ(p.w, 7);  // the pressure is the integrator's
  EXPECT_NEAR(v.x, 5.0, 1e-12);
  EXPECT_EQ(v.w, 1000);
  o.t.b[0] = -0.05;  // and back through the lower face
  move(p, v, o);
  EXPECT_NEAR(p.x, 0.98, 1e-15);
  EXPECT_NEAR(v.x, -5.0, 1e-12);
}

// Two particles of one object, 0.02 m apart across the face x = 0 = 1: one at 0.99, the other
// already wrapped to 0.01 (really 1.01). A quarter turn about y around the anchor (1, 0, 0.5)
// stacks them at x = 1 = 0, z = 0.5 -+ 0.01. Without the anchor the wrapped one would have been
// turned about a point 0.99 m away.
TEST(PeriodicMotion, RotationTurnsAnObjectStraddlingTheFaceAsOnePiece) {
  OneObject o;
  const double a[3] = {1.0, 0.0, 0.5};
  // R_y(90 deg): x' = z, z' = -x (about the anchor): x' = R (x - a) + a, b = a - R a.
  const double r[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};
  for (int k = 0; k < 9; ++k) o.t.r[k] = r[k];
  for (int k = 0; k < 3; ++k) {
    o.t.b[k] = a[k] - (r[3 * k] * a[0] + r[3 * k + 1] * a[1] + r[3 * k + 2] * a[2]);
    o.t.anchor[k] = a[k];
  }
  o.t.invDt = 10;
  o.t.linear = 0;
  Real4<double> p1{0.99, 0, 0.5, 0}, v1{}, p2{0.01, 0, 0.5, 0}, v2{};
  move(p1, v1, o);
  move(p2, v2, o);
  // x = 1 wraps to 0 (either is the face; the wrap keeps [0, 1)).
  EXPECT_NEAR(p1.x, 0.0, 1e-12);
  EXPECT_NEAR(p1.z, 0.51, 1e-12);
  EXPECT_NEAR(p2.x, 0.0, 1e-12);
  EXPECT_NEAR(p2.z, 0.49, 1e-12);
  // Velocities: the displacement from the unwrapped start over dt = 0.1 s.
  EXPECT_NEAR(v1.x, 0.1, 1e-10);
  EXPECT_NEAR(v1.z, 0.1, 1e-10);
  EXPECT_NEAR(v2.x, -0.1, 1e-10);
  EXPECT_NEAR(v2.z, -0.1, 1e-10);
}

TEST(PeriodicMotion, OpenAxesAreLeftAlone) {
  OneObject o;
  for (int k = 0; k < 9; ++k) o.t.r[k] = k % 4 == 0 ? 1 : 0;
  o.t.b[1] = 2.0;  // y is open: no wrap, however far
  o.t.invDt = 1;
  o.t.linear = 1;
  Real4<double> p{0.5, 0.9, 0.3, 0}, v{};
  move(p, v, o);
  EXPECT_EQ(p.x, 0.5);
  EXPECT_NEAR(p.y, 2.9, 1e-15);
}

// mDBC's normal turns with the object (not translated): a quarter turn about y takes the ghost
// vector (0.02, 0, 0) to (0, 0, -0.02); a translation leaves it.
TEST(PeriodicMotion, NormalTurnsWithARotationOnly) {
  OneObject o;
  const double r[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};
  for (int k = 0; k < 9; ++k) o.t.r[k] = r[k];
  o.t.b[2] = 0.1;
  o.t.invDt = 100;
  o.t.linear = 0;
  const uint32_t code = code::make(true, kMovingMk);
  Real4<double> p{0.5, 0.2, 0.3, 7}, v{0, 0, 0, 1000}, n{0.02, 0, 0, 0};
  moveBoundaryParticle(0, &p, &v, &code, o.view(), &n);
  EXPECT_NEAR(n.x, 0.0, 1e-15);
  EXPECT_NEAR(n.y, 0.0, 1e-15);
  EXPECT_NEAR(n.z, -0.02, 1e-15);
  for (int k = 0; k < 9; ++k) o.t.r[k] = k % 4 == 0 ? 1 : 0;
  o.t.linear = 1;
  moveBoundaryParticle(0, &p, &v, &code, o.view(), &n);
  EXPECT_NEAR(n.z, -0.02, 1e-15);
  EXPECT_EQ(n.x, 0.0);
}

}  // namespace
}  // namespace sph
