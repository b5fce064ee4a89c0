// The `allpairs` plugin: every particle's candidates are all the particles, O(N^2) per force
// pass. It is the definition of "the neighbours within the support" that every other strategy
// must reproduce, the reference of the conformance suite (plugins/tests/conformance_test.cpp),
// and the smallest complete example of a plugin (docs/plugin-guide.md walks through it). It
// keeps no tables and never reorders the particles, so prepare() has nothing to do. Only for small
// cases: 20,000 particles take ~4e8 pair tests per pass.
#pragma once

#include "sph/plugin/neighbour_strategy.h"

namespace sph::allpairs {

// StrategyFor (neighbour_strategy.h) turns the templates below into the interface's float and
// double overloads.
class AllPairsStrategy final : public StrategyFor<AllPairsStrategy> {
 public:
  const char* name() const override { return "allpairs"; }
  std::vector<StrategyOption> options() const override { return {}; }
  // It keeps no tables: nothing beyond the engine's arrays.
  std::vector<MemoryNeed> estimateMemory(const MemoryQuery&) const override {
    return {{"nothing beyond the engine's arrays", 0, "", true}};
  }
  void configure(const StrategyContext& ctx) override;
  StrategyStats stats() const override;
  size_t deviceBytes() const override { return 0; }
  size_t peakDeviceBytes() const override { return 0; }

 private:
  friend class StrategyFor<AllPairsStrategy>;
  template <typename T>
  void prepareT(const ParticleView<T>& p, PrepareReason) {
    check(p.n, p.nBound, "prepare()");
  }
  template <typename T>
  void interactT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out);
  template <typename T>
  void correctBoundariesT(const ParticleView<T>& p, const PhysicsConstants<T>& c);
  template <typename T>
  void extrapolateInOutT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x);
  void check(uint32_t n, uint32_t nBound, const char* what) const;

  StrategyContext ctx_;
  bool configured_ = false;
  uint32_t lastN_ = 0, lastNBound_ = 0;
};

}  // namespace sph::allpairs
