// Inlets/outlets' extrapolation on the GPU: kLanes threads per listed buffer particle, each lane
// taking every kLanes-th particle of the fluid rows around the ghost node, the group adding its
// sums by shuffles (as mDBC's correction, cell_gpu_mdbc.cu).
#include "../particle_ops.h"
#include "cell_gpu_launch.h"
#include "sph/plugin/errors.h"
#include "sph/plugin/gpu/cuda_check.cuh"
#include "sph/plugin/gpu/warp_reduce.cuh"

#include <cstdint>

namespace sph::cell::gpu {

namespace {

constexpr uint32_t kLanes = 8;

template <typename T, KernelKind K, bool Periodic>
__global__ void inOutExtrapolationKernel(ForceInputs<T> in, ParticleView<T> view, PhysicsConstants<T> c,
                                         InOutExtrapolation x) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t k = t / kLanes, lane = t % kLanes;
  if (k >= x.count) return;
  const uint32_t i = x.which[k];
  const InOutMirror m = x.zones[code::inOutZone(view.code[i])];
  const Real4<T> g = inOutGhostNode(loadReadOnly(view.pos + i), m);
  InOutSums s = neighbours::inOutSumsOver<K, Periodic>(g, in, c, [&](const Real4<T>& node, auto&& fn) {
    forEachCandidateRow<Periodic>(in.lookup, pointKey(in.lookup, node), node, true,
                                  [&](uint32_t fBegin, uint32_t fEnd, uint32_t, uint32_t) {
                                    for (uint32_t j = fBegin + lane; j < fEnd; j += kLanes) fn(j);
                                  });
  });
  const unsigned mask = ((1u << kLanes) - 1u) << (threadIdx.x % 32u / kLanes * kLanes);
  auto sum = [&](double& v) { v = sph::gpu::groupSum<kLanes>(v, mask); };
  sum(s.rho);
  for (int a = 0; a < 3; ++a) {
    sum(s.gradRho[a]);
    sum(s.vel[a]);
    for (int b = 0; b < 3; ++b) sum(s.gradVel[a][b]);
  }
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) sum(s.a[a][b]);
  if (lane != 0) return;
  inOutStoreExtrapolated(i, s, g, m, x.determLimit, view.pos, view.velrho, c);
}

}  // namespace

template <typename T>
void launchInOutExtrapolation(const ForceInputs<T>& in, const ParticleView<T>& view, const PhysicsConstants<T>& c,
                              const InOutExtrapolation& x) {
  if (x.count == 0) return;
  if (x.count > UINT32_MAX / kLanes)
    throw RunError("inlet/outlet extrapolation: more buffer particles than one launch of lanes per particle can index");
  auto* kernel = neighbours::dispatchInOut(c, [](auto k, auto periodic) {
    return &inOutExtrapolationKernel<T, decltype(k)::value, decltype(periodic)::value>;
  });
  SPH_LAUNCH("extrapolating inlet/outlet velocities and densities (CF-InOutExtrap)", x.count * kLanes, kBlock, 0,
             kernel, in, view, c, x);
}

template void launchInOutExtrapolation(const ForceInputs<float>&, const ParticleView<float>&,
                                       const PhysicsConstants<float>&, const InOutExtrapolation&);
template void launchInOutExtrapolation(const ForceInputs<double>&, const ParticleView<double>&,
                                       const PhysicsConstants<double>&, const InOutExtrapolation&);

}  // namespace sph::cell::gpu
