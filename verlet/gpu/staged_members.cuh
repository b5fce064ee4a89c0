// The GPU's interaction over bitmask lists, with the members staged in shared memory.
//
// Walked directly (forEachMaskMember), a lane runs the pair physics inside the loops over its
// rows, ranges and words, and the particles of a warp reach their members in different ranges:
// the warp runs each range for as long as its busiest lane there. Here each lane first decodes its members of a few rows into its
// own column of a shared stage, and the warp then runs the pair physics over the stage in step
// (entry i of every lane at once), as over index lists. The decoding stops at a range
// boundary (reached by all lanes together: every particle of a grid makes the same row calls)
// when some lane's column could overflow; a range longer than a column is taken directly.
// Each lane sums its members in ascending bit order, as maskForces() on the CPU.
#pragma once

#include <cstdint>

#include "../verlet_bitmask.h"

namespace sph::verlet {

// Entries per lane of the stage (SPH_VERLET_MASK_STAGE overrides, for experiments): 32 take
// 4 KiB of shared memory per warp.
#ifndef SPH_VERLET_MASK_STAGE
#define SPH_VERLET_MASK_STAGE 32
#endif
inline constexpr uint32_t kMaskStage = SPH_VERLET_MASK_STAGE;

// Calls pair(j) for the members of a's mask that lane `part` of P takes. Every lane of the warp
// must call this (a lane without a particle with active = false and any valid a). Every lane
// walks the particle's rows (sharing them among the lanes by shuffles was 6% faster, but the
// row-at-a-time cell iteration it needed slowed the CPU's cell search; tools/bench/RESULTS.md).
template <bool Periodic, uint32_t P, typename R, typename Pair>
__device__ SPH_FORCEINLINE void stagedMaskMembers(uint32_t a, uint32_t part, bool active, const MaskLists<R>& m,
                                                  const Real4<R>& builtA, uint32_t (*stage)[kWarp], Pair&& pair) {
  constexpr unsigned kAll = 0xffffffffu;
  const uint32_t lane = threadIdx.x & 31u;
  const uint32_t* const w = m.words.entries + regionStart(m.words.regionEnd, a / kWarp) + (a % kWarp);
  const uint32_t mine = lanePattern(P, part);
  uint32_t offset = 0;  // bit index of the range's first candidate
  uint32_t count = 0;   // entries staged in this lane's column
  auto flush = [&] {
    const uint32_t most = __reduce_max_sync(kAll, count);
    for (uint32_t i = 0; i < most; ++i)
      if (i < count) pair(stage[i][lane]);
    count = 0;
  };
  auto range = [&](uint32_t begin, uint32_t end) {
    const uint32_t len = active ? end - begin : 0u;
    const uint32_t bound = (len + P - 1u) / P;  // most of the range's members this lane can take
    if (__any_sync(kAll, count + bound > kMaskStage)) flush();
    const bool direct = bound > kMaskStage;
    if (len == 0) return;
    const uint32_t last = offset + len;
    for (uint32_t k = offset >> 5; k <= (last - 1u) >> 5; ++k) {
      uint32_t bits = rangeWord(w, k, offset, last, mine);
      while (bits) {
        const uint32_t j = begin + ((k << 5) + lowestBit(bits) - offset);
        bits &= bits - 1u;
        if (direct)
          pair(j);
        else
          stage[count++][lane] = j;
      }
    }
    offset = last;
  };
  cell::forEachCandidateRow<Periodic>(m.cells, loadReadOnly(m.cells.keys + a), builtA, a < m.nBound,
                                      [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd) {
                                        range(fBegin, fEnd);
                                        range(bBegin, bEnd);
                                      });
  flush();
}

}  // namespace sph::verlet
