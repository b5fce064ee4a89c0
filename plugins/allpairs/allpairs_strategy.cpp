#include "allpairs_strategy.h"

#include <fmt/format.h>

#include "allpairs_particle_ops.h"
#include "sph/plugin/errors.h"

namespace sph::allpairs {

void AllPairsStrategy::configure(const StrategyContext& ctx) {
  if (ctx.device == Device::Gpu && !allPairsGpuBuilt())
    throw RunError("allpairs neighbour search: this build has no GPU path (built without CUDA)");
  ctx_ = ctx;
  configured_ = true;
}

void AllPairsStrategy::check(uint32_t n, uint32_t nBound, const char* what) const {
  if (!configured_) throw RunError(fmt::format("allpairs neighbour search: {} before configure()", what));
  if (nBound > n) throw RunError(fmt::format("allpairs neighbour search: {} boundary particles of {}", nBound, n));
}

template <typename T>
void AllPairsStrategy::interactT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
  check(p.n, p.nBound, "interact()");
  // A split pass (ForcePart) is computed whole at its Border call, once the halo is in place.
  if (out.part == ForcePart::Interior) return;
  ForceOutputs<T> whole = out;
  whole.part = ForcePart::All;
  ScopedPhase phase(ctx_.timer, "CF-Forces", PhaseGroup::Interaction);
  if (ctx_.device == Device::Gpu)
    allPairsInteractGpu(p, c, whole);
  else
    allPairsInteractCpu(p, c, whole, ctx_.threads);
  lastN_ = p.n;
  lastNBound_ = p.nBound;
}

template <typename T>
void AllPairsStrategy::correctBoundariesT(const ParticleView<T>& p, const PhysicsConstants<T>& c) {
  check(p.n, p.nBound, "correctBoundaries()");
  if (!p.normal) throw RunError("allpairs neighbour search: mDBC correction asked for without boundary normals");
  ScopedPhase phase(ctx_.timer, "CF-Mdbc", PhaseGroup::Interaction);
  if (ctx_.device == Device::Gpu)
    allPairsCorrectGpu(p, c);
  else
    allPairsCorrectCpu(p, c, ctx_.threads);
}

template <typename T>
void AllPairsStrategy::extrapolateInOutT(const ParticleView<T>& p, const PhysicsConstants<T>& c,
                                         const InOutExtrapolation& x) {
  check(p.n, p.nBound, "extrapolateInOut()");
  if (x.count == 0) return;
  ScopedPhase phase(ctx_.timer, "CF-InOutExtrap", PhaseGroup::Interaction);
  if (ctx_.device == Device::Gpu)
    allPairsExtrapolateGpu(p, c, x);
  else
    allPairsExtrapolateCpu(p, c, x, ctx_.threads);
}

StrategyStats AllPairsStrategy::stats() const {
  StrategyStats s;
  // Fluid particles visit every particle, boundary particles the fluid ones (DBC).
  s["candidates_per_particle"] =
      lastN_ > 0 ? (double(lastN_ - lastNBound_) * lastN_ + double(lastNBound_) * (lastN_ - lastNBound_)) / lastN_
                 : 0.0;
  return s;
}

template void AllPairsStrategy::interactT(const ParticleView<float>&, const PhysicsConstants<float>&,
                                          const ForceOutputs<float>&);
template void AllPairsStrategy::interactT(const ParticleView<double>&, const PhysicsConstants<double>&,
                                          const ForceOutputs<double>&);
template void AllPairsStrategy::correctBoundariesT(const ParticleView<float>&, const PhysicsConstants<float>&);
template void AllPairsStrategy::correctBoundariesT(const ParticleView<double>&, const PhysicsConstants<double>&);
template void AllPairsStrategy::extrapolateInOutT(const ParticleView<float>&, const PhysicsConstants<float>&,
                                                  const InOutExtrapolation&);
template void AllPairsStrategy::extrapolateInOutT(const ParticleView<double>&, const PhysicsConstants<double>&,
                                                  const InOutExtrapolation&);

}  // namespace sph::allpairs
