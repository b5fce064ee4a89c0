// CPU-only build: the GPU passes of floating bodies exist so the engine links.
#include "floating/floating_ops.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {
[[noreturn]] void noCuda() {
  throw RunError("cannot move floating bodies on the GPU: this build of sph has no CUDA support");
}
}  // namespace

template <typename T>
void indexFloatingGpu(const ParticleView<T>&, const FloatingPass<T>&) {
  noCuda();
}
template <typename T>
void sumFloatingGpu(const ParticleView<T>&, const Real4<T>*, const Real4<T>*, const FloatingPass<T>&) {
  noCuda();
}
template <typename T>
void advanceFloatingGpu(const ParticleView<T>&, const Real4<T>*, const Real4<T>*, const FloatingPass<T>&, const double*,
                        BodyStep, bool) {
  noCuda();
}
template void indexFloatingGpu(const ParticleView<float>&, const FloatingPass<float>&);
template void indexFloatingGpu(const ParticleView<double>&, const FloatingPass<double>&);
template void sumFloatingGpu(const ParticleView<float>&, const Real4<float>*, const Real4<float>*,
                             const FloatingPass<float>&);
template void sumFloatingGpu(const ParticleView<double>&, const Real4<double>*, const Real4<double>*,
                             const FloatingPass<double>&);
template void advanceFloatingGpu(const ParticleView<float>&, const Real4<float>*, const Real4<float>*,
                                 const FloatingPass<float>&, const double*, BodyStep, bool);
template void advanceFloatingGpu(const ParticleView<double>&, const Real4<double>*, const Real4<double>*,
                                 const FloatingPass<double>&, const double*, BodyStep, bool);

}  // namespace sph
