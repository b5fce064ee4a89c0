// The pair interaction in runs with floating bodies: which pairs see each other and with what
// mass, as DualSPHysics does it (Dominguez et al. 2022, section 2.6; Canelas et al. 2016).
// The strategies call interactPairCoded() instead of interactPair() when
// PhysicsConstants::floating.any(), in the force passes that sum the shifting terms (which ask
// whether a wall particle moves) and in mDBC2 runs (a wall may be switched off, and its
// tangential velocity, tangentB, enters the viscous terms); it needs both particles' code words.
//
// A floating particle (code::isFloating) is updated like a fluid particle: pressure, viscosity
// and continuity from its neighbours. As a neighbour it carries the mass rho0 dp^d, GenCase's
// `masspart` for every body whatever its weight: its SPH density is a fluid-like density near
// rho0, so its SPH volume m/rho is the dp^d it stands for, and the pair forces integrate the
// water's pressure over the body's surface as they do over the tank's walls (with the body's
// mass per particle a box of relative weight 0.5 floated 0.13 dp too deep, 0.06 dp with
// rho0 dp^d, test_floating_validation.cpp). The body's inertia is its own mass
// (physics/floating_body_physics.h). Density
// diffusion near floating particles is DualSPHysics' (pair_physics.h). Pairs of the same body
// interact as DualSPHysics has them (FloatingPairTable::dualsphysics): their forces cancel in the
// body's sum, but they set the particles' densities and accelerations, hence the time step. The
// rigid rules (FloatingMotion::Rigid) skip them.
// Without DEM (RigidAlgorithm=1) bodies meet walls and other bodies through the SPH pair alone.
// With DEM (RigidAlgorithm=2) a floating particle meets wall particles and particles of other
// bodies only through the contact force of dem_physics.h (DualSPHysics' law under its rules, the
// Hertz law of the rigid ones), and walls gather nothing from floating particles.
#pragma once

#include "sph/plugin/dem_physics.h"
#include "sph/plugin/pair_physics.h"
#include "sph/plugin/particle_code.h"

namespace sph {

// The DEM contact of floating particle a (code codeA) with a wall or another body's particle.
template <bool Periodic = true, typename T, bool Shift, bool Sps>
SPH_HD SPH_FORCEINLINE void demPair(const Real4<T>& posA, const Real4<T>& velrhoA, uint32_t codeA,
                                    const Real4<T>& posB, const Real4<T>& velrhoB, uint32_t codeB,
                                    const PhysicsConstants<T>& c, PairAccum<T, Shift, Sps>& acc) {
  T dx, dy, dz;
  pairDeltaIf<Periodic>(posA, posB, c.periodic, dx, dy, dz);
  const T r2 = dx * dx + dy * dy + dz * dz;
  const FloatingPairTable<T>& f = c.floating;
  const SolidInfo<T>& sa = f.solids[code::mkIndex(codeA)];
  const SolidInfo<T>& sb = f.solids[code::mkIndex(codeB)];
  if (f.dualsphysics) {
    if (r2 > c.support2 || r2 < T(1e-18)) return;
    const T massEff = sb.body >= 0 ? sa.bodyMass * sb.bodyMass / (sa.bodyMass + sb.bodyMass) : T(0.5) * sa.bodyMass;
    const DemContactDualSPHysics<T> k =
        demContactDualSPHysics(dx, dy, dz, std::sqrt(r2), velrhoA.x - velrhoB.x, velrhoA.y - velrhoB.y,
                               velrhoA.z - velrhoB.z, f.dp, massEff, sa.pairMass, f.demDt, sa.material, sb.material);
    acc.demdt = k.rate > acc.demdt ? k.rate : acc.demdt;
    if (!k.touching) return;
    acc.ax += k.ax;
    acc.ay += k.ay;
    acc.az += k.az;
    ++acc.contacts;
    return;
  }
  const T reach = T(1.5) * f.dp;  // approaching pairs this close already set the time step
  if (r2 >= reach * reach) return;
  // Each body's mass is shared by its contacts of the last force pass (dem_physics.h).
  const uint32_t na = f.bodyContacts[sa.body];
  const T massA = sa.bodyMass / T(na > 0 ? na : 1);
  T massEff = massA;
  if (sb.body >= 0) {
    const uint32_t nb = f.bodyContacts[sb.body];
    const T massB = sb.bodyMass / T(nb > 0 ? nb : 1);
    massEff = massA * massB / (massA + massB);
  }
  const T r = std::sqrt(r2);
  const T dvx = velrhoA.x - velrhoB.x, dvy = velrhoA.y - velrhoB.y, dvz = velrhoA.z - velrhoB.z;
  if (r2 >= f.dp * f.dp) {
    // Not touching yet: if closing, the step must already be short when the contact begins,
    // or its first step overshoots (the symplectic step then loses much of the rebound).
    const T closing = -(dvx * dx + dvy * dy + dvz * dz) / r;
    const T rate = demImpactRate(closing, f.dp, massEff, sa.material, sb.material);
    acc.viscdt = rate > acc.viscdt ? rate : acc.viscdt;
    return;
  }
  const DemContact<T> k = demContact(dx, dy, dz, r, dvx, dvy, dvz, f.dp, massEff, sa.material, sb.material);
  if (!k.touching) return;
  const T inv = T(1) / sa.pairMass;  // the force becomes particle a's acceleration (undone in the body sums)
  acc.ax += k.fx * inv;
  acc.ay += k.fy * inv;
  acc.az += k.fz * inv;
  acc.viscdt = k.rate > acc.viscdt ? k.rate : acc.viscdt;
  ++acc.contacts;
}

// tauB: b's tau/rho in the SPS passes (sps_physics.h).
template <KernelKind K, bool Periodic = true, typename T, bool Shift, bool Sps>
SPH_HD SPH_FORCEINLINE void interactPairCoded(const Real4<T>& posA, const Real4<T>& velrhoA, uint32_t codeA,
                                              const Real4<T>& posB, const Real4<T>& velrhoB, uint32_t codeB,
                                              const PhysicsConstants<T>& c, PairAccum<T, Shift, Sps>& acc,
                                              const SymTensor<T>& tauB = SymTensor<T>{},
                                              const Real4<T>* tangentB = nullptr) {
  const bool boundA = code::isBound(codeA), boundB = code::isBound(codeB);
  const bool floatA = code::isFloating(codeA), floatB = code::isFloating(codeB);
  if (!floatA && !floatB) {
    // An mDBC2 wall (tangentB given) switched off by its correction has no mass (mdbc_physics.h).
    const T massB = !boundB ? c.massFluid : (tangentB && (codeB & code::kMdbcOffBit)) ? T(0) : c.massBound;
    interactPairMass<K, Periodic>(posA, velrhoA, boundA, posB, velrhoB, boundB, massB, false, c, acc,
                                  code::isMoving(codeB), tauB, tangentB);
    return;
  }
  const SolidInfo<T>* s = c.floating.solids;
  const int32_t bodyB = floatB ? s[code::mkIndex(codeB)].body : -1;
  const bool sameBody = floatA && s[code::mkIndex(codeA)].body == bodyB;
  if (sameBody && (c.floating.dem || !c.floating.dualsphysics)) return;
  if (c.floating.dem) {
    if (boundA) return;
    if (floatA && (boundB || floatB)) {
      demPair<Periodic>(posA, velrhoA, codeA, posB, velrhoB, codeB, c, acc);
      return;
    }
  }
  const T massB = floatB ? s[code::mkIndex(codeB)].pairMass : (boundB ? c.massBound : c.massFluid);
  if (floatA) acc.ddtOff |= acc.kDdtOff;  // floating particles have no density diffusion (pair_physics.h)
  interactPairMass<K, Periodic>(posA, velrhoA, boundA, posB, velrhoB, boundB, massB, floatB, c, acc,
                                code::isMoving(codeB), tauB);
}

}  // namespace sph
