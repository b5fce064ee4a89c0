// The `cell` plugin: DualSPHysics' cell-linked list as a NeighbourStrategy. Its policy is
// DualSPHysics': the particles are re-sorted by cell before every force pass (prepare() always
// sorts, whatever the reason), and each pass scans the cells around each particle. The search
// itself (grid, keys, sort, cell tables, the CPU and GPU loops) is the engine's neighbour toolkit,
// engine/neighbours/cell_search.h, which the Verlet plugin builds on too.
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
    return {m};
  }
  void configure(const StrategyContext& ctx) override { search_.configure(ctx); }
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
};

}  // namespace sph::cell
