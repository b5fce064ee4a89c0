// The halo skin's places on the GPU: the saved places follow the sort, and the largest
// displacement since they were saved is a maximum over the particles.
#include <algorithm>
#include <cmath>

#include "../displacement.h"
#include "cell_gpu_launch.h"
#include "sph/plugin/gpu/cuda_check.cuh"
#include "sph/plugin/gpu/warp_reduce.cuh"

namespace sph::cell::gpu {

namespace {

// Enough blocks of kBlock threads to fill the GPU; more particles are taken in strides, so that
// the blocks' atomics stay few.
constexpr uint32_t kMaxBlocks = 2048;

template <typename T>
__global__ void __launch_bounds__(kBlock)
    gatherPlacesKernel(const Real4<T>* __restrict__ src, const uint32_t* __restrict__ perm, uint32_t n,
                       Real4<T>* __restrict__ dst) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Real4<T> p = src[perm[i]];
  dst[i] = {p.x, p.y, p.z, T(0)};
}

template <typename T>
__global__ void __launch_bounds__(kBlock)
    maxDisplacement2Kernel(const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ saved,
                           const uint32_t* __restrict__ code, uint32_t n, PeriodicBox<double> box,
                           unsigned long long* __restrict__ result) {
  double d2 = 0;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const double e = neighbours::displacement2(pos[i], saved[i], code ? code[i] : 0u, box);
    d2 = e == e ? fmax(d2, e) : HUGE_VAL;  // NaN: no bound (fmax would drop it)
  }
  __shared__ double warps[kBlock / 32];
  d2 = sph::gpu::groupMax(d2);
  if ((threadIdx.x & 31) == 0) warps[threadIdx.x / 32] = d2;
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (unsigned w = 1; w < kBlock / 32; ++w) d2 = fmax(d2, warps[w]);
  sph::gpu::atomicMaxNonNegative(result, d2);
}

}  // namespace

template <typename T>
void launchGatherPlaces(const Real4<T>* src, const uint32_t* perm, uint32_t n, Real4<T>* dst) {
  SPH_LAUNCH("saving the particles' places for the halo's skin", n, kBlock, 0, gatherPlacesKernel<T>, src, perm, n,
             dst);
}

template <typename T>
void launchMaxDisplacement2(const Real4<T>* pos, const Real4<T>* saved, const uint32_t* code, uint32_t n,
                            const PeriodicBox<double>& box, unsigned long long* result) {
  SPH_CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(unsigned long long), 0), "clearing the largest displacement");
  SPH_LAUNCH("measuring displacements since the halo's exchange", std::min(n, kMaxBlocks * kBlock), kBlock, 0,
             maxDisplacement2Kernel<T>, pos, saved, code, n, box, result);
}

template void launchGatherPlaces(const Real4<float>*, const uint32_t*, uint32_t, Real4<float>*);
template void launchGatherPlaces(const Real4<double>*, const uint32_t*, uint32_t, Real4<double>*);
template void launchMaxDisplacement2(const Real4<float>*, const Real4<float>*, const uint32_t*, uint32_t,
                                     const PeriodicBox<double>&, unsigned long long*);
template void launchMaxDisplacement2(const Real4<double>*, const Real4<double>*, const uint32_t*, uint32_t,
                                     const PeriodicBox<double>&, unsigned long long*);

}  // namespace sph::cell::gpu
