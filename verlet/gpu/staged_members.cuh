// The GPU's interaction over bitmask lists, with the members staged in shared memory.
//
// Walked directly (forEachMaskMember), a lane runs the pair physics inside the loops over its
// rows, ranges and words, and the particles of a warp reach their members in different ranges:
// the warp runs each range for as long as its busiest lane there (DamBreak's force pass took
// 13% longer so, at 8 lanes). Here each lane first decodes its members of a few rows into its
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
// must call this (a lane without a particle with active = false and any valid a). The P lanes
// of a particle (adjacent lanes) share the work of its rows: in each round lane q works out row
// r0 + q (the trimming and the four start-table loads) and the lanes pass the ranges round by
// shuffles (on DamBreak that took 6% off the force pass with 4 lanes, 14% with 8).
template <bool Periodic, uint32_t P, typename R, typename Pair>
__device__ SPH_FORCEINLINE void stagedMaskMembers(uint32_t a, uint32_t part, bool active, const MaskLists<R>& m,
                                                  const Real4<R>& builtA, uint32_t (*stage)[kWarp], Pair&& pair) {
  constexpr unsigned kAll = 0xffffffffu;
  constexpr int kCalls = Periodic ? 2 : 1;  // row calls per row (two when x may be periodic)
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
      const uint32_t base = k << 5;
      uint32_t bits = loadReadOnly(w + uint64_t(k) * kWarp) & mine;
      if (offset > base) bits &= ~0u << (offset - base);
      if (last - base < 32u) bits &= (1u << (last - base)) - 1u;
      while (bits) {
        const uint32_t j = begin + (base + lowestBit(bits) - offset);
        bits &= bits - 1u;
        if (direct)
          pair(j);
        else
          stage[count++][lane] = j;
      }
    }
    offset = last;
  };
  const cell::CandidateRows<Periodic> rows(m.cells, loadReadOnly(m.cells.keys + a), builtA, a < m.nBound);
  const int32_t total = rows.count(), side = 2 * rows.ry + 1;  // the same for every particle of the grid
  for (int32_t r0 = 0; r0 < total; r0 += int32_t(P)) {
    uint32_t v[4 * kCalls] = {};  // per row call: fluid begin, end, boundary begin, end
    const int32_t i = r0 + int32_t(part);
    if (i < total) {
      int call = 0;
      auto keep = [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd) {
        v[4 * call] = fBegin;
        v[4 * call + 1] = fEnd;
        v[4 * call + 2] = bBegin;
        v[4 * call + 3] = bEnd;
        ++call;
      };
      rows.emit(i / side - rows.r, i % side - rows.ry, keep);
    }
    const int32_t inRound = total - r0 < int32_t(P) ? total - r0 : int32_t(P);
    for (int32_t q = 0; q < inRound; ++q)
#pragma unroll
      for (int c = 0; c < kCalls; ++c) {
        const uint32_t fBegin = __shfl_sync(kAll, v[4 * c], q, P), fEnd = __shfl_sync(kAll, v[4 * c + 1], q, P);
        const uint32_t bBegin = __shfl_sync(kAll, v[4 * c + 2], q, P), bEnd = __shfl_sync(kAll, v[4 * c + 3], q, P);
        range(fBegin, fEnd);
        range(bBegin, bEnd);
      }
  }
  flush();
}

}  // namespace sph::verlet
