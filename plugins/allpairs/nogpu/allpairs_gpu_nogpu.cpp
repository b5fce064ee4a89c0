// Builds without CUDA: the GPU passes do not exist, and the strategy refuses a GPU context.
#include "../allpairs_particle_ops.h"
#include "sph/plugin/errors.h"

namespace sph::allpairs {

bool allPairsGpuBuilt() { return false; }

namespace {
[[noreturn]] void noGpu() { throw RunError("allpairs neighbour search: this build has no GPU path (built without CUDA)"); }
}  // namespace

template <typename T>
void allPairsInteractGpu(const ParticleView<T>&, const PhysicsConstants<T>&, const ForceOutputs<T>&) {
  noGpu();
}
template <typename T>
void allPairsCorrectGpu(const ParticleView<T>&, const PhysicsConstants<T>&) {
  noGpu();
}

template void allPairsInteractGpu(const ParticleView<float>&, const PhysicsConstants<float>&,
                                  const ForceOutputs<float>&);
template void allPairsInteractGpu(const ParticleView<double>&, const PhysicsConstants<double>&,
                                  const ForceOutputs<double>&);
template <typename T>
void allPairsExtrapolateGpu(const ParticleView<T>&, const PhysicsConstants<T>&, const InOutExtrapolation&) {
  noGpu();
}
template void allPairsExtrapolateGpu(const ParticleView<float>&, const PhysicsConstants<float>&,
                                     const InOutExtrapolation&);
template void allPairsExtrapolateGpu(const ParticleView<double>&, const PhysicsConstants<double>&,
                                     const InOutExtrapolation&);
template void allPairsCorrectGpu(const ParticleView<float>&, const PhysicsConstants<float>&);
template void allPairsCorrectGpu(const ParticleView<double>&, const PhysicsConstants<double>&);

}  // namespace sph::allpairs
