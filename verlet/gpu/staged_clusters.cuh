// The GPU's interaction over cluster lists (verlet_clusters.h), the members staged in shared
// memory by rank.
//
// In each round the P lanes of a particle read P consecutive entries of its cluster, one each
// (the particles of a cluster read the same entries: with 8 lanes a warp is half a cluster), and
// place the members of their byte of the mask in the particle's stage at their ranks (a prefix
// sum over the P lanes by shuffles). Read directly, a lane would run the pair physics for
// the members of its own entry, 0 to 8 of them, and the warp would wait for its busiest lane;
// from the stage, lane `part` takes ranks part, part + P, ... and the lanes run the pair
// physics in step. A round adds at most 8 P members, so the stage (a ring of kClusterStage
// entries) is flushed when the next round could overflow some particle's; each flush takes the
// same number of ranks from every particle where it can (the particles of a warp differ in their
// members by entry). Ranks part (mod P) in ascending order: the CPU's forEachClusterMember gives
// each lane the same members in the same order.
#pragma once

#include <cstdint>

#include "../verlet_clusters.h"

namespace sph::verlet {

// Entries of a particle's stage, in rounds of 8 P (SPH_VERLET_CLUSTER_STAGE_ROUNDS overrides, for
// experiments): 4 rounds take 4 KiB a warp whatever P. 4 ran DamBreak's force pass faster than 2
// (more flushes) and than 8 (shared memory then limits occupancy; tools/bench/RESULTS.md).
#ifndef SPH_VERLET_CLUSTER_STAGE_ROUNDS
#define SPH_VERLET_CLUSTER_STAGE_ROUNDS 4
#endif
template <uint32_t P>
inline constexpr uint32_t kClusterStage = SPH_VERLET_CLUSTER_STAGE_ROUNDS * kClusterSize * P;

// Calls pair(j) for the members of a's list whose rank is part (mod P). Every lane of the warp
// must call this (a lane without a particle with active = false and any valid a). stage: the
// particle's kClusterStage<P> entries.
template <uint32_t P, typename Pair>
__device__ SPH_FORCEINLINE void stagedClusterMembers(const ClusterLists& l, uint32_t a, uint32_t part, bool active,
                                                     uint32_t* stage, Pair&& pair) {
  constexpr unsigned kAll = 0xffffffffu;
  constexpr uint32_t Q = kClusterStage<P>, kMostPerRound = kClusterSize * P;
  const uint32_t cluster = a / kClusterSize;
  const uint64_t begin = loadReadOnly(l.begin + cluster), last = begin + loadReadOnly(l.count + cluster);
  const uint32_t rounds = __reduce_max_sync(kAll, uint32_t((last - begin + P - 1) / P));
  const uint32_t shift = 8u * (a % kClusterSize);
  uint32_t total = 0, done = 0;  // ranks staged so far; ranks taken by the pair loop
  // One loop stages a round (while there are rounds) and then, when some stage could overflow in
  // the next round or the rounds are over, runs the pair loop: the pair physics is inlined once
  // (a second pair loop for the end made the pass slower).
  for (uint32_t r = 0;; ++r) {
    const bool more = r < rounds;  // the same in every lane
    if (more) {
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
    }
    // Mid-list, every particle of the warp takes as many ranks as the one with fewest has
    // waiting (so that the lanes run the pair loop in step), or more where needed to make room,
    // but never more than it has; at the end, all it has.
    const uint32_t waiting = total - done;
    uint32_t take = waiting;
    if (more) {
      const uint32_t most = __reduce_max_sync(kAll, waiting);
      if (most <= Q - kMostPerRound) continue;
      const uint32_t fewest = __reduce_min_sync(kAll, active ? waiting : ~0u);
      take = min(max(fewest, most - (Q - kMostPerRound)), waiting);
    }
    __syncwarp();
    for (uint32_t k = done + ((part - done) & (P - 1u)); k < done + take; k += P) pair(stage[k & (Q - 1u)]);
    done += take;
    if (!more) return;
    __syncwarp();
  }
}

}  // namespace sph::verlet
