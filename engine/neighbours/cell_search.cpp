#include "cell_search.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph::cell {

namespace {

// The physics' support may exceed the grid's by round-off of its own computation, not more.
constexpr double kSupportTolerance = 1e-6;

}  // namespace

template <typename T>
void requireSamePeriodicBox(const PeriodicBox<T>& box, const CellGrid& g, const char* who) {
  for (int d = 0; d < 3; ++d) {
    const double physics = double(box.length[d]), grid = g.period[d];
    // Both come from the same double period; the physics holds it rounded to T.
    if ((physics > 0.0) != (grid > 0.0) || std::abs(physics - grid) > 1e-6 * grid)
      throw RunError(fmt::format("{} neighbour search: the physics' period along {} is {:g}, the search's {:g} "
                                 "(0: open axis); configure() and PhysicsConstants::periodic disagree",
                                 who, "xyz"[d], physics, grid));
  }
}
template void requireSamePeriodicBox(const PeriodicBox<float>&, const CellGrid&, const char*);
template void requireSamePeriodicBox(const PeriodicBox<double>&, const CellGrid&, const char*);

void CellSearch::configure(const StrategyContext& ctx) {
  const CellMode mode = parseCellMode(ctx.options);
  CellGrid grid = makeCellGrid(ctx, mode);
  grid.trimRows = parseTrimRows(ctx.options);
  if (!ctx.reorderer) throw RunError("cell neighbour search: the context has no particle reorderer");
  // A new backend only when the device changes; a reconfigured grid keeps the grown storage.
  const bool sameDevice = backend_ && ctx_.device == ctx.device;
  if (!sameDevice) backend_ = ctx.device == Device::Gpu ? makeCellGpuBackend() : makeCellCpuBackend(ctx.threads);
  ctx_ = ctx;
  mode_ = mode;
  grid_ = grid;
  backend_->setGrid(grid_);
  backend_->setPairsOnce(pairsOnceAsked(parsePairsOnce(ctx.options), ctx.options.count("CellPairs") > 0, ctx.device));
}

void CellSearch::requireConfigured(const char* what) const {
  if (!backend_) throw RunError(fmt::format("cell neighbour search: {} before configure()", what));
}

template <typename T>
void CellSearch::prepare(const ParticleView<T>& p, PrepareReason why) {
  requireConfigured("prepare()");
  if (p.nBound > p.n)
    throw RunError(fmt::format("cell neighbour search: {} boundary particles of {}", p.nBound, p.n));
  PhaseTimer* timer = ctx_.timer;
  {
    ScopedPhase phase(timer, "NL-PreSort", PhaseGroup::Sort);
    backend_->computeKeys(p);
  }
  {
    ScopedPhase phase(timer, "NL-RadixSort", PhaseGroup::Sort);
    backend_->sortKeys();
  }
  if (p.n > 0) {
    ScopedPhase phase(timer, "NL-SortData", PhaseGroup::Sort);
    if (trackPlaces_) backend_->followPlaces(p, why == PrepareReason::ParticlesChanged);
    ctx_.reorderer->apply(backend_->sortedIndex(), p.n);
  }
  {
    ScopedPhase phase(timer, "NL-CellBegin", PhaseGroup::Sort);
    backend_->buildCellStart();
  }
}

template <typename T>
double CellSearch::maxDisplacement2(const ParticleView<T>& p) {
  requireConfigured("maxDisplacement2()");
  if (!trackPlaces_) throw RunError("cell neighbour search: displacements asked for without trackPlaces()");
  ScopedPhase phase(ctx_.timer, "NL-HaloCheck", PhaseGroup::Sort);
  return backend_->maxDisplacement2(p);
}

template <typename T>
void CellSearch::interact(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
  requireConfigured("interact()");
  if (double(c.support) > ctx_.support * (1.0 + kSupportTolerance))
    throw RunError(fmt::format("cell neighbour search: the physics' support {:g} exceeds the grid's {:g}",
                               double(c.support), ctx_.support));
  requireSamePeriodicBox(c.periodic, grid_, "cell");
  // A pass split around a halo's refresh (ForcePart): the sort before it placed the copies where
  // they were before the refresh. Interior reads none within the support (their stale places are
  // as far as their new ones from the particles it computes); Border scans as far beyond the
  // support as the copies have left their cells since.
  float drift = 0.0f;
  if (out.part == ForcePart::Border) {
    ScopedPhase phase(ctx_.timer, "NL-HaloDrift", PhaseGroup::Sort);
    drift = backend_->haloDrift(p);
    lastDrift_ = drift;
    // Between exchanges a copy moves less than the skin (half of it each way from where the
    // exchange found it); more is a defect, which would widen the scan without bound.
    const double skinCells = haloSkin_ / grid_.cellSize;
    if (haloSkin_ > 0.0 && double(drift) > skinCells * 1.01 + double(kTrimSlack))
      throw RunError(
          fmt::format("cell neighbour search: a halo copy lies {:g} cells outside the cell it was sorted "
                      "into, farther than the halo's skin ({:g} cells) lets it move between exchanges",
                      double(drift), skinCells));
    if (haloBlockExtra(drift) > maxBlockExtra())
      throw RunError(
          fmt::format("cell neighbour search: a halo copy lies {:g} cells outside the cell it was sorted "
                      "into, farther than its {} cells across a periodic axis let a split pass scan",
                      double(drift), minPeriodicCells()));
  }
  backend_->setHaloDrift(drift);
  struct Reset {
    CellBackend* b;
    ~Reset() { b->setHaloDrift(0.0f); }
  } reset{backend_.get()};
  ScopedPhase phase(ctx_.timer, "CF-Forces", PhaseGroup::Interaction);
  backend_->interact(p, c, out);
}

int32_t CellSearch::minPeriodicCells() const {
  int32_t m = INT32_MAX;
  const int32_t nc[3] = {grid_.ncx, grid_.ncy, grid_.ncz};
  for (int d = 0; d < 3; ++d)
    if (grid_.period[d] > 0.0) m = std::min(m, nc[d]);
  return m;
}

int32_t CellSearch::maxBlockExtra() const {
  // A periodic axis must hold the widened block's cells once each (cell_iteration.h).
  const int32_t m = minPeriodicCells();
  return m == INT32_MAX ? INT32_MAX : std::max(0, (m - 1) / 2 - grid_.reach);
}

bool CellSearch::sortsBeforeHaloRefresh() const {
  requireConfigured("sortsBeforeHaloRefresh()");
  // Copies stay within the halo's skin of their places at the last exchange: between the sort
  // and the refresh they move at most the skin, which haloBlockExtra() turns into cells.
  const double skinCells = haloSkin_ / grid_.cellSize;
  return haloSkin_ > 0.0 && skinCells < 1.0 && haloBlockExtra(float(skinCells)) <= maxBlockExtra();
}

// Also the Verlet plugin's, on the tables of its last rebuild (cells of the list radius): every
// particle has moved less than half the skin since, so the fluid within the support of a ghost
// node now lay within the list radius of it then.
template <typename T>
void CellSearch::correctBoundaries(const ParticleView<T>& p, const PhysicsConstants<T>& c) {
  requireConfigured("correctBoundaries()");
  if (!p.normal) throw RunError("cell neighbour search: mDBC correction asked for without boundary normals");
  if (double(c.support) > ctx_.support * (1.0 + kSupportTolerance))
    throw RunError(fmt::format("cell neighbour search: the physics' support {:g} exceeds the grid's {:g}",
                               double(c.support), ctx_.support));
  requireSamePeriodicBox(c.periodic, grid_, "cell");
  ScopedPhase phase(ctx_.timer, "CF-Mdbc", PhaseGroup::Interaction);
  backend_->correctBoundaries(p, c);
}

// The same tables as mDBC's, for the ghost nodes of inlet/outlet buffer particles.
template <typename T>
void CellSearch::extrapolateInOut(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x) {
  requireConfigured("extrapolateInOut()");
  if (double(c.support) > ctx_.support * (1.0 + kSupportTolerance))
    throw RunError(fmt::format("cell neighbour search: the physics' support {:g} exceeds the grid's {:g}",
                               double(c.support), ctx_.support));
  requireSamePeriodicBox(c.periodic, grid_, "cell");
  if (x.count == 0) return;
  ScopedPhase phase(ctx_.timer, "CF-InOutExtrap", PhaseGroup::Interaction);
  backend_->extrapolateInOut(p, c, x);
}

StrategyStats CellSearch::stats() const {
  StrategyStats s;
  if (!backend_) return s;
  s["cell_size"] = grid_.cellSize;
  for (int d = 0; d < 3; ++d)
    if (grid_.period[d] > 0.0) s[std::string("periodic_cells_") + "xyz"[d]] = double(d == 0 ? grid_.ncx : d == 1 ? grid_.ncy : grid_.ncz);
  s["cells"] = double(grid_.ncells);
  s["rows_trimmed"] = grid_.trimRows ? 1.0 : 0.0;
  s["passes_pairs_once"] = double(backend_->passesPairsOnce());
  if (lastDrift_ >= 0.0f) s["halo_drift_cells"] = double(lastDrift_);
  if (const auto t = backend_->candidateTotals(); t && t->particles > 0) {
    s["candidates_per_particle"] = double(t->candidates) / double(t->particles);
    s["neighbours_per_particle"] = double(t->inRange) / double(t->particles);
    s["in_range_ratio"] = t->candidates > 0 ? double(t->inRange) / double(t->candidates) : 0.0;
  }
  return s;
}

void CellSearch::checkRadius(double radius) const {
  requireConfigured("pairsWithin()");
  if (!(radius >= 0.0) || radius > ctx_.support)
    throw RunError(fmt::format("cell neighbour search: pair radius {:g} outside [0, support {:g}]", radius,
                               ctx_.support));
}

template <typename T>
std::vector<IndexPair> CellSearch::pairsWithin(const ParticleView<T>& p, double radius) const {
  checkRadius(radius);
  return backend_->pairsWithin(p, radius);
}

template <typename T>
uint64_t CellSearch::countPairsWithin(const ParticleView<T>& p, double radius) const {
  checkRadius(radius);
  return backend_->countPairsWithin(p, radius);
}

#define SPH_CELL_SEARCH_INSTANTIATE(T)                                                                            \
  template void CellSearch::prepare(const ParticleView<T>&, PrepareReason);                                       \
  template double CellSearch::maxDisplacement2(const ParticleView<T>&);                                           \
  template void CellSearch::interact(const ParticleView<T>&, const PhysicsConstants<T>&, const ForceOutputs<T>&); \
  template void CellSearch::correctBoundaries(const ParticleView<T>&, const PhysicsConstants<T>&);                \
  template void CellSearch::extrapolateInOut(const ParticleView<T>&, const PhysicsConstants<T>&,                  \
                                             const InOutExtrapolation&);                                          \
  template std::vector<IndexPair> CellSearch::pairsWithin(const ParticleView<T>&, double) const;                  \
  template uint64_t CellSearch::countPairsWithin(const ParticleView<T>&, double) const;
SPH_CELL_SEARCH_INSTANTIATE(float)
SPH_CELL_SEARCH_INSTANTIATE(double)
#undef SPH_CELL_SEARCH_INSTANTIATE

}  // namespace sph::cell
