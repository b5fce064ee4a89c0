#include "cell_grid.h"

#include <cmath>

#include <fmt/format.h>

#include "sph/plugin/errors.h"
#include "sph/plugin/neighbour_strategy.h"

namespace sph::cell {

namespace {

// Keys run to 2 ncells and the start table has one more entry, all in 32 bits.
constexpr uint64_t kMaxCells = (uint64_t(1) << 31) - 1;
constexpr const char* kAxisName[3] = {"x", "y", "z"};

int32_t cellsAlong(double extent, double cellSize, const char* axis) {
  if (!(extent >= 0.0))
    throw InputError(fmt::format("cell neighbour search: domain maximum below minimum along {}", axis));
  const double n = std::ceil(extent / cellSize);
  if (n > double(kMaxCells))
    throw InputError(fmt::format("cell neighbour search: too many cells along {} ({:.0f})", axis, n));
  return n < 1.0 ? 1 : int32_t(n);
}

// A periodic axis: the most cells of at least cellSize that tile the period, and at least the
// 2 reach + 1 a particle scans, so that the scanned cells are distinct after wrapping.
int32_t cellsAcrossPeriod(double period, double cellSize, int32_t reach, const StrategyContext& ctx, int axis) {
  const int32_t needed = 2 * reach + 1;
  double n = std::floor(period / cellSize);
  if (n >= 1.0 && period / n < cellSize) n -= 1.0;  // rounding: cells never smaller than needed
  if (!(n >= double(needed)))
    throw InputError(fmt::format(
        "cell neighbour search: the periodic axis {} is {:g} m long, but a particle scans {} distinct cells "
        "across it, each at least the support {:g} m / {}, which takes {:g} m; use a longer period{}",
        kAxisName[axis], period, needed, ctx.support, reach, needed * cellSize,
        reach == 1 ? " or CellMode half (5 cells of h: 2.5 supports)" : ""));
  if (n > double(kMaxCells))
    throw InputError(fmt::format("cell neighbour search: too many cells along {} ({:.0f})", kAxisName[axis], n));
  return int32_t(n);
}

}  // namespace

CellGrid makeCellGrid(const StrategyContext& ctx, CellMode mode) {
  if (ctx.dim != 2 && ctx.dim != 3)
    throw InputError(fmt::format("cell neighbour search: dimension must be 2 or 3, not {}", ctx.dim));
  if (!(ctx.support > 0.0) || !std::isfinite(ctx.support))
    throw InputError(fmt::format("cell neighbour search: support radius must be positive, not {}", ctx.support));
  if (ctx.dim == 2 && ctx.periodic[1])
    throw InputError("cell neighbour search: a 2D case (the x-z plane) cannot be periodic in y");
  CellGrid g;
  g.reach = cellsPerSupport(mode);
  g.cellSize = ctx.support / g.reach * (1.0 + kCellSizeSlack);
  int32_t* counts[3] = {&g.ncx, &g.ncy, &g.ncz};
  for (int d = 0; d < 3; ++d) {
    g.origin[d] = ctx.domainMin[d];
    const double extent = ctx.domainMax[d] - ctx.domainMin[d];
    g.invCellSize[d] = 1.0 / g.cellSize;
    if (d == 1 && ctx.dim == 2) continue;  // ncy = 1
    if (ctx.periodic[d]) {
      *counts[d] = cellsAcrossPeriod(extent, g.cellSize, g.reach, ctx, d);
      g.period[d] = extent;
      g.invCellSize[d] = double(*counts[d]) / extent;
    } else {
      *counts[d] = cellsAlong(extent, g.cellSize, kAxisName[d]);
    }
  }
  const uint64_t cells = uint64_t(g.ncx) * uint64_t(g.ncy) * uint64_t(g.ncz);
  if (cells > kMaxCells)
    throw InputError(fmt::format(
        "cell neighbour search: the domain needs {} cells of {:g}, more than {} (shrink the domain)",
        cells, g.cellSize, kMaxCells));
  g.ncells = uint32_t(cells);
  return g;
}

}  // namespace sph::cell
