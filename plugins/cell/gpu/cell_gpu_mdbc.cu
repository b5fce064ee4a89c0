// mDBC's boundary correction on the GPU: one thread per boundary particle, consecutive threads on
// consecutive (sorted, hence neighbouring) wall particles, whose ghost nodes share cells.
#include "cell_gpu_launch.h"
#include "sph/gpu/cuda_check.cuh"

namespace sph::cell::gpu {

namespace {

template <typename T, KernelKind K, bool Periodic>
__global__ void boundaryCorrectionKernel(ForceInputs<T> in, const Real4<T>* __restrict__ normal,
                                         PhysicsConstants<T> c) {
  const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= in.nBound) return;
  const Real4<T> n = loadReadOnly(normal + b);
  if (!hasNormal(n)) return;
  // Only boundary particles are written, only fluid ones read: the const_casts alias nothing.
  mdbcStore(b, boundaryDensity<K, Periodic>(b, n, in, c), const_cast<Real4<T>*>(in.pos),
            const_cast<Real4<T>*>(in.velrho), c);
}

template <typename T, KernelKind K>
void launchWith(const ForceInputs<T>& in, const Real4<T>* normal, const PhysicsConstants<T>& c) {
  auto* kernel = c.periodic.any() ? &boundaryCorrectionKernel<T, K, true> : &boundaryCorrectionKernel<T, K, false>;
  SPH_LAUNCH("correcting boundary densities (mDBC)", in.nBound, kBlock, 0, kernel, in, normal, c);
}

}  // namespace

template <typename T>
void launchBoundaryCorrection(const ForceInputs<T>& in, const Real4<T>* normal, const PhysicsConstants<T>& c) {
  if (in.nBound == 0) return;
  if (c.kernel == KernelKind::Cubic)
    launchWith<T, KernelKind::Cubic>(in, normal, c);
  else
    launchWith<T, KernelKind::Wendland>(in, normal, c);
}

template void launchBoundaryCorrection(const ForceInputs<float>&, const Real4<float>*, const PhysicsConstants<float>&);
template void launchBoundaryCorrection(const ForceInputs<double>&, const Real4<double>*,
                                       const PhysicsConstants<double>&);

}  // namespace sph::cell::gpu
