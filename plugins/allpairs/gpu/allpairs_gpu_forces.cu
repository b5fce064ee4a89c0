// The all-pairs force pass on the GPU: one thread per particle, each over every particle. Built
// with the same flags as the other strategies' force kernels (fast single-precision math), so that
// a GPU run of this plugin is the reference for theirs.
#include "../allpairs_particle_ops.h"
#include "neighbours/interaction_variant.h"
#include "sph/plugin/gpu/cuda_check.cuh"

namespace sph::allpairs {

namespace {

constexpr unsigned kBlock = 128;

template <typename T, typename V>
__global__ void __launch_bounds__(kBlock)
    allPairsForcesKernel(ForceInputs<T> in, PhysicsConstants<T> c, ForceOutputs<T> out) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a < in.n) writeForces(a, allPairsForces<V>(a, in, c), out);
}

}  // namespace

bool allPairsGpuBuilt() { return true; }

template <typename T>
void allPairsInteractGpu(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
  if (p.n == 0) return;
  auto* kernel = neighbours::dispatchInteraction(c, out, p.tangent != nullptr, [](auto v) {
    return &allPairsForcesKernel<T, decltype(v)>;
  });
  SPH_LAUNCH("computing forces over all pairs (CF-Forces)", p.n, kBlock, 0, kernel, allPairsInputs(p), c, out);
}

template void allPairsInteractGpu(const ParticleView<float>&, const PhysicsConstants<float>&,
                                  const ForceOutputs<float>&);
template void allPairsInteractGpu(const ParticleView<double>&, const PhysicsConstants<double>&,
                                  const ForceOutputs<double>&);

}  // namespace sph::allpairs
