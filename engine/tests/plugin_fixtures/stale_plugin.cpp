// A plugin as an older engine's headers built it (cmake/stale_plugin_headers.cmake gives
// ParticleView one member more): its ABI tag differs from the engine's, so the loader must refuse
// it before any of its code runs (test_plugin_abi.cpp). Every call throws, should one ever run.
#include <stdexcept>

#include "sph/plugin/plugin_abi.h"

namespace {

[[noreturn]] void refuse() { throw std::logic_error("the stale test plugin was loaded: the ABI check failed"); }

class StaleStrategy final : public sph::NeighbourStrategy {
 public:
  const char* name() const override { return "stale"; }
  std::vector<sph::StrategyOption> options() const override { refuse(); }
  std::vector<sph::MemoryNeed> estimateMemory(const sph::MemoryQuery&) const override { refuse(); }
  void configure(const sph::StrategyContext&) override { refuse(); }
  void prepare(const sph::ParticleView<float>&, sph::PrepareReason) override { refuse(); }
  void prepare(const sph::ParticleView<double>&, sph::PrepareReason) override { refuse(); }
  void interact(const sph::ParticleView<float>&, const sph::PhysicsConstants<float>&,
                const sph::ForceOutputs<float>&) override {
    refuse();
  }
  void interact(const sph::ParticleView<double>&, const sph::PhysicsConstants<double>&,
                const sph::ForceOutputs<double>&) override {
    refuse();
  }
  void correctBoundaries(const sph::ParticleView<float>&, const sph::PhysicsConstants<float>&) override { refuse(); }
  void correctBoundaries(const sph::ParticleView<double>&, const sph::PhysicsConstants<double>&) override { refuse(); }
  void extrapolateInOut(const sph::ParticleView<float>&, const sph::PhysicsConstants<float>&,
                        const sph::InOutExtrapolation&) override {
    refuse();
  }
  void extrapolateInOut(const sph::ParticleView<double>&, const sph::PhysicsConstants<double>&,
                        const sph::InOutExtrapolation&) override {
    refuse();
  }
  sph::StrategyStats stats() const override { refuse(); }
  size_t deviceBytes() const override { refuse(); }
  size_t peakDeviceBytes() const override { refuse(); }
};

}  // namespace

SPH_DEFINE_PLUGIN(StaleStrategy, "stale", "built from older engine headers (loader test)")
