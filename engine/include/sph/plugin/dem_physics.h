// DEM contact between two solid particles (DualSPHysics RigidAlgorithm=2, after Canelas et al.,
// "SPH-DCDEM model for arbitrary geometries in free surface solid-fluid flows", Comput. Phys.
// Commun. 202, 2016). Each particle of a floating body or a wall is a sphere of diameter dp; two
// of them touch when r < dp, with overlap delta = dp - r.
//
//  normal:      F_n = kn delta^(3/2) - gamma_n v_n            (Hertz, with a dashpot; F_n >= 0)
//               kn = 4/3 E* sqrt(R*),  R* = dp/4,  1/E* = (1-nu_a^2)/E_a + (1-nu_b^2)/E_b
//               gamma_n = -2 sqrt(5/6) beta sqrt(S_n m*),  S_n = dF/d(delta) = 2 E* sqrt(R* delta),
//               beta = ln e / sqrt(ln^2 e + pi^2)   (Tsuji et al. 1992; the damping of the
//               Hertz-Mindlin models of DEM codes), times f(e) = 1 + 0.2 x + 0.1 x^2, x = -ln e:
//               since F_n may not pull, the particles leave while the unclamped law would still
//               brake them, and the rebound is too fast for low e (e 0.5 gave 0.55, e 0.3 gave
//               0.40). f is a fit to the factors that restore e, found by bisection on the
//               impact equation (test_dem_physics.cpp): within 0.5% of them for 0.3 <= e <= 0.9.
//               The restitution then does not depend on the impact speed.
//  tangential:  F_t = -min(mu F_n, gamma_t |v_t|) v_t/|v_t|,  gamma_t = 2 sqrt(m* 2/7 S_n)
//               (a critically damped tangential dashpot of stiffness 2/7 of the normal one,
//               DualSPHysics' ratio, capped by Coulomb friction)
// e and mu of a pair are the means of the two materials' values. v_n = (v_a - v_b).n with
// n = (r_a - r_b)/r (negative while approaching), v_t the rest of v_a - v_b.
//
// m* is the reduced mass of the pair. A rigid body touching a wall with N particles at once acts
// on N parallel contacts, so the engine passes each body's mass divided by its number of
// contacts (physics/floating_body_physics.h); with the particle mass instead, a flat face would bounce back
// much higher than e says.
//
// The contact also gives a rate (1/s) for the time step: the larger of the contact's angular
// frequency sqrt(S_n/m*) and 2 pi over the Hertz impact duration
// t_c = 2.87 (m*^2 / (R* E*^2 |v_n|))^(1/5) (Johnson, Contact Mechanics, 1985, eq. 11.24), so a
// time step of CFL / rate resolves an impact in about 30 steps (CFL 0.2): with 15, the
// symplectic step lost ~10% of the rebound speed of a block dropped on the floor.
#pragma once

#include <cmath>

#include "sph/plugin/hd.h"

namespace sph {

// A material as the contact needs it.
template <typename T>
struct DemMaterial {
  T tau = 0;          // (1 - nu^2) / E, 1/Pa
  T restitution = 1;  // coefficient of restitution e, 0 < e <= 1
  T friction = 0;     // Coulomb friction coefficient mu (DualSPHysics' Kfric)
};

template <typename T>
struct DemContact {
  T fx = 0, fy = 0, fz = 0;  // force on particle a, N
  T rate = 0;                // 1/s, for the time step
  bool touching = false;
};

// 2 pi over the Hertz impact duration of a contact closing at `speed` (0 for speed 0).
template <typename T>
SPH_HD inline T demImpactRate(T speed, T dp, T massEff, const DemMaterial<T>& a, const DemMaterial<T>& b) {
  if (!(speed > T(0))) return T(0);
  const T eStar = T(1) / (a.tau + b.tau);
  const T rStar = T(0.25) * dp;
  const T tc = T(2.87) * std::pow(massEff * massEff / (rStar * eStar * eStar * speed), T(0.2));
  return T(2 * M_PI) / tc;
}

// Contact force on a from b. (dx, dy, dz) = r_a - r_b, r its length, (dvx, dvy, dvz) = v_a - v_b.
// massEff: the reduced mass m* (kg).
template <typename T>
SPH_HD inline DemContact<T> demContact(T dx, T dy, T dz, T r, T dvx, T dvy, T dvz, T dp, T massEff,
                                       const DemMaterial<T>& a, const DemMaterial<T>& b) {
  DemContact<T> out;
  const T overlap = dp - r;
  if (!(overlap > T(0)) || !(r > T(0))) return out;
  out.touching = true;
  const T invR = T(1) / r;
  const T nx = dx * invR, ny = dy * invR, nz = dz * invR;
  const T vn = dvx * nx + dvy * ny + dvz * nz;
  const T eStar = T(1) / (a.tau + b.tau);
  const T rStar = T(0.25) * dp;
  const T sqrtRStar = std::sqrt(rStar);
  const T kn = T(4) / T(3) * eStar * sqrtRStar;
  const T sqrtOverlap = std::sqrt(overlap);
  const T sn = T(2) * eStar * sqrtRStar * sqrtOverlap;

  const T e = T(0.5) * (a.restitution + b.restitution);
  const T logE = std::log(e);
  const T beta = logE / std::sqrt(logE * logE + T(M_PI * M_PI));
  const T x = -logE;
  const T clampFix = T(1) + x * (T(0.2) + T(0.1) * x);
  const T gammaN = T(-2) * std::sqrt(T(5) / T(6)) * beta * clampFix * std::sqrt(sn * massEff);
  T fn = kn * overlap * sqrtOverlap - gammaN * vn;
  if (fn < T(0)) fn = T(0);  // contacts push, never pull

  const T tx = dvx - vn * nx, ty = dvy - vn * ny, tz = dvz - vn * nz;
  const T vt = std::sqrt(tx * tx + ty * ty + tz * tz);
  T ftx = 0, fty = 0, ftz = 0;
  if (vt > T(0)) {
    const T mu = T(0.5) * (a.friction + b.friction);
    const T gammaT = T(2) * std::sqrt(massEff * (T(2) / T(7)) * sn);
    const T viscous = gammaT * vt, coulomb = mu * fn;
    const T ft = viscous < coulomb ? viscous : coulomb;
    const T s = -ft / vt;
    ftx = s * tx;
    fty = s * ty;
    ftz = s * tz;
  }
  out.fx = fn * nx + ftx;
  out.fy = fn * ny + fty;
  out.fz = fn * nz + ftz;

  const T omega = std::sqrt(sn / massEff);
  const T impactRate = demImpactRate(vn < T(0) ? -vn : vn, dp, massEff, a, b);
  out.rate = omega > impactRate ? omega : impactRate;
  return out;
}

// DualSPHysics 5.4's own contact (its InteractionForcesDEM), which the engine uses with
// FloatingMotion::DualSPHysics (physics/floating_body_physics.h): for particle a of a body and b, a wall
// particle or one of another body, within the kernel's support, with n = (r_a - r_b)/r,
// v_n = (v_a - v_b).n and the reduced mass m* (half a's body's mass against a wall, else
// m_A m_B/(m_A + m_B) of the two bodies):
//   kn = 4/(3 (tau_a + tau_b)) sqrt(dp/4)
//   rate = 0.2 / (3.21 (m*/kn)^0.4 |v_n|^-0.2 / 40)    (for the time step; 0 when v_n = 0)
// and, touching (overlap delta = dp - r > 0), with e and mu the means of the two materials':
//   gamma_n = -2 ln(e) sqrt(m* kn) / sqrt(pi + ln(e)^2)
//   F_n = kn delta^1.5 - gamma_n delta^0.25 v_n                      (not clamped)
//   F_t = min(mu F_n tanh(8 |v_t|), (kn dtDem - gamma_n) |v_t| / 3.5) along v_t = the rest of
//         v_a - v_b, dtDem the step of the force pass (DualSPHysics' DemDtForce)
// as DualSPHysics writes them: the pi without its square, and F_t applied along v_t itself, so
// that it opposes the sliding only when negative (kn dtDem < gamma_n). The particle's
// acceleration is the force over its pair mass m_f.
template <typename T>
struct DemContactDualSPHysics {
  T ax = 0, ay = 0, az = 0;  // acceleration of a, m/s^2
  T rate = 0;                // 1/s, for the time step when the particle is touched
  bool touching = false;
};

template <typename T>
SPH_HD inline DemContactDualSPHysics<T> demContactDualSPHysics(T dx, T dy, T dz, T r, T dvx, T dvy, T dvz, T dp,
                                                               T massEff, T pairMass, T dtDem,
                                                               const DemMaterial<T>& a, const DemMaterial<T>& b) {
  DemContactDualSPHysics<T> out;
  if (!(r > T(0))) return out;
  const T kn = T(4) / (T(3) * (a.tau + b.tau)) * std::sqrt(T(0.25) * dp);
  const T invR = T(1) / r;
  const T nx = dx * invR, ny = dy * invR, nz = dz * invR;
  const T vn = dvx * nx + dvy * ny + dvz * nz;
  const T absVn = vn < T(0) ? -vn : vn;
  if (absVn > T(0))
    out.rate = T(0.2) / (T(3.21) * (std::pow(massEff / kn, T(0.4)) * std::pow(absVn, T(-0.2))) / T(40));
  // Lattice neighbours start exactly dp apart, and whether they touch is then decided by the
  // rounding of their positions: DualSPHysics, whose overlap is a float difference, finds them
  // apart. So do overlaps below 1e-6 dp here (in either precision); their force would be ~1e-9
  // of a contact's.
  const T overlap = dp - r;
  if (!(overlap > T(1e-6) * dp)) return out;
  out.touching = true;
  const T e = T(0.5) * (a.restitution + b.restitution);
  const T logE = std::log(e);
  const T gn = -(T(2) * logE * std::sqrt(massEff * kn)) / std::sqrt(T(M_PI) + logE * logE);
  const T fn = kn * std::pow(overlap, T(1.5)) - gn * std::pow(overlap, T(0.25)) * vn;
  const T inv = T(1) / pairMass;
  out.ax = fn * inv * nx;
  out.ay = fn * inv * ny;
  out.az = fn * inv * nz;
  const T tx = dvx - vn * nx, ty = dvy - vn * ny, tz = dvz - vn * nz;
  const T vt = std::sqrt(tx * tx + ty * ty + tz * tz);
  if (vt > T(0)) {
    const T elastic = (kn * dtDem - gn) * vt / T(3.5);
    const T mu = T(0.5) * (a.friction + b.friction);
    T ft = mu * fn * std::tanh(vt * T(8));
    ft = ft < elastic ? ft : elastic;
    const T s = ft * inv / vt;
    out.ax += s * tx;
    out.ay += s * ty;
    out.az += s * tz;
  }
  return out;
}

}  // namespace sph
