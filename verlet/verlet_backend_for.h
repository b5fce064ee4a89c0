// VerletBackendFor: the precision overloads of VerletBackend that are the same in every backend.
// Apart from verlet_backend.h because the statistics' type (verlet_stats.h) needs the backend's.
#pragma once

#include "verlet_backend.h"
#include "verlet_stats.h"

namespace sph::verlet {

// The overloads that are the same for both precisions in every backend, written once:
// VerletBackendFor<B> implements maxSpeed, interact and stats by calling B's member templates
// maxSpeedT, interactT and statsT (B befriends it when they are private). The others differ by
// precision on the GPU (the double build's position layout, one reference array per precision).
template <class B>
class VerletBackendFor : public VerletBackend {
 public:
  double maxSpeed(const ParticleView<float>& p) override { return self().maxSpeedT(p); }
  double maxSpeed(const ParticleView<double>& p) override { return self().maxSpeedT(p); }
  void interact(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                const ForceOutputs<float>& out) override {
    self().interactT(p, c, out);
  }
  void interact(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                const ForceOutputs<double>& out) override {
    self().interactT(p, c, out);
  }
  ListStats stats(const ParticleView<float>& p, double support) const override { return self().statsT(p, support); }
  ListStats stats(const ParticleView<double>& p, double support) const override { return self().statsT(p, support); }

 private:
  B& self() { return static_cast<B&>(*this); }
  const B& self() const { return static_cast<const B&>(*this); }
};

}  // namespace sph::verlet
