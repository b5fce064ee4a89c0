// The force pass that computes each pair once, over half index lists (forEachListMember's
// `once`: a fluid particle lists its wall neighbours and the fluid neighbours after it in the
// sorted order, holdsPair; a wall particle nothing). The lanes of fluid particle a run the pair
// physics for its members as the full lists' kernel does, with interactPairMass's mirror: a keeps
// its own sums in registers, and b's terms (pair_physics.h, MirrorSums) go to b by atomic
// additions, one 16-byte vector addition a pair (acceleration and density rate together). The
// outputs are cleared before the pass; a's own sums are added at its end. Walls get their density
// rate from their fluid neighbours' mirrors alone.
//
// Why: the pair physics is what the force pass spends its issue slots on; computed once, it is
// half, for one vector atomic a pair (tools/bench/RESULTS.md has what that gains).
//
// The density diffusion of a particle joins its density rate unless a wall neighbour switches
// it off (wallsCanSwitchOffDiffusion); where one can, the diffusion sums go to their own array
// and the owner's verdict (its flags) decides in a short pass after (addDiffusionKernel).
// viscdt: the pair's v_ab.r_ab/(r^2+eta^2) is the same for a and b and only its largest value over
// all particles is used (the time step), so a's covers every pair it owns and walls get 0.
// The kernel runs over the fluid particles only (a wall particle's warps would do nothing).
// Sums arrive in any order, so results vary between runs by rounding; runs that must repeat bit
// for bit take every pair twice (VerletPairs twice).
// Included by verlet_gpu_backend.cu alone (anonymous namespace, --use_fast_math).
#pragma once

#include "../verlet_particle_ops.h"
#include "verlet_gpu_forces.cuh"

namespace sph::verlet {
namespace {

// p += (x, y, z, w) atomically: one vector atomic on Hopper (float4 atomicAdd on global memory,
// compute capability 9.0), four before it.
__device__ SPH_FORCEINLINE void atomicAdd4(Real4<float>* p, float x, float y, float z, float w) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  atomicAdd(reinterpret_cast<float4*>(p), make_float4(x, y, z, w));
#else
  atomicAdd(&p->x, x);
  atomicAdd(&p->y, y);
  atomicAdd(&p->z, z);
  atomicAdd(&p->w, w);
#endif
}

template <KernelKind K, bool Periodic, uint32_t Lanes>
__global__ void __launch_bounds__(kForceBlock)
    onceForcesKernel(ListsView lists, const Real4<float>* __restrict__ pos, const Real4<float>* __restrict__ velrho,
                     uint32_t n, uint32_t nBound, PhysicsConstants<float> c, Real4<float>* __restrict__ ace,
                     float* __restrict__ viscdt, uint32_t* __restrict__ contacts, float* __restrict__ ddt,
                     uint32_t* __restrict__ ddtOff) {
  // Fluid particles only: walls have no list (launchOnce clears their outputs).
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = nBound + t / Lanes, part = t % Lanes;
  const bool fluid = a < n;
  PairAccum<float> acc;
  if (fluid) {
    const Real4<float> posA = loadReadOnly(pos + a), velA = loadReadOnly(velrho + a);
    const uint32_t len = loadReadOnly(lists.length + a);
    const uint32_t* e = lists.entries + regionStart(lists.regionEnd, a / kWarp) + (a % kWarp);
    for (uint32_t k = part; k < len; k += Lanes) {
      const uint32_t j = loadReadOnly(e + uint64_t(k) * kWarp);
      const Real4<float> posB = loadReadOnly(pos + j);
      if (distance2<Periodic>(posA, posB, c.periodic) >= c.support2) continue;
      const bool wallB = j < nBound;
      MirrorSums<float> m;
      interactPairMass<K, Periodic, true>(posA, velA, false, posB, loadReadOnly(velrho + j), wallB,
                                          wallB ? c.massBound : c.massFluid, false, c, acc, false, SymTensor<float>{},
                                          static_cast<const Real4<float>*>(nullptr), &m);
      if (wallB)
        atomicAdd(&ace[j].w, m.arho);
      else if (ddt) {
        atomicAdd4(ace + j, m.ax, m.ay, m.az, m.arho);
        atomicAdd(ddt + j, m.ddt);
      } else {
        atomicAdd4(ace + j, m.ax, m.ay, m.az, m.arho + m.ddt);
      }
    }
  }
  sumLanes<Lanes, false>(acc);
  if (!fluid || part != 0) return;
  viscdt[a] = acc.viscdt;
  if (contacts) contacts[a] = 0;
  if (ddt) {
    atomicAdd4(ace + a, acc.ax, acc.ay, acc.az, acc.arho);
    atomicAdd(ddt + a, acc.ddt);
    ddtOff[a] = acc.ddtOff;
  } else {
    atomicAdd4(ace + a, acc.ax, acc.ay, acc.az, acc.arho + acc.ddt);
  }
}

// Each fluid particle's density diffusion joins its density rate unless its flags switch it off.
__global__ void __launch_bounds__(kBlock)
    addDiffusionKernel(Real4<float>* __restrict__ ace, const float* __restrict__ ddt,
                       const uint32_t* __restrict__ ddtOff, uint32_t nBound, uint32_t n) {
  const uint32_t a = nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  if (!PairAccum<float>::ddtSwitchedOff(ddtOff[a])) ace[a].w += ddt[a];
}

}  // namespace
}  // namespace sph::verlet
