// Positions of single-precision runs to double accuracy.
//
// A single-precision run keeps each position as two floats: pos, the position rounded to the
// nearest float, which every pair kernel reads, and posLo, what the rounding left over, so that
// pos + posLo holds some 48 bits. With pos alone a step's move v dt smaller than half the float
// spacing at the particle's coordinate would be rounded away: at dt = 2.3e-5 s that is any speed
// below 5 mm/s at x = 2 m, 21 mm/s at x = 10 m, the slow creep of nearly still water, whose
// density still sees the velocity while its positions no longer follow (a floating box at rest
// drifted off that way). DualSPHysics keeps positions in double in its single-precision runs
// for the same reason.
//
// Every pass that moves a particle reads its position in double with loadPosition(), adds the
// move in double and writes it back with storePosition(); the pair kernels keep reading the
// float pos, whose error stays below one float spacing and does not grow. Double-precision runs
// have no posLo (null): the two functions are then a plain read and write.
#pragma once

#include <cstdint>

#include "sph/plugin/hd.h"
#include "sph/plugin/real4.h"

namespace sph {

// x = pos + posLo (lo: the posLo element of the particle, or null).
template <typename T>
SPH_HD SPH_FORCEINLINE void loadPosition(const Real4<T>& pos, const Real4<T>* lo, double x[3]) {
  x[0] = double(pos.x);
  x[1] = double(pos.y);
  x[2] = double(pos.z);
  if (lo) {
    const Real4<T> l = *lo;
    x[0] += double(l.x);
    x[1] += double(l.y);
    x[2] += double(l.z);
  }
}

// The float v, which the compiler may not look through. GCC 12's SLP vectorizer (-O2, x86-64)
// folds double(float(x)) back to x when it packs two lanes of storePosition() below, which would
// make every remainder zero; an empty asm statement that may change v stops that.
template <typename T>
SPH_HD SPH_FORCEINLINE T opaque(T v) {
#if defined(__GNUC__) && !defined(__CUDA_ARCH__)
  __asm__("" : "+m"(v));
#endif
  return v;
}

// pos = x rounded (pos.w stays), posLo = the remainder (lo null: pos alone, as the symplectic
// predictor writes its half-step positions, leaving posLo to the corrector, which starts again
// from the step's start).
template <typename T>
SPH_HD SPH_FORCEINLINE void storePosition(Real4<T>& pos, Real4<T>* lo, const double x[3]) {
  const T hx = T(x[0]), hy = T(x[1]), hz = T(x[2]);
  pos.x = hx;
  pos.y = hy;
  pos.z = hz;
  if (lo)
    *lo = Real4<T>{T(x[0] - double(opaque(hx))), T(x[1] - double(opaque(hy))), T(x[2] - double(opaque(hz))), T(0)};
}

// The posLo element of particle i, or null when the run keeps none.
template <typename T>
SPH_HD SPH_FORCEINLINE Real4<T>* positionLo(Real4<T>* posLo, uint32_t i) {
  return posLo ? posLo + i : nullptr;
}
template <typename T>
SPH_HD SPH_FORCEINLINE const Real4<T>* positionLo(const Real4<T>* posLo, uint32_t i) {
  return posLo ? posLo + i : nullptr;
}

}  // namespace sph
