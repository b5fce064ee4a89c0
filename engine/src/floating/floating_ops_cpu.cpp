// CPU passes of floating bodies (floating/floating_ops.h).
#include <omp.h>

#include <algorithm>

#include "floating/floating_ops.h"
#include "sph/plugin/particle_code.h"

namespace sph {

template <typename T>
void indexFloatingCpu(const ParticleView<T>& p, const FloatingPass<T>& f, int threads) {
  const int64_t n = p.n;
  std::fill(f.slotIndex, f.slotIndex + f.nFloating, kNoSlot);
#pragma omp parallel for num_threads(threads > 0 ? threads : omp_get_max_threads())
  for (int64_t i = p.nBound; i < n; ++i)
    if (code::isFloating(p.code[i]) && !code::isHalo(p.code[i])) f.slotIndex[p.id[i] - f.idFirst] = uint32_t(i);
}

template <typename T>
void sumFloatingCpu(const ParticleView<T>& p, const Real4<T>* ace, const Real4<T>* src, const FloatingPass<T>& f) {
  // Bodies are few and small next to the fluid: one serial sum per body keeps the result
  // independent of the thread count.
  for (uint32_t b = 0; b < f.nBodies; ++b) {
    const FloatingBody& body = f.bodies[b];
    BodySums s;
    const Real4<T>* at = sumPositions(p, src, f);
    const double* center = sumCenter(b, f);
    for (uint32_t k = body.first; k < body.first + body.count; ++k) addParticleToBody(s, k, at, ace, center, f);
    f.sums[b] = s;
  }
}

template <typename T>
void advanceFloatingCpu(const ParticleView<T>& p, const Real4<T>* src, const Real4<T>* srcVel, const FloatingPass<T>& f,
                        const double* dt, BodyStep kind, bool paused, int threads) {
  for (uint32_t b = 0; b < f.nBodies; ++b) finishBody(b, f.sums[b], f, *dt, paused, kind);
  const int64_t nf = f.nFloating;
#pragma omp parallel for num_threads(threads > 0 ? threads : omp_get_max_threads())
  for (int64_t k = 0; k < nf; ++k) moveBodyParticle(uint32_t(k), p, src, srcVel, f, kind);
}

template void indexFloatingCpu(const ParticleView<float>&, const FloatingPass<float>&, int);
template void indexFloatingCpu(const ParticleView<double>&, const FloatingPass<double>&, int);
template void sumFloatingCpu(const ParticleView<float>&, const Real4<float>*, const Real4<float>*,
                             const FloatingPass<float>&);
template void sumFloatingCpu(const ParticleView<double>&, const Real4<double>*, const Real4<double>*,
                             const FloatingPass<double>&);
template void advanceFloatingCpu(const ParticleView<float>&, const Real4<float>*, const Real4<float>*,
                                 const FloatingPass<float>&, const double*, BodyStep, bool, int);
template void advanceFloatingCpu(const ParticleView<double>&, const Real4<double>*, const Real4<double>*,
                                 const FloatingPass<double>&, const double*, BodyStep, bool, int);

}  // namespace sph
