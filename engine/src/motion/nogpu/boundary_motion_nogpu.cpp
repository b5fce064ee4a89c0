// CPU-only build: the GPU pass of the imposed boundary motion exists so the engine links.
#include "motion/boundary_motion_ops.h"
#include "sph/plugin/errors.h"

namespace sph {

template <typename T>
void moveBoundariesGpu(const ParticleView<T>&, const MotionTableView&) {
  throw RunError("cannot move boundaries on the GPU: this build of sph has no CUDA support");
}
template void moveBoundariesGpu<float>(const ParticleView<float>&, const MotionTableView&);
template void moveBoundariesGpu<double>(const ParticleView<double>&, const MotionTableView&);

}  // namespace sph
