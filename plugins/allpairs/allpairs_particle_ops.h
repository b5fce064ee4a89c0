// What one particle does in the all-pairs search, for the OpenMP loop and the CUDA kernel alike:
// its candidates are every particle, in index order, which is the definition every other
// strategy must reproduce. DBC: a boundary particle's candidates are the fluid particles only (a
// wall gathers continuity from the fluid, never from another wall); a fluid particle's are all,
// itself included (the physics skips r = 0).
#pragma once

#include <cstdint>

#include "neighbours/particle_ops.h"

namespace sph::allpairs {

using neighbours::ForceInputs;

// Calls fn(j) for every candidate of a particle at `bound` (true: a boundary particle).
template <typename T>
struct AllCandidates {
  uint32_t n = 0, nBound = 0;
  template <typename Fn>
  SPH_HD SPH_FORCEINLINE void operator()(const Real4<T>&, bool bound, Fn&& fn) const {
    for (uint32_t j = bound ? nBound : 0u; j < n; ++j) fn(j);
  }
};

// The force sum of particle a over all particles (V: interaction_variant.h).
template <typename V, typename T>
SPH_HD SPH_FORCEINLINE auto allPairsForces(uint32_t a, const ForceInputs<T>& in, const PhysicsConstants<T>& c) {
  neighbours::NoTally none;
  return neighbours::particleForcesOver<V::K, V::Periodic, V::Coded, V::Shift, V::Sps>(
      a, in, c, none, AllCandidates<T>{in.n, in.nBound});
}

// mDBC: the ghost-node sums of boundary particle b (normal n) over every fluid particle.
template <typename V, typename T>
SPH_HD SPH_FORCEINLINE MdbcSums<T> allPairsGhostSums(uint32_t b, const Real4<T>& n, const ForceInputs<T>& in,
                                                     const PhysicsConstants<T>& c) {
  const AllCandidates<T> all{in.n, in.nBound};
  return neighbours::ghostSumsOver<V::K, V::Periodic, V::Slip>(
      b, n, in, c, [&](const Real4<T>& g, auto&& fn) { all(g, true, fn); });
}

// Inlets/outlets: the sums of a buffer particle's ghost node g over every fluid particle.
template <KernelKind K, bool Periodic, typename T>
SPH_HD SPH_FORCEINLINE InOutSums allPairsInOutSums(const Real4<T>& g, const ForceInputs<T>& in,
                                                   const PhysicsConstants<T>& c) {
  const AllCandidates<T> all{in.n, in.nBound};
  return neighbours::inOutSumsOver<K, Periodic>(g, in, c, [&](const Real4<T>& node, auto&& fn) { all(node, true, fn); });
}

// The extrapolation of listed buffer particle k (inout_extrapolation.h).
template <KernelKind K, bool Periodic, typename T>
SPH_HD SPH_FORCEINLINE void allPairsExtrapolateOne(uint32_t k, const ParticleView<T>& p, const ForceInputs<T>& in,
                                                   const PhysicsConstants<T>& c, const InOutExtrapolation& x) {
  const uint32_t i = x.which[k];
  const InOutMirror m = x.zones[code::inOutZone(p.code[i])];
  const Real4<T> g = inOutGhostNode(p.pos[i], m);
  inOutStoreExtrapolated(i, allPairsInOutSums<K, Periodic>(g, in, c), g, m, x.determLimit, p.pos, p.velrho, c);
}

template <typename T>
ForceInputs<T> allPairsInputs(const ParticleView<T>& p) {
  return neighbours::forceInputs(p);  // no cell tables
}

// The passes, on the CPU (allpairs_cpu.cpp) and on the GPU (gpu/allpairs_gpu_forces.cu and
// gpu/allpairs_gpu_mdbc.cu; without CUDA, nogpu/ throws RunError).
template <typename T>
void allPairsInteractCpu(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out,
                         int threads);
template <typename T>
void allPairsCorrectCpu(const ParticleView<T>& p, const PhysicsConstants<T>& c, int threads);
template <typename T>
void allPairsInteractGpu(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out);
template <typename T>
void allPairsCorrectGpu(const ParticleView<T>& p, const PhysicsConstants<T>& c);
template <typename T>
void allPairsExtrapolateCpu(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x,
                            int threads);
template <typename T>
void allPairsExtrapolateGpu(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x);
bool allPairsGpuBuilt();

}  // namespace sph::allpairs
