// The `cell` plugin: DualSPHysics' cell-linked list as a NeighbourStrategy. Its policy is
// DualSPHysics': the particles are re-sorted by cell before every force pass (prepare() always
// sorts, whatever the reason), and each pass scans the cells around each particle. The search
// itself (grid, keys, sort, cell tables, the CPU and GPU loops) is the engine's neighbour toolkit,
// engine/neighbours/cell_search.h, which the Verlet plugin builds on too.
//
// Options (StrategyContext::options): CellMode = full (cells of 2h, the default) | half (cells of
// h); CellRows = reachable (the default) | all (neighbours/cell_iteration.h).
#pragma once

#include "neighbours/cell_search.h"
#include "sph/neighbour_strategy.h"

namespace sph::cell {

class CellStrategy final : public NeighbourStrategy {
 public:
  const char* name() const override { return "cell"; }
  void configure(const StrategyContext& ctx) override { search_.configure(ctx); }
  void prepare(const ParticleView<float>& p, PrepareReason why) override { search_.prepare(p, why); }
  void prepare(const ParticleView<double>& p, PrepareReason why) override { search_.prepare(p, why); }
  void interact(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                const ForceOutputs<float>& out) override {
    search_.interact(p, c, out);
  }
  void interact(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                const ForceOutputs<double>& out) override {
    search_.interact(p, c, out);
  }
  void correctBoundaries(const ParticleView<float>& p, const PhysicsConstants<float>& c) override {
    search_.correctBoundaries(p, c);
  }
  void correctBoundaries(const ParticleView<double>& p, const PhysicsConstants<double>& c) override {
    search_.correctBoundaries(p, c);
  }
  StrategyStats stats() const override { return search_.stats(); }
  size_t deviceBytes() const override { return search_.deviceBytes(); }
  size_t peakDeviceBytes() const override { return search_.peakDeviceBytes(); }

  // The search, for tests and tools (pair enumeration through the interaction's own iteration).
  const CellSearch& search() const { return search_; }

 private:
  CellSearch search_;
};

}  // namespace sph::cell
