// The force passes that compute each pair once, over half lists (forEachListMember's `once`: a
// fluid particle lists its wall neighbours and the fluid neighbours after it in the sorted
// order, holdsPair; a wall particle nothing), in the index and the cluster layouts. The lanes of
// fluid particle a run the pair physics for its members as the full lists' kernels do, with the
// mirror of neighbours/gpu/pair_once.cuh (what the pair-once passes share: atomics, diffusion,
// viscdt). The kernels run over the fluid particles only (a wall particle's warps would do
// nothing).
// Included by verlet_gpu_backend.cu alone (anonymous namespace, --use_fast_math).
#pragma once

#include "../verlet_particle_ops.h"
#include "neighbours/gpu/pair_once.cuh"
#include "verlet_gpu_forces.cuh"

namespace sph::verlet {
namespace {

using neighbours::gpu::PairOnceOutputs;

// Lanes per fluid particle over half lists in large cases. Half lists are half as long as the
// full lists the lane count was chosen for (verlet_layout.h): from ~half a million fluid
// particles the device has warps enough without 8 lanes, and 4 leave fewer lanes idle at the
// ends of the lists and one shuffle round less; below it 8 stay faster (the sweep:
// tools/bench/RESULTS.md, "Four lanes a particle over half lists").
inline constexpr uint32_t kOnceFewerLanes = 4;
inline constexpr uint32_t kOnceFewerLanesFrom = 600000;

template <KernelKind K, bool Periodic, uint32_t Lanes>
__global__ void __launch_bounds__(kForceBlock)
    onceForcesKernel(ListsView lists, const Real4<float>* __restrict__ pos, const Real4<float>* __restrict__ velrho,
                     const uint32_t* __restrict__ code, uint32_t n, uint32_t nBound, PhysicsConstants<float> c,
                     PairOnceOutputs out, ForcePart pass) {
  // Fluid particles only: walls have no list (launchOnce clears their outputs).
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = nBound + t / Lanes, part = t % Lanes;
  const bool owns = sumsHere(a, n, code, pass);
  if (__all_sync(0xffffffffu, !owns)) return;
  PairAccum<float> acc;
  if (owns) {
    const Real4<float> posA = loadReadOnly(pos + a), velA = loadReadOnly(velrho + a);
    const uint32_t len = loadReadOnly(lists.length + a);
    const uint32_t* e = lists.entries + regionStart(lists.regionEnd, a / kWarp) + (a % kWarp);
    for (uint32_t k = part; k < len; k += Lanes) {
      const uint32_t j = loadReadOnly(e + uint64_t(k) * kWarp);
      const Real4<float> posB = loadReadOnly(pos + j);
      if (distance2<Periodic>(posA, posB, c.periodic) >= c.support2) continue;
      neighbours::gpu::pairOnce<K, Periodic>(posA, velA, j, posB, loadReadOnly(velrho + j), nBound, c, acc, out);
    }
  }
  sumLanes<Lanes, false>(acc);
  if (!owns || part != 0) return;
  neighbours::gpu::finishPairsOnce(a, acc, out);
}

// The same over half cluster lists, the members staged by rank (staged_clusters.cuh) from the
// cluster that holds the first fluid particle: `first` is its first particle, and the walls
// before nBound in it, like the lanes past n, take no member (the stage's flushes need every
// lane of the warp).
template <KernelKind K, bool Periodic, uint32_t Lanes>
__global__ void __launch_bounds__(kForceBlock)
    clusterOnceForcesKernel(ClusterLists lists, const Real4<float>* __restrict__ pos,
                            const Real4<float>* __restrict__ velrho, const uint32_t* __restrict__ code, uint32_t first,
                            uint32_t n, uint32_t nBound, PhysicsConstants<float> c, PairOnceOutputs out,
                            ForcePart pass) {
  __shared__ uint32_t stage[kForceBlock / Lanes][kClusterStage<Lanes>];
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = first + t / Lanes, part = t % Lanes;
  const bool owns = a >= nBound && sumsHere(a, n, code, pass);
  if (__all_sync(0xffffffffu, !owns)) return;
  const uint32_t self = a < n ? a : n - 1;
  const Real4<float> posA = loadReadOnly(pos + self), velA = loadReadOnly(velrho + self);
  PairAccum<float> acc;
  stagedClusterMembers<Lanes>(lists, self, part, owns, stage[threadIdx.x / Lanes], [&](uint32_t j) {
    const Real4<float> posB = loadReadOnly(pos + j);
    if (distance2<Periodic>(posA, posB, c.periodic) >= c.support2) return;
    neighbours::gpu::pairOnce<K, Periodic>(posA, velA, j, posB, loadReadOnly(velrho + j), nBound, c, acc, out);
  });
  sumLanes<Lanes, false>(acc);
  if (!owns || part != 0) return;
  neighbours::gpu::finishPairsOnce(a, acc, out);
}

}  // namespace
}  // namespace sph::verlet
