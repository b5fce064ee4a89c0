// Rigid-body motion of floating bodies (DualSPHysics RigidAlgorithm 1 and 2), shared by the CPU
// loops and the CUDA kernels of floating/floating_ops.h. All in double precision. Two sets of rules
// (FloatingMotion, XML parameter FloatingMotion):
//
// DualSPHysics (the default): DualSPHysics 5.4's own step (its FtComputeAceVel and
// FtPartsUpdate), so that the same particles give its trajectories. After each force pass the
// body's sums over its particles, with the arms d_p = r_p - c taken at the start of the step:
//   F = m_f sum_p a_p + M g,   T = m_f sum_p d_p x a_p,   I = R I0 R^T
// (a_p without gravity, m_f = rho0 dp^d; I0 the inertia GenCase computes, sum_p m_p (|d_p|^2 1 -
// d_p d_p^T) with m_p = M/N at the start; R the rotation of the angles the body has turned by
// about x, y and z, summed step by step, applied x then y then z). Then, from the committed state:
//   c' = c + dt v,  v' = v + dt F/M,  omega' = omega + dt I^-1 T
// and each particle moves by its own velocity at the start of the step and takes the body's new
// one: r' = r + dt v_p,  v_p' = v' + omega' x (r' - c'). The symplectic predictor takes dt/2 and
// keeps nothing; the corrector takes the whole dt from the same start with the forces at the
// half step. It is first order, and the rotation is linearised (a spinning body swells by
// (omega dt)^2/2 of its size per step), but it is DualSPHysics'.
//
// Rigid: a second-order rigid motion. The same forces and torque, but the inertia recomputed
// from the particles every step, I = m_p sum_p (|d_p|^2 1 - d_p d_p^T) + N m_p dp^2/6 1 (each
// particle's own inertia too), and the body advances by dt:
//   omega' = omega + dt I^-1 T,  v' = v + dt F/M,  c' = c + dt v*,  rotation by omega* dt
// and every particle follows rigidly: r' = c' + R(omega* dt)(r - c), v_p = v' + omega' x (r' - c'),
// R the rotation by the angle |omega*| dt about omega* (Rodrigues). v* and omega* depend on the
// integrator (BodyStep):
//   Euler (the Verlet integrator): v* = v', semi-implicit Euler;
//   Predictor (symplectic, dt/2 from t^n, not kept): v* = v, as the fluid's x + dt/2 v;
//   Corrector (symplectic, dt from t^n with the forces at t^{n+1/2}, kept): v* = (v + v')/2,
//   as the fluid's x + dt (v + v')/2.
// The corrector's trapezoid makes the body's step second order like the fluid's. With v* = v'
// a DEM block dropped on the floor lost a quarter of its rebound energy to the integration alone
// (e 0.5 came back as 0.43, test_floating_validation).
//
// In 2D (x-z plane) the body moves in x and z and turns about y only.
// During FtPause the bodies are held: no motion (the rigid rules zero their velocities, DualSPHysics'
// keep them and their particles').
#pragma once

#include <cmath>
#include <cstdint>

#include "physics/position_split.h"
#include "sph/plugin/hd.h"
#include "sph/plugin/periodic.h"
#include "sph/plugin/real4.h"

namespace sph {

// The rules of the top of this file.
enum class FloatingMotion : uint8_t { DualSPHysics, Rigid };

struct FloatingBody {
  double center[3];         // at t^n (committed)
  double vel[3], omega[3];  // at t^n
  double mass;              // M, kg
  double particleMass;      // m_p = M / count, for the inertia
  double pairMass;          // m_f = rho0 dp^d, the particle's mass in the pair terms (floating_table.h)
  double ownInertia;        // Rigid: count m_p dp^2/6, each particle's own inertia about its centre
  double inertia0[6];       // DualSPHysics: I0 (xx, yy, zz, xy, xz, yz), GenCase's, at the start
  double angles[3];         // DualSPHysics: sum of omega dt about x, y, z (committed)
  uint32_t first, count;    // its particles' slots: ids idFirst + [first, first + count)
};

// What one force pass gave a body (sums over its particles).
struct BodySums {
  double ace[3] = {0, 0, 0};      // sum of a_p
  double torque[3] = {0, 0, 0};   // sum of d_p x a_p
  double inertia[6] = {0, 0, 0, 0, 0, 0};  // sum of |d|^2 - d d^T: xx, yy, zz, xy, xz, yz
  uint32_t contacts = 0;          // DEM contacts
};

// What the case imposes on a body besides the fluid (DualSPHysics' <linearvel>, <angularvel>,
// <linearforce>, <angularforce>, <translationDOF>, <rotationDOF>), at the step's start time. As
// DualSPHysics (FtComputeAceVel): the external force and torque join the fluid's; the new
// velocities then take the imposed components; then the restricted ones are zero.
struct BodyDrive {
  double vel[3], omega[3];     // imposed, world axes (the components of setVel, setOmega)
  double force[3], torque[3];  // external, N and N m, world axes
  uint8_t setVel = 0, setOmega = 0;  // bit k: component k is imposed
  uint8_t fixedMove = 0;       // bit k: no translation along axis k
  uint8_t fixedTurn = 0;       // bit k: no rotation about axis k
};

// The imposed components, then the restrictions, on a body's new velocities.
SPH_HD inline void applyBodyDrive(const BodyDrive& d, double vel[3], double omega[3]) {
  for (int k = 0; k < 3; ++k) {
    if (d.setVel & (1u << k)) vel[k] = d.vel[k];
    if (d.setOmega & (1u << k)) omega[k] = d.omega[k];
    if (d.fixedMove & (1u << k)) vel[k] = 0;
    if (d.fixedTurn & (1u << k)) omega[k] = 0;
  }
}

// How advanceBody() steps a body (see the top of this file).
enum class BodyStep : uint8_t { Euler, Predictor, Corrector };

SPH_HD inline double bodyStepFraction(BodyStep k) { return k == BodyStep::Predictor ? 0.5 : 1.0; }

// The rigid motion of one body over the step (or half step).
struct BodyMotion {
  double from[3];  // the centre the particles' source positions are about (c at t^n)
  double to[3];    // c'
  double rot[9];   // Rigid: R, row-major
  double vel[3], omega[3];
  double dt;       // DualSPHysics: the (half) step the particles move by their own velocity
};

SPH_HD inline void addToBodySums(BodySums& s, double dx, double dy, double dz, double ax, double ay, double az,
                                 uint32_t contacts) {
  s.ace[0] += ax;
  s.ace[1] += ay;
  s.ace[2] += az;
  s.torque[0] += dy * az - dz * ay;
  s.torque[1] += dz * ax - dx * az;
  s.torque[2] += dx * ay - dy * ax;
  s.inertia[0] += dy * dy + dz * dz;
  s.inertia[1] += dx * dx + dz * dz;
  s.inertia[2] += dx * dx + dy * dy;
  s.inertia[3] -= dx * dy;
  s.inertia[4] -= dx * dz;
  s.inertia[5] -= dy * dz;
  s.contacts += contacts;
}

SPH_HD inline void mergeBodySums(BodySums& s, const BodySums& o) {
  for (int k = 0; k < 3; ++k) {
    s.ace[k] += o.ace[k];
    s.torque[k] += o.torque[k];
  }
  for (int k = 0; k < 6; ++k) s.inertia[k] += o.inertia[k];
  s.contacts += o.contacts;
}

// r - c along the periodic axes' minimum image, in double.
template <typename T>
SPH_HD inline void offsetFromCenter(const double r[3], const double c[3], const PeriodicBox<T>& box, double d[3]) {
  for (int k = 0; k < 3; ++k) {
    d[k] = r[k] - c[k];
    const double L = double(box.length[k]);
    if (L > 0) d[k] -= L * floor(d[k] / L + 0.5);
  }
}
template <typename T>
SPH_HD inline void offsetFromCenter(const Real4<T>& r, const double c[3], const PeriodicBox<T>& box, double d[3]) {
  const double x[3] = {double(r.x), double(r.y), double(r.z)};
  offsetFromCenter(x, c, box, d);
}

// Rodrigues: rotation by |w| dt about w.
SPH_HD inline void rotationFromOmega(const double w[3], double dt, double r[9]) {
  const double wl = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
  const double angle = wl * dt;
  if (!(angle > 0)) {
    for (int k = 0; k < 9; ++k) r[k] = (k % 4 == 0) ? 1.0 : 0.0;
    return;
  }
  const double x = w[0] / wl, y = w[1] / wl, z = w[2] / wl;
  const double s = sin(angle), c = cos(angle), t = 1 - c;
  r[0] = c + x * x * t;
  r[1] = x * y * t - z * s;
  r[2] = x * z * t + y * s;
  r[3] = y * x * t + z * s;
  r[4] = c + y * y * t;
  r[5] = y * z * t - x * s;
  r[6] = z * x * t - y * s;
  r[7] = z * y * t + x * s;
  r[8] = c + z * z * t;
}

// x = I^-1 t for the symmetric inertia I (xx, yy, zz, xy, xz, yz); zero when I is singular.
SPH_HD inline void solveInertia(const double I[6], const double t[3], double x[3]) {
  const double a = I[0], b = I[3], c = I[4], d = I[1], e = I[5], f = I[2];
  const double c00 = d * f - e * e, c01 = c * e - b * f, c02 = b * e - c * d;
  const double det = a * c00 + b * c01 + c * c02;
  if (!(fabs(det) > 0)) {
    x[0] = x[1] = x[2] = 0;
    return;
  }
  const double c11 = a * f - c * c, c12 = b * c - a * e, c22 = a * d - b * b;
  x[0] = (c00 * t[0] + c01 * t[1] + c02 * t[2]) / det;
  x[1] = (c01 * t[0] + c11 * t[1] + c12 * t[2]) / det;
  x[2] = (c02 * t[0] + c12 * t[1] + c22 * t[2]) / det;
}

// One step of dt (the whole step; the predictor takes half of it) for body b from its committed
// state; the corrector and Euler steps store the new state.
SPH_HD inline BodyMotion advanceBody(FloatingBody& b, const BodySums& s, double stepDt, const double gravity[3],
                                     int dim, bool paused, BodyStep kind, const BodyDrive* drive = nullptr) {
  BodyMotion m;
  const double dt = stepDt * bodyStepFraction(kind);
  const bool commit = kind != BodyStep::Predictor;
  // Weight of the new velocity in the one that moves the body (v* above).
  const double wNew = kind == BodyStep::Euler ? 1.0 : kind == BodyStep::Corrector ? 0.5 : 0.0;
  const double mp = b.particleMass;
  double vel[3], omega[3];
  if (paused) {
    for (int k = 0; k < 3; ++k) vel[k] = omega[k] = 0;
  } else {
    const double mf = b.pairMass;
    double torque[3] = {mf * s.torque[0], mf * s.torque[1], mf * s.torque[2]};
    double force[3] = {0, 0, 0};
    if (drive)
      for (int k = 0; k < 3; ++k) {
        torque[k] += drive->torque[k];
        force[k] = drive->force[k];
      }
    double alpha[3] = {0, 0, 0};
    if (dim == 2) {
      const double iyy = mp * s.inertia[1] + b.ownInertia;
      alpha[1] = iyy > 0 ? torque[1] / iyy : 0;
    } else {
      double I[6];
      for (int k = 0; k < 6; ++k) I[k] = mp * s.inertia[k] + (k < 3 ? b.ownInertia : 0.0);
      solveInertia(I, torque, alpha);
    }
    for (int k = 0; k < 3; ++k) {
      omega[k] = b.omega[k] + dt * alpha[k];
      vel[k] = b.vel[k] + dt * (mf * s.ace[k] + force[k] + b.mass * gravity[k]) / b.mass;
    }
    if (dim == 2) {
      vel[1] = 0;
      omega[0] = omega[2] = 0;
    }
    if (drive) applyBodyDrive(*drive, vel, omega);
  }
  double velMove[3], omegaMove[3];
  for (int k = 0; k < 3; ++k) {
    // Held bodies do not move at all (their committed velocity may be from before FtPause).
    velMove[k] = paused ? 0.0 : wNew * vel[k] + (1 - wNew) * b.vel[k];
    omegaMove[k] = paused ? 0.0 : wNew * omega[k] + (1 - wNew) * b.omega[k];
    m.from[k] = b.center[k];
    m.to[k] = b.center[k] + dt * velMove[k];
    m.vel[k] = vel[k];
    m.omega[k] = omega[k];
  }
  rotationFromOmega(omegaMove, dt, m.rot);
  if (commit) {
    for (int k = 0; k < 3; ++k) {
      b.center[k] = m.to[k];
      b.vel[k] = vel[k];
      b.omega[k] = omega[k];
    }
  }
  return m;
}

// R = Rx(a.x) Ry(a.y) Rz(a.z), row-major: the rotation of a body that has turned by the angles a
// (DualSPHysics' RotMatrix3x3).
SPH_HD inline void rotationFromAngles(const double a[3], double r[9]) {
  const double cx = cos(a[0]), cy = cos(a[1]), cz = cos(a[2]);
  const double sx = sin(a[0]), sy = sin(a[1]), sz = sin(a[2]);
  r[0] = cy * cz;
  r[1] = -cy * sz;
  r[2] = sy;
  r[3] = sx * sy * cz + cx * sz;
  r[4] = -sx * sy * sz + cx * cz;
  r[5] = -sx * cy;
  r[6] = -cx * sy * cz + sx * sz;
  r[7] = cx * sy * sz + sx * cz;
  r[8] = cx * cy;
}

// R I R^T for the symmetric I (xx, yy, zz, xy, xz, yz).
SPH_HD inline void rotateInertia(const double r[9], const double I[6], double out[6]) {
  const double m[9] = {I[0], I[3], I[4], I[3], I[1], I[5], I[4], I[5], I[2]};
  double rm[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) rm[3 * i + j] = r[3 * i] * m[j] + r[3 * i + 1] * m[3 + j] + r[3 * i + 2] * m[6 + j];
  auto at = [&](int i, int j) { return rm[3 * i] * r[3 * j] + rm[3 * i + 1] * r[3 * j + 1] + rm[3 * i + 2] * r[3 * j + 2]; };
  out[0] = at(0, 0);
  out[1] = at(1, 1);
  out[2] = at(2, 2);
  out[3] = at(0, 1);
  out[4] = at(0, 2);
  out[5] = at(1, 2);
}

// FloatingMotion::DualSPHysics: one step of dt (the predictor takes half of it) for body b from
// its committed state (see the top of this file); the corrector and Euler steps store the new
// state. A held body (FtPause) keeps its state and its particles keep theirs (m.dt = 0).
SPH_HD inline BodyMotion advanceBodyDualSPHysics(FloatingBody& b, const BodySums& s, double stepDt,
                                                 const double gravity[3], int dim, bool paused, BodyStep kind,
                                                 const BodyDrive* drive = nullptr) {
  BodyMotion m;
  const double dt = paused ? 0.0 : stepDt * bodyStepFraction(kind);
  for (int k = 0; k < 9; ++k) m.rot[k] = (k % 4 == 0) ? 1.0 : 0.0;
  m.dt = dt;
  if (paused) {
    for (int k = 0; k < 3; ++k) {
      m.from[k] = m.to[k] = b.center[k];
      m.vel[k] = b.vel[k];
      m.omega[k] = b.omega[k];
    }
    return m;
  }
  const double mf = b.pairMass;
  double torque[3] = {mf * s.torque[0], mf * s.torque[1], mf * s.torque[2]};
  double force[3] = {0, 0, 0};
  if (drive)
    for (int k = 0; k < 3; ++k) {
      torque[k] += drive->torque[k];
      force[k] = drive->force[k];
    }
  double rot[9], inertia[6], alpha[3];
  rotationFromAngles(b.angles, rot);
  rotateInertia(rot, b.inertia0, inertia);
  solveInertia(inertia, torque, alpha);
  for (int k = 0; k < 3; ++k) {
    m.from[k] = b.center[k];
    m.to[k] = b.center[k] + dt * b.vel[k];
    m.vel[k] = b.vel[k] + dt * (mf * s.ace[k] + force[k] + b.mass * gravity[k]) / b.mass;
    m.omega[k] = b.omega[k] + dt * alpha[k];
  }
  if (dim == 2) {
    m.vel[1] = 0;
    m.omega[0] = m.omega[2] = 0;
  }
  if (drive) applyBodyDrive(*drive, m.vel, m.omega);
  if (kind != BodyStep::Predictor) {
    for (int k = 0; k < 3; ++k) {
      b.center[k] = m.to[k];
      b.vel[k] = m.vel[k];
      b.omega[k] = m.omega[k];
      b.angles[k] += m.omega[k] * dt;
    }
  }
  return m;
}

// FloatingMotion::DualSPHysics: particle i of a body from its place src and velocity srcVel at
// the start of the step: r' = src + dt v_src, v' = v_body + omega x (r' - c'). Pressure and
// density stay (the integrator's). Single precision (physics/position_split.h): srcLo is the remainder
// of src, and the new one goes to lo (null: the symplectic predictor, which writes pos alone).
template <typename T>
SPH_HD inline void moveFloatingParticleLinear(const Real4<T>& src, const Real4<T>& srcVel, const BodyMotion& m,
                                              const PeriodicBox<T>& box, Real4<T>& pos, Real4<T>& velrho,
                                              const Real4<T>* srcLo = nullptr, Real4<T>* lo = nullptr) {
  if (!(m.dt > 0)) {  // held
    pos = Real4<T>{src.x, src.y, src.z, pos.w};
    if (lo && srcLo) *lo = *srcLo;
    velrho = Real4<T>{srcVel.x, srcVel.y, srcVel.z, velrho.w};
    return;
  }
  double x[3];
  loadPosition(src, srcLo, x);
  for (int k = 0; k < 3; ++k) x[k] += m.dt * double(k == 0 ? srcVel.x : k == 1 ? srcVel.y : srcVel.z);
  double d[3];
  for (int k = 0; k < 3; ++k) {
    d[k] = x[k] - m.to[k];
    const double L = double(box.length[k]), start = double(box.min[k]);
    if (L > 0) {
      d[k] -= L * floor(d[k] / L + 0.5);
      x[k] -= L * floor((x[k] - start) / L);
    }
  }
  storePosition(pos, lo, x);
  velrho.x = T(m.vel[0] + m.omega[1] * d[2] - m.omega[2] * d[1]);
  velrho.y = T(m.vel[1] + m.omega[2] * d[0] - m.omega[0] * d[2]);
  velrho.z = T(m.vel[2] + m.omega[0] * d[1] - m.omega[1] * d[0]);
}

// Particle i of a body: from source position src (about m.from) to its new place and velocity.
// The pressure (pos.w) and density (velrho.w) are the integrator's and stay. srcLo and lo as in
// moveFloatingParticleLinear.
template <typename T>
SPH_HD inline void moveFloatingParticle(const Real4<T>& src, const BodyMotion& m, const PeriodicBox<T>& box,
                                        Real4<T>& pos, Real4<T>& velrho, const Real4<T>* srcLo = nullptr,
                                        Real4<T>* lo = nullptr) {
  double xs[3], d[3];
  loadPosition(src, srcLo, xs);
  offsetFromCenter(xs, m.from, box, d);
  const double rd[3] = {m.rot[0] * d[0] + m.rot[1] * d[1] + m.rot[2] * d[2],
                        m.rot[3] * d[0] + m.rot[4] * d[1] + m.rot[5] * d[2],
                        m.rot[6] * d[0] + m.rot[7] * d[1] + m.rot[8] * d[2]};
  // The centre is not wrapped (floating.csv shows the travelled path): wrap the particle by
  // whole periods, in double, into [min, min + L).
  double x[3];
  for (int k = 0; k < 3; ++k) {
    x[k] = m.to[k] + rd[k];
    const double L = double(box.length[k]), start = double(box.min[k]);
    if (L > 0) x[k] -= L * floor((x[k] - start) / L);
  }
  storePosition(pos, lo, x);
  velrho.x = T(m.vel[0] + m.omega[1] * rd[2] - m.omega[2] * rd[1]);
  velrho.y = T(m.vel[1] + m.omega[2] * rd[0] - m.omega[0] * rd[2]);
  velrho.z = T(m.vel[2] + m.omega[0] * rd[1] - m.omega[1] * rd[0]);
}

}  // namespace sph
