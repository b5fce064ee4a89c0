// The one neighbour iteration of the cell plugin, for the CPU loop and the CUDA kernels alike:
// the interaction, the statistics and the pair enumeration used by the tests all visit
// candidates through forEachCandidate().
//
// Particle a in cell (cx, cy, cz) scans the x-rows of (2 reach + 1) cells around it. Because the
// cell index runs x fastest and the start table covers empty cells too, a row is one contiguous
// range of sorted particles: [start[key of first cell], start[key of last cell + 1]). That is 9
// ranges (3D full), 25 (3D half), 3 (2D full) or 5 (2D half) per particle kind. Fluid particles
// scan the fluid and the boundary rows; boundary particles only the fluid rows (DBC).
#pragma once

#include <cstdint>

#include "cell_grid.h"
#include "sph/hd.h"
#include "sph/real4.h"

namespace sph::cell {

// What the iteration needs: the grid shape and the tables of the last prepare().
struct CellLookup {
  int32_t ncx = 1, ncy = 1, ncz = 1;
  int32_t reach = 1;
  uint32_t ncells = 1;
  const uint32_t* start = nullptr;  // keyCount + 1 entries (see markCellEnd)
  const uint32_t* keys = nullptr;   // sorted key of every particle, indexed like the particles
};

inline CellLookup makeLookup(const CellGrid& g, const uint32_t* start, const uint32_t* keys) {
  CellLookup l;
  l.ncx = g.ncx;
  l.ncy = g.ncy;
  l.ncz = g.ncz;
  l.reach = g.reach;
  l.ncells = g.ncells;
  l.start = start;
  l.keys = keys;
  return l;
}

// Loads of data that no thread writes during a pass: the read-only (non-coherent) cache path
// on the device, a plain load on the host.
template <typename V>
SPH_HD SPH_FORCEINLINE V loadReadOnly(const V* p) {
#if defined(__CUDA_ARCH__)
  return __ldg(p);
#else
  return *p;
#endif
}

SPH_HD SPH_FORCEINLINE Real4<float> loadReadOnly(const Real4<float>* p) {
#if defined(__CUDA_ARCH__)
  const float4 v = __ldg(reinterpret_cast<const float4*>(p));
  return {v.x, v.y, v.z, v.w};
#else
  return *p;
#endif
}

SPH_HD SPH_FORCEINLINE Real4<double> loadReadOnly(const Real4<double>* p) {
#if defined(__CUDA_ARCH__)
  const double2 a = __ldg(reinterpret_cast<const double2*>(p));
  const double2 b = __ldg(reinterpret_cast<const double2*>(p) + 1);
  return {a.x, a.y, b.x, b.y};
#else
  return *p;
#endif
}

SPH_HD SPH_FORCEINLINE int32_t clampLow(int32_t v) { return v < 0 ? 0 : v; }
SPH_HD SPH_FORCEINLINE int32_t clampHigh(int32_t v, int32_t n) { return v >= n ? n - 1 : v; }

// Calls rowFn(fluidBegin, fluidEnd, boundBegin, boundEnd) once per row of cells around a's
// cell: (2 reach + 1)^2 rows in 3D, (2 reach + 1) when ncy == 1 (2D). Rows outside the grid
// come as empty ranges, so every particle makes the same number of calls and GPU warps are in
// step between rows. The boundary range is empty for boundary particles (DBC).
template <typename RowFn>
SPH_HD SPH_FORCEINLINE void forEachCandidateRow(const CellLookup& l, uint32_t keyA, bool boundA, RowFn&& rowFn) {
  const uint32_t cell = keyA >= l.ncells ? keyA - l.ncells : keyA;
  const uint32_t yz = cell / uint32_t(l.ncx);
  const int32_t cx = int32_t(cell - yz * uint32_t(l.ncx));
  const int32_t cz = int32_t(yz / uint32_t(l.ncy));
  const int32_t cy = int32_t(yz - uint32_t(cz) * uint32_t(l.ncy));
  const int32_t r = l.reach;
  const int32_t ry = l.ncy == 1 ? 0 : r;  // uniform over all particles of a grid
  const uint32_t x0 = uint32_t(clampLow(cx - r));
  const uint32_t x1 = uint32_t(clampHigh(cx + r, l.ncx)) + 1;  // one past the last cell
  const uint32_t* fluidStart = l.start + l.ncells;
  for (int32_t dz = -r; dz <= r; ++dz) {
    for (int32_t dy = -ry; dy <= ry; ++dy) {
      const int32_t z = cz + dz, y = cy + dy;
      uint32_t fBegin = 0, fEnd = 0, bBegin = 0, bEnd = 0;
      if (z >= 0 && z < l.ncz && y >= 0 && y < l.ncy) {
        const uint32_t row = uint32_t(l.ncx) * (uint32_t(y) + uint32_t(l.ncy) * uint32_t(z));
        fBegin = loadReadOnly(fluidStart + row + x0);
        fEnd = loadReadOnly(fluidStart + row + x1);
        if (!boundA) {
          bBegin = loadReadOnly(l.start + row + x0);
          bEnd = loadReadOnly(l.start + row + x1);
        }
      }
      rowFn(fBegin, fEnd, bBegin, bEnd);
    }
  }
}

// Calls fn(j) for every candidate j of particle a (a itself included when a is fluid), given
// a's sorted key and kind: per row, the fluid range, then the boundary range.
template <typename Fn>
SPH_HD SPH_FORCEINLINE void forEachCandidate(const CellLookup& l, uint32_t keyA, bool boundA, Fn&& fn) {
  forEachCandidateRow(l, keyA, boundA, [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd) {
    for (uint32_t j = fBegin; j < fEnd; ++j) fn(j);
    for (uint32_t j = bBegin; j < bEnd; ++j) fn(j);
  });
}

}  // namespace sph::cell
