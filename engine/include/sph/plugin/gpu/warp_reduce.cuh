// Reductions across the lanes of a warp and across the blocks of a grid, for the .cu files of the
// engine, the neighbour toolkit and the plugins. All are exact for integers and for max/min; sums
// of floating-point values are added in the same order on every run (the butterfly below), so a
// pass is reproducible bit for bit.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

namespace sph::gpu {

inline constexpr unsigned kFullWarp = 0xffffffffu;

__device__ __forceinline__ double maxOf(double a, double b) { return fmax(a, b); }
__device__ __forceinline__ float maxOf(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ uint32_t maxOf(uint32_t a, uint32_t b) { return max(a, b); }
__device__ __forceinline__ double minOf(double a, double b) { return fmin(a, b); }

// The sum over each aligned group of Width lanes (a power of two up to 32), returned to every
// lane of the group; the lanes in `mask` must all take part.
template <unsigned Width = 32, typename V>
__device__ __forceinline__ V groupSum(V v, unsigned mask = kFullWarp) {
  for (unsigned o = Width / 2; o > 0; o /= 2) v += __shfl_xor_sync(mask, v, o, Width);
  return v;
}

// The maximum (minimum) over each aligned group of Width lanes, returned to every lane.
template <unsigned Width = 32, typename V>
__device__ __forceinline__ V groupMax(V v, unsigned mask = kFullWarp) {
  for (unsigned o = Width / 2; o > 0; o /= 2) v = maxOf(v, __shfl_xor_sync(mask, v, o, Width));
  return v;
}
template <unsigned Width = 32, typename V>
__device__ __forceinline__ V groupMin(V v, unsigned mask = kFullWarp) {
  for (unsigned o = Width / 2; o > 0; o /= 2) v = minOf(v, __shfl_xor_sync(mask, v, o, Width));
  return v;
}

// Non-negative doubles order like their bit patterns, so atomicMax on the bits is a max.
__device__ __forceinline__ void atomicMaxNonNegative(unsigned long long* dst, double v) {
  atomicMax(dst, static_cast<unsigned long long>(__double_as_longlong(v)));
}
__device__ __forceinline__ double doubleFromBits(unsigned long long bits) {
  return __longlong_as_double(static_cast<long long>(bits));
}

// A grid-wide reduction that finishes on the device, without a second launch: each block folds
// its result into global accumulators with atomics, then one thread per block calls this. It
// returns true in the one block that finishes last, which (after the fences) sees every block's
// atomics and can finish the reduction; `blocksDone` counts the blocks, and the last block must
// reset it to 0 for the next launch.
__device__ __forceinline__ bool finishedLast(unsigned int* blocksDone) {
  __threadfence();
  const bool last = atomicAdd(blocksDone, 1u) == gridDim.x - 1;
  if (last) __threadfence();
  return last;
}

}  // namespace sph::gpu
