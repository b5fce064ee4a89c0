// Periodic boundaries (DualSPHysics' XPeriodicInc*, YPeriodicInc*, ZPeriodicInc* parameters with
// a zero shift): an axis may wrap with period L over [min, min + L). Pair distances along it
// take the minimum image, and the integrators put particles that leave through one side back
// in through the other. Header-only: every pair loop (CPU or CUDA, engine or plugin) and every
// integrator calls these.
//
// Contract: positions on a periodic axis lie in [min, min + L] (the integrators keep them
// there), so a coordinate difference is below L in magnitude and one shift gives the minimum
// image. Every interaction radius used with it must be below L/2, where the image is unique.
#pragma once

#include "sph/plugin/hd.h"

namespace sph {

template <typename T>
struct PeriodicBox {
  T min[3] = {T(0), T(0), T(0)};     // lower end of the periodic range of each axis
  T length[3] = {T(0), T(0), T(0)};  // the period of each axis; 0: the axis is open

  SPH_HD bool periodic(int axis) const { return length[axis] > T(0); }
  SPH_HD bool any() const { return periodic(0) || periodic(1) || periodic(2); }
};

// The minimum image of a coordinate difference along one axis. The branch on `length` is the
// same for every pair of a run (uniform on the GPU): an open axis costs one compare.
template <typename T>
SPH_HD SPH_FORCEINLINE T minimumImage(T d, T length) {
  if (length > T(0)) {
    const T half = T(0.5) * length;
    if (d > half)
      d -= length;
    else if (d < -half)
      d += length;
  }
  return d;
}

// r_a - r_b under the minimum image (the plain difference on open axes).
template <typename T, typename P>
SPH_HD SPH_FORCEINLINE void pairDelta(const P& a, const P& b, const PeriodicBox<T>& box, T& dx, T& dy, T& dz) {
  dx = minimumImage(T(a.x - b.x), box.length[0]);
  dy = minimumImage(T(a.y - b.y), box.length[1]);
  dz = minimumImage(T(a.z - b.z), box.length[2]);
}

// The same with periodicity known at compile time: the hot pair loops are instantiated for
// open boxes (no periodic axis) and for periodic ones, because three uniform compares per
// candidate cost ~40% of the cell plugin's force pass with cells of h on DamBreak
// (tools/bench/RESULTS.md).
template <bool Periodic, typename T, typename P>
SPH_HD SPH_FORCEINLINE void pairDeltaIf(const P& a, const P& b, const PeriodicBox<T>& box, T& dx, T& dy, T& dz) {
  if constexpr (Periodic) {
    pairDelta(a, b, box, dx, dy, dz);
  } else {
    (void)box;
    dx = T(a.x - b.x);
    dy = T(a.y - b.y);
    dz = T(a.z - b.z);
  }
}

// A coordinate put back into [min, min + L) after a step of less than one period.
template <typename T>
SPH_HD SPH_FORCEINLINE T wrapCoordinate(T x, T min, T length) {
  if (length > T(0)) {
    if (x < min)
      x += length;
    else if (x >= min + length)
      x -= length;
  }
  return x;
}

template <typename T, typename P>
SPH_HD SPH_FORCEINLINE void wrapPosition(P& p, const PeriodicBox<T>& box) {
  p.x = wrapCoordinate(p.x, box.min[0], box.length[0]);
  p.y = wrapCoordinate(p.y, box.min[1], box.length[1]);
  p.z = wrapCoordinate(p.z, box.min[2], box.length[2]);
}

}  // namespace sph
