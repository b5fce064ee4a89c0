// Smoothing kernels, header-only for host and device. Each kernel gives W(r) and the gradient
// factor F(r) = (1/r) dW/dr, so that grad_a W_ab = F * (r_a - r_b).
//
// Cubic spline (Monaghan & Lattanzio 1985), q = r/h, support 2h:
//   W = aD (1 - 1.5 q^2 + 0.75 q^3)      0 <= q < 1
//   W = aD 0.25 (2 - q)^3                 1 <= q < 2
//   aD = 1/(pi h^3) in 3D, 10/(7 pi h^2) in 2D.
// Wendland C2 (Wendland 1995), as DualSPHysics uses it:
//   W = aD (1 - q/2)^4 (2q + 1),  aD = 21/(16 pi h^3) in 3D, 7/(4 pi h^2) in 2D.
#pragma once

#include "sph/plugin/hd.h"
#include "sph/plugin/physics_constants.h"

namespace sph {

inline constexpr double kPi = 3.14159265358979323846;

inline double kernelNormalisation(KernelKind k, int dim, double h) {
  if (k == KernelKind::Cubic)
    return dim == 3 ? 1.0 / (kPi * h * h * h) : 10.0 / (7.0 * kPi * h * h);
  return dim == 3 ? 21.0 / (16.0 * kPi * h * h * h) : 7.0 / (4.0 * kPi * h * h);
}

template <KernelKind K, typename T>
SPH_HD SPH_FORCEINLINE T kernelW(T r, T h, T aD) {
  const T q = r / h;
  if constexpr (K == KernelKind::Cubic) {
    if (q < T(1)) return aD * (T(1) - T(1.5) * q * q + T(0.75) * q * q * q);
    const T s = T(2) - q;
    return q < T(2) ? aD * T(0.25) * s * s * s : T(0);
  } else {
    if (q >= T(2)) return T(0);
    const T s = T(1) - T(0.5) * q;
    const T s2 = s * s;
    return aD * s2 * s2 * (T(2) * q + T(1));
  }
}

// F(r) = (1/r) dW/dr, valid for 0 < r < 2h (callers test the support first).
template <KernelKind K, typename T>
SPH_HD SPH_FORCEINLINE T kernelGradFactor(T r, T h, T aD) {
  const T q = r / h;
  if constexpr (K == KernelKind::Cubic) {
    if (q < T(1)) return aD / (h * h) * (T(-3) + T(2.25) * q);
    const T s = T(2) - q;
    return T(-0.75) * aD / h * s * s / r;
  } else {
    const T s = T(1) - T(0.5) * q;
    return T(-5) * aD / (h * h) * s * s * s;
  }
}

// The pair loop's forms of the same kernels, with the constants of one simulation folded in
// (foldKernelConstants, called by foldDerivedConstants): no division by h, one reciprocal of r only where the cubic needs it.
// test_kernels checks them against kernelW/kernelGradFactor above.
template <typename T>
void foldKernelConstants(PhysicsConstants<T>& c) {
  const double h = double(c.h), aD = double(c.kernelNorm);
  c.invH = T(1 / h);
  c.gradA = T(c.kernel == KernelKind::Cubic ? aD / (h * h) : -5 * aD / (h * h));
  c.gradB = T(-0.75 * aD / h);
  c.cubicWRatio = c.cubicWdp != T(0) ? T(aD / double(c.cubicWdp)) : T(0);
}

// F(r) = (1/r) dW/dr for 0 < r < 2h.
template <KernelKind K, typename T>
SPH_HD SPH_FORCEINLINE T gradFactorFolded(T r, const PhysicsConstants<T>& c) {
  const T q = r * c.invH;
  if constexpr (K == KernelKind::Cubic) {
    if (q < T(1)) return c.gradA * (T(-3) + T(2.25) * q);
    const T s = T(2) - q;
    return c.gradB * s * s / r;
  } else {
    const T s = T(1) - T(0.5) * q;
    return c.gradA * s * s * s;
  }
}

// W(r)/W(h/1.5) of the cubic kernel for 0 < r < 2h (its tensile correction, see below).
template <typename T>
SPH_HD SPH_FORCEINLINE T cubicWOverWdp(T r, const PhysicsConstants<T>& c) {
  const T q = r * c.invH;
  if (q < T(1)) return c.cubicWRatio * (T(1) - T(1.5) * q * q + T(0.75) * q * q * q);
  const T s = T(2) - q;
  return c.cubicWRatio * T(0.25) * s * s * s;
}

// The particle spacing at which the cubic kernel's tensile correction is normalised,
// R_ab = (W_ab/W(dx))^4 ...: DualSPHysics fixes dx = h/1.5 (GetKernelCubic_Ctes, its "deltap"),
// not the case's dp, and its results carry that choice.
inline double cubicTensileSpacing(double h) { return h / 1.5; }

// Runtime-dispatched helpers for host code (tests, set-up); kernels use the templates.
inline double kernelWValue(KernelKind k, double r, double h, double aD) {
  return k == KernelKind::Cubic ? kernelW<KernelKind::Cubic>(r, h, aD)
                                : kernelW<KernelKind::Wendland>(r, h, aD);
}
inline double kernelGradValue(KernelKind k, double r, double h, double aD) {
  return k == KernelKind::Cubic ? kernelGradFactor<KernelKind::Cubic>(r, h, aD)
                                : kernelGradFactor<KernelKind::Wendland>(r, h, aD);
}

}  // namespace sph
