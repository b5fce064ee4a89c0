// The list build's kernels (Takada et al.'s steps 1, 2 and 4; step 3 is CUB's scan in
// verlet_gpu_backend.cu), for index and bitmask lists; cluster lists are built by cluster_build.cuh.
// Included by verlet_gpu_backend.cu alone: its launches instantiate these kernels in that one
// translation unit (compiled with --use_fast_math), hence the anonymous namespace.
#pragma once

#include "../verlet_bitmask.h"
#include "../verlet_particle_ops.h"
#include "sph/plugin/gpu/warp_reduce.cuh"
#include "staged_fill.cuh"
#include "verlet_gpu_launch.cuh"

namespace sph::verlet {
namespace {

__global__ void __launch_bounds__(kBlock) splitXyZKernel(const Real4<double>* __restrict__ pos, uint32_t n,
                                                        double2* __restrict__ xy, double* __restrict__ z) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Real4<double> p = pos[i];
  xy[i] = double2{p.x, p.y};
  z[i] = p.z;
}

// Step 1: the length of each list; the Lanes lanes of a particle (adjacent: t = Lanes a +
// part, verlet_layout.h) count a share of its candidates each and add their counts by shuffles.
template <typename T, typename Source, bool Periodic, uint32_t Lanes>
__global__ void __launch_bounds__(kBlock)
    countKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2, bool once,
                uint32_t* __restrict__ length, Scalars* __restrict__ out) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = t / Lanes, part = t % Lanes;
  const uint32_t count = a < n ? countList<Periodic, Lanes>(a, part, l, pos, nBound, rc2, once) : 0;
  uint32_t total = count;
  total = sph::gpu::groupSum<Lanes>(total);
  if (a < n && part == 0) length[a] = total;
  const unsigned long long sum = sph::gpu::groupSum(static_cast<unsigned long long>(count));
  if ((threadIdx.x & 31) == 0 && sum > 0) atomicAdd(&out->members, sum);  // statistics only
}

// Step 2: per group of 32 particles (one warp here, one thread per particle), the region size
// 32 * (longest list) by __shfl_xor_sync. Threads past n take part with length 0.
__global__ void __launch_bounds__(kBlock)
    regionSizeKernel(const uint32_t* __restrict__ length, uint32_t n, unsigned long long* __restrict__ regionSize) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t longest = a < n ? length[a] : 0;
  longest = sph::gpu::groupMax(longest);
  if ((threadIdx.x & 31) == 0 && a < n) regionSize[a / kWarp] = static_cast<unsigned long long>(longest) * kWarp;
}

// Step 4: one thread per particle, a warp per group, stores staged in shared memory
// (staged_fill.cuh).
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kBlock)
    fillKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2, bool once,
               const unsigned long long* __restrict__ regionEnd, uint32_t* __restrict__ entries) {
  __shared__ uint32_t stage[kBlock / kWarp][kStageRows][kWarp];
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  stagedFillList<Periodic>(a, n, l, pos, nBound, rc2, reinterpret_cast<const uint64_t*>(regionEnd), entries,
                           stage[threadIdx.x / kWarp], once);
}

// Step 1 of a bitmask build: the words of each mask (its candidates; no distances needed).
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kBlock)
    maskCountKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, uint32_t* __restrict__ length) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a < n) length[a] = maskWords(candidateCount<Periodic, T>(a, l, pos, nBound));
}

// Step 4 of a bitmask build: one thread per particle writes its words and counts its members.
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kBlock)
    maskFillKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2,
                   const unsigned long long* __restrict__ regionEnd, uint32_t* __restrict__ words,
                   Scalars* __restrict__ out) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t members = 0;
  if (a < n) members = fillMask<Periodic>(a, l, pos, nBound, rc2, reinterpret_cast<const uint64_t*>(regionEnd), words);
  const unsigned long long sum = sph::gpu::groupSum(static_cast<unsigned long long>(members));
  if ((threadIdx.x & 31) == 0 && sum > 0) atomicAdd(&out->members, sum);
}

}  // namespace
}  // namespace sph::verlet
