// CPU-only build: the GPU passes of floating bodies exist so the engine links.
#include "floating/floating_ops.h"
#include "sph/plugin/errors.h"

namespace sph {

template <typename T>
void indexFloatingGpu(const ParticleView<T>&, const FloatingPass<T>&) {
  throw RunError("cannot move floating bodies on the GPU: this build of sph has no CUDA support");
}
template <typename T>
void advanceFloatingGpu(const ParticleView<T>&, const Real4<T>*, const Real4<T>*, const Real4<T>*,
                        const FloatingPass<T>&, const double*, BodyStep, bool) {
  throw RunError("cannot move floating bodies on the GPU: this build of sph has no CUDA support");
}
template void indexFloatingGpu(const ParticleView<float>&, const FloatingPass<float>&);
template void indexFloatingGpu(const ParticleView<double>&, const FloatingPass<double>&);
template void advanceFloatingGpu(const ParticleView<float>&, const Real4<float>*, const Real4<float>*,
                                 const Real4<float>*, const FloatingPass<float>&, const double*, BodyStep, bool);
template void advanceFloatingGpu(const ParticleView<double>&, const Real4<double>*, const Real4<double>*,
                                 const Real4<double>*, const FloatingPass<double>&, const double*, BodyStep, bool);

}  // namespace sph
