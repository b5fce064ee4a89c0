#include "cell_grid.h"

#include <cmath>

#include <fmt/format.h>

#include "sph/errors.h"
#include "sph/neighbour_strategy.h"

namespace sph::cell {

namespace {

// Keys run to 2 ncells and the start table has one more entry, all in 32 bits.
constexpr uint64_t kMaxCells = (uint64_t(1) << 31) - 1;

int32_t cellsAlong(double extent, double cellSize, const char* axis) {
  if (!(extent >= 0.0))
    throw InputError(fmt::format("cell neighbour search: domain maximum below minimum along {}", axis));
  const double n = std::ceil(extent / cellSize);
  if (n > double(kMaxCells))
    throw InputError(fmt::format("cell neighbour search: too many cells along {} ({:.0f})", axis, n));
  return n < 1.0 ? 1 : int32_t(n);
}

}  // namespace

CellGrid makeCellGrid(const StrategyContext& ctx, CellMode mode) {
  if (ctx.dim != 2 && ctx.dim != 3)
    throw InputError(fmt::format("cell neighbour search: dimension must be 2 or 3, not {}", ctx.dim));
  if (!(ctx.support > 0.0) || !std::isfinite(ctx.support))
    throw InputError(fmt::format("cell neighbour search: support radius must be positive, not {}", ctx.support));
  CellGrid g;
  g.reach = cellsPerSupport(mode);
  g.cellSize = ctx.support / g.reach * (1.0 + kCellSizeSlack);
  g.invCellSize = 1.0 / g.cellSize;
  for (int d = 0; d < 3; ++d) g.origin[d] = ctx.domainMin[d];
  g.ncx = cellsAlong(ctx.domainMax[0] - ctx.domainMin[0], g.cellSize, "x");
  g.ncy = ctx.dim == 2 ? 1 : cellsAlong(ctx.domainMax[1] - ctx.domainMin[1], g.cellSize, "y");
  g.ncz = cellsAlong(ctx.domainMax[2] - ctx.domainMin[2], g.cellSize, "z");
  const uint64_t cells = uint64_t(g.ncx) * uint64_t(g.ncy) * uint64_t(g.ncz);
  if (cells > kMaxCells)
    throw InputError(fmt::format(
        "cell neighbour search: the domain needs {} cells of {:g}, more than {} (shrink the domain)",
        cells, g.cellSize, kMaxCells));
  g.ncells = uint32_t(cells);
  return g;
}

}  // namespace sph::cell
