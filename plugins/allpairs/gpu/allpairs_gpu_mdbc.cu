// mDBC's boundary correction over all pairs on the GPU: one thread per boundary particle, over
// every fluid particle. Built, like the neighbour toolkit's correction, without fast math: the
// pressure it stores must be the Tait pressure of the density it stores.
#include "../allpairs_particle_ops.h"
#include "neighbours/interaction_variant.h"
#include "sph/plugin/gpu/cuda_check.cuh"
#include "sph/plugin/mdbc_physics.h"

namespace sph::allpairs {

namespace {

constexpr unsigned kBlock = 128;

template <typename T, typename V>
__global__ void __launch_bounds__(kBlock) allPairsCorrectionKernel(ForceInputs<T> in, ParticleView<T> view,
                                                                   PhysicsConstants<T> c) {
  const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= in.nBound) return;
  const Real4<T> n = view.normal[b];
  if (!hasNormal(n)) return;
  const MdbcSums<T> s = allPairsGhostSums<V>(b, n, in, c);
  mdbcStoreWall(b, s, n, view.pos, view.velrho, view.code, view.tangent, view.motionAce, c);
}

template <typename T, KernelKind K, bool Periodic>
__global__ void __launch_bounds__(kBlock) allPairsExtrapolationKernel(ForceInputs<T> in, ParticleView<T> view,
                                                                      PhysicsConstants<T> c, InOutExtrapolation x) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < x.count) allPairsExtrapolateOne<K, Periodic>(k, view, in, c, x);
}

}  // namespace

// Inlets/outlets' extrapolation over all pairs: one thread per listed buffer particle.
template <typename T>
void allPairsExtrapolateGpu(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x) {
  if (x.count == 0) return;
  auto* kernel = neighbours::dispatchInOut(c, [](auto k, auto periodic) {
    return &allPairsExtrapolationKernel<T, decltype(k)::value, decltype(periodic)::value>;
  });
  SPH_LAUNCH("extrapolating inlet/outlet velocities and densities over all pairs", x.count, kBlock, 0, kernel,
             allPairsInputs(p), p, c, x);
}

template void allPairsExtrapolateGpu(const ParticleView<float>&, const PhysicsConstants<float>&,
                                     const InOutExtrapolation&);
template void allPairsExtrapolateGpu(const ParticleView<double>&, const PhysicsConstants<double>&,
                                     const InOutExtrapolation&);

template <typename T>
void allPairsCorrectGpu(const ParticleView<T>& p, const PhysicsConstants<T>& c) {
  if (p.nBound == 0) return;
  auto* kernel = neighbours::dispatchCorrection(c, [](auto v) { return &allPairsCorrectionKernel<T, decltype(v)>; });
  SPH_LAUNCH("correcting boundary densities over all pairs (mDBC)", p.nBound, kBlock, 0, kernel, allPairsInputs(p),
             p, c);
}

template void allPairsCorrectGpu(const ParticleView<float>&, const PhysicsConstants<float>&);
template void allPairsCorrectGpu(const ParticleView<double>&, const PhysicsConstants<double>&);

}  // namespace sph::allpairs
