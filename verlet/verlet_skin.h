// The list radius and rebuild rule of Takada et al. (2017), "Acceleration of SPH-based fluid
// simulation on GPU" (eq. 1-3), with the choices it leaves open.
//   Rc = 2h + dh,   dh = 2 Vmax C dt
// C (parameter VerletListSteps) is the number of steps a list should last at the current
// fastest speed Vmax; dt is the last step's dt; both are taken at each rebuild. The paper
// accumulates D_i += |v_i| dt and rebuilds when some D_i > dh/2. We use the exact displacement
// since the build, |x_i - x_i^build| <= D_i, which needs no per-step accumulation and is exactly
// as safe: a pair farther than Rc at the build can come within 2h only after the two particles
// moved dh relative to each other, which needs |d_i| + |d_j| >= dh, so max |d_i| < dh/2 keeps
// every pair within 2h in the lists.
#pragma once

#include <algorithm>

namespace sph::verlet {

struct SkinRule {
  double support = 0;       // 2h
  double steps = 8;         // C
  double minFraction = 0.01;  // dh >= this * 2h: a fluid at rest still gets a skin
  double maxFraction = 0.5;   // dh <= this * 2h: bounds list length whatever Vmax dt is
};

inline double skinWidth(const SkinRule& r, double vmax, double dt) {
  const double dh = 2.0 * vmax * r.steps * dt;
  return std::clamp(dh, r.minFraction * r.support, r.maxFraction * r.support);
}

// True when the lists built with skin dh may miss a pair within the support.
inline bool needsRebuild(double maxDisplacement2, double dh) { return maxDisplacement2 * 4.0 > dh * dh; }

}  // namespace sph::verlet
