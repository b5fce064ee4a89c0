// The all-pairs passes on the CPU: one OpenMP iteration per particle.
#include <omp.h>

#include "allpairs_particle_ops.h"
#include "neighbours/interaction_variant.h"
#include "sph/plugin/mdbc_physics.h"

namespace sph::allpairs {

template <typename T>
void allPairsInteractCpu(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out,
                         int threads) {
  const ForceInputs<T> in = allPairsInputs(p);
  const int nt = threads > 0 ? threads : omp_get_max_threads();
  neighbours::dispatchInteraction(c, out, p.tangent != nullptr, [&](auto v) {
    using V = decltype(v);
#pragma omp parallel for schedule(dynamic, 64) num_threads(nt)
    for (int64_t a = 0; a < int64_t(p.n); ++a) writeForces(uint32_t(a), allPairsForces<V>(uint32_t(a), in, c), out);
  });
}

template <typename T>
void allPairsCorrectCpu(const ParticleView<T>& p, const PhysicsConstants<T>& c, int threads) {
  const ForceInputs<T> in = allPairsInputs(p);
  const int nt = threads > 0 ? threads : omp_get_max_threads();
  neighbours::dispatchCorrection(c, [&](auto v) {
    using V = decltype(v);
    // Writes only boundary particles' density, pressure, code and tangent; reads only fluid ones.
#pragma omp parallel for schedule(dynamic, 64) num_threads(nt)
    for (int64_t b = 0; b < int64_t(p.nBound); ++b) {
      const Real4<T> n = p.normal[b];
      if (!hasNormal(n)) continue;
      const MdbcSums<T> s = allPairsGhostSums<V>(uint32_t(b), n, in, c);
      mdbcStoreWall(uint32_t(b), s, n, p.pos, p.velrho, p.code, p.tangent, p.motionAce, c);
    }
  });
}

template <typename T>
void allPairsExtrapolateCpu(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x,
                            int threads) {
  const ForceInputs<T> in = allPairsInputs(p);
  const int nt = threads > 0 ? threads : omp_get_max_threads();
  neighbours::dispatchInOut(c, [&](auto k, auto periodic) {
#pragma omp parallel for schedule(dynamic, 16) num_threads(nt)
    for (int64_t i = 0; i < int64_t(x.count); ++i)
      allPairsExtrapolateOne<decltype(k)::value, decltype(periodic)::value>(uint32_t(i), p, in, c, x);
  });
}

template void allPairsInteractCpu(const ParticleView<float>&, const PhysicsConstants<float>&,
                                  const ForceOutputs<float>&, int);
template void allPairsInteractCpu(const ParticleView<double>&, const PhysicsConstants<double>&,
                                  const ForceOutputs<double>&, int);
template void allPairsCorrectCpu(const ParticleView<float>&, const PhysicsConstants<float>&, int);
template void allPairsCorrectCpu(const ParticleView<double>&, const PhysicsConstants<double>&, int);
template void allPairsExtrapolateCpu(const ParticleView<float>&, const PhysicsConstants<float>&,
                                     const InOutExtrapolation&, int);
template void allPairsExtrapolateCpu(const ParticleView<double>&, const PhysicsConstants<double>&,
                                     const InOutExtrapolation&, int);

}  // namespace sph::allpairs
