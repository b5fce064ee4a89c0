// DualSPHysics' variable time step (Crespo et al. 2015, eq. 27-29, as DualSPHysics 5.4 computes
// it in JSphCpu::DtVariable), header-only so the CPU path computes it on the host and the GPU
// path inside a one-thread kernel: on the GPU the step's dt then never travels to the host before
// the integrator uses it, and the host reads dt, the terms and the exclusion counts back once per
// step (StepScalars).
//   dt = CFL min(dt_f, dt_cv),  dt_f = sqrt(h / max_a |f_a|),
//   dt_cv = h / (max(c0, 10 max_a |v_a|) + h max_ab v_ab.r_ab/(r^2+eta^2))
// with f_a the acceleration of the pair forces without gravity and the maxima of |f| and |v| over
// fluid and floating particles after the force pass (|v| over boundary particles too with
// DtAllParticles = 1). dt never drops below DtMin; DtFixed > 0 replaces the rule.
// Which force pass sets which step's dt (DtPass) follows DualSPHysics' integrators: the Verlet
// integrator takes the dt of its own force pass, from the first step on; the symplectic one
// advances step n by min(dt of step n-1's predictor pass, dt of its corrector pass), and its
// first step by DtIni (JSphCpuSingle::ComputeStep_Sym, SymplecticDtPre).
#pragma once

#include <cmath>
#include <cstdint>

#include "sph/plugin/hd.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/real4.h"

namespace sph {

struct DtRule {
  double cfl = 0.2;
  double h = 0;
  double c0 = 0;
  double dtIni = 0;
  double dtMin = 0;
  double dtFixed = 0;  // > 0: constant dt
  bool velocityOfAll = false;  // DtAllParticles = 1: max |v| over boundary particles too
  // Runs with inlets/outlets or over several ranks: the particle codes. In/out buffer particles'
  // accelerations are left out (their motion is imposed, as DualSPHysics' ComputeAceMax ignores
  // them), halo copies altogether (their owner counts them). Null otherwise. It moves with every
  // reorder: set for each pass.
  const uint32_t* code = nullptr;
};

// Which force pass the reduced terms come from.
enum class DtPass : uint32_t {
  Verlet = 0,     // the Verlet integrator's pass: its dt advances this step
  Predictor = 1,  // symplectic predictor: this step advances by the dt carried from the last step
  Corrector = 2,  // symplectic corrector: with the predictor's, sets the next step's dt
};

// What one step leaves for the host: written by the device (or the CPU loops), read once.
struct StepScalars {
  unsigned long long maxAce2Bits = 0;   // max over fluid of |f|^2 (no gravity), as double bits (atomicMax)
  unsigned long long maxViscdtBits = 0; // max over all of v_ab.r_ab/(r^2+eta^2), as double bits
  unsigned long long maxVel2Bits = 0;   // max over fluid of |v|^2, as double bits
  double dt = 0;                        // the dt the integrator used
  double dtPredictor = 0;               // symplectic: the dt of this step's predictor pass
  double dtNext = 0;                    // symplectic: the dt of the next step
  uint32_t dtMinHit = 0;                // 1 when a dt of this step was raised to DtMin
  uint32_t excludedOutOfDomain = 0;     // fluid particles excluded this step
  uint32_t excludedDensity = 0;
  uint32_t dtBlocksDone = 0;            // GPU: blocks of the dt reduction done (the last computes dt)
};

// One particle's terms of the step's maxima, which the CPU loop and the GPU reduction take the
// largest of: |f|^2 without gravity (fluid only), its v_ab.r_ab/(r^2+eta^2) (every particle), and
// |v|^2 (fluid, and boundary particles too with DtAllParticles = 1). Particles below nBound are
// the boundary's. A halo copy of another rank's particle (runs over several ranks) gives its
// viscdt alone: its sums miss the neighbours beyond the halo, but every pair it took is a pair of
// the run, and a pass that computes each pair once may have given that pair's term to the copy
// alone (on this rank and on the owner's, where the pair's order differs).
struct DtTerms {
  double ace2 = 0, viscdt = 0, vel2 = 0;
};

template <typename T>
SPH_HD inline DtTerms particleDtTerms(uint32_t i, uint32_t nBound, const Real4<T>* ace, const T* viscdt,
                                      const Real4<T>* velrho, bool velocityOfAll, const uint32_t* code = nullptr) {
  DtTerms t;
  t.viscdt = fmax(0.0, double(viscdt[i]));
  if (code && code::isHalo(code[i])) return t;
  const bool fluid = i >= nBound;
  if (fluid && !(code && code::isInOut(code[i]))) {
    const Real4<T> f = ace[i];
    t.ace2 = double(f.x) * f.x + double(f.y) * f.y + double(f.z) * f.z;
  }
  if (fluid || velocityOfAll) {
    const Real4<T> v = velrho[i];
    t.vel2 = double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z;
  }
  return t;
}

// The time step from the reduced terms (all non-negative).
SPH_HD inline double variableDt(double maxAce2, double maxViscdt, double maxVel2, const DtRule& r,
                                uint32_t* dtMinHit) {
  *dtMinHit = 0;
  const double amax = sqrt(maxAce2);
  const double dtForce = amax > 0 ? sqrt(r.h / amax) : HUGE_VAL;
  const double speed = 10.0 * sqrt(maxVel2);  // DualSPHysics' bound on the flow speed
  const double dtCv = r.h / ((speed > r.c0 ? speed : r.c0) + r.h * maxViscdt);
  // DtFixed replaces the variable step but, as in DualSPHysics, not DtMin.
  double d = r.dtFixed > 0 ? r.dtFixed : r.cfl * (dtForce < dtCv ? dtForce : dtCv);
  if (d < r.dtMin) {  // false for NaN: a diverged run keeps its NaN and the host reports it
    d = r.dtMin;
    *dtMinHit = 1;
  }
  return d;
}

// Puts the dt of one force pass (variableDt) where DtPass says. firstStep: the run's first step.
SPH_HD inline void applyPassDt(StepScalars& s, double passDt, uint32_t hit, DtPass pass, bool firstStep,
                               const DtRule& r) {
  switch (pass) {
    case DtPass::Verlet:
      s.dt = passDt;
      s.dtMinHit = hit;
      break;
    case DtPass::Predictor:
      s.dtPredictor = passDt;
      s.dt = firstStep ? (r.dtFixed > 0 ? r.dtFixed : r.dtIni) : s.dtNext;
      s.dtMinHit = hit;
      break;
    case DtPass::Corrector:
      s.dtNext = (passDt < s.dtPredictor || passDt != passDt) ? passDt : s.dtPredictor;  // NaN stays NaN
      s.dtMinHit |= hit;
      break;
  }
}

}  // namespace sph
