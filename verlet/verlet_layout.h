// The warp-interleaved neighbour lists of Takada et al. (2017), "Acceleration of SPH-based fluid
// simulation on GPU" (figures 8-10), shared by the CPU emulation and the CUDA kernels. Particles
// are taken in groups of 32 consecutive (sorted) particles, one GPU warp each. Within a group's
// region of the one 1-D index array, element k of the 32 lists is stored contiguously: entry k of
// lane L sits at regionStart + 32 k + L, so a warp reading its k-th neighbours reads 128
// consecutive bytes. A region holds 32 * (longest list of the group) entries; regionEnd is the
// inclusive prefix sum of the region sizes. Offsets are 64-bit: ~230 entries per particle
// overflow 32 bits past ~9 million particles.
#pragma once

#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "sph/plugin/hd.h"

namespace sph::verlet {

// How a list is stored: Indices, the layout of Takada et al. described above (a 32-bit index
// per member); Bitmask, a bit per build candidate in the same interleaving (verlet_bitmask.h);
// Clusters, entries shared by clusters of 8 particles, a j-cluster and a byte of mask per
// particle each (verlet_clusters.h).
enum class ListLayout : uint8_t { Indices, Bitmask, Clusters };
inline constexpr int kLayouts = 3;
inline const char* layoutName(ListLayout l) {
  return l == ListLayout::Bitmask ? "bitmask" : l == ListLayout::Clusters ? "clusters" : "indices";
}
inline std::optional<ListLayout> parseLayout(std::string_view s) {
  if (s == "indices") return ListLayout::Indices;
  if (s == "bitmask") return ListLayout::Bitmask;
  if (s == "clusters") return ListLayout::Clusters;
  return std::nullopt;
}

// VerletPairs: "once" (half lists and a force pass that gives each pair's terms to both of its
// particles, where the backend has it) or "twice" (every particle sums over all its neighbours).
inline constexpr std::string_view kDefaultPairs = "once";
// The option's value in lower case (the engine checks values without case), the default when absent.
inline std::string pairsOption(const std::map<std::string, std::string>& options) {
  const auto it = options.find("VerletPairs");
  std::string v = it == options.end() ? std::string(kDefaultPairs) : it->second;
  for (char& ch : v) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return v;
}

// Which of two fluid particles a != j holds their pair in half lists: the one before the other in
// the sorted order, so that a particle's members are the tail of each candidate range, read in
// order. Holding every other neighbour on each side (by the parity of a + j) gives the lists of a
// warp more even lengths (fewer idle lanes, less padding) but ran the force pass 10-15% slower
// (tools/bench/RESULTS.md).
SPH_HD inline bool holdsPair(uint32_t a, uint32_t j) { return a < j; }

inline constexpr uint32_t kWarp = 32;

// Lanes that share one particle's list in the interaction (kLanes*) and in the GPU's count
// pass (kCountLanes*): lane `part` of P takes every P-th entry (interaction) or candidate
// (count), k = part, part + P, ..., and the lanes add their sums by shuffles. One lane per
// particle leaves an H200 short of work: DamBreak's 171k particles make 1,340 blocks of 128
// threads, under one wave (ncu: 0.85 waves, 43% achieved occupancy, the warps stalled on L1
// loads 58% of the time). More lanes shorten each lane's chain of dependent loads (entry, then
// position) and put more warps in flight, against more shuffles at the end. Over whole runs on
// Hopper GPUs the interaction was fastest with 8 lanes on DamBreak (171k particles, 155 entries;
// each doubling from 1 lane was faster) and on DamBreak2D (21k particles, 27 entries; 16 lanes
// no faster). The 3D count over candidates was slower with 4 lanes than with 2; in 2D 8 and 16
// lanes count alike. The CPU emulation adds the parts in the GPU's order (addParts).
// SPH_VERLET_LANES_2D/3D and SPH_VERLET_COUNT_LANES_2D/3D override the counts, for experiments.
#ifndef SPH_VERLET_LANES_2D
#define SPH_VERLET_LANES_2D 8
#endif
#ifndef SPH_VERLET_LANES_3D
#define SPH_VERLET_LANES_3D 8
#endif
#ifndef SPH_VERLET_COUNT_LANES_2D
#define SPH_VERLET_COUNT_LANES_2D 8
#endif
#ifndef SPH_VERLET_COUNT_LANES_3D
#define SPH_VERLET_COUNT_LANES_3D 2
#endif
// Lanes per particle over bitmask lists (verlet_bitmask.h, gpu/staged_members.cuh): each lane
// walks every word of the particle's mask for its own bits, so more lanes repeat more of that
// work, and fewer leave each lane more pairs. 4 was the fastest of 1, 2, 4 and 8 on DamBreak and
// DamBreak2D (tools/bench/RESULTS.md).
#ifndef SPH_VERLET_MASK_LANES_2D
#define SPH_VERLET_MASK_LANES_2D 4
#endif
#ifndef SPH_VERLET_MASK_LANES_3D
#define SPH_VERLET_MASK_LANES_3D 4
#endif
inline constexpr uint32_t kLanes2D = SPH_VERLET_LANES_2D, kLanes3D = SPH_VERLET_LANES_3D;
inline constexpr uint32_t kMaskLanes2D = SPH_VERLET_MASK_LANES_2D, kMaskLanes3D = SPH_VERLET_MASK_LANES_3D;
inline constexpr uint32_t kCountLanes2D = SPH_VERLET_COUNT_LANES_2D, kCountLanes3D = SPH_VERLET_COUNT_LANES_3D;
constexpr bool validLanes(uint32_t l) { return l > 0 && kWarp % l == 0 && (l & (l - 1)) == 0; }
static_assert(validLanes(kLanes2D) && validLanes(kLanes3D) && validLanes(kCountLanes2D) && validLanes(kCountLanes3D) &&
                  validLanes(kMaskLanes2D) && validLanes(kMaskLanes3D),
              "lanes per particle: a power of 2 dividing 32");
// Lanes per particle in the interaction over cluster lists (verlet_clusters.h): with 8 a warp
// holds half an i-cluster, whose particles read the same entries; 8 lanes ran DamBreak's force
// pass faster than 4 (tools/bench/RESULTS.md; SPH_VERLET_CLUSTER_LANES overrides, for
// experiments).
#ifndef SPH_VERLET_CLUSTER_LANES
#define SPH_VERLET_CLUSTER_LANES 8
#endif
inline constexpr uint32_t kClusterLanes = SPH_VERLET_CLUSTER_LANES;
static_assert(validLanes(kClusterLanes), "lanes per particle: a power of 2 dividing 32");

inline constexpr uint32_t lanesPerParticle(int dim) { return dim == 2 ? kLanes2D : kLanes3D; }
inline constexpr uint32_t maskLanesPerParticle(int dim) { return dim == 2 ? kMaskLanes2D : kMaskLanes3D; }
inline constexpr uint32_t countLanesPerParticle(int dim) { return dim == 2 ? kCountLanes2D : kCountLanes3D; }

// Index of the lowest set bit of m != 0.
SPH_HD SPH_FORCEINLINE uint32_t lowestBit(uint32_t m) {
#if defined(__CUDA_ARCH__)
  return uint32_t(__ffs(int(m)) - 1);
#else
  return uint32_t(__builtin_ctz(m));
#endif
}

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
