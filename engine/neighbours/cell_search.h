// DualSPHysics' cell-linked list search, the toolkit both strategy plugins build on: prepare()
// sorts the particles by cell (keys, radix sort, the engine's reorder, cell start table) and
// interact() is one pass of one thread per particle over the 3x3x3 (or 5x5x5) neighbouring
// cells. The cell plugin calls prepare() before every pass; the Verlet plugin only when it
// rebuilds its lists (cells of the list radius), and builds the lists from lookup().
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "cell_backend.h"
#include "cell_grid.h"
#include "cell_mode.h"
#include "sph/plugin/neighbour_strategy.h"

namespace sph::cell {

// Throws RunError unless the physics' periodic box has the grid's periodic axes and periods
// (a strategy checks this before a force pass; `who` names it in the message).
template <typename T>
void requireSamePeriodicBox(const PeriodicBox<T>& box, const CellGrid& g, const char* who);

class CellSearch {
 public:
  // Each operation for T = float and double (instantiated in cell_search.cpp).
  void configure(const StrategyContext& ctx);
  template <typename T>
  void prepare(const ParticleView<T>& p, PrepareReason why);
  template <typename T>
  void interact(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out);
  // For a halo's skin (runs over several ranks): from now on every prepare() keeps where each
  // particle was at the last prepare() with PrepareReason::ParticlesChanged (the one after each
  // exchange), through the sorts since, and maxDisplacement2() (NL-HaloCheck) is the largest
  // squared distance a particle has moved from there: +infinity before such a prepare().
  void trackPlaces(bool on) { trackPlaces_ = on; }
  // The halo's skin (0: none): how far any particle and copy may move between exchanges is half
  // of it.
  void setHaloSkin(double skin) { haloSkin_ = skin; }
  // Whether a pass may be split around a halo's refresh after a sort that placed the copies
  // where they were before it (NeighbourStrategy::preparesBeforeHaloRefresh): with a halo skin,
  // unless a periodic axis has too few cells for the wider scan of its Border part.
  bool sortsBeforeHaloRefresh() const;
  template <typename T>
  double maxDisplacement2(const ParticleView<T>& p);
  // The places of trackPlaces() for a checkpoint (empty when none are kept), and back.
  std::vector<uint8_t> savePlaces() const {
    requireConfigured("savePlaces()");
    return backend_->savePlaces();
  }
  void restorePlaces(const std::vector<uint8_t>& bytes) {
    requireConfigured("restorePlaces()");
    backend_->restorePlaces(bytes);
  }
  template <typename T>
  void correctBoundaries(const ParticleView<T>& p, const PhysicsConstants<T>& c);
  template <typename T>
  void extrapolateInOut(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x);
  StrategyStats stats() const;
  size_t deviceBytes() const { return backend_ ? backend_->deviceBytes() : 0; }
  size_t peakDeviceBytes() const { return backend_ ? backend_->peakDeviceBytes() : 0; }

  // Diagnostics for tests and tools, through the interaction's own iteration: the ordered index
  // pairs (a, b) with |r_ab| < radius (radius <= support; r^2 in the particles' precision),
  // a itself included where visited, boundary-boundary pairs never. `p` is the view after the
  // last prepare().
  template <typename T>
  std::vector<IndexPair> pairsWithin(const ParticleView<T>& p, double radius) const;
  template <typename T>
  uint64_t countPairsWithin(const ParticleView<T>& p, double radius) const;

  const CellGrid& grid() const { return grid_; }
  // The cell tables of the last prepare() (for the Verlet plugin's list build).
  CellLookup lookup() const {
    requireConfigured("lookup()");
    return backend_->lookup();
  }
  CellMode mode() const { return mode_; }

 private:
  void requireConfigured(const char* what) const;
  void checkRadius(double radius) const;
  // The fewest cells across a periodic axis (INT32_MAX: none), and the most cells a Border pass
  // may scan beyond the reach with them (CellLookup::blockExtra).
  int32_t minPeriodicCells() const;
  int32_t maxBlockExtra() const;

  StrategyContext ctx_;
  CellMode mode_ = CellMode::Full;
  bool trackPlaces_ = false;
  double haloSkin_ = 0.0;
  float lastDrift_ = -1.0f;  // the last split pass's halo drift (stats: halo_drift_cells); -1: none
  CellGrid grid_;
  std::unique_ptr<CellBackend> backend_;
};

}  // namespace sph::cell
