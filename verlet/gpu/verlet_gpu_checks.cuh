// The skin's checks on the device: the top speed that sizes the skin, and the largest
// displacement since the build, each a maximum finished on the device.
// Included by verlet_gpu_backend.cu alone: its launches instantiate these kernels in that one
// translation unit (compiled with --use_fast_math), hence the anonymous namespace.
#pragma once

#include "neighbours/displacement.h"
#include "sph/plugin/gpu/warp_reduce.cuh"
#include "sph/plugin/periodic.h"
#include "sph/plugin/real4.h"
#include "verlet_gpu_launch.cuh"

namespace sph::verlet {
namespace {

// A maximum over all particles that finishes on the device: blocks fold into `bits`, and the
// last block to finish (counted after a fence) stores the result straight into mapped pinned
// host memory and clears the accumulator for the next use. A check then costs one launch,
// with no memset and no copy: DamBreak2D's steps are bound by launches (one check per step).
struct MaxReduction {
  unsigned long long bits = 0;  // a non-negative double as bits (atomicMax orders them)
  unsigned int blocksDone = 0;
};

// Every thread of the block calls this with its value (no thread may have returned).
__device__ inline void finishMax(double v, MaxReduction* acc, unsigned long long* result) {
  __shared__ bool last;
  v = sph::gpu::groupMax(v);
  if ((threadIdx.x & 31) == 0) sph::gpu::atomicMaxNonNegative(&acc->bits, v);
  __syncthreads();
  if (threadIdx.x != 0) return;
  last = sph::gpu::finishedLast(&acc->blocksDone);
  if (!last) return;
  *result = *static_cast<volatile unsigned long long*>(&acc->bits);
  acc->bits = 0;
  acc->blocksDone = 0;
}

template <typename T>
__global__ void __launch_bounds__(kBlock) maxSpeed2Kernel(const Real4<T>* __restrict__ velrho, uint32_t n,
                                                          MaxReduction* acc, unsigned long long* result) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double v2 = 0;
  if (i < n) {
    const Real4<T> v = velrho[i];
    v2 = double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z;
  }
  finishMax(v2, acc, result);
}

// Since the build (neighbours/displacement.h).
template <typename T>
__global__ void __launch_bounds__(kBlock) maxDisplacement2Kernel(const Real4<T>* __restrict__ pos,
                                                                 const Real4<T>* __restrict__ ref,
                                                                 const uint32_t* __restrict__ code, uint32_t n,
                                                                 PeriodicBox<double> box, MaxReduction* acc,
                                                                 unsigned long long* result) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double d2 = 0;
  if (i < n) d2 = neighbours::displacement2(pos[i], ref[i], code ? code[i] : 0u, box);
  finishMax(d2, acc, result);
}

}  // namespace
}  // namespace sph::verlet
