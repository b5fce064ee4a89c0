// mDBC's boundary correction on the GPU: kLanes threads per boundary particle. Each lane takes
// every kLanes-th particle of the fluid rows around the ghost node (consecutive lanes load
// consecutive particles), and the group adds its sums up by shuffles. With one thread per wall
// particle the wet walls' ghost nodes each scan hundreds of candidates serially, in a kernel of
// too few threads to hide the latency (tools/bench/RESULTS.md, mDBC).
#include "../interaction_variant.h"
#include "cell_gpu_launch.h"
#include "sph/plugin/gpu/warp_reduce.cuh"
#include "sph/plugin/errors.h"
#include "sph/plugin/gpu/cuda_check.cuh"

#include <cstdint>

namespace sph::cell::gpu {

namespace {

constexpr uint32_t kLanes = 8;

// The sum over the kLanes lanes of a group (all of them active: groups exit together).
template <typename V>
__device__ __forceinline__ V groupSum(V v, unsigned mask) {
  return sph::gpu::groupSum<kLanes>(v, mask);
}

template <typename T, KernelKind K, bool Periodic, bool Slip>
__global__ void boundaryCorrectionKernel(ForceInputs<T> in, ParticleView<T> view, PhysicsConstants<T> c) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t b = t / kLanes, lane = t % kLanes;
  if (b >= in.nBound) return;
  const Real4<T> n = loadReadOnly(view.normal + b);
  if (!hasNormal(n)) return;
  const Real4<T> g = ghostNode(b, n, in);
  MdbcSums<T> s;
  forEachCandidateRow<Periodic>(in.lookup, pointKey(in.lookup, g), g, true,
                                [&](uint32_t fBegin, uint32_t fEnd, uint32_t, uint32_t) {
                                  for (uint32_t j = fBegin + lane; j < fEnd; j += kLanes)
                                    addGhostCandidate<K, Periodic, Slip>(s, g, j, in, c);
                                });
  const unsigned mask = ((1u << kLanes) - 1u) << (threadIdx.x % 32u / kLanes * kLanes);
  s.rho = groupSum(s.rho, mask);
  for (int k = 0; k < 3; ++k) s.grad[k] = groupSum(s.grad[k], mask);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s.a[i][j] = groupSum(s.a[i][j], mask);
  if constexpr (Slip) {
    s.sumW = groupSum(s.sumW, mask);
    s.submerged = groupSum(s.submerged, mask);
    for (int k = 0; k < 3; ++k) s.vel[k] = groupSum(s.vel[k], mask);
  }
  if (lane != 0) return;
  // Only boundary particles are written, only fluid ones read.
  mdbcStoreWall(b, s, n, view.pos, view.velrho, view.code, view.tangent, view.motionAce, c);
}

}  // namespace

template <typename T>
void launchBoundaryCorrection(const ForceInputs<T>& in, const ParticleView<T>& view, const PhysicsConstants<T>& c) {
  if (in.nBound == 0) return;
  if (in.nBound > UINT32_MAX / kLanes)
    throw RunError("mDBC correction: more boundary particles than one launch of lanes per particle can index");
  auto* kernel = neighbours::dispatchCorrection(c, [](auto v) {
    using V = decltype(v);
    return &boundaryCorrectionKernel<T, V::K, V::Periodic, V::Slip>;
  });
  SPH_LAUNCH("correcting boundary densities (mDBC)", in.nBound * kLanes, kBlock, 0, kernel, in, view, c);
}

template void launchBoundaryCorrection(const ForceInputs<float>&, const ParticleView<float>&,
                                       const PhysicsConstants<float>&);
template void launchBoundaryCorrection(const ForceInputs<double>&, const ParticleView<double>&,
                                       const PhysicsConstants<double>&);

}  // namespace sph::cell::gpu
