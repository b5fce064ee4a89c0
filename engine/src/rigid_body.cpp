#include "rigid_body.h"

#include <algorithm>
#include <stdexcept>

namespace sph::rigid {

Mat3 Mat3::operator*(const Mat3& b) const {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) r.m[i][j] += m[i][k] * b.m[k][j];
  return r;
}

Mat3 Mat3::transposed() const {
  Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r.m[i][j] = m[j][i];
  return r;
}

Mat3 Mat3::inverse() const {
  const double (&a)[3][3] = m;
  Mat3 c;  // cofactors, transposed
  c.m[0][0] = a[1][1] * a[2][2] - a[1][2] * a[2][1];
  c.m[0][1] = a[0][2] * a[2][1] - a[0][1] * a[2][2];
  c.m[0][2] = a[0][1] * a[1][2] - a[0][2] * a[1][1];
  c.m[1][0] = a[1][2] * a[2][0] - a[1][0] * a[2][2];
  c.m[1][1] = a[0][0] * a[2][2] - a[0][2] * a[2][0];
  c.m[1][2] = a[0][2] * a[1][0] - a[0][0] * a[1][2];
  c.m[2][0] = a[1][0] * a[2][1] - a[1][1] * a[2][0];
  c.m[2][1] = a[0][1] * a[2][0] - a[0][0] * a[2][1];
  c.m[2][2] = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  const double det = a[0][0] * c.m[0][0] + a[0][1] * c.m[1][0] + a[0][2] * c.m[2][0];
  double scale = 0;
  for (const auto& row : a)
    for (double v : row) scale = std::max(scale, std::fabs(v));
  // Relative to the largest entry cubed: a body must have extent in every direction.
  if (!(std::fabs(det) > 1e-12 * scale * scale * scale)) {
    throw std::domain_error("the inertia tensor is singular (a body of particles in one line?)");
  }
  for (auto& row : c.m)
    for (double& v : row) v /= det;
  return c;
}

MassProperties massProperties(const std::vector<Vec3d>& positions, double particleMass, double dp) {
  MassProperties p;
  const double n = double(positions.size());
  p.mass = particleMass * n;
  for (const Vec3d& x : positions) p.center = p.center + x;
  p.center = (1.0 / n) * p.center;
  Mat3& I = p.inertia;
  for (const Vec3d& x : positions) {
    const Vec3d r = x - p.center;
    const double r2 = dot(r, r);
    const double c[3] = {r.x, r.y, r.z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) I.m[i][j] += particleMass * ((i == j ? r2 : 0) - c[i] * c[j]);
  }
  // Each particle's own extent: a cube of side dp has m dp^2 / 6 about each axis.
  for (int i = 0; i < 3; ++i) I.m[i][i] += p.mass * dp * dp / 6;
  return p;
}

Mat3 rotationFromOmega(const Vec3d& omega, double dt) {
  const double w = std::sqrt(dot(omega, omega));
  const double angle = w * dt;
  if (angle == 0) return Mat3::identity();
  const Vec3d k = (1 / w) * omega;
  const double c = std::cos(angle), s = std::sin(angle), v = 1 - c;
  Mat3 r;
  r.m[0][0] = c + k.x * k.x * v;
  r.m[0][1] = k.x * k.y * v - k.z * s;
  r.m[0][2] = k.x * k.z * v + k.y * s;
  r.m[1][0] = k.y * k.x * v + k.z * s;
  r.m[1][1] = c + k.y * k.y * v;
  r.m[1][2] = k.y * k.z * v - k.x * s;
  r.m[2][0] = k.z * k.x * v - k.y * s;
  r.m[2][1] = k.z * k.y * v + k.x * s;
  r.m[2][2] = c + k.z * k.z * v;
  return r;
}

StepMotion advance(BodyState& b, const Vec3d& force, const Vec3d& torque, double dt) {
  StepMotion s;
  s.centerBefore = b.props.center;
  const Mat3& I = b.props.inertia;
  b.vel = b.vel + (dt / b.props.mass) * force;
  const Vec3d gyroscopic = cross(b.omega, I * b.omega);
  b.omega = b.omega + dt * (I.inverse() * (torque - gyroscopic));
  s.rotation = rotationFromOmega(b.omega, dt);
  b.props.center = b.props.center + dt * b.vel;
  b.props.inertia = s.rotation * I * s.rotation.transposed();
  s.centerAfter = b.props.center;
  s.vel = b.vel;
  s.omega = b.omega;
  return s;
}

}  // namespace sph::rigid
