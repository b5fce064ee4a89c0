// What the force passes that compute each pair once share, whoever finds the pairs (the cell
// search's cell_gpu_forces.cu, the Verlet plugin's half lists in once_forces.cuh): a fluid
// particle a takes every pair (a, b) it owns, keeps its own sums in registers and gives b its
// terms (interactPairMass's mirror, pair_physics.h) by atomic additions, one 16-byte vector
// addition a pair (acceleration and density rate together). Walls own no pair: they get their
// density rate from their fluid neighbours' mirrors alone. The outputs are cleared before the
// pass (clearPairOnceOutputs) and a's own sums are added at its end (finishPairsOnce).
//
// Why: the pair physics is what a force pass spends its issue slots on; computed once, it is
// half, for one vector atomic a pair.
//
// The density diffusion of a particle joins its density rate unless a wall neighbour switches
// it off (wallsCanSwitchOffDiffusion); where one can, the diffusion sums go to their own array
// and the owner's verdict (its flags) decides in a short pass after (addPairOnceDiffusion).
// viscdt: the pair's v_ab.r_ab/(r^2+eta^2) is the same for a and b and only its largest value over
// all particles is used (the time step), so a's covers every pair it owns and walls get 0.
// Sums arrive in any order, so results vary between runs by rounding: runs that must repeat bit
// for bit take every pair twice.
// Single precision only (float4 atomics); plain passes only (no floating body, mDBC2 wall,
// shifting or SPS sums): pairOncePass (interaction_variant.h).
#pragma once

#include <cstdint>

#include "../interaction_variant.h"
#include "sph/plugin/gpu/cuda_check.cuh"
#include "sph/plugin/pair_physics.h"
#include "sph/plugin/particle_view.h"

namespace sph::neighbours::gpu {

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

// Where a pass that computes each pair once puts its sums: the pass's outputs, and with
// `ddt` (not null) the diffusion sums and each particle's PairAccum::ddtOff, n entries each.
struct PairOnceOutputs {
  Real4<float>* ace = nullptr;
  float* viscdt = nullptr;
  uint32_t* contacts = nullptr;
  float* ddt = nullptr;
  uint32_t* ddtOff = nullptr;
};

// The pair of fluid particle a with j (within the support), computed once: a's terms join acc,
// j's go to j.
template <KernelKind K, bool Periodic>
__device__ SPH_FORCEINLINE void pairOnce(const Real4<float>& posA, const Real4<float>& velA, uint32_t j,
                                         const Real4<float>& posB, const Real4<float>& velB, uint32_t nBound,
                                         const PhysicsConstants<float>& c, PairAccum<float>& acc,
                                         const PairOnceOutputs& out) {
  const bool wallB = j < nBound;
  MirrorSums<float> m;
  interactPairMass<K, Periodic, true>(posA, velA, false, posB, velB, wallB, wallB ? c.massBound : c.massFluid, false, c,
                                      acc, false, SymTensor<float>{}, static_cast<const Real4<float>*>(nullptr), &m);
  if (wallB) {
    atomicAdd(&out.ace[j].w, m.arho);
  } else if (out.ddt) {
    atomicAdd4(out.ace + j, m.ax, m.ay, m.az, m.arho);
    atomicAdd(out.ddt + j, m.ddt);
  } else {
    atomicAdd4(out.ace + j, m.ax, m.ay, m.az, m.arho + m.ddt);
  }
}

// Fluid particle a's own sums, after its last pair.
__device__ SPH_FORCEINLINE void finishPairsOnce(uint32_t a, const PairAccum<float>& acc, const PairOnceOutputs& out) {
  out.viscdt[a] = acc.viscdt;
  if (out.contacts) out.contacts[a] = 0;
  if (out.ddt) {
    atomicAdd4(out.ace + a, acc.ax, acc.ay, acc.az, acc.arho);
    atomicAdd(out.ddt + a, acc.ddt);
    out.ddtOff[a] = acc.ddtOff;
  } else {
    atomicAdd4(out.ace + a, acc.ax, acc.ay, acc.az, acc.arho + acc.ddt);
  }
}

// Each fluid particle's density diffusion joins its density rate unless its flags switch it off.
template <typename T>
__global__ void addPairOnceDiffusionKernel(Real4<T>* __restrict__ ace, const T* __restrict__ ddt,
                                           const uint32_t* __restrict__ ddtOff, uint32_t nBound, uint32_t n) {
  const uint32_t a = nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= n) return;
  if (!PairAccum<T>::ddtSwitchedOff(ddtOff[a])) ace[a].w += ddt[a];
}

// Before the pass: the sums cleared (atomics add to them), and the walls' viscdt and contacts,
// which no thread writes. n particles, the first nBound walls.
inline void clearPairOnceOutputs(const PairOnceOutputs& out, uint32_t n, uint32_t nBound) {
  SPH_CUDA_CHECK(cudaMemsetAsync(out.ace, 0, size_t(n) * sizeof(Real4<float>), 0), "clearing the force sums");
  SPH_CUDA_CHECK(cudaMemsetAsync(out.viscdt, 0, size_t(nBound) * sizeof(float), 0), "clearing the walls' dt terms");
  if (out.contacts)
    SPH_CUDA_CHECK(cudaMemsetAsync(out.contacts, 0, size_t(nBound) * sizeof(uint32_t), 0),
                   "clearing the walls' contacts");
  if (out.ddt) SPH_CUDA_CHECK(cudaMemsetAsync(out.ddt, 0, size_t(n) * sizeof(float), 0), "clearing the diffusion sums");
}

// After the pass: the diffusion sums added where a wall could switch them off.
inline void addPairOnceDiffusion(const PairOnceOutputs& out, uint32_t n, uint32_t nBound) {
  constexpr unsigned kBlock = 128;
  if (out.ddt && n > nBound)
    SPH_LAUNCH("adding the density diffusion (CF-Forces)", n - nBound, kBlock, 0, addPairOnceDiffusionKernel<float>,
               out.ace, out.ddt, out.ddtOff, nBound, n);
}

}  // namespace sph::neighbours::gpu
