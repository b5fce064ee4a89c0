// The warp-interleaved neighbour lists of the seed paper (figures 8-10), shared by the CPU
// emulation and the CUDA kernels. Particles are taken in groups of 32 consecutive (sorted)
// particles, one GPU warp each. Within a group's region of the one 1-D index array, element k
// of the 32 lists is stored contiguously: entry k of lane L sits at regionStart + 32 k + L, so
// a warp reading its k-th neighbours reads 128 consecutive bytes. A region holds
// 32 * (longest list of the group) entries; regionEnd is the inclusive prefix sum of the region
// sizes. Offsets are 64-bit: ~230 entries per particle overflow 32 bits past ~9 million particles.
#pragma once

#include <cstdint>

#include "sph/hd.h"

namespace sph::verlet {

inline constexpr uint32_t kWarp = 32;

// Lanes that share one particle's list in the build and the interaction: each takes every
// kLanesPerParticle-th candidate (build) or entry (interaction), and the build writes the parts
// one after the other. One lane per particle leaves an H200 short of work: DamBreak's 171k
// particles make 1,340 blocks of 128 threads, under one wave (ncu: 0.85 waves, 43% achieved
// occupancy, the warps stalled on L1 loads 58% of the time), so two lanes per particle double
// the warps that hide that latency. The CPU emulation splits the same way, so its lists hold
// the members in the GPU's order.
inline constexpr uint32_t kLanesPerParticle = 2;

SPH_HD SPH_FORCEINLINE uint32_t warpCount(uint32_t n) { return (n + kWarp - 1) / kWarp; }

// Read-only view of one build's lists (device pointers on the GPU, host pointers on the CPU).
struct ListsView {
  const uint32_t* entries = nullptr;    // the interleaved index array
  const uint64_t* regionEnd = nullptr;  // per group: inclusive prefix sum of region sizes
  const uint32_t* length = nullptr;     // per particle: entries in its list
  uint32_t n = 0;
};

SPH_HD SPH_FORCEINLINE uint64_t regionStart(const uint64_t* regionEnd, uint32_t group) {
  return group == 0 ? 0 : regionEnd[group - 1];
}

// Index into `entries` of entry k of particle a's list.
SPH_HD SPH_FORCEINLINE uint64_t entrySlot(const uint64_t* regionEnd, uint32_t a, uint32_t k) {
  return regionStart(regionEnd, a / kWarp) + uint64_t(k) * kWarp + (a % kWarp);
}

}  // namespace sph::verlet
