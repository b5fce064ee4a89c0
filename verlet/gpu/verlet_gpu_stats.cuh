// The lists' statistics (verlet_stats.h) gathered on the device, for every layout.
// Included by verlet_gpu_backend.cu alone: its launches instantiate these kernels in that one
// translation unit (compiled with --use_fast_math), hence the anonymous namespace.
#pragma once

#include "../verlet_bitmask.h"
#include "../verlet_clusters.h"
#include "../verlet_particle_ops.h"
#include "../verlet_stats.h"
#include "sph/plugin/gpu/warp_reduce.cuh"
#include "verlet_gpu_launch.cuh"

namespace sph::verlet {
namespace {

// The sums behind ListStats (verlet_stats.h), gathered on the device: copying every list to the
// host and walking it on one thread took half a minute for 18 million particles.
struct StatsCounters {
  unsigned long long members = 0, inSupport = 0, laneIterations = 0, idle = 0;
  unsigned int longest = 0;
};

// One warp per interaction warp (kWarp / P particles of P lanes each), with the interaction's
// mapping: lane L is lane L % P of particle first + L / P and looks at entry i P + L % P at
// iteration i (verlet_stats.cpp counts the same on the host). The distance is summed without
// fused multiply-adds, as the host sums it, so both give the same counts.
template <typename T>
__global__ void __launch_bounds__(kBlock) listStatsKernel(ListsView lists, const Real4<T>* __restrict__ pos,
                                                          uint32_t lanes, double support2, PeriodicBox<double> box,
                                                          StatsCounters* __restrict__ out) {
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t perWarp = kWarp / lanes;
  const uint32_t first = ((blockIdx.x * blockDim.x + threadIdx.x) / 32) * perWarp;
  if (first >= lists.n) return;  // the whole warp
  const uint32_t last = min(lists.n, first + perWarp);
  const uint32_t a = first + lane / lanes, part = lane % lanes;
  const bool active = a < last;
  const uint32_t length = active ? lists.length[a] : 0;
  const uint32_t longest = sph::gpu::groupMax(length);
  const uint32_t iterations = (longest + lanes - 1) / lanes, busyLanes = (last - first) * lanes;
  Real4<double> p{0, 0, 0, 0};
  if (active) p = Real4<double>{double(pos[a].x), double(pos[a].y), double(pos[a].z), 0.0};
  unsigned long long members = 0, inSupport = 0, idle = 0;
  for (uint32_t i = 0; i < iterations; ++i) {
    const uint32_t k = i * lanes + part;
    bool in = false;
    if (active && k < length) {
      ++members;
      const Real4<T> q = pos[lists.entries[entrySlot(lists.regionEnd, a, k)]];
      double dx, dy, dz;
      pairDelta(p, Real4<double>{double(q.x), double(q.y), double(q.z), 0.0}, box, dx, dy, dz);
      in = __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz)) < support2;
    }
    const unsigned busy = __popc(__ballot_sync(sph::gpu::kFullWarp, in));
    inSupport += in;
    if (busy > 0) idle += busyLanes - busy;
  }
  members = sph::gpu::groupSum(members);
  inSupport = sph::gpu::groupSum(inSupport);
  if (lane != 0) return;
  atomicAdd(&out->members, members);
  atomicAdd(&out->inSupport, inSupport);
  atomicAdd(&out->laneIterations, static_cast<unsigned long long>(iterations) * busyLanes);
  atomicAdd(&out->idle, idle);
  atomicMax(&out->longest, longest);
}

// The members of a bitmask or a cluster list that lane `part` of P takes, in order, for
// rankedStatsKernel.
template <typename R>
struct MaskMembers {
  MaskLists<R> m;
  template <typename Fn>
  __device__ void operator()(uint32_t a, uint32_t part, uint32_t P, Fn&& fn) const {
    forEachMaskMember<true>(a, part, P, m.words, m.cells, m.built[a], m.nBound, fn);
  }
};
struct ClusterMembers {
  ClusterLists l;
  template <typename Fn>
  __device__ void operator()(uint32_t a, uint32_t part, uint32_t P, Fn&& fn) const {
    forEachClusterMember(l, a, part, P, fn);
  }
};

// listStatsKernel for bitmask and cluster lists (verlet_stats.h, maskListStats and
// clusterListStats: iteration i of a lane is its i-th member). The iterations where some lane of the warp has a pair within the support are
// marked in shared memory; a warp's lanes past kBusyIterations (lists of over 16 thousand
// members at 8 lanes) count as busy.
constexpr uint32_t kBusyWords = 64, kBusyIterations = 32 * kBusyWords;
template <typename T, typename Members>
__global__ void __launch_bounds__(kBlock) rankedStatsKernel(Members members, uint32_t n,
                                                            const Real4<T>* __restrict__ pos, uint32_t lanes,
                                                            double support2, PeriodicBox<double> box,
                                                            StatsCounters* __restrict__ out) {
  __shared__ uint32_t busyBits[kBlock / 32][kBusyWords];
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  uint32_t* const busy = busyBits[warp];
  for (uint32_t k = lane; k < kBusyWords; k += 32) busy[k] = 0;
  __syncwarp();
  const uint32_t perWarp = kWarp / lanes;
  const uint32_t first = ((blockIdx.x * blockDim.x + threadIdx.x) / 32) * perWarp;
  if (first >= n) return;  // the whole warp
  const uint32_t last = min(n, first + perWarp);
  const uint32_t a = first + lane / lanes, part = lane % lanes;
  uint32_t i = 0;
  unsigned long long inSupport = 0;
  if (a < last) {
    const Real4<double> p{double(pos[a].x), double(pos[a].y), double(pos[a].z), 0.0};
    members(a, part, lanes, [&](uint32_t j) {
      const Real4<T> q = pos[j];
      double dx, dy, dz;
      pairDelta(p, Real4<double>{double(q.x), double(q.y), double(q.z), 0.0}, box, dx, dy, dz);
      if (__dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz)) < support2) {
        ++inSupport;
        if (i < kBusyIterations) atomicOr(&busy[i / 32], 1u << (i % 32));
      }
      ++i;
    });
  }
  __syncwarp();
  uint32_t length = i;  // the particle's members: the sum over its lanes
  for (uint32_t o = 1; o < lanes; o <<= 1) length += __shfl_xor_sync(sph::gpu::kFullWarp, length, o);
  const uint32_t iterations = sph::gpu::groupMax(i);
  const uint32_t longest = sph::gpu::groupMax(a < last ? length : 0u);
  const unsigned long long memberSum = sph::gpu::groupSum(static_cast<unsigned long long>(i));
  inSupport = sph::gpu::groupSum(inSupport);
  uint32_t busyIterations = 0;
  for (uint32_t k = lane; k < kBusyWords; k += 32) busyIterations += __popc(busy[k]);
  busyIterations = sph::gpu::groupSum(busyIterations);
  if (iterations > kBusyIterations) busyIterations += iterations - kBusyIterations;
  if (lane != 0) return;
  const unsigned long long busyLanes = (last - first) * lanes;
  atomicAdd(&out->members, memberSum);
  atomicAdd(&out->inSupport, inSupport);
  atomicAdd(&out->laneIterations, static_cast<unsigned long long>(iterations) * busyLanes);
  atomicAdd(&out->idle, busyIterations * busyLanes - inSupport);
  atomicMax(&out->longest, longest);
}

}  // namespace
}  // namespace sph::verlet
