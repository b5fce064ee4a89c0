// Particle shifting (Lind et al. 2012, as DualSPHysics 5.4 applies it, JSphShifting): fluid
// particles move a little down the gradient of their own concentration, which keeps the particle
// distribution regular where the flow stretches it.
//
// The force pass sums, for every fluid particle a, over its neighbours b (pair_physics.h):
//   grad C_a = sum_b V_b grad_a W_ab        div r_a = -sum_b V_b r_ab . grad_a W_ab
// with V_b = m_b/rho_b. The integrator then moves a, on top of its velocity, by
//   delta r_a = A h |v_a| dt grad C_a,      A = ShiftCoef (default -2: down the gradient),
// each component clamped to +-dp/10. With ShiftTFS > 0 (free-surface threshold, typically 1.5 in
// 2D, 2.75 in 3D) particles with div r below it are not shifted and the others by the factor
// (div r - TFS)/(dim - TFS): div r falls from dim inside the fluid towards half that at a free
// surface, where shifting along a one-sided gradient would throw particles out of the water.
// The Shifting mode says which neighbours stop a particle's shift altogether: any boundary (1),
// fixed boundaries but not moving ones (2), none (3).
//
// The shift is applied where DualSPHysics applies it: by the symplectic corrector, with the sums
// and the velocity of its force pass (v at n+1/2) and the step's dt; and by every Verlet step,
// with the velocity at n. The predictor does not shift. Floating and boundary particles are
// never shifted (the integrators hold them). As DualSPHysics does, the magnitude is worked out
// in double precision from the float sums.
#pragma once

#include <cmath>

#include "sph/plugin/hd.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/real4.h"

namespace sph {

struct ShiftDisplacement {
  double x, y, z;
};

// The shift of one fluid particle from its sums (the force pass's output: zeros when a neighbour
// stopped it) and its velocity (vx, vy, vz) in the force pass.
template <typename T>
SPH_HD SPH_FORCEINLINE ShiftDisplacement shiftDisplacement(const Real4<T>& sums, T vx, T vy, T vz, double dt,
                                                           const PhysicsConstants<T>& c) {
  const double v = std::sqrt(double(vx) * double(vx) + double(vy) * double(vy) + double(vz) * double(vz));
  double magnitude = dt * double(c.shiftCoef) * double(c.h) * v;
  if (c.shiftTfs > T(0)) {
    const double tfs = double(c.shiftTfs);
    magnitude = double(sums.w) < tfs ? 0.0 : magnitude * (double(sums.w) - tfs) / (double(c.dim) - tfs);
  }
  const double limit = double(c.shiftMax);
  auto clamp = [&](T s) {
    // Rounded to the run's precision before the clamp (DualSPHysics rounds to float).
    const double d = double(T(double(s) * magnitude));
    return d > limit ? limit : d < -limit ? -limit : d;
  };
  return ShiftDisplacement{clamp(sums.x), clamp(sums.y), clamp(sums.z)};
}

}  // namespace sph
