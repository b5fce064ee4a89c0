// The contribution of neighbour b to particle a: momentum, continuity, density diffusion and
// the viscous time-step term. This is the only copy of the per-pair physics; every neighbour
// strategy (CPU loop or CUDA kernel) calls interactPair() inside its own loop.
//
// Formulation (DualSPHysics, Dominguez et al. 2022; Crespo et al. 2015):
//   dv_a/dt   = -sum_b m_b ((P_a+P_b)/(rho_a rho_b) + R_ab + Pi_ab) grad_a W_ab + g
//   drho_a/dt =  rho_a sum_b (m_b/rho_b) v_ab . grad_a W_ab + D_a
// (the continuity form of DualSPHysics 5.4, JSphCpu::InteractionForcesFluid/Bound).
// Pi_ab: artificial viscosity (Monaghan 1992), only for approaching pairs (v_ab.r_ab < 0):
//   Pi_ab = -alpha c0 mu_ab / rho_bar,  mu_ab = h v_ab.r_ab / (r^2 + eta^2);
// or laminar viscosity (Lo & Shao 2002, ViscoTreatment 3), for every pair, in place of Pi_ab:
//   dv_a/dt += sum_b m_b 4 nu (r_ab . grad_a W_ab) / ((rho_a + rho_b)(r^2 + eta^2)) v_ab,
// and with ViscoTreatment 2 the same laminar term plus the SPS stresses (sps_physics.h).
// R_ab: tensile correction of the cubic kernel (Monaghan 2000), as DualSPHysics applies it:
//   R_ab = (W_ab/W(dx))^4 (f_a + f_b), f = P/rho^2 * (0.01 if P > 0 else -0.2); zero for Wendland;
//   dx = h/1.5 whatever dp is (DualSPHysics' GetKernelCubic_Ctes, cubicTensileSpacing()).
// D_a: density diffusion, delta h c0 sum_b 2 (m_b/rho_b) (rho_b - rho_a - drhoH_ba)
//      (-r_ab . grad_a W_ab)/(r^2+eta^2); drhoH_ba = 0 (Molteni & Colagrossi 2009) or the
//      hydrostatic difference rho0((1 + rho0 g_z (z_b - z_a)/B)^(1/gamma) - 1) (Fourtakas 2019).
// DBC boundary particles (Crespo et al. 2007) only gather continuity from fluid neighbours.
// Density diffusion next to DBC walls follows DualSPHysics 5.4, whose option names say what it
// does: DensityDT 2 "Fourtakas (inner)" diffuses only the fluid particles without a boundary
// neighbour (one boundary neighbour switches D_a off for the particle), DensityDT 3 "Fourtakas
// (all)" diffuses every fluid particle over its fluid neighbours, and Molteni's term (1) is
// switched off like 2, also by a floating neighbour. Boundary pairs never add to D_a: their
// density is not hydrostatic (DBC raises it to hold the fluid back), and diffusing towards it
// pulls fluid into the wall. With mDBC walls (mdbc_physics.h) Molteni's term does run over wall
// neighbours (mass m_b of a wall particle), as DualSPHysics does; 2 and 3 are unchanged. Floating particles have no D_a; pairs with one are skipped.
// Along periodic axes r_ab is the minimum image (periodic.h).
#pragma once

#include <cmath>

#include "sph/plugin/hd.h"
#include "sph/plugin/particle_view.h"
#include "sph/plugin/periodic.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/real4.h"
#include "sph/plugin/sph_kernels.h"
#include "sph/plugin/sps_physics.h"

namespace sph {

// The sums of particle shifting (physics/shifting_physics.h), kept only by the force passes whose
// shifts are applied (Shift = true); the others carry none of them.
template <typename T, bool Shift>
struct ShiftAccum {
  SPH_HD SPH_FORCEINLINE void addShift(const ShiftAccum&) {}
};
template <typename T>
struct ShiftAccum<T, true> {
  T sx = 0, sy = 0, sz = 0;  // sum_b V_b grad_a W_ab, the gradient of the particle concentration
  T sdiv = 0;                // -sum_b V_b r_ab . grad_a W_ab, the divergence of r (about dim inside)
  uint32_t shiftOff = 0;     // 1: a neighbour stops this particle's shift (Shifting mode)
  SPH_HD SPH_FORCEINLINE void addShift(const ShiftAccum& o) {
    sx += o.sx;
    sy += o.sy;
    sz += o.sz;
    sdiv += o.sdiv;
    shiftOff |= o.shiftOff;
  }
  // What the force pass writes for the integrator: the sums, or zeros (no shift) when stopped.
  SPH_HD SPH_FORCEINLINE Real4<T> shiftSums() const {
    return shiftOff ? Real4<T>{T(0), T(0), T(0), T(0)} : Real4<T>{sx, sy, sz, sdiv};
  }
};

// The SPS model's per-particle data (sps_physics.h), kept only by the force passes of runs with
// ViscoTreatment 2 (Sps = true): the particle's own tau/rho, set before its neighbour loop, and
// the 2S it sums.
template <typename T, bool Sps>
struct SpsAccum {
  SPH_HD SPH_FORCEINLINE void addStrain(const SpsAccum&) {}
};
template <typename T>
struct SpsAccum<T, true> {
  SymTensor<T> tauA;    // input: tau_a/rho_a of the last force pass
  SymTensor<T> strain;  // 2S_a
  SPH_HD SPH_FORCEINLINE void addStrain(const SpsAccum& o) {
    strain.xx += o.strain.xx;
    strain.xy += o.strain.xy;
    strain.xz += o.strain.xz;
    strain.yy += o.strain.yy;
    strain.yz += o.strain.yz;
    strain.zz += o.strain.zz;
  }
};

// What a pair gives its neighbour b when each pair is computed once (interactPairMass with
// Mirror = true): b's acceleration, continuity and density diffusion terms, from the same
// distances, kernel gradient and pressures as a's. For a boundary b only arho.
template <typename T>
struct MirrorSums {
  T ax = 0, ay = 0, az = 0, arho = 0, ddt = 0;
};

// What a particle accumulates over its neighbours.
template <typename T, bool Shift = false, bool Sps = false>
struct PairAccum : ShiftAccum<T, Shift>, SpsAccum<T, Sps> {
  T ax = 0, ay = 0, az = 0;  // acceleration without gravity
  T arho = 0;                // density rate
  T viscdt = 0;              // max over neighbours of v_ab.r_ab/(r^2+eta^2), for dt
                             // (and the rate of DEM contacts, floating_pair_physics.h)
  T ddt = 0;                 // density diffusion D_a, kept apart until the particle is done
  // Bits: kDdtOff, a neighbour switched D_a off for this particle (see above); kDdtOffByWall and
  // kWallActive, a wall neighbour asks to switch it off, and a wall pair gave the particle
  // something (densityRate() below says why both).
  uint32_t ddtOff = 0;
  static constexpr uint32_t kDdtOff = 1, kDdtOffByWall = 2, kWallActive = 4;
  uint32_t contacts = 0;     // DEM contacts of a floating particle
  // DualSPHysics' DEM (floating_pair_physics.h): the largest rate of the particle's DEM pairs,
  // touching or not, which sets the time step only when one of them touches (timeStepRate()).
  T demdt = 0;

  // The sums of another part of the same particle's neighbours (strategies that split one
  // particle's neighbours among threads add the parts up with this).
  SPH_HD SPH_FORCEINLINE void add(const PairAccum& o) {
    ax += o.ax;
    ay += o.ay;
    az += o.az;
    arho += o.arho;
    viscdt = o.viscdt > viscdt ? o.viscdt : viscdt;
    ddt += o.ddt;
    ddtOff |= o.ddtOff;
    contacts += o.contacts;
    demdt = o.demdt > demdt ? o.demdt : demdt;
    this->addShift(o);
    this->addStrain(o);
  }

  // drho/dt once every neighbour has been added. DualSPHysics sums a particle's fluid and wall
  // neighbours in two passes and keeps the wall pass's verdict on D_a only when that pass gave
  // the particle anything (continuity, acceleration or v_ab.r_ab > 0): a particle at rest with
  // zero pressure (the free surface at the start) keeps its D_a beside a wall.
  SPH_HD SPH_FORCEINLINE bool ddtSwitchedOff() const { return ddtSwitchedOff(ddtOff); }
  static SPH_HD SPH_FORCEINLINE bool ddtSwitchedOff(uint32_t bits) {
    return (bits & kDdtOff) != 0 || (bits & (kDdtOffByWall | kWallActive)) == (kDdtOffByWall | kWallActive);
  }
  SPH_HD SPH_FORCEINLINE T densityRate() const { return ddtSwitchedOff() ? arho : arho + ddt; }
  // max v_ab.r_ab/(r^2+eta^2), and the DEM rate of a touched particle, for the time step.
  SPH_HD SPH_FORCEINLINE T timeStepRate() const { return contacts > 0 && demdt > viscdt ? demdt : viscdt; }
};

// Whether a pass without floating bodies can switch a particle's density diffusion off
// (PairAccum::ddtSwitchedOff): only a wall neighbour can, under DensityDT 1 or 2, unless Molteni's
// term runs over mDBC walls (interactPairMass below).
template <typename T>
SPH_HD SPH_FORCEINLINE bool wallsCanSwitchOffDiffusion(const PhysicsConstants<T>& c) {
  return c.ddt != DensityDiffusion::None && c.ddt != DensityDiffusion::FourtakasFull &&
         !(c.ddt == DensityDiffusion::Molteni && c.boundary != BoundaryModel::Dbc);
}

// Tait equation of state, P = B((rho/rho0)^gamma - 1).
template <typename T>
SPH_HD SPH_FORCEINLINE T taitPressure(T rho, const PhysicsConstants<T>& c) {
  const T x = rho / c.rho0;
  if (c.gamma == T(7)) {  // the usual water value: 4 multiplications instead of pow()
    const T x2 = x * x;
    return c.cteB * (x2 * x2 * x2 * x - T(1));
  }
  return c.cteB * (std::pow(x, c.gamma) - T(1));
}

// Fourtakas' hydrostatic density difference rho0((1 + u)^(1/gamma) - 1), u = rho0 g_z dz / B.
// In pairs u = gamma g dz / c0^2 with |dz| <= 2h, so |u| is ~1e-2 or less in any case whose c0
// is ten times the fastest flow speed. There single precision sums the binomial series to
// u^5: the truncation is below |binom(1/7, 6)| 0.05^6 = 3e-10, under 4e-8 of the result for
// |u| < 0.05, and it avoids both a pow() per pair and the cancellation in (1+u)^(1/gamma) - 1.
// Double precision, and larger |u|, use pow().
template <typename T>
SPH_HD SPH_FORCEINLINE T hydrostaticDensityDifference(T u, const PhysicsConstants<T>& c) {
  if constexpr (sizeof(T) == sizeof(float)) {
    if (u > T(-0.05) && u < T(0.05)) {
      const T* k = c.ddtSeries;
      return c.rho0 * u * (k[0] + u * (k[1] + u * (k[2] + u * (k[3] + u * k[4]))));
    }
  }
  return c.rho0 * (std::pow(T(1) + u, c.invGamma) - T(1));
}

// Sets every field of PhysicsConstants that is derived from the others for the pair loop
// (folded kernel constants, the hydrostatic series). Whoever fills PhysicsConstants by hand
// calls this last.
template <typename T>
void foldDerivedConstants(PhysicsConstants<T>& c) {
  foldKernelConstants(c);
  setHydrostaticSeries(c, double(c.gamma));
}

// The pair with the neighbour's mass given: interactPair() below, and the pairs of floating
// bodies (floating_pair_physics.h), whose particles have their own mass per particle; for those
// floatB says that b is a floating particle (density diffusion, see above). movingB says that a
// boundary b moves (imposed motion), which only the shifting sums ask (Shifting::NoFixed); tauB
// is b's tau/rho in the SPS passes (zero for walls and floating particles). viscVelB, when given
// (an mDBC2 wall b, mdbc_physics.h), is the velocity of b in the viscous terms and the time
// step's v_ab . r_ab; continuity keeps b's own velocity.
// Mirror = true also gives b's terms of the pair in *mirror (MirrorSums), for passes that compute
// each pair once: a must be a fluid particle, and the pass plain (no floating body, mDBC2 wall,
// shifting or SPS; fluid particles of one mass). Every pair term is then antisymmetric or
// symmetric in a and b with known factors: grad_b W_ba = -grad_a W_ab, so b's momentum term is
// the negative of a's (same mass, same P and viscosity terms); its continuity term is
// m_a v_ab.grad_a W_ab rho_b/rho_a; its diffusion term has the density difference the other way
// round, with the hydrostatic difference for z_a - z_b. v_ab.r_ab/(r^2+eta^2) is the same for
// both: only the largest over all particles is used (the time step), so b takes none of it.
template <KernelKind K, bool Periodic = true, bool Mirror = false, typename T, bool Shift, bool Sps>
SPH_HD SPH_FORCEINLINE void interactPairMass(const Real4<T>& posA, const Real4<T>& velrhoA, bool boundA,
                                             const Real4<T>& posB, const Real4<T>& velrhoB, bool boundB, T massB,
                                             bool floatB, const PhysicsConstants<T>& c, PairAccum<T, Shift, Sps>& acc,
                                             bool movingB = false, const SymTensor<T>& tauB = SymTensor<T>{},
                                             const Real4<T>* viscVelB = nullptr, MirrorSums<T>* mirror = nullptr) {
  static_assert(!Mirror || (!Shift && !Sps), "a pair is computed once only in plain passes");
  T dx, dy, dz;  // r_a - r_b, the minimum image along periodic axes
  pairDeltaIf<Periodic>(posA, posB, c.periodic, dx, dy, dz);
  const T r2 = dx * dx + dy * dy + dz * dz;
  if (r2 >= c.support2 || r2 <= T(1e-18) * c.support2) return;
  if (boundA && boundB) return;  // DBC: boundary particles do not interact with each other

  const T r = std::sqrt(r2);
  const T fac = gradFactorFolded<K>(r, c);
  const T frx = fac * dx, fry = fac * dy, frz = fac * dz;
  const T dvx = velrhoA.x - velrhoB.x;
  const T dvy = velrhoA.y - velrhoB.y;
  const T dvz = velrhoA.z - velrhoB.z;
  // The velocity difference of the viscous terms (an mDBC2 wall's tangential velocity).
  const T vdx = viscVelB ? velrhoA.x - viscVelB->x : dvx;
  const T vdy = viscVelB ? velrhoA.y - viscVelB->y : dvy;
  const T vdz = viscVelB ? velrhoA.z - viscVelB->z : dvz;

  // Divisions are the costly operations of a pair: three reciprocals serve every term.
  const T invR2eta = T(1) / (r2 + c.eta2);
  const T dotVR = vdx * dx + vdy * dy + vdz * dz;
  const T dotRr2 = dotVR * invR2eta;
  acc.viscdt = dotRr2 > acc.viscdt ? dotRr2 : acc.viscdt;
  const T rhoA = velrhoA.w, rhoB = velrhoB.w;
  const T invRhoB = T(1) / rhoB;
  const T dvGrad = dvx * frx + dvy * fry + dvz * frz;
  const T arhoPair = massB * dvGrad * (rhoA * invRhoB);
  acc.arho += arhoPair;
  if (boundA) return;
  if constexpr (Shift) {
    // DualSPHysics' sums over every neighbour of a fluid particle, walls included unless the mode
    // stops the shift (JSphShifting; Lind et al. 2012).
    const bool stops = boundB && (c.shifting == Shifting::NoBound || (c.shifting == Shifting::NoFixed && !movingB));
    if (stops) {
      acc.shiftOff = 1;
    } else {
      const T volB = massB * invRhoB;
      acc.sx += volB * frx;
      acc.sy += volB * fry;
      acc.sz += volB * frz;
      acc.sdiv -= volB * (frx * dx + fry * dy + frz * dz);
    }
  }

  const T invRhoA = T(1) / rhoA;  // loop-invariant: hoisted out of the neighbour loop
  if constexpr (Mirror) mirror->arho = c.massFluid * dvGrad * (rhoB * invRhoA);  // a is fluid
  T prs = (posA.w + posB.w) * (invRhoA * invRhoB);
  if constexpr (K == KernelKind::Cubic) {
    const T wab = cubicWOverWdp(r, c);
    const T fab = (wab * wab) * (wab * wab);
    const T tensA = posA.w * (invRhoA * invRhoA) * (posA.w > T(0) ? T(0.01) : T(-0.2));
    const T tensB = posB.w * (invRhoB * invRhoB) * (posB.w > T(0) ? T(0.01) : T(-0.2));
    prs += fab * (tensA + tensB);
  }
  const T viscosity = boundB ? c.viscoBound : c.visco;
  T visc = 0;
  if (c.viscosity == Viscosity::Artificial && dotVR < T(0)) {
    // -alpha c0 h dotRr2 / rhoBar with rhoBar = (rhoA + rhoB)/2
    visc = T(-2) * viscosity * c.c0 * (c.h * dotRr2) / (rhoA + rhoB);
  }
  const T coef = -massB * (prs + visc);
  acc.ax += coef * frx;
  acc.ay += coef * fry;
  acc.az += coef * frz;
  T lam = 0;
  if (c.viscosity != Viscosity::Artificial) {
    // r_ab . grad_a W_ab = fac r^2 < 0: the term opposes v_ab.
    lam = massB * T(4) * viscosity * (fac * r2) * invR2eta / (rhoA + rhoB);
    acc.ax += lam * vdx;
    acc.ay += lam * vdy;
    acc.az += lam * vdz;
  }
  if constexpr (Mirror) {
    if (!boundB) {  // a wall b takes only its continuity term; a fluid b the negative of a's
      mirror->ax = -(coef * frx + lam * vdx);
      mirror->ay = -(coef * fry + lam * vdy);
      mirror->az = -(coef * frz + lam * vdz);
    }
  }
  if constexpr (Sps) {
    // m_b (tau_a/rho_a + tau_b/rho_b) . grad_a W_ab, and 2S_a (sps_physics.h).
    const SymTensor<T>& ta = acc.tauA;
    const T sxx = ta.xx + tauB.xx, sxy = ta.xy + tauB.xy, sxz = ta.xz + tauB.xz;
    const T syy = ta.yy + tauB.yy, syz = ta.yz + tauB.yz, szz = ta.zz + tauB.zz;
    acc.ax += massB * (sxx * frx + sxy * fry + sxz * frz);
    acc.ay += massB * (sxy * frx + syy * fry + syz * frz);
    acc.az += massB * (sxz * frx + syz * fry + szz * frz);
    const T volB = -massB * invRhoB;
    SymTensor<T>& e = acc.strain;
    T dv = vdx * volB;
    e.xx += dv * frx;
    e.xy += dv * fry;
    e.xz += dv * frz;
    dv = vdy * volB;
    e.xy += dv * frx;
    e.yy += dv * fry;
    e.yz += dv * frz;
    dv = vdz * volB;
    e.xz += dv * frx;
    e.yz += dv * fry;
    e.zz += dv * frz;
  }

  if (c.ddt == DensityDiffusion::None) return;
  // mDBC walls hold the fluid's own (extrapolated) density: Molteni's term diffuses towards them
  // as towards fluid (DualSPHysics switches it off at DBC walls only).
  const bool diffusesToWall = boundB && c.boundary != BoundaryModel::Dbc && c.ddt == DensityDiffusion::Molteni;
  if ((boundB || floatB) && !diffusesToWall) {
    if (boundB) {
      if (c.ddt != DensityDiffusion::FourtakasFull) acc.ddtOff |= acc.kDdtOffByWall;
      // What DualSPHysics' wall pass checks before it keeps its verdict (densityRate()).
      const bool laminar = c.viscosity != Viscosity::Artificial;
      if (Shift || Sps || arhoPair != T(0) || dotRr2 > T(0) || (fac != T(0) && (coef != T(0) || laminar)))
        acc.ddtOff |= acc.kWallActive;
    } else if (c.ddt == DensityDiffusion::Molteni) {
      acc.ddtOff |= acc.kDdtOff;
    }
    return;
  }
  T drho = rhoB - rhoA;
  if (c.ddt != DensityDiffusion::Molteni) drho -= hydrostaticDensityDifference(c.ddtGz * (-dz), c);  // z_b - z_a
  // -(r_ab . grad_a W_ab) = -fac r^2 > 0 since fac < 0 inside the support.
  acc.ddt += c.ddtCoef * (massB * invRhoB) * drho * (-fac * r2) * invR2eta;
  if constexpr (Mirror) {
    if (!boundB) {  // a wall b has no diffusion term (Molteni's towards mDBC walls is a's alone)
      T drhoB = rhoA - rhoB;
      if (c.ddt != DensityDiffusion::Molteni) drhoB -= hydrostaticDensityDifference(c.ddtGz * dz, c);  // z_a - z_b
      mirror->ddt = c.ddtCoef * (c.massFluid * invRhoA) * drhoB * (-fac * r2) * invR2eta;
    }
  }
}

// K must be the kernel c was folded for (c.kernel). Periodic = false is for boxes without a
// periodic axis only (c.periodic.any() false): it skips the minimum image (periodic.h).
// a: the particle being updated (pos.w holds its pressure, velrho.w its density).
// b: a neighbour candidate; returns without effect outside the support or for b == a.
// For runs without floating bodies; interactPairCoded() (floating_pair_physics.h) otherwise.
template <KernelKind K, bool Periodic = true, typename T, bool Shift, bool Sps>
SPH_HD SPH_FORCEINLINE void interactPair(const Real4<T>& posA, const Real4<T>& velrhoA, bool boundA,
                                         const Real4<T>& posB, const Real4<T>& velrhoB, bool boundB,
                                         const PhysicsConstants<T>& c, PairAccum<T, Shift, Sps>& acc) {
  interactPairMass<K, Periodic>(posA, velrhoA, boundA, posB, velrhoB, boundB, boundB ? c.massBound : c.massFluid,
                                false, c, acc);
}

// Writes particle a's sums into a force pass's outputs (ForceOutputs: what every strategy
// writes per particle; the shifting sums when the pass keeps them).
template <typename T, bool Shift, bool Sps>
SPH_HD SPH_FORCEINLINE void writeForces(uint32_t a, const PairAccum<T, Shift, Sps>& acc,
                                        const ForceOutputs<T>& out) {
  out.ace[a] = Real4<T>{acc.ax, acc.ay, acc.az, acc.densityRate()};
  out.viscdt[a] = acc.timeStepRate();
  if (out.contacts) out.contacts[a] = acc.contacts;
  if constexpr (Shift) out.shift[a] = acc.shiftSums();
  if constexpr (Sps) out.spsStrain[a] = acc.strain;
}

}  // namespace sph
