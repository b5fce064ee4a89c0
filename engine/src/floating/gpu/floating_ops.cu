// CUDA passes of floating bodies (floating/floating_ops.h): an index of the floating particles after
// every reorder, one block per body for its sums (a fixed summation order, so runs repeat
// exactly), one thread per body to advance it, and one per floating particle to move it.
#include "floating/floating_ops.h"
#include "sph/plugin/gpu/cuda_check.cuh"
#include "sph/plugin/particle_code.h"

namespace sph {
namespace {

constexpr unsigned kBlock = 256;
constexpr unsigned kBodyBlock = 128;

__global__ void clearSlotsKernel(uint32_t* slotIndex, uint32_t n) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) slotIndex[k] = kNoSlot;
}

template <typename T>
__global__ void indexKernel(ParticleView<T> p, FloatingPass<T> f) {
  const uint32_t i = p.nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n && code::isFloating(p.code[i]) && !code::isHalo(p.code[i])) f.slotIndex[p.id[i] - f.idFirst] = i;
}

__device__ void mergeShared(BodySums* shared, unsigned t, unsigned stride) {
  if (t < stride) mergeBodySums(shared[t], shared[t + stride]);
}

template <typename T>
__global__ void __launch_bounds__(kBodyBlock)
    sumKernel(ParticleView<T> p, const Real4<T>* __restrict__ ace, const Real4<T>* src, FloatingPass<T> f) {
  // Raw storage: BodySums has default member initialisers, which __shared__ does not allow.
  __shared__ alignas(BodySums) unsigned char raw[kBodyBlock * sizeof(BodySums)];
  BodySums* shared = reinterpret_cast<BodySums*>(raw);
  const uint32_t b = blockIdx.x;
  const FloatingBody body = f.bodies[b];
  const double* c = sumCenter(b, f);
  const double center[3] = {c[0], c[1], c[2]};
  const Real4<T>* at = sumPositions(p, src, f);
  BodySums s;
  for (uint32_t k = body.first + threadIdx.x; k < body.first + body.count; k += kBodyBlock)
    addParticleToBody(s, k, at, ace, center, f);
  shared[threadIdx.x] = s;
  __syncthreads();
  for (unsigned stride = kBodyBlock / 2; stride > 0; stride /= 2) {
    mergeShared(shared, threadIdx.x, stride);
    __syncthreads();
  }
  if (threadIdx.x == 0) f.sums[b] = shared[0];
}

template <typename T>
__global__ void finishKernel(FloatingPass<T> f, const double* dt, BodyStep kind, bool paused) {
  const uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < f.nBodies) finishBody(b, f.sums[b], f, *dt, paused, kind);
}

template <typename T>
__global__ void moveKernel(ParticleView<T> p, const Real4<T>* src, const Real4<T>* srcVel, FloatingPass<T> f,
                           BodyStep kind) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < f.nFloating) moveBodyParticle(k, p, src, srcVel, f, kind);
}

}  // namespace

template <typename T>
void indexFloatingGpu(const ParticleView<T>& p, const FloatingPass<T>& f) {
  SPH_LAUNCH("clearing the index of floating particles", f.nFloating, kBlock, 0, clearSlotsKernel, f.slotIndex,
             f.nFloating);
  SPH_LAUNCH("indexing the particles of floating bodies", p.n - p.nBound, kBlock, 0, indexKernel<T>, p, f);
}

template <typename T>
void sumFloatingGpu(const ParticleView<T>& p, const Real4<T>* ace, const Real4<T>* src, const FloatingPass<T>& f) {
  sumKernel<T><<<f.nBodies, kBodyBlock>>>(p, ace, src, f);
  SPH_CUDA_CHECK(cudaGetLastError(), "summing the forces on floating bodies");
}

template <typename T>
void advanceFloatingGpu(const ParticleView<T>& p, const Real4<T>* src, const Real4<T>* srcVel, const FloatingPass<T>& f,
                        const double* dt, BodyStep kind, bool paused) {
  SPH_LAUNCH("advancing floating bodies", f.nBodies, kBodyBlock, 0, finishKernel<T>, f, dt, kind, paused);
  SPH_LAUNCH("moving the particles of floating bodies", f.nFloating, kBlock, 0, moveKernel<T>, p, src, srcVel, f, kind);
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
