// Rigid-body mechanics of a floating body (DualSPHysics RigidAlgorithm 1), in double precision on
// the host: mass properties from the body's particles, and one time step from the force and
// torque that the fluid (and, with DEM, contacts) exert on it. The particles then follow the body:
// each moves with the body's velocity plus omega x r (the rigid-body equations of DualSPHysics'
// floating objects, as described by Canelas et al., "SPH-DCDEM model for arbitrary geometries in
// free surface solid-fluid flows", Comput. Phys. Commun. 202, 2016).
#pragma once

#include <cmath>
#include <vector>

#include "sph/vec3d.h"

namespace sph::rigid {

inline Vec3d operator+(const Vec3d& a, const Vec3d& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3d operator-(const Vec3d& a, const Vec3d& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3d operator*(double s, const Vec3d& a) { return {s * a.x, s * a.y, s * a.z}; }
inline double dot(const Vec3d& a, const Vec3d& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

// Row-major 3x3 matrix.
struct Mat3 {
  double m[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
  static Mat3 identity() {
    Mat3 r;
    r.m[0][0] = r.m[1][1] = r.m[2][2] = 1;
    return r;
  }
  Vec3d operator*(const Vec3d& v) const {
    return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
            m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
  }
  Mat3 operator*(const Mat3& b) const;
  Mat3 transposed() const;
  // Inverse of a symmetric positive-definite matrix (an inertia tensor); throws
  // std::domain_error when it is singular.
  Mat3 inverse() const;
};

struct MassProperties {
  double mass = 0;
  Vec3d center;
  Mat3 inertia;  // about the centre, world axes
};

// The body as n particles of mass `particleMass`, each a cube of side dp (dim 3) or square
// (dim 2): the point-mass sum plus each particle's own m dp^2/6 about every axis, so a body of
// n^3 lattice particles has exactly the inertia of the solid cube of side n dp.
MassProperties massProperties(const std::vector<Vec3d>& positions, double particleMass, double dp);

// The state DualSPHysics keeps per floating body.
struct BodyState {
  MassProperties props;  // inertia rotates with the body
  Vec3d vel, omega;
};

// The rigid motion of one step: particles at x move to center' + R (x - center) and take the
// velocity vel' + omega' x (x' - center').
struct StepMotion {
  Vec3d centerBefore, centerAfter;
  Mat3 rotation;
  Vec3d vel, omega;
  Vec3d apply(const Vec3d& x) const { return centerAfter + rotation * (x - centerBefore); }
  Vec3d velocityAt(const Vec3d& xAfter) const { return vel + cross(omega, xAfter - centerAfter); }
};

// Rotation by the angle |w| dt about w (Rodrigues' formula).
Mat3 rotationFromOmega(const Vec3d& omega, double dt);

// Advances the body by dt under `force` (gravity included) and `torque` about its centre:
// v += F/m dt, omega += I^-1 (T - omega x I omega) dt (Euler's equations in world axes), then the
// centre moves with the new velocity and the inertia rotates with the body.
StepMotion advance(BodyState& b, const Vec3d& force, const Vec3d& torque, double dt);

}  // namespace sph::rigid
