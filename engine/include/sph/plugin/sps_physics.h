// The sub-particle-scale (SPS) turbulence model of DualSPHysics' `ViscoTreatment` 2 (laminar
// viscosity plus SPS; Dalrymple & Rogers 2006), as DualSPHysics 5.4 computes it.
//
// Each force pass sums, for every fluid particle a, the velocity-gradient tensor 2S
// (symmetric; the off-diagonal entries hold du/dy + dv/dx etc.) over all its neighbours:
//   2S_a += -V_b (v_a - v_b)_i (grad_a W_ab)_j   summed into (i, j) and (j, i) off the diagonal,
// V_b = m_b/rho_b. After the pass the engine turns it into tau_a/rho_a (spsTauOverRho below) with
//   nu_t = Smag |2S|,  |2S|^2 = 2 (S_xx^2 + S_yy^2 + S_zz^2) + S_xy^2 + S_xz^2 + S_yz^2 (of 2S),
//   tau/rho = 2 nu_t 2S_ii - nu_t div v - Blin |2S|^2 on the diagonal, nu_t 2S_ij off it,
// with Smag = (2/3)(0.12 dp_s)^2 and Blin = (2/3) 0.0066 dp_s^2, dp_s = sqrt(dim dp^2)/dim
// (DualSPHysics' constants, the 2/3 of the isotropic part folded into both). The next force
// pass adds m_b (tau_a/rho_a + tau_b/rho_b) . grad_a W_ab to the acceleration of fluid particle
// a (tau_b only from fluid neighbours: walls and floating particles carry none). So tau lags
// one force pass behind, and is zero before the first; it travels with the particles when they
// are reordered. DualSPHysics divides by rho once, not rho^2, and so does this engine.
#pragma once

#include <cmath>

#include "sph/plugin/hd.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/real4.h"
#include "sph/plugin/sym_tensor.h"

namespace sph {

// tau/rho of a particle from its 2S and density.
template <typename T>
SPH_HD SPH_FORCEINLINE SymTensor<T> spsTauOverRho(const SymTensor<T>& s, T rho, const PhysicsConstants<T>& c) {
  const T diag2 = s.xx * s.xx + s.yy * s.yy + s.zz * s.zz;
  const T norm2 = s.xy * s.xy + s.xz * s.xz + s.yz * s.yz + diag2 + diag2;
  const T nuT = c.spsSmag * std::sqrt(norm2);
  const T iso = -(nuT * (s.xx + s.yy + s.zz) + c.spsBlin * norm2);
  const T twoNu = nuT + nuT;
  const T invRho = T(1) / rho;
  SymTensor<T> t;
  t.xx = invRho * (twoNu * s.xx + iso);
  t.xy = invRho * (nuT * s.xy);
  t.xz = invRho * (nuT * s.xz);
  t.yy = invRho * (twoNu * s.yy + iso);
  t.yz = invRho * (nuT * s.yz);
  t.zz = invRho * (twoNu * s.zz + iso);
  return t;
}

// The engine's pass after each force pass: tau/rho of particle i from its 2S and density; walls
// and floating particles carry none (DualSPHysics sums 2S for fluid particles only).
template <typename T>
SPH_HD SPH_FORCEINLINE void spsTauParticle(uint32_t i, const SymTensor<T>* strain, const Real4<T>* velrho,
                                           const uint32_t* code, uint32_t nBound, SymTensor<T>* tau,
                                           const PhysicsConstants<T>& c) {
  const bool fluid = i >= nBound && !code::isFloating(code[i]);
  tau[i] = fluid ? spsTauOverRho(strain[i], velrho[i].w, c) : SymTensor<T>{};
}

}  // namespace sph
