// Counting and pair-enumeration kernels for stats() and the tests. They are never part of a
// timed pass: stats() runs the tally on demand.
#include "cell_gpu_launch.h"
#include "sph/plugin/gpu/cuda_check.cuh"
#include "sph/plugin/gpu/warp_reduce.cuh"

namespace sph::cell::gpu {

namespace {

using sph::gpu::groupSum;

template <typename T>
__global__ void __launch_bounds__(kBlock)
    tallyKernel(CellLookup l, const Real4<T>* __restrict__ pos, uint32_t n, uint32_t nBound, T radius2,
                unsigned long long* __restrict__ totals) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  CandidateTally t;
  if (a < n) t = particleTally(a, l, pos, nBound, radius2);  // no early return: the warp sums below
  const unsigned long long cand = groupSum(static_cast<unsigned long long>(t.candidates));
  const unsigned long long inRange = groupSum(static_cast<unsigned long long>(t.inRange));
  const unsigned long long self = groupSum(static_cast<unsigned long long>(t.self));
  if ((threadIdx.x & 31u) == 0) {
    atomicAdd(totals + 0, cand);
    atomicAdd(totals + 1, inRange);
    atomicAdd(totals + 2, self);
  }
}

template <typename T>
__global__ void __launch_bounds__(kBlock)
    pairCountKernel(CellLookup l, const Real4<T>* __restrict__ pos, uint32_t n, uint32_t nBound, T radius2,
                    uint32_t* __restrict__ counts) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  const CandidateTally t = particleTally(a, l, pos, nBound, radius2);
  counts[a] = t.inRange + t.self;
}

template <typename T>
__global__ void __launch_bounds__(kBlock)
    pairWriteKernel(CellLookup l, const Real4<T>* __restrict__ pos, uint32_t n, uint32_t nBound, T radius2,
                    const uint64_t* __restrict__ offsets, IndexPair* __restrict__ pairs) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  uint64_t k = offsets[a];
  particleNeighbours(a, l, pos, nBound, radius2, [&](uint32_t j) { pairs[k++] = IndexPair{a, j}; });
}

}  // namespace

template <typename T>
void launchCellTally(const CellLookup& l, const Real4<T>* pos, uint32_t n, uint32_t nBound, T radius2,
                     unsigned long long* totals) {
  SPH_CUDA_CHECK(cudaMemsetAsync(totals, 0, 3 * sizeof(unsigned long long), cudaStream_t(0)),
                 "resetting candidate counters");
  auto* kernel = &tallyKernel<T>;
  SPH_LAUNCH("counting neighbour candidates", n, kBlock, 0, kernel, l, pos, n, nBound, radius2, totals);
}

template <typename T>
void launchPairCounts(const CellLookup& l, const Real4<T>* pos, uint32_t n, uint32_t nBound, T radius2,
                      uint32_t* counts) {
  auto* kernel = &pairCountKernel<T>;
  SPH_LAUNCH("counting neighbour pairs", n, kBlock, 0, kernel, l, pos, n, nBound, radius2, counts);
}

template <typename T>
void launchPairWrite(const CellLookup& l, const Real4<T>* pos, uint32_t n, uint32_t nBound, T radius2,
                     const uint64_t* offsets, IndexPair* pairs) {
  auto* kernel = &pairWriteKernel<T>;
  SPH_LAUNCH("listing neighbour pairs", n, kBlock, 0, kernel, l, pos, n, nBound, radius2, offsets, pairs);
}

#define SPH_CELL_INSTANTIATE(T)                                                                            \
  template void launchCellTally(const CellLookup&, const Real4<T>*, uint32_t, uint32_t, T,                  \
                                unsigned long long*);                                                       \
  template void launchPairCounts(const CellLookup&, const Real4<T>*, uint32_t, uint32_t, T, uint32_t*);    \
  template void launchPairWrite(const CellLookup&, const Real4<T>*, uint32_t, uint32_t, T, const uint64_t*, \
                                IndexPair*);
SPH_CELL_INSTANTIATE(float)
SPH_CELL_INSTANTIATE(double)
#undef SPH_CELL_INSTANTIATE

}  // namespace sph::cell::gpu
