// Per-particle time integration, header-only for the CPU loops and the CUDA kernels.
// DualSPHysics schemes (Crespo et al. 2015, section 2.5):
//  * Verlet (StepAlgorithm=1): v^{n+1} = v^{n-1} + 2 dt a^n, rho likewise,
//    r^{n+1} = r^n + dt v^n + dt^2/2 a^n; every VerletSteps steps an Euler step
//    (v^{n+1} = v^n + dt a^n, rho likewise) decouples the two leap-frog sequences.
//  * Symplectic (StepAlgorithm=2): predictor to n+1/2 with the rates at n, corrector with the
//    rates at n+1/2; density rho^{n+1} = rho^n (2 - eps)/(2 + eps), eps = -(drho/rho)^{n+1/2} dt.
// With particle shifting the Verlet steps and the corrector add the shift (physics/shifting_physics.h)
// to the displacement.
// DBC boundary particles keep their positions; their density is integrated like the fluid's
// and never drops below rho0 (DualSPHysics does this so walls do not suck fluid in); mDBC2
// walls keep the density of their correction. Particles
// of floating bodies are treated the same way here; the rigid-body step moves them afterwards
// (physics/floating_body_physics.h).
// In/out buffer particles (code::kInOutBit, physics/inout_physics.h) keep the velocity and density
// their zone imposed and only move with that velocity, as DualSPHysics' integrators restore them
// ("Restore data of inout particles"); they are never excluded for their density.
// Single-precision runs keep each position's rounding remainder in posLo (physics/position_split.h):
// the steps that end a step (Verlet, corrector) move pos + posLo in double and write both; the
// symplectic predictor writes its half-step position to pos alone, so that posLo stays the
// start's for the corrector, which starts again from posPre + posLo.
// Every step also leaves in pos.w the Tait pressure of the new density, which the next force
// pass reads (no separate pressure pass; the engine computes it once at the start).
// Periodic axes: the integrators leave positions unwrapped; the engine's periodic pass
// (wrapPeriodicParticle, timed as SU-Periodic) puts particles that left through one side back in
// through the other before anything else reads them. The exclusion limits of a periodic axis
// are open.
#pragma once

#include <cstdint>

#include "physics/position_split.h"
#include "physics/shifting_physics.h"
#include "sph/plugin/hd.h"
#include "sph/plugin/pair_physics.h"  // taitPressure
#include "sph/plugin/particle_code.h"
#include "sph/plugin/periodic.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/real4.h"

namespace sph {

// Arrays an integrator step touches (all of size n; boundary particles are [0, nBound)).
template <typename T>
struct IntegratorArrays {
  Real4<T>* pos;        // r^n on entry, r^{n+1} on exit
  Real4<T>* velrho;     // (v, rho)^n on entry, ^{n+1} on exit
  Real4<T>* velrhoPre;  // Verlet: (v, rho)^{n-1}; Symplectic: (v, rho)^n saved by the predictor
  Real4<T>* posPre;     // Symplectic only: r^n saved by the predictor
  const Real4<T>* ace;  // acceleration (no gravity) and drho/dt
  uint32_t n, nBound;
  const uint32_t* code = nullptr;  // code words (may be null: then no particle is floating or parked)
  // Shifting sums of the force pass (physics/shifting_physics.h), in the passes that shift: the Verlet
  // steps and the symplectic corrector. Null: no shift.
  const Real4<T>* shift = nullptr;
  // Rounding remainders of pos (physics/position_split.h): single-precision runs; null in double.
  Real4<T>* posLo = nullptr;
};

// Particles whose position the integrator leaves alone: DBC boundaries, floating bodies, parked
// (excluded, awaiting compaction) particles and another rank's halo copies (never excluded here).
template <typename T>
SPH_HD SPH_FORCEINLINE bool heldByIntegrator(uint32_t i, const IntegratorArrays<T>& a) {
  return i < a.nBound || (a.code && (a.code[i] & (code::kFloatingBit | code::kParkedBit | code::kHaloBit)) != 0);
}

// An mDBC2 wall particle (code::kMdbc2Bit): its density is its correction's, which the
// integrators keep as DualSPHysics does (no continuity, no floor).
template <typename T>
SPH_HD SPH_FORCEINLINE bool keepsWallDensity(uint32_t i, const IntegratorArrays<T>& a) {
  return a.code && (a.code[i] & code::kMdbc2Bit) != 0;
}

template <typename T>
SPH_HD SPH_FORCEINLINE bool isInOutParticle(uint32_t i, const IntegratorArrays<T>& a) {
  return a.code && code::isInOut(a.code[i]);
}

// Moves in/out particle i from `from` (position and its remainder) by `dt` times velocity v,
// with the pressure of v's density.
template <typename T>
SPH_HD SPH_FORCEINLINE void moveInOutParticle(uint32_t i, const IntegratorArrays<T>& a, const Real4<T>& from,
                                              const Real4<T>* fromLo, Real4<T>* toLo, const Real4<T>& v, T dt,
                                              const PhysicsConstants<T>& c) {
  Real4<T> p = from;
  double x[3];
  loadPosition(p, fromLo, x);
  x[0] += double(v.x * dt);
  x[1] += double(v.y * dt);
  x[2] += double(v.z * dt);
  storePosition(p, toLo, x);
  p.w = taitPressure(v.w, c);
  a.pos[i] = p;
}

template <typename T>
SPH_HD SPH_FORCEINLINE T clampBoundDensity(T rho, const PhysicsConstants<T>& c) {
  return rho < c.rho0 ? c.rho0 : rho;
}

template <typename T>
SPH_HD SPH_FORCEINLINE void verletStepParticle(uint32_t i, const IntegratorArrays<T>& a,
                                               const PhysicsConstants<T>& c, T dt, bool euler) {
  const Real4<T> cur = a.velrho[i];
  const Real4<T> old = a.velrhoPre[i];
  const Real4<T> f = a.ace[i];
  const T dtRate = euler ? dt : T(2) * dt;
  const Real4<T> base = euler ? cur : old;  // the value the rate is applied to
  if (heldByIntegrator(i, a)) {
    if (keepsWallDensity(i, a)) {  // DualSPHysics keeps the older value
      a.velrhoPre[i] = cur;
      a.velrho[i] = base;
      a.pos[i].w = taitPressure(base.w, c);
      return;
    }
    const T rho = clampBoundDensity(base.w + dtRate * f.w, c);
    a.velrhoPre[i] = cur;
    a.velrho[i] = Real4<T>{cur.x, cur.y, cur.z, rho};
    a.pos[i].w = taitPressure(rho, c);
    return;
  }
  if (isInOutParticle(i, a)) {
    Real4<T>* lo = positionLo(a.posLo, i);
    moveInOutParticle(i, a, a.pos[i], lo, lo, cur, dt, c);
    a.velrhoPre[i] = cur;
    a.velrho[i] = cur;
    return;
  }
  const T ax = f.x + c.gx, ay = f.y + c.gy, az = f.z + c.gz;
  Real4<T> p = a.pos[i];
  Real4<T>* lo = positionLo(a.posLo, i);
  double x[3];
  loadPosition(p, lo, x);
  const T half = T(0.5) * dt * dt;
  x[0] += double(cur.x * dt + ax * half);
  x[1] += double(cur.y * dt + ay * half);
  x[2] += double(cur.z * dt + az * half);
  if (a.shift) {
    const ShiftDisplacement d = shiftDisplacement(a.shift[i], cur.x, cur.y, cur.z, double(dt), c);
    x[0] += d.x;
    x[1] += d.y;
    x[2] += d.z;
  }
  storePosition(p, lo, x);
  const T rho = base.w + f.w * dtRate;
  p.w = taitPressure(rho, c);
  a.pos[i] = p;
  a.velrhoPre[i] = cur;
  a.velrho[i] = Real4<T>{base.x + ax * dtRate, base.y + ay * dtRate, base.z + az * dtRate, rho};
}

template <typename T>
SPH_HD SPH_FORCEINLINE void symplecticPredictParticle(uint32_t i, const IntegratorArrays<T>& a,
                                                      const PhysicsConstants<T>& c, T dt) {
  const T dt05 = T(0.5) * dt;
  const Real4<T> vr = a.velrho[i];
  const Real4<T> f = a.ace[i];
  a.velrhoPre[i] = vr;
  a.posPre[i] = a.pos[i];
  if (heldByIntegrator(i, a)) {
    if (keepsWallDensity(i, a)) return;  // keeps the density of its correction
    const T rho = clampBoundDensity(vr.w + dt05 * f.w, c);
    a.velrho[i].w = rho;
    a.pos[i].w = taitPressure(rho, c);
    return;
  }
  if (isInOutParticle(i, a)) {  // posLo stays the start's, as below
    moveInOutParticle(i, a, a.pos[i], positionLo(static_cast<const Real4<T>*>(a.posLo), i),
                      static_cast<Real4<T>*>(nullptr), vr, dt05, c);
    return;
  }
  Real4<T> p = a.pos[i];
  double x[3];
  loadPosition(p, positionLo(static_cast<const Real4<T>*>(a.posLo), i), x);
  const T rho = vr.w + dt05 * f.w;
  x[0] += double(dt05 * vr.x);
  x[1] += double(dt05 * vr.y);
  x[2] += double(dt05 * vr.z);
  storePosition(p, static_cast<Real4<T>*>(nullptr), x);  // posLo stays the start's
  p.w = taitPressure(rho, c);
  a.pos[i] = p;
  a.velrho[i] = Real4<T>{vr.x + dt05 * (f.x + c.gx), vr.y + dt05 * (f.y + c.gy),
                         vr.z + dt05 * (f.z + c.gz), rho};
}

template <typename T>
SPH_HD SPH_FORCEINLINE void symplecticCorrectParticle(uint32_t i, const IntegratorArrays<T>& a,
                                                      const PhysicsConstants<T>& c, T dt) {
  const Real4<T> pre = a.velrhoPre[i];
  const Real4<T> half = a.velrho[i];
  const Real4<T> f = a.ace[i];
  const T eps = -(f.w / half.w) * dt;
  T rho = pre.w * (T(2) - eps) / (T(2) + eps);
  if (heldByIntegrator(i, a)) {
    rho = keepsWallDensity(i, a) ? pre.w : clampBoundDensity(rho, c);  // mDBC2: the predictor's correction
    a.velrho[i].w = rho;
    a.pos[i].w = taitPressure(rho, c);
    return;
  }
  if (isInOutParticle(i, a)) {
    Real4<T>* lo = positionLo(a.posLo, i);
    moveInOutParticle(i, a, a.posPre[i], lo, lo, pre, dt, c);
    a.velrho[i] = pre;
    return;
  }
  const T vx = pre.x + dt * (f.x + c.gx);
  const T vy = pre.y + dt * (f.y + c.gy);
  const T vz = pre.z + dt * (f.z + c.gz);
  const Real4<T> p0 = a.posPre[i];  // r^n, inside the periodic range
  T sx = 0, sy = 0, sz = 0;
  if (a.shift) {
    const ShiftDisplacement d = shiftDisplacement(a.shift[i], half.x, half.y, half.z, double(dt), c);
    sx = T(d.x);
    sy = T(d.y);
    sz = T(d.z);
  }
  Real4<T>* lo = positionLo(a.posLo, i);  // r^n's, which the predictor left
  double x[3];
  loadPosition(p0, lo, x);
  x[0] += double(T(0.5) * dt * (pre.x + vx) + sx);
  x[1] += double(T(0.5) * dt * (pre.y + vy) + sy);
  x[2] += double(T(0.5) * dt * (pre.z + vz) + sz);
  Real4<T> p{T(0), T(0), T(0), taitPressure(rho, c)};
  storePosition(p, lo, x);
  a.pos[i] = p;
  a.velrho[i] = Real4<T>{vx, vy, vz, rho};
}

// The periodic pass: particle i back into [min, min + L) along every periodic axis (a step moves
// a particle by far less than a period). Boundary and floating particles are moved (and
// wrapped) by their own passes; wrapping them again changes nothing. posLo: given after the
// steps that end a step (pos + posLo moves by the period), null after the symplectic predictor
// (its positions are pos alone; posLo stays the start's).
template <typename T>
SPH_HD SPH_FORCEINLINE void wrapPeriodicParticle(uint32_t i, Real4<T>* pos, Real4<T>* posLo,
                                                 const PeriodicBox<T>& box) {
  Real4<T> p = pos[i];
  if (!posLo) {
    wrapPosition(p, box);
  } else {
    double x[3];
    loadPosition(p, posLo + i, x);
    for (int k = 0; k < 3; ++k) x[k] = wrapCoordinate(x[k], double(box.min[k]), double(box.length[k]));
    storePosition(p, posLo + i, x);
  }
  pos[i] = p;
}

// Exclusion test for fluid particles after a step (DualSPHysics: out of the domain, or density
// outside RhopOutMin..RhopOutMax). Returns 0 (keep), 1 (out of domain) or 2 (density).
template <typename T>
struct ExclusionLimits {
  T minX, minY, minZ, maxX, maxY, maxZ;
  T rhoMin, rhoMax;
};

template <typename T>
SPH_HD SPH_FORCEINLINE int exclusionReason(const Real4<T>& p, T rho, const ExclusionLimits<T>& l) {
  // Written so that NaN positions or densities count as excluded too.
  if (!(p.x >= l.minX && p.x <= l.maxX && p.y >= l.minY && p.y <= l.maxY && p.z >= l.minZ &&
        p.z <= l.maxZ))
    return 1;
  if (!(rho >= l.rhoMin && rho <= l.rhoMax)) return 2;
  return 0;
}

// After the step: sets code::kExcludedBit on fluid particle i when it is to be excluded, and
// returns exclusionReason (0: kept). The integrator loops that end a step call this.
// Where excluded particles wait for the engine's next compaction of the arrays: along an open
// axis, slot k at domainMax + spacing (k + 1), spacing well beyond the list radius, so a parked
// particle is no neighbour of anyone (both strategies clamp it into an edge cell and reject it by
// distance). Compacting at every exclusion made the Verlet strategy rebuild its lists at every
// step with an exclusion (WaveMake: a rebuild every 2.4 steps, verlet slower than cell).
struct ParkingLot {
  int axis = 2;         // an axis that is not periodic
  double start = 0;     // domainMax along it
  double spacing = 0;   // between slots
};

// Parks particle i in slot k: position moved along the lot's axis, velocity zero (also the
// Verlet integrator's previous velocity), kExcludedBit replaced by kParkedBit; the integrators
// then hold it (heldByIntegrator).
// posLo: the rounding remainders of single-precision runs (null in double).
template <typename T>
SPH_HD SPH_FORCEINLINE void parkParticle(uint32_t i, uint32_t k, Real4<T>* pos, Real4<T>* posLo, Real4<T>* velrho,
                                         Real4<T>* velrhoPre, uint32_t* code, const ParkingLot& lot) {
  Real4<T> p = pos[i];
  double x[3];
  loadPosition(p, positionLo(posLo, i), x);
  x[lot.axis == 0 ? 0 : lot.axis == 1 ? 1 : 2] = lot.start + lot.spacing * (double(k) + 1.0);
  storePosition(p, positionLo(posLo, i), x);
  pos[i] = p;
  velrho[i] = Real4<T>{T(0), T(0), T(0), velrho[i].w};
  velrhoPre[i] = Real4<T>{T(0), T(0), T(0), velrhoPre[i].w};
  code[i] = (code[i] & ~code::kExcludedBit) | code::kParkedBit;
}

template <typename T>
SPH_HD SPH_FORCEINLINE int markIfExcluded(uint32_t i, const IntegratorArrays<T>& a, uint32_t* code,
                                          const ExclusionLimits<T>& l) {
  if (heldByIntegrator(i, a)) return 0;
  // An in/out particle's density is its zone's: only leaving the domain excludes it.
  const int r = exclusionReason(a.pos[i], isInOutParticle(i, a) ? l.rhoMin : a.velrho[i].w, l);
  if (r != 0) code[i] |= code::kExcludedBit;
  return r;
}

}  // namespace sph
