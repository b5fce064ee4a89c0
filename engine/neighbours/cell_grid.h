// The uniform cell grid over the domain and the sort key of a particle (DualSPHysics'
// PreSort): boundary particles get keys [0, ncells), fluid particles [ncells, 2 ncells), so a
// sort by key keeps boundary particles in [0, nBound) and groups both kinds by cell.
// Cell index, x fastest: c = cx + ncx (cy + ncy cz); in 2D (the x-z plane) ncy = 1.
// Cells are cubes of cellSize except along a periodic axis, where the cell count must divide
// the period: there the edge is period / count, the largest count whose cells are not smaller
// than cellSize, and a position is wrapped into the period before its cell is taken.
#pragma once

#include <cmath>
#include <cstdint>

#include "cell_mode.h"
#include "sph/plugin/hd.h"

namespace sph {
struct StrategyContext;
}

namespace sph::cell {

// The cell edge is the support (or half of it) enlarged by this relative slack, so that a pair
// accepted by the single-precision distance test (r^2 < support^2 holds to a few ulps, ~1e-7
// relative) is never more than `reach` cells apart along an axis.
inline constexpr double kCellSizeSlack = 1e-5;

struct CellGrid {
  double origin[3] = {0, 0, 0};  // the domain's minimum corner
  double cellSize = 0;           // the cell edge the support needs (that of every open axis)
  double invCellSize[3] = {0, 0, 0};  // per axis: 1 / edge
  double period[3] = {0, 0, 0};  // per axis: the period of a periodic axis, 0 for an open one
  int32_t ncx = 1, ncy = 1, ncz = 1;
  int32_t reach = 1;             // cells scanned on each side: 1 (full) or 2 (half)
  uint32_t ncells = 1;
  bool trimRows = true;          // CellRows=reachable (see cell_iteration.h)

  SPH_HD uint32_t keyCount() const { return 2u * ncells; }
};

// Builds the grid for a context; throws InputError for a bad domain, support or dimension.
CellGrid makeCellGrid(const StrategyContext& ctx, CellMode mode);

// Bits a radix sort must look at for keys in [0, keyCount).
inline int keyBits(const CellGrid& g) {
  int bits = 1;
  while (bits < 32 && (uint64_t(1) << bits) < uint64_t(g.keyCount())) ++bits;
  return bits;
}

// Position along one axis in cells from the origin; on a periodic axis the image in [0, nc]
// (a position that is only a rounding error outside the period needs no division).
SPH_HD SPH_FORCEINLINE double axisCells(double x, double origin, double invCellSize, int32_t nc, bool periodic) {
  double f = (x - origin) * invCellSize;
  if (periodic && !(f >= 0.0 && f < double(nc))) f -= double(nc) * std::floor(f / double(nc));
  return f;
}

// Cell coordinate of a position in cells, clamped into [0, nc): particles outside the domain of
// an open axis join the edge cells, which keeps every pair within reach (clamping never
// increases a distance in cells); on a periodic axis clamping only catches f == nc.
SPH_HD SPH_FORCEINLINE int32_t cellCoord(double f, int32_t nc) {
  if (!(f > 0.0)) return 0;  // also catches NaN
  return f >= double(nc) ? nc - 1 : int32_t(f);
}

// Keys are computed in double whatever the particle precision, so that the cell of a particle
// does not depend on the distance of the domain's origin (float would lose ~ncx ulps).
SPH_HD SPH_FORCEINLINE uint32_t cellKey(const CellGrid& g, double x, double y, double z, bool bound) {
  const uint32_t cx = uint32_t(cellCoord(axisCells(x, g.origin[0], g.invCellSize[0], g.ncx, g.period[0] > 0.0), g.ncx));
  const uint32_t cy = uint32_t(cellCoord(axisCells(y, g.origin[1], g.invCellSize[1], g.ncy, g.period[1] > 0.0), g.ncy));
  const uint32_t cz = uint32_t(cellCoord(axisCells(z, g.origin[2], g.invCellSize[2], g.ncz, g.period[2] > 0.0), g.ncz));
  const uint32_t cell = cx + uint32_t(g.ncx) * (cy + uint32_t(g.ncy) * cz);
  return bound ? cell : cell + g.ncells;
}

// Cell start table: start[k] = the first sorted index whose key is >= k, for k in
// [0, keyCount] (so start[keyCount] = n), one independent binary search per entry on both
// devices: no zeroing, no scan. Key k occupies [start[k], start[k + 1]) and consecutive keys form
// one contiguous range, empty cells included.
SPH_HD SPH_FORCEINLINE uint32_t cellStartOf(uint32_t k, const uint32_t* sortedKeys, uint32_t n) {
  uint32_t lo = 0, hi = n;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (sortedKeys[mid] < k)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace sph::cell
