// The list force kernels: index, bitmask and cluster lists, each lane summing its part of a
// list and the lanes of a particle adding their sums by shuffles.
// Included by verlet_gpu_backend.cu alone: its launches instantiate these kernels in that one
// translation unit (compiled with --use_fast_math), hence the anonymous namespace.
#pragma once

#include "../verlet_bitmask.h"
#include "../verlet_clusters.h"
#include "../verlet_particle_ops.h"
#include "sph/plugin/gpu/warp_reduce.cuh"
#include "staged_clusters.cuh"
#include "staged_members.cuh"
#include "verlet_gpu_launch.cuh"

namespace sph::verlet {
namespace {

// Adds up the sums of the Lanes lanes of each particle by shuffles, in the order of the CPU's
// addParts; every lane of the warp must call it. Only coded variants count DEM contacts.
template <uint32_t Lanes, bool Coded, typename T, bool Shift, bool Sps>
__device__ SPH_FORCEINLINE void sumLanes(PairAccum<T, Shift, Sps>& acc) {
  for (uint32_t o = 1; o < Lanes; o <<= 1) {
    PairAccum<T, Shift, Sps> other;
    other.ax = __shfl_xor_sync(0xffffffffu, acc.ax, o);
    other.ay = __shfl_xor_sync(0xffffffffu, acc.ay, o);
    other.az = __shfl_xor_sync(0xffffffffu, acc.az, o);
    other.arho = __shfl_xor_sync(0xffffffffu, acc.arho, o);
    other.viscdt = __shfl_xor_sync(0xffffffffu, acc.viscdt, o);
    other.ddt = __shfl_xor_sync(0xffffffffu, acc.ddt, o);
    other.ddtOff = __shfl_xor_sync(0xffffffffu, acc.ddtOff, o);
    if constexpr (Coded) {
      other.contacts = __shfl_xor_sync(0xffffffffu, acc.contacts, o);
      other.demdt = __shfl_xor_sync(0xffffffffu, acc.demdt, o);
    }
    if constexpr (Shift) {
      other.sx = __shfl_xor_sync(0xffffffffu, acc.sx, o);
      other.sy = __shfl_xor_sync(0xffffffffu, acc.sy, o);
      other.sz = __shfl_xor_sync(0xffffffffu, acc.sz, o);
      other.sdiv = __shfl_xor_sync(0xffffffffu, acc.sdiv, o);
      other.shiftOff = __shfl_xor_sync(0xffffffffu, acc.shiftOff, o);
    }
    if constexpr (Sps) {
      other.strain.xx = __shfl_xor_sync(0xffffffffu, acc.strain.xx, o);
      other.strain.xy = __shfl_xor_sync(0xffffffffu, acc.strain.xy, o);
      other.strain.xz = __shfl_xor_sync(0xffffffffu, acc.strain.xz, o);
      other.strain.yy = __shfl_xor_sync(0xffffffffu, acc.strain.yy, o);
      other.strain.yz = __shfl_xor_sync(0xffffffffu, acc.strain.yz, o);
      other.strain.zz = __shfl_xor_sync(0xffffffffu, acc.strain.zz, o);
    }
    addPart(acc, other);
  }
}

// Whether the lanes of particle a compute its sums (over full lists) or its pairs (over half
// lists, the owner's part) in this call (ForcePart, particle_view.h): a < n, and at the right
// part of a split pass. A warp with none returns at once: the staging of the members syncs the
// warp, never the block.
__device__ SPH_FORCEINLINE bool sumsHere(uint32_t a, uint32_t n, const uint32_t* code, ForcePart part) {
  return a < n && (part == ForcePart::All || sumsIn(part, loadReadOnly(code + a)));
}

// Coded (with Periodic) is the variant for runs with floating bodies or mDBC2 walls; Shift and Sps
// (with Coded) for the passes that sum the shifting terms and those of the SPS model
// (verlet_particle_ops.h). Each lane sums its part of the list (index lists); the Lanes lanes of a particle add their sums up by shuffles and the first writes them.
template <typename T, KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps, uint32_t Lanes, typename Lists>
__global__ void __launch_bounds__(kForceBlock)
    listForcesKernel(Lists lists, const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ velrho,
                     const uint32_t* __restrict__ code, const SymTensor<T>* __restrict__ tau,
                     const Real4<T>* __restrict__ tangent, uint32_t n, uint32_t nBound, PhysicsConstants<T> c,
                     ForceOutputs<T> out) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = t / Lanes, part = t % Lanes;
  const bool active = sumsHere(a, n, code, out.part);
  if (__all_sync(0xffffffffu, !active)) return;
  PairAccum<T, Shift, Sps> acc;
  if (active)
    acc = partForces<K, Periodic, Coded, Shift, Sps, Lanes>(lists, a, part, pos, velrho, code, tau, tangent, nBound, c);
  sumLanes<Lanes, Coded>(acc);
  if (!active || part != 0) return;
  writeForces(a, acc, out);
}

// The same over bitmask lists, the members staged in shared memory (staged_members.cuh). Lanes
// past n, or of a particle of the other part, walk particle n - 1's or their particle's rows and
// take no member: the stage's flushes need every lane.
template <typename T, KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps, uint32_t Lanes, typename R>
__global__ void __launch_bounds__(kForceBlock)
    maskForcesKernel(MaskLists<R> m, const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ velrho,
                     const uint32_t* __restrict__ code, const SymTensor<T>* __restrict__ tau,
                     const Real4<T>* __restrict__ tangent, uint32_t n, uint32_t nBound, PhysicsConstants<T> c,
                     ForceOutputs<T> out) {
  __shared__ uint32_t stage[kForceBlock / kWarp][kMaskStage][kWarp];
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = t / Lanes, part = t % Lanes;
  const bool active = sumsHere(a, n, code, out.part);
  if (__all_sync(0xffffffffu, !active)) return;
  const uint32_t self = a < n ? a : n - 1;
  const Real4<R> builtA = loadReadOnly(m.built + self);
  PairAccum<T, Shift, Sps> acc = forcesOver<K, Periodic, Coded, Shift, Sps>(
      self, pos, velrho, code, tau, tangent, nBound, c, [&](auto&& pair) {
        stagedMaskMembers<Periodic, Lanes>(self, part, active, m, builtA, stage[threadIdx.x / kWarp], pair);
      });
  sumLanes<Lanes, Coded>(acc);
  if (!active || part != 0) return;
  writeForces(a, acc, out);
}

// The same over cluster lists, the members staged in shared memory by rank
// (staged_clusters.cuh). Lanes past n, or of a particle of the other part, read particle n - 1's
// or their particle's cluster and take no member.
template <typename T, KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps, uint32_t Lanes>
__global__ void __launch_bounds__(kForceBlock)
    clusterForcesKernel(ClusterLists lists, const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ velrho,
                        const uint32_t* __restrict__ code, const SymTensor<T>* __restrict__ tau,
                        const Real4<T>* __restrict__ tangent, uint32_t n, uint32_t nBound, PhysicsConstants<T> c,
                        ForceOutputs<T> out) {
  __shared__ uint32_t stage[kForceBlock / Lanes][kClusterStage<Lanes>];
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = t / Lanes, part = t % Lanes;
  const bool active = sumsHere(a, n, code, out.part);
  if (__all_sync(0xffffffffu, !active)) return;
  const uint32_t self = a < n ? a : n - 1;
  PairAccum<T, Shift, Sps> acc = forcesOver<K, Periodic, Coded, Shift, Sps>(
      self, pos, velrho, code, tau, tangent, nBound, c, [&](auto&& pair) {
        stagedClusterMembers<Lanes>(lists, self, part, active, stage[threadIdx.x / Lanes], pair);
      });
  sumLanes<Lanes, Coded>(acc);
  if (!active || part != 0) return;
  writeForces(a, acc, out);
}

}  // namespace
}  // namespace sph::verlet
