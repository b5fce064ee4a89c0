// DualSPHysics' variable time step (Crespo et al. 2015, eq. 27-29), header-only so the CPU path
// computes it on the host and the GPU path inside a one-thread kernel: on the GPU the step's dt
// then never travels to the host before the integrator uses it, and the host reads dt, the
// terms and the exclusion counts back once per step (StepScalars).
//   dt = CFL min(dt_f, dt_cv),  dt_f = min_a sqrt(h/|f_a|),  dt_cv = min_a h/(c0 + max_b h v_ab.r_ab/(r^2+eta^2))
// The first step uses DtIni, DtFixed > 0 replaces the rule, and dt never drops below DtMin.
#pragma once

#include <cmath>
#include <cstdint>

#include "sph/hd.h"

namespace sph {

struct DtRule {
  double cfl = 0.2;
  double h = 0;
  double c0 = 0;
  double dtIni = 0;
  double dtMin = 0;
  double dtFixed = 0;  // > 0: constant dt
};

// What one step leaves for the host: written by the device (or the CPU loops), read once.
struct StepScalars {
  unsigned long long maxAce2Bits = 0;   // max over fluid of |a + g|^2, as double bits (atomicMax)
  unsigned long long maxViscdtBits = 0; // max over all of v_ab.r_ab/(r^2+eta^2), as double bits
  double dt = 0;                        // the dt the integrator used
  uint32_t dtMinHit = 0;                // 1 when dt was raised to DtMin
  uint32_t excludedOutOfDomain = 0;     // fluid particles excluded this step
  uint32_t excludedDensity = 0;
  uint32_t dtBlocksDone = 0;            // GPU: blocks of the dt reduction done (the last computes dt)
};

// The time step from the reduced terms. maxAce2 and maxViscdt are non-negative.
SPH_HD inline double variableDt(double maxAce2, double maxViscdt, const DtRule& r, bool firstStep,
                                uint32_t* dtMinHit) {
  *dtMinHit = 0;
  if (r.dtFixed > 0) return r.dtFixed;
  if (firstStep) return r.dtIni;
  const double amax = sqrt(maxAce2);
  const double dtForce = amax > 0 ? sqrt(r.h / amax) : HUGE_VAL;
  const double dtCv = r.h / (r.c0 + r.h * maxViscdt);
  double d = r.cfl * (dtForce < dtCv ? dtForce : dtCv);
  if (d < r.dtMin) {  // false for NaN: a diverged run keeps its NaN and the host reports it
    d = r.dtMin;
    *dtMinHit = 1;
  }
  return d;
}

}  // namespace sph
