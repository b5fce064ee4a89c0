// The GPU's interaction over cluster lists (verlet_clusters.h), the members staged in shared
// memory by rank.
//
// In each round the P lanes of a particle read P consecutive entries of its cluster, one each
// (the particles of a cluster read the same entries: with 4 lanes the warp is one cluster), and
// place the members of their byte of the mask in the particle's stage at their ranks (a prefix
// sum over the P lanes by shuffles). Read directly, a lane would run the pair physics for
// the members of its own entry, 0 to 8 of them, and the warp would wait for its busiest lane;
// from the stage, lane `part` takes ranks part, part + P, ... and the lanes run the pair
// physics in step. A round adds at most 8 P members, so the stage (16 P entries, a ring) is
// flushed when more than 8 P wait. Ranks part (mod P) in ascending order: the CPU's
// forEachClusterMember gives each lane the same members in the same order.
#pragma once

#include <cstdint>

#include "../verlet_clusters.h"

namespace sph::verlet {

// Entries of a particle's stage: 2 KiB a warp whatever P.
template <uint32_t P>
inline constexpr uint32_t kClusterStage = 16 * P;

// Calls pair(j) for the members of a's list whose rank is part (mod P). Every lane of the warp
// must call this (a lane without a particle with active = false and any valid a). stage: the
// particle's kClusterStage<P> entries.
template <uint32_t P, typename Pair>
__device__ SPH_FORCEINLINE void stagedClusterMembers(const ClusterLists& l, uint32_t a, uint32_t part, bool active,
                                                     uint32_t* stage, Pair&& pair) {
  constexpr unsigned kAll = 0xffffffffu;
  constexpr uint32_t Q = kClusterStage<P>, kMostPerRound = kClusterSize * P;
  const uint32_t cluster = a / kClusterSize;
  const uint64_t begin = cluster == 0 ? 0 : loadReadOnly(l.end + cluster - 1), last = loadReadOnly(l.end + cluster);
  const uint32_t rounds = __reduce_max_sync(kAll, uint32_t((last - begin + P - 1) / P));
  const uint32_t shift = 8u * (a % kClusterSize);
  uint32_t total = 0, done = 0;  // ranks staged so far; ranks taken by the pair loop
  auto flush = [&] {
    for (uint32_t k = done + ((part - done) & (P - 1u)); k < total; k += P) pair(stage[k & (Q - 1u)]);
    done = total;
  };
  for (uint32_t r = 0; r < rounds; ++r) {
    const uint64_t e = begin + uint64_t(r) * P + part;
    uint32_t m = 0, base = 0;
    if (active && e < last) {
      m = uint32_t(loadReadOnly(l.mask + e) >> shift) & 0xFFu;
      if (m) base = loadReadOnly(l.jcluster + e) * kClusterSize;
    }
    const uint32_t count = __popc(m);
    uint32_t upTo = count;  // inclusive prefix sum over the particle's lanes
    for (uint32_t d = 1; d < P; d <<= 1) {
      const uint32_t below = __shfl_up_sync(kAll, upTo, d, P);
      if (part >= d) upTo += below;
    }
    const uint32_t roundTotal = __shfl_sync(kAll, upTo, P - 1u, P);
    for (uint32_t slot = total + upTo - count; m; m &= m - 1u) stage[slot++ & (Q - 1u)] = base + lowestBit(m);
    total += roundTotal;
    if (__any_sync(kAll, total - done > Q - kMostPerRound)) {
      __syncwarp();
      flush();
      __syncwarp();
    }
  }
  __syncwarp();
  flush();
}

}  // namespace sph::verlet
