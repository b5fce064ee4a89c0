// CUDA pass of the imposed boundary motion (motion/boundary_motion.h): one thread per boundary
// particle around the shared moveBoundaryParticle().
#include "motion/boundary_motion_ops.h"
#include "sph/plugin/gpu/cuda_check.cuh"

namespace sph {
namespace {

constexpr unsigned kBlock = 256;

template <typename T>
__global__ void moveBoundariesKernel(ParticleView<T> p, MotionTableView m) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.nBound) moveBoundaryParticle(i, p.pos, p.velrho, p.code, m, p.normal, p.motionAce, p.posLo);
}

}  // namespace

template <typename T>
void moveBoundariesGpu(const ParticleView<T>& p, const MotionTableView& m) {
  SPH_LAUNCH("moving the boundary particles of moving objects", p.nBound, kBlock, 0, moveBoundariesKernel<T>, p, m);
}

template void moveBoundariesGpu<float>(const ParticleView<float>&, const MotionTableView&);
template void moveBoundariesGpu<double>(const ParticleView<double>&, const MotionTableView&);

}  // namespace sph
