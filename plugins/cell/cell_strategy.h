// The `cell` plugin: DualSPHysics' cell-linked list as a NeighbourStrategy. Its policy is
// DualSPHysics': the particles are re-sorted by cell before every force pass (prepare() always
// sorts, whatever the reason), and each pass scans the cells around each particle. The search
// itself (grid, keys, sort, cell tables, the CPU and GPU loops) is the engine's neighbour toolkit,
// engine/neighbours/cell_search.h, which the Verlet plugin builds on too.
//
// Over several ranks the halo reaches a skin beyond the support (kHaloSkin of it), so that the
// ranks keep the halo's particles between exchanges: before a pass they exchange particles only
// once one has moved half the skin since the last exchange, and otherwise refresh the copies in
// place. The refresh travels while the pass sorts and the particles far from the halo interact:
// the sort places the copies where they were before it, and the particles near the halo, which
// interact once it has come, scan as far beyond the support as the copies have left their cells
// since (CellSearch::interact, cell_iteration.h's CellLookup::drift); that is less than the skin.
//
// Options (StrategyContext::options): CellMode = full (cells of 2h, the default) | half (cells of
// h); CellRows = reachable (the default) | all (neighbours/cell_iteration.h); CellPairs = once
// (the default) | twice (neighbours/gpu/pair_once.cuh).
#pragma once

#include "neighbours/cell_mode.h"
#include "neighbours/cell_search.h"
#include "sph/plugin/neighbour_strategy.h"

namespace sph::cell {

class CellStrategy final : public StrategyFor<CellStrategy> {
 public:
  const char* name() const override { return "cell"; }
  std::vector<StrategyOption> options() const override {
    std::vector<StrategyOption> o = cellSearchOptions();
    o.push_back(cellPairsOption());
    return o;
  }
  std::vector<MemoryNeed> estimateMemory(const MemoryQuery& q) const override {
    MemoryNeed m = cellSearchMemory(q);
    m.minimum = true;
    if (q.ranks > 1) {
      // The places of the halo's skin, double-buffered for their reorder.
      m.bytes += 2.0 * (q.precision == Precision::Double ? 32.0 : 16.0) * double(q.particles);
      m.detail += "; the places the halo's skin is measured from";
    }
    return {m};
  }
  // The fraction of the support the halo's skin adds over several ranks: wider, the ranks
  // exchange particles less often and refresh more copies in place.
  static constexpr double kHaloSkin = 0.25;
  double haloReach(double support) const override { return support * (1.0 + kHaloSkin); }
  void configure(const StrategyContext& ctx) override {
    search_.configure(ctx);
    overRanks_ = ctx.ranks > 1;
    search_.trackPlaces(overRanks_);
    skin_ = kHaloSkin * ctx.support;
    search_.setHaloSkin(overRanks_ ? skin_ : 0.0);
  }
  bool preparesBeforeHaloRefresh() const override { return overRanks_ && search_.sortsBeforeHaloRefresh(); }
  // Over ranks, the places the halo's skin is measured from (CellSearch::savePlaces).
  std::vector<uint8_t> saveState() const override { return overRanks_ ? search_.savePlaces() : std::vector<uint8_t>{}; }
  void restoreState(const std::vector<uint8_t>& bytes) override {
    if (overRanks_ && !bytes.empty()) search_.restorePlaces(bytes);
  }
  StrategyStats stats() const override { return search_.stats(); }
  size_t deviceBytes() const override { return search_.deviceBytes(); }
  size_t peakDeviceBytes() const override { return search_.peakDeviceBytes(); }

  // The search, for tests and tools (pair enumeration through the interaction's own iteration).
  const CellSearch& search() const { return search_; }

 private:
  friend class StrategyFor<CellStrategy>;
  template <typename T>
  void prepareT(const ParticleView<T>& p, PrepareReason why) {
    search_.prepare(p, why);
  }
  // Over ranks: whether a particle has moved half the skin since the last exchange (an
  // exchange is then due, so that every copy within the support of a particle is in the halo).
  template <typename T>
  bool rebuildDueT(const ParticleView<T>& p) {
    if (!overRanks_) return true;  // no halo: the default's answer
    return search_.maxDisplacement2(p) * 4.0 > skin_ * skin_;
  }
  template <typename T>
  void interactT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
    search_.interact(p, c, out);
  }
  template <typename T>
  void correctBoundariesT(const ParticleView<T>& p, const PhysicsConstants<T>& c) {
    search_.correctBoundaries(p, c);
  }
  template <typename T>
  void extrapolateInOutT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x) {
    search_.extrapolateInOut(p, c, x);
  }

  CellSearch search_;
  bool overRanks_ = false;
  double skin_ = 0;  // over ranks: how far beyond the support the halo reaches
};

}  // namespace sph::cell
