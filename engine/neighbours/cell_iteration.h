// The one neighbour iteration of the cell search, for the CPU loop and the CUDA kernels alike:
// the interaction, the statistics and the pair enumeration used by the tests all visit
// candidates through forEachCandidate().
//
// Particle a in cell (cx, cy, cz) scans the x-rows of (2 reach + 1) cells around it. Because the
// cell index runs x fastest and the start table covers empty cells too, a row is one contiguous
// range of sorted particles: [start[key of first cell], start[key of last cell + 1]). That is 9
// ranges (3D full), 25 (3D half), 3 (2D full) or 5 (2D half) per particle kind. Fluid particles
// scan the fluid and the boundary rows; boundary particles only the fluid rows (DBC).
//
// Row trimming (CellRows=reachable, the default): DualSPHysics scans every row of the
// (2 reach + 1)^2 block in full. Here a row whose cells are all farther than the support from
// the particle is skipped, and a row's x-range is cut to the cells within the support along x
// from the particle, given the row's distance in y and z. With cells of h this drops ~40% of
// the candidates (the corners of the 5x5x5 block), with cells of 2h ~15%. It is exact: a cell
// is dropped only when no point of it (edge cells extended to infinity, since particles outside
// the domain are clamped into them) is within reach * cellSize > support of the particle.
//
// Periodic axes (CellGrid::period): the neighbouring cells wrap around, the edge cells are not
// extended (positions are wrapped into the period), and when x is periodic a row's x-range that
// crosses the wrap is split in two; every particle then makes two row calls per row (the second
// possibly empty), so warps still stay in step. The grid has at least 2 reach + 1 cells across
// a periodic axis, so the wrapped cells of a block are distinct and no pair is visited twice.
#pragma once

#include <cmath>
#include <cstdint>

#include "cell_grid.h"
#include "sph/plugin/hd.h"
#include "sph/plugin/periodic.h"
#include "sph/plugin/real4.h"
#include "sph/plugin/sym_tensor.h"

namespace sph::cell {

// What the iteration needs: the grid shape and the tables of the last prepare().
struct CellLookup {
  int32_t ncx = 1, ncy = 1, ncz = 1;
  int32_t reach = 1;
  uint32_t ncells = 1;
  const uint32_t* start = nullptr;  // keyCount + 1 entries (see cellStartOf)
  const uint32_t* keys = nullptr;   // sorted key of every particle, indexed like the particles
  double origin[3] = {0, 0, 0};
  double invCellSize[3] = {1, 1, 1};
  double period[3] = {0, 0, 0};     // 0: open axis
  float edge[3] = {1, 1, 1};        // cell edge per axis in units of the support's cell size (>= 1)
  bool trimRows = true;
  // Zero but in the Border part of a pass split around a halo's refresh (ForcePart), whose copies
  // were sorted where they were before it: `drift` is how far (in the support's cells) a copy
  // may now lie outside the cell it was sorted into (cellOutside), and every particle scans
  // `blockExtra` more cells on each side, trimmed to reach + drift. See haloBlockExtra().
  float drift = 0.0f;
  int32_t blockExtra = 0;

  SPH_HD bool periodic(int axis) const { return period[axis] > 0.0; }
  // The box for minimum-image distances in the particles' precision.
  template <typename T>
  SPH_HD PeriodicBox<T> image() const {
    PeriodicBox<T> b;
    for (int d = 0; d < 3; ++d) {
      b.min[d] = T(origin[d]);
      b.length[d] = T(period[d]);
    }
    return b;
  }
};

// The cells a Border pass scans beyond the reach on each side when halo copies lie up to `drift`
// cells outside the cells they were sorted into: a copy within the support of a particle then
// lies in a cell within reach + drift of it, and a copy's own scan (it may hold pairs) starts
// from a cell it may have left by drift too, so 2 drift more cells hold both.
SPH_HD SPH_FORCEINLINE int32_t haloBlockExtra(float drift) { return drift > 0.0f ? int32_t(2.0f * drift) + 1 : 0; }

// drift: CellLookup::drift (0 but in the Border part of a split pass).
inline CellLookup makeLookup(const CellGrid& g, const uint32_t* start, const uint32_t* keys, float drift = 0.0f) {
  CellLookup l;
  l.ncx = g.ncx;
  l.ncy = g.ncy;
  l.ncz = g.ncz;
  l.reach = g.reach;
  l.ncells = g.ncells;
  l.start = start;
  l.keys = keys;
  for (int d = 0; d < 3; ++d) {
    l.origin[d] = g.origin[d];
    l.invCellSize[d] = g.invCellSize[d];
    l.period[d] = g.period[d];
    l.edge[d] = float(1.0 / (g.invCellSize[d] * g.cellSize));  // exactly 1 on open axes
  }
  l.trimRows = g.trimRows;
  l.drift = drift;
  l.blockExtra = haloBlockExtra(drift);
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

template <typename T>
SPH_HD SPH_FORCEINLINE SymTensor<T> loadReadOnly(const SymTensor<T>* p) {
#if defined(__CUDA_ARCH__)
  const T* q = reinterpret_cast<const T*>(p);
  return {__ldg(q), __ldg(q + 1), __ldg(q + 2), __ldg(q + 3), __ldg(q + 4), __ldg(q + 5)};
#else
  return *p;
#endif
}

SPH_HD SPH_FORCEINLINE int32_t clampLow(int32_t v) { return v < 0 ? 0 : v; }
SPH_HD SPH_FORCEINLINE int32_t clampHigh(int32_t v, int32_t n) { return v >= n ? n - 1 : v; }

// Where particle a sits in its own cell, in cells (0 <= f < 1 inside the domain; outside for a
// particle clamped into an edge cell of an open axis, or for a halo copy that moved since it was
// sorted: on a periodic axis the nearest image of its place then). Computed in double: float
// would lose ~ncx ulps.
template <bool Periodic>
SPH_HD SPH_FORCEINLINE float fractionInCell(double x, const CellLookup& l, int axis, int32_t nc, int32_t c) {
  double f = axisCells(x, l.origin[axis], l.invCellSize[axis], nc, Periodic && l.periodic(axis)) - double(c);
  if (Periodic && l.periodic(axis)) {
    if (f > 0.5 * double(nc))
      f -= double(nc);
    else if (f < -0.5 * double(nc))
      f += double(nc);
  }
  return float(f);
}

// Distance, in cells, from f (a's fraction in its cell) to the cells [d, d + 1) relative to a's
// cell; `lowOpen`/`highOpen`: the cell is the grid's first/last on an open axis, which extends to
// infinity.
SPH_HD SPH_FORCEINLINE float distanceToCell(float f, int32_t d, bool lowOpen, bool highOpen) {
  const float below = lowOpen ? 0.0f : float(d) - f;        // > 0: the cell lies above f
  const float above = highOpen ? 0.0f : f - float(d + 1);   // > 0: the cell lies below f
  return below > 0.0f ? below : (above > 0.0f ? above : 0.0f);
}

// A cell coordinate one block away from the grid, put back on a periodic axis.
SPH_HD SPH_FORCEINLINE int32_t wrapCell(int32_t c, int32_t n) { return c < 0 ? c + n : (c >= n ? c - n : c); }

// Slack, in cells, for the float fractions above (error ~1e-7 cells): trimming never drops a
// cell nearer than reach + kTrimSlack, and reach * cellSize already exceeds the support by
// kCellSizeSlack. Distances are measured in the support's cell size (CellLookup::edge scales a
// periodic axis's larger cells to it).
inline constexpr float kTrimSlack = 1e-4f;

// The particle ranges of cells [x0, x1] (x0 > x1: none) of the row starting at cell `row`.
template <typename RowFn>
SPH_HD SPH_FORCEINLINE void emitRow(const CellLookup& l, bool valid, uint32_t row, int32_t x0, int32_t x1, bool boundA,
                                    RowFn& rowFn) {
  uint32_t fBegin = 0, fEnd = 0, bBegin = 0, bEnd = 0;
  if (valid && x0 <= x1) {
    const uint32_t* fluidStart = l.start + l.ncells;
    const uint32_t b0 = row + uint32_t(x0), b1 = row + uint32_t(x1) + 1;  // one past the last cell
    fBegin = loadReadOnly(fluidStart + b0);
    fEnd = loadReadOnly(fluidStart + b1);
    if (!boundA) {
      bBegin = loadReadOnly(l.start + b0);
      bEnd = loadReadOnly(l.start + b1);
    }
  }
  rowFn(fBegin, fEnd, bBegin, bEnd);
}

// Calls rowFn(fluidBegin, fluidEnd, boundBegin, boundEnd) once per row of cells around a's
// cell (twice when x is periodic): (2 reach + 1)^2 rows in 3D, (2 reach + 1) when ncy == 1
// (2D). Rows outside the grid or trimmed away come as empty ranges, so every particle makes the
// same number of calls and GPU warps stay in step between rows. The boundary range is empty for
// boundary particles (DBC). Periodic = false is for grids without a periodic axis only: the
// wrap logic and the per-axis cell scaling then compile away (periodic.h, pairDeltaIf).
template <bool Periodic = true, typename T, typename RowFn>
SPH_HD SPH_FORCEINLINE void forEachCandidateRow(const CellLookup& l, uint32_t keyA, const Real4<T>& posA,
                                                bool boundA, RowFn&& rowFn) {
  const uint32_t cell = keyA >= l.ncells ? keyA - l.ncells : keyA;
  const uint32_t yz = cell / uint32_t(l.ncx);
  const int32_t cx = int32_t(cell - yz * uint32_t(l.ncx));
  const int32_t cz = int32_t(yz / uint32_t(l.ncy));
  const int32_t cy = int32_t(yz - uint32_t(cz) * uint32_t(l.ncy));
  // Uniform over a grid; constant false for open grids.
  const bool perX = Periodic && l.periodic(0), perY = Periodic && l.periodic(1), perZ = Periodic && l.periodic(2);
  const float edgeX = Periodic ? l.edge[0] : 1.0f, edgeY = Periodic ? l.edge[1] : 1.0f,
              edgeZ = Periodic ? l.edge[2] : 1.0f;
  const int32_t r = l.reach + l.blockExtra;
  const int32_t ry = l.ncy == 1 ? 0 : r;
  // The block's x-range relative to a's cell, cut at the grid's ends on an open axis.
  const int32_t blockLo = perX ? -r : clampLow(cx - r) - cx, blockHi = perX ? r : clampHigh(cx + r, l.ncx) - cx;
  const float fx = fractionInCell<Periodic>(double(posA.x), l, 0, l.ncx, cx);
  const float fy = fractionInCell<Periodic>(double(posA.y), l, 1, l.ncy, cy);
  const float fz = fractionInCell<Periodic>(double(posA.z), l, 2, l.ncz, cz);
  const float trim = float(l.reach) + l.drift + kTrimSlack, reach2 = trim * trim;
  for (int32_t dz = -r; dz <= r; ++dz) {
    for (int32_t dy = -ry; dy <= ry; ++dy) {
      const int32_t z = perZ ? wrapCell(cz + dz, l.ncz) : cz + dz;
      const int32_t y = perY ? wrapCell(cy + dy, l.ncy) : cy + dy;
      int32_t x0 = blockLo, x1 = blockHi;  // relative to cx
      bool inGrid = z >= 0 && z < l.ncz && y >= 0 && y < l.ncy;
      if (inGrid && l.trimRows) {
        const float ey = distanceToCell(fy, dy, !perY && y == 0, !perY && y == l.ncy - 1) * edgeY;
        const float ez = distanceToCell(fz, dz, !perZ && z == 0, !perZ && z == l.ncz - 1) * edgeZ;
        const float left = reach2 - ey * ey - ez * ez;
        if (left <= 0.0f) {
          inGrid = false;
        } else {
          // Cells [floor(fx - e), floor(fx + e)] relative to a's cell hold every point within
          // e of a along x; on an open axis clamped into the grid like the keys (the edge cells
          // hold everything beyond them). The block's own bounds still apply.
          const float e = sqrtf(left) / edgeX;
          int32_t lo = int32_t(floorf(fx - e)), hi = int32_t(floorf(fx + e));
          if (!perX) {
            lo = clampHigh(clampLow(cx + lo), l.ncx) - cx;
            hi = clampHigh(clampLow(cx + hi), l.ncx) - cx;
          }
          x0 = lo > x0 ? lo : x0;
          x1 = hi < x1 ? hi : x1;
          inGrid = x0 <= x1;
        }
      }
      const uint32_t row = inGrid ? uint32_t(l.ncx) * (uint32_t(y) + uint32_t(l.ncy) * uint32_t(z)) : 0u;
      if (!perX) {
        emitRow(l, inGrid, row, cx + x0, cx + x1, boundA, rowFn);
      } else {
        // [cx + x0, cx + x1] spans at most 2 r + 1 <= ncx cells: it crosses one end at most.
        int32_t s0 = cx + x0, s1 = cx + x1, w0 = 1, w1 = 0;  // main part, wrapped part
        if (s0 < 0) {
          w0 = s0 + l.ncx;
          w1 = s1 < 0 ? s1 + l.ncx : l.ncx - 1;
          s0 = 0;
        } else if (s1 >= l.ncx) {
          w0 = s0 >= l.ncx ? s0 - l.ncx : 0;
          w1 = s1 - l.ncx;
          s1 = l.ncx - 1;
        }
        emitRow(l, inGrid, row, s0, s1, boundA, rowFn);
        emitRow(l, inGrid, row, w0, w1, boundA, rowFn);
      }
    }
  }
}

// How far (in the support's cells) a particle at `pos` lies outside the cell of `key`, where it
// was sorted: 0 inside it, and beyond an edge cell of an open axis (which holds everything
// beyond it); on a periodic axis from the nearest image.
template <typename T>
SPH_HD SPH_FORCEINLINE float cellOutside(const CellLookup& l, uint32_t key, const Real4<T>& pos) {
  const uint32_t cell = key >= l.ncells ? key - l.ncells : key;
  const uint32_t yz = cell / uint32_t(l.ncx);
  const int32_t c[3] = {int32_t(cell - yz * uint32_t(l.ncx)), int32_t(yz % uint32_t(l.ncy)),
                        int32_t(yz / uint32_t(l.ncy))};
  const int32_t nc[3] = {l.ncx, l.ncy, l.ncz};
  const double x[3] = {double(pos.x), double(pos.y), double(pos.z)};
  float sum = 0.0f;
  for (int d = 0; d < 3; ++d) {
    const float f = fractionInCell<true>(x[d], l, d, nc[d], c[d]);
    const bool open = !l.periodic(d);
    const float e = distanceToCell(f, 0, open && c[d] == 0, open && c[d] == nc[d] - 1) * l.edge[d];
    sum += e * e;
  }
  return sqrtf(sum);
}

// Calls fn(j) for every candidate j of particle a (a itself included when a is fluid), given
// a's sorted key and kind: per row, the fluid range, then the boundary range.
template <bool Periodic = true, typename T, typename Fn>
SPH_HD SPH_FORCEINLINE void forEachCandidate(const CellLookup& l, uint32_t keyA, const Real4<T>& posA, bool boundA,
                                             Fn&& fn) {
  forEachCandidateRow<Periodic>(l, keyA, posA, boundA, [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd) {
    for (uint32_t j = fBegin; j < fEnd; ++j) fn(j);
    for (uint32_t j = bBegin; j < bEnd; ++j) fn(j);
  });
}

}  // namespace sph::cell
