// Step 4 of the build with coalesced stores. Written directly, entry k of lane L goes to
// regionStart + 32 k + L; the lanes of a warp reach their k-th member at different times, so
// each store is a 4-byte write to its own 32-byte sector (ncu on DamBreak: the direct fill ran
// at 60% of L2 throughput and took twice as long as the count over the same candidates).
//
// Here a warp (one group of 32 particles, one lane each) stages its entries in shared memory
// and writes whole rows k: 32 lanes, 128 contiguous bytes. The stage holds kStageRows rows k in
// [k0, k0 + kStageRows), k0 being the shortest count of the warp's particles when the stage was
// last emptied; an entry beyond that window (a lane far ahead of the slowest) is written
// directly, so the result never depends on the window. After each row of cells, reached by all
// lanes together (forEachListMember's afterRow), the warp writes out the staged rows once some
// lane has half the stage filled, and at the end the rest. The members and their order are those
// of fillList().
#pragma once

#include <cstdint>

#include "../verlet_particle_ops.h"

namespace sph::verlet {

inline constexpr uint32_t kStageRows = 32;  // 4 KiB of shared memory per warp

template <bool Periodic, typename T, typename Source>
__device__ SPH_FORCEINLINE void stagedFillList(uint32_t a, uint32_t n, const CellLookup& l, const Source& pos,
                                               uint32_t nBound, T rc2, const uint64_t* regionEnd,
                                               uint32_t* entries, uint32_t (*stage)[kWarp]) {
  constexpr unsigned kAll = 0xffffffffu;
  const bool active = a < n;
  // Lanes past n (last warp only) walk particle n - 1's rows, in the same group, and store nothing.
  const uint32_t self = active ? a : n - 1, lane = a % kWarp;
  uint32_t* const out = entries + entrySlot(regionEnd, self, 0);  // entry k at out[32 k]
  uint32_t count = 0;  // entries found so far
  uint32_t written = 0;  // entries before this stay written out (staged ones or direct)
  uint32_t k0 = 0;     // the stage holds entries [k0, k0 + kStageRows)
  auto writeStage = [&] {
    const uint32_t stageEnd = min(count, k0 + kStageRows), from = min(written, stageEnd);
    const bool has = active && from < stageEnd;
    const uint32_t lo = __reduce_min_sync(kAll, has ? from : ~0u), hi = __reduce_max_sync(kAll, has ? stageEnd : 0u);
    __syncwarp();
    for (uint32_t k = lo; k < hi; ++k)
      if (has && k >= from && k < stageEnd) out[uint64_t(k) * kWarp] = stage[k - k0][lane];
    __syncwarp();
    written = count;
    k0 = __reduce_min_sync(kAll, active ? count : ~0u);
  };
  forEachListMember<Periodic, 1>(
      self, 0, l, pos, nBound, rc2,
      [&](uint32_t j) {
        if (!active) return;
        const uint32_t k = count++;
        if (k - k0 < kStageRows)
          stage[k - k0][lane] = j;
        else
          out[uint64_t(k) * kWarp] = j;
      },
      [&] {
        const uint32_t staged = min(count, k0 + kStageRows) - min(written, k0 + kStageRows);
        if (__any_sync(kAll, active && 2 * staged >= kStageRows)) writeStage();
      });
  writeStage();
}

}  // namespace sph::verlet
