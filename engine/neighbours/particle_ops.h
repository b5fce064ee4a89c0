// Per-particle work, shared by the OpenMP loops and the CUDA kernels of every strategy: the force
// sum and the mDBC ghost-node sums of one particle over any candidate set (particleForcesOver,
// ghostSumsOver), whatever finds the candidates (cells, lists, all particles).
// The physics is sph::interactPair(); this file only filters candidates by distance first, so
// that the velocity/density of out-of-range candidates (most of them) is never loaded.
#pragma once

#include <cstdint>

#include "cell_iteration.h"
#include <type_traits>

#include "sph/plugin/floating_pair_physics.h"
#include "sph/plugin/inout_extrapolation.h"
#include "sph/plugin/mdbc_physics.h"
#include "sph/plugin/pair_physics.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/particle_view.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/real4.h"

namespace sph::neighbours {

using cell::CellLookup;
using cell::loadReadOnly;


// |r_a - r_b|^2 with the minimum image along periodic axes, as interactPair() computes it.
// Periodic = false only for boxes without a periodic axis (periodic.h, pairDeltaIf).
template <bool Periodic = true, typename T>
SPH_HD SPH_FORCEINLINE T distance2(const Real4<T>& a, const Real4<T>& b, const PeriodicBox<T>& box) {
  T dx, dy, dz;
  pairDeltaIf<Periodic>(a, b, box, dx, dy, dz);
  return dx * dx + dy * dy + dz * dz;
}

// Counters of one particle's iteration. `inRange` excludes the particle itself.
struct CandidateTally {
  uint32_t candidates = 0;
  uint32_t inRange = 0;
  uint32_t self = 0;  // 1 when a visited itself (fluid a)
};

// Compile-time switch for the force loop: NoTally costs nothing (GPU), Tally counts (CPU).
struct NoTally {
  SPH_HD SPH_FORCEINLINE void candidate() {}
  SPH_HD SPH_FORCEINLINE void inRange(bool) {}
};
struct Tally {
  CandidateTally t;
  SPH_HD SPH_FORCEINLINE void candidate() { ++t.candidates; }
  SPH_HD SPH_FORCEINLINE void inRange(bool self) { self ? ++t.self : ++t.inRange; }
};

template <typename T>
struct ForceInputs {
  CellLookup lookup;
  const Real4<T>* pos = nullptr;     // pressure in w
  const Real4<T>* velrho = nullptr;
  const uint32_t* code = nullptr;    // read only by the coded variants (Coded = true)
  const SymTensor<T>* tau = nullptr;  // SPS tau/rho, read only by the SPS variants (Sps = true)
  const Real4<T>* tangent = nullptr;  // mDBC2 walls' tangential velocities (coded variants), else null
  uint32_t n = 0;
  uint32_t nBound = 0;
};

// The inputs of a pass over the particles of `p`, with the cell tables `l` (left empty by
// strategies that do not iterate cells).
template <typename T>
ForceInputs<T> forceInputs(const ParticleView<T>& p, const CellLookup& l = {}) {
  ForceInputs<T> in;
  in.lookup = l;
  in.pos = p.pos;
  in.velrho = p.velrho;
  in.code = p.code;
  in.tau = p.spsTau;
  in.tangent = p.tangent;
  in.n = p.n;
  in.nBound = p.nBound;
  return in;
}

// The coded pair of a with neighbour j (interactPairCoded), with what it loads for j: its code,
// its SPS stress (Sps) and, in mDBC2 runs (tangent not null), a wall's tangential velocity.
template <KernelKind K, bool Periodic, bool Sps, typename T, bool Shift>
SPH_HD SPH_FORCEINLINE void codedPair(const Real4<T>& posA, const Real4<T>& velA, uint32_t codeA, const Real4<T>& posB,
                                      uint32_t j, const Real4<T>* velrho, const uint32_t* code,
                                      const SymTensor<T>* tau, const Real4<T>* tangent, uint32_t nBound,
                                      const PhysicsConstants<T>& c, PairAccum<T, Shift, Sps>& acc) {
  Real4<T> tangentB{};
  const bool slipWall = tangent != nullptr && j < nBound;
  if (slipWall) tangentB = loadReadOnly(tangent + j);
  SymTensor<T> tauB{};
  if constexpr (Sps) tauB = loadReadOnly(tau + j);
  interactPairCoded<K, Periodic>(posA, velA, codeA, posB, loadReadOnly(velrho + j), loadReadOnly(code + j), c, acc,
                                 tauB, slipWall ? &tangentB : nullptr);
}

// The accumulated interaction of particle a with the candidates `candidates` visits: it calls
// its argument fn(j) for every candidate j of a (a itself included when a is fluid; DBC:
// boundary particles visit fluid candidates only). Coded = true (only with Periodic = true) reads
// the code words and calls interactPairCoded() (floating_pair_physics.h): runs with floating
// bodies, the passes that sum the shifting terms (Shift = true, always coded: the shifting mode
// asks whether a wall particle moves) and the passes of the SPS model (Sps = true, coded too:
// fewer variants). The variant is chosen by interaction_variant.h.
template <KernelKind K, bool Periodic = true, bool Coded = false, bool Shift = false, bool Sps = false,
          typename T, typename Counter, typename Candidates>
SPH_HD SPH_FORCEINLINE PairAccum<T, Shift, Sps> particleForcesOver(uint32_t a, const ForceInputs<T>& in,
                                                                   const PhysicsConstants<T>& c, Counter& counter,
                                                                   Candidates&& candidates) {
  static_assert((!Shift && !Sps) || Coded, "the shifting and SPS variants are coded");
  const Real4<T> posA = loadReadOnly(in.pos + a);
  const Real4<T> velA = loadReadOnly(in.velrho + a);
  const bool boundA = a < in.nBound;
  const uint32_t nBound = in.nBound;
  const Real4<T>* pos = in.pos;
  const Real4<T>* velrho = in.velrho;
  uint32_t codeA = 0;
  if constexpr (Coded) codeA = loadReadOnly(in.code + a);
  PairAccum<T, Shift, Sps> acc;
  if constexpr (Sps) acc.tauA = loadReadOnly(in.tau + a);
  candidates(posA, boundA, [&](uint32_t j) SPH_LAMBDA_INLINE {
    const Real4<T> posB = loadReadOnly(pos + j);
    counter.candidate();
    if (distance2<Periodic>(posA, posB, c.periodic) < c.support2) {
      counter.inRange(j == a);
      if constexpr (Coded)
        codedPair<K, Periodic, Sps>(posA, velA, codeA, posB, j, velrho, in.code, in.tau, in.tangent, nBound, c, acc);
      else
        interactPair<K, Periodic>(posA, velA, boundA, posB, loadReadOnly(velrho + j), j < nBound, c, acc);
    }
  });
  return acc;
}

// mDBC's ghost node of boundary particle b with normal n.
template <typename T>
SPH_HD SPH_FORCEINLINE Real4<T> ghostNode(uint32_t b, const Real4<T>& n, const ForceInputs<T>& in) {
  const Real4<T> posB = loadReadOnly(in.pos + b);
  return {posB.x + n.x, posB.y + n.y, posB.z + n.z, T(0)};
}

// Adds candidate j to ghost node g's sums when it is a fluid particle within the support;
// floating, excluded and parked particles do not count.
template <KernelKind K, bool Periodic = true, bool Slip = false, typename T>
SPH_HD SPH_FORCEINLINE void addGhostCandidate(MdbcSums<T>& s, const Real4<T>& g, uint32_t j, const ForceInputs<T>& in,
                                              const PhysicsConstants<T>& c) {
  constexpr uint32_t kNotFluid = code::kBoundBit | code::kFloatingBit | code::kExcludedBit | code::kParkedBit;
  const Real4<T> posJ = loadReadOnly(in.pos + j);
  T dx, dy, dz;
  pairDeltaIf<Periodic>(g, posJ, c.periodic, dx, dy, dz);
  const T r2 = dx * dx + dy * dy + dz * dz;
  if (r2 < c.support2 && !(loadReadOnly(in.code + j) & kNotFluid))
    mdbcAddFluid<K, Slip>(s, dx, dy, dz, r2, loadReadOnly(in.velrho + j), c);
}

// mDBC: the sums of boundary particle b's ghost node (normal n) over the fluid among the
// candidates `candidates` visits (it calls its argument fn(j) for every candidate j near the
// ghost node g) (mdbc_physics.h; Slip: mDBC2's too).
template <KernelKind K, bool Periodic = true, bool Slip = false, typename T, typename Candidates>
SPH_HD SPH_FORCEINLINE MdbcSums<T> ghostSumsOver(uint32_t b, const Real4<T>& n, const ForceInputs<T>& in,
                                                 const PhysicsConstants<T>& c, Candidates&& candidates) {
  const Real4<T> g = ghostNode(b, n, in);
  MdbcSums<T> s;
  candidates(g, [&](uint32_t j) SPH_LAMBDA_INLINE { addGhostCandidate<K, Periodic, Slip>(s, g, j, in, c); });
  return s;
}

// Inlets/outlets: the sums of buffer particle p's ghost node g over the fluid among the candidates
// `candidates` visits (fn(j) for every candidate j near g) (inout_extrapolation.h).
template <KernelKind K, bool Periodic = true, typename T, typename Candidates>
SPH_HD SPH_FORCEINLINE InOutSums inOutSumsOver(const Real4<T>& g, const ForceInputs<T>& in,
                                               const PhysicsConstants<T>& c, Candidates&& candidates) {
  InOutSums s;
  candidates(g, [&](uint32_t j) SPH_LAMBDA_INLINE {
    const Real4<T> posJ = loadReadOnly(in.pos + j);
    T dx, dy, dz;
    pairDeltaIf<Periodic>(g, posJ, c.periodic, dx, dy, dz);
    const T r2 = dx * dx + dy * dy + dz * dz;
    if (r2 <= c.support2 && inOutSource(loadReadOnly(in.code + j)))
      inOutAddFluid<K>(s, dx, dy, dz, r2, loadReadOnly(in.velrho + j), c);
  });
  return s;
}

// The kernel and periodicity of an extrapolation pass.
template <typename T, typename Fn>
decltype(auto) dispatchInOut(const PhysicsConstants<T>& c, Fn&& fn) {
  auto withKernel = [&](auto kernel) -> decltype(auto) {
    constexpr KernelKind K = decltype(kernel)::value;
    if (c.periodic.any()) return fn(std::integral_constant<KernelKind, K>{}, std::true_type{});
    return fn(std::integral_constant<KernelKind, K>{}, std::false_type{});
  };
  if (c.kernel == KernelKind::Cubic) return withKernel(std::integral_constant<KernelKind, KernelKind::Cubic>{});
  return withKernel(std::integral_constant<KernelKind, KernelKind::Wendland>{});
}

}  // namespace sph::neighbours
