// Step 4 of the build with coalesced stores. Written directly, entry k of lane L goes to
// regionStart + 32 k + L; the lanes of a warp reach their k-th member at different times, so
// each store is a 4-byte write to its own 32-byte sector (ncu on DamBreak: the direct fill ran
// at 64% of L2 throughput and took twice as long as the count over the same candidates).
//
// Here a warp (one group of 32 particles, one lane each) stages its entries in shared memory
// and writes whole rows k: 32 lanes, 128 contiguous bytes. The stage holds kStageRows rows k in
// [k0, k0 + kStageRows), k0 chosen when the stage was last emptied from the lanes' counts then;
// an entry outside that window (a lane far behind or ahead of the others) is written directly,
// so the result never depends on the window. After each row of cells, reached by all
// lanes together (forEachListMember's afterRow), the warp writes out the staged rows once some
// lane has half the stage filled, and at the end the rest. The members and their order are those
// of fillList().
#pragma once

#include <cstdint>

#include "../verlet_particle_ops.h"

namespace sph::verlet {

// Rows of the stage (SPH_VERLET_STAGE_ROWS overrides, for experiments); 48 rows take 6 KiB of
// shared memory per warp, which the L1 cache holding the candidates' positions gives up.
// 48 was the fastest of 8-64 rows for the whole list build on DamBreak on Hopper GPUs, and every
// stage size beat writing directly, with one lane per particle or two.
#ifndef SPH_VERLET_STAGE_ROWS
#define SPH_VERLET_STAGE_ROWS 48
#endif
inline constexpr uint32_t kStageRows = SPH_VERLET_STAGE_ROWS;

template <bool Periodic, typename T, typename Source>
__device__ SPH_FORCEINLINE void stagedFillList(uint32_t a, uint32_t n, const CellLookup& l, const Source& pos,
                                               uint32_t nBound, T rc2, const uint64_t* regionEnd, uint32_t* entries,
                                               uint32_t (*stage)[kWarp], bool once) {
  constexpr unsigned kAll = 0xffffffffu;
  const bool active = a < n;
  // Lanes past n (last warp only) walk particle n - 1's rows, in the same group, and store nothing.
  const uint32_t self = active ? a : n - 1, lane = a % kWarp;
  uint32_t* const out = entries + entrySlot(regionEnd, self, 0);  // entry k at out[32 k]
  uint32_t count = 0;    // entries found so far
  uint32_t written = 0;  // entries before this are written out (staged ones or direct)
  uint32_t k0 = 0;       // the stage holds entries [k0, k0 + kStageRows) of every lane
  // This lane's staged entries: [max(written, k0), min(count, k0 + kStageRows)).
  auto stagedFrom = [&] { return max(written, k0); };
  auto stagedEnd = [&] { return min(count, k0 + kStageRows); };
  auto writeStage = [&] {
    const uint32_t from = stagedFrom(), end = stagedEnd();
    const bool has = active && from < end;
    const uint32_t lo = __reduce_min_sync(kAll, has ? from : ~0u), hi = __reduce_max_sync(kAll, has ? end : 0u);
    __syncwarp();
    for (uint32_t k = lo; k < hi; ++k)
      if (has && k >= from && k < end) out[uint64_t(k) * kWarp] = stage[k - k0][lane];
    __syncwarp();
    written = count;
    // The next window starts at the slowest lane, but no more than half a stage behind the
    // fastest: a lane with a much shorter list (a boundary particle beside the fluid, a surface
    // particle) writes directly rather than push the others out of the window.
    const uint32_t slowest = __reduce_min_sync(kAll, active ? count : ~0u);
    const uint32_t fastest = __reduce_max_sync(kAll, active ? count : 0u);
    k0 = max(slowest, fastest > kStageRows / 2 ? fastest - kStageRows / 2 : 0u);
  };
  forEachListMember<Periodic, 1>(
      self, 0, l, pos, nBound, rc2,
      [&](uint32_t j) {
        if (!active) return;
        const uint32_t k = count++;
        if (k >= k0 && k - k0 < kStageRows)
          stage[k - k0][lane] = j;
        else
          out[uint64_t(k) * kWarp] = j;
      },
      [&] {
        const uint32_t from = stagedFrom(), end = stagedEnd();
        if (__any_sync(kAll, active && from < end && 2 * (end - from) >= kStageRows)) writeStage();
      },
      once);
  writeStage();
}

}  // namespace sph::verlet
