// The halo skin's places on the GPU: the saved places follow the sort, and the largest
// displacement since they were saved is a maximum over the particles; so is the halo's drift
// from the cells its copies were sorted into (CellBackend::haloDrift).
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

// *result = max(*result, the largest v of the block's threads), v >= 0 or +infinity; every thread
// of the kBlock calls it.
__device__ void blockMaxInto(double v, unsigned long long* result) {
  __shared__ double warps[kBlock / 32];
  v = sph::gpu::groupMax(v);
  if ((threadIdx.x & 31) == 0) warps[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x != 0) return;
  for (unsigned w = 1; w < kBlock / 32; ++w) v = fmax(v, warps[w]);
  sph::gpu::atomicMaxNonNegative(result, v);
}

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
  blockMaxInto(d2, result);
}

template <typename T>
__global__ void __launch_bounds__(kBlock)
    haloDriftKernel(CellLookup l, const Real4<T>* __restrict__ pos, const uint32_t* __restrict__ code, uint32_t n,
                    unsigned long long* __restrict__ result) {
  double e = 0;
  for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    if (code::isHalo(code[i]) && !code::isParked(code[i])) {  // a parked copy is nobody's neighbour
      const double out = double(cellOutside(l, l.keys[i], pos[i]));
      if (out > e) e = out;  // a copy that is not a number is nobody's neighbour
    }
  blockMaxInto(e, result);
}

}  // namespace

template <typename T>
void launchHaloDrift(const CellLookup& l, const Real4<T>* pos, const uint32_t* code, uint32_t n,
                     unsigned long long* result) {
  SPH_CUDA_CHECK(cudaMemsetAsync(result, 0, sizeof(unsigned long long), 0), "clearing the halo's drift");
  if (n == 0) return;
  SPH_LAUNCH("measuring how far the halo's copies left their cells", std::min(n, kMaxBlocks * kBlock), kBlock, 0,
             haloDriftKernel<T>, l, pos, code, n, result);
}

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
template void launchHaloDrift(const CellLookup&, const Real4<float>*, const uint32_t*, uint32_t, unsigned long long*);
template void launchHaloDrift(const CellLookup&, const Real4<double>*, const uint32_t*, uint32_t, unsigned long long*);

}  // namespace sph::cell::gpu
