// What the gauges sum at a point x over the fluid particles j within 2h (gauges/gauge_sampler.h), in
// double whatever the run's precision, for the host sampler and the GPU gauge kernel alike:
//   V_j W(|x - x_j|), V_j = m / rho_j     the Shepard sum; times v_j or p_j for the others
//   p_j = B ((rho_j / rho0)^gamma - 1)      Tait, from the particle's density
// and for the maxz and force gauges (DualSPHysics JGaugeMaxZ, JGaugeForce):
//   maxz   the highest fluid particle whose horizontal distance to a vertical line is at most
//          distlimit, between the line's bottom and top
//   force  on boundary particle a, the pressure term of the momentum equation from its fluid
//          neighbours b only (no viscosity, no other boundary):
//            a_a = -sum_b m_f (p_a + p_b) / (rho_a rho_b) grad_a W_ab
//          with the Wendland kernel whatever the case's kernel (DualSPHysics' gauges have no
//          other); the gauge writes m_bound sum_a a_a.
// In 2D the y coordinate is ignored (the particles lie in one plane).
// Every gauge sums with the Wendland kernel, whatever the case's kernel: DualSPHysics' gauges have no
// other (JSph computes the Wendland constants for them when the case uses the cubic spline).
#pragma once

#include <cmath>

#include "sph/plugin/hd.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/sph_kernels.h"

namespace sph {

// The kernel a run's gauges use (see above); GaugeSumParams and GaugeKernel still take any, for tests.
inline constexpr KernelKind kGaugeKernel = KernelKind::Wendland;

struct GaugeSumParams {
  KernelKind kernel = KernelKind::Wendland;
  int dim = 3;
  double h = 0, aD = 0;  // smoothing length and the kernel's normalisation
  double support2 = 0;   // (2h)^2
  double massFluid = 0;  // m of one fluid particle
  double rho0 = 1000, cteB = 0, gamma = 7;
  double aWendland = 0;  // the Wendland kernel's normalisation, for the force gauge
};

inline GaugeSumParams makeGaugeSumParams(KernelKind kernel, int dim, double h, double massFluid, double rho0 = 1000,
                                         double cteB = 0, double gamma = 7) {
  GaugeSumParams k{kernel, dim, h, kernelNormalisation(kernel, dim, h), 4 * h * h, massFluid, rho0, cteB, gamma};
  k.aWendland = kernelNormalisation(KernelKind::Wendland, dim, h);
  return k;
}

// Tait's pressure in double from a stored density; gamma 7 (water) by multiplications, as in the
// physics: pow() for every particle of every gauge sample was a good part of its cost.
SPH_HD inline double gaugeTaitPressure(double rho, const GaugeSumParams& k) {
  const double x = rho / k.rho0;
  if (k.gamma == 7.0) {
    const double x2 = x * x;
    return k.cteB * (x2 * x2 * x2 * x - 1.0);
  }
  return k.cteB * (pow(x, k.gamma) - 1.0);
}

// V_j W(r) of a fluid particle of density rho at distance r < 2h (callers test the support).
template <KernelKind K>
SPH_HD SPH_FORCEINLINE double gaugeVolumeWeight(double r, double rho, const GaugeSumParams& k) {
  return k.massFluid / rho * kernelW<K>(r, k.h, k.aD);
}

inline double gaugeVolumeWeightValue(double r, double rho, const GaugeSumParams& k) {
  return k.kernel == KernelKind::Cubic ? gaugeVolumeWeight<KernelKind::Cubic>(r, rho, k)
                                       : gaugeVolumeWeight<KernelKind::Wendland>(r, rho, k);
}

// The squared distance from x to particle position (px, py, pz) as the gauges measure it.
SPH_HD SPH_FORCEINLINE double gaugeDistance2(const double x[3], double px, double py, double pz, int dim) {
  const double dx = x[0] - px, dy = dim == 2 ? 0.0 : x[1] - py, dz = x[2] - pz;
  return dx * dx + dy * dy + dz * dz;
}

// Whether a fluid particle at (px, py, pz) is near the maxz line going up from x0 by `height`:
// horizontal distance squared at most distLimit2, z in [x0[2], x0[2] + height]. In 2D only x
// counts horizontally.
SPH_HD SPH_FORCEINLINE bool nearMaxZLine(const double x0[3], double height, double distLimit2, double px, double py,
                                         double pz, int dim) {
  const double dx = x0[0] - px, dy = dim == 2 ? 0.0 : x0[1] - py;
  return dx * dx + dy * dy <= distLimit2 && pz >= x0[2] && pz <= x0[2] + height;
}

// The force gauge's term of fluid particle b on boundary particle a, added to ace: dr = x_a - x_b
// (y zeroed in 2D), r2 = |dr|^2 < (2h)^2, pa, pb their Tait pressures. A coincident pair adds
// nothing (dr = 0; the Wendland gradient factor is finite there).
SPH_HD SPH_FORCEINLINE void addWallPressureAce(const double dr[3], double r2, double pa, double rhoa, double pb,
                                               double rhob, const GaugeSumParams& k, double ace[3]) {
  const double f = kernelGradFactor<KernelKind::Wendland>(sqrt(r2), k.h, k.aWendland);
  const double c = -k.massFluid * (pa + pb) / (rhoa * rhob) * f;
  for (int a = 0; a < 3; ++a) ace[a] += c * dr[a];
}

}  // namespace sph
