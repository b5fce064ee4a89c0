// Per-particle work of the Verlet plugin, for the OpenMP loops and the CUDA kernels alike:
// counting and writing one particle's list from the cell tables of the last rebuild, and the
// force sum of one particle over its list. The physics is sph::interactPair().
//
// A list holds every j != a with r_aj^2 < Rc^2 at the build: fluid and boundary neighbours
// for a fluid particle, fluid neighbours only for a boundary particle (DBC, as the cell plugin).
// Along periodic axes r_aj is the minimum image, both in the build and in the interaction: a list
// stays valid while its members wrap around, since it holds indices, not images.
#pragma once

#include <cstdint>

#include "cell/cell_iteration.h"
#include "cell/cell_particle_ops.h"
#include "sph/floating_pair_physics.h"
#include "sph/pair_physics.h"
#include "verlet_layout.h"

namespace sph::verlet {

using cell::CellLookup;
using cell::distance2;
using cell::loadReadOnly;

// Positions as the build reads them: Real4<float> (16-byte float4 loads) in single precision;
// in double precision the GPU reads (x, y) as double2 and z from its own array (the paper's
// layout, 3.4), the CPU reads Real4<double>. Each source returns a Real4 with w = 0.
template <typename T>
struct Real4Source {
  const Real4<T>* pos;
  SPH_HD SPH_FORCEINLINE Real4<T> operator()(uint32_t j) const {
    Real4<T> p = loadReadOnly(pos + j);
    p.w = T(0);
    return p;
  }
};

struct XyZSource {
  const double* xy;  // 2 doubles per particle, 16-byte aligned
  const double* z;
  SPH_HD SPH_FORCEINLINE Real4<double> operator()(uint32_t j) const {
#if defined(__CUDA_ARCH__)
    const double2 v = __ldg(reinterpret_cast<const double2*>(xy) + j);
    return {v.x, v.y, __ldg(z + j), 0.0};
#else
    return {xy[2 * j], xy[2 * j + 1], z[j], 0.0};
#endif
  }
};

// Calls out(j) for every list member of a, in candidate order.
template <bool Periodic, typename T, typename Source, typename Out>
SPH_HD SPH_FORCEINLINE void forEachListMember(uint32_t a, const CellLookup& l, const Source& pos, uint32_t nBound,
                                              T rc2, Out&& out) {
  const Real4<T> posA = pos(a);
  const PeriodicBox<T> box = l.image<T>();
  cell::forEachCandidate<Periodic>(l, loadReadOnly(l.keys + a), posA, a < nBound, [&](uint32_t j) {
    if (j != a && distance2<Periodic>(posA, pos(j), box) < rc2) out(j);
  });
}

// Periodic = false only for grids without a periodic axis (periodic.h, pairDeltaIf).
template <bool Periodic = true, typename T, typename Source>
SPH_HD SPH_FORCEINLINE uint32_t countList(uint32_t a, const CellLookup& l, const Source& pos, uint32_t nBound, T rc2) {
  uint32_t count = 0;
  forEachListMember<Periodic>(a, l, pos, nBound, rc2, [&](uint32_t) { ++count; });
  return count;
}

template <bool Periodic = true, typename T, typename Source>
SPH_HD SPH_FORCEINLINE void fillList(uint32_t a, const CellLookup& l, const Source& pos, uint32_t nBound, T rc2,
                                     const uint64_t* regionEnd, uint32_t* entries) {
  const uint64_t base = regionStart(regionEnd, a / kWarp) + (a % kWarp);
  uint64_t slot = base;
  forEachListMember<Periodic>(a, l, pos, nBound, rc2, [&](uint32_t j) {
    entries[slot] = j;
    slot += kWarp;
  });
}

// The interaction of particle a with the members of its list within the support. Floating = true
// (only with Periodic = true) is for runs with floating bodies: it reads the code words and
// calls interactPairCoded() (floating_pair_physics.h); code may be null otherwise.
template <KernelKind K, bool Periodic = true, bool Floating = false, typename T>
SPH_HD SPH_FORCEINLINE PairAccum<T> listForces(uint32_t a, const ListsView& lists, const Real4<T>* pos,
                                               const Real4<T>* velrho, const uint32_t* code, uint32_t nBound,
                                               const PhysicsConstants<T>& c) {
  const Real4<T> posA = loadReadOnly(pos + a);
  const Real4<T> velA = loadReadOnly(velrho + a);
  const bool boundA = a < nBound;
  uint32_t codeA = 0;
  if constexpr (Floating) codeA = loadReadOnly(code + a);
  const uint32_t len = loadReadOnly(lists.length + a);
  const uint32_t* e = lists.entries + regionStart(lists.regionEnd, a / kWarp) + (a % kWarp);
  PairAccum<T> acc;
  for (uint32_t k = 0; k < len; ++k) {
    const uint32_t j = loadReadOnly(e + uint64_t(k) * kWarp);
    const Real4<T> posB = loadReadOnly(pos + j);
    if (distance2<Periodic>(posA, posB, c.periodic) < c.support2) {
      if constexpr (Floating)
        interactPairCoded<K, Periodic>(posA, velA, codeA, posB, loadReadOnly(velrho + j), loadReadOnly(code + j), c,
                                       acc);
      else
        interactPair<K, Periodic>(posA, velA, boundA, posB, loadReadOnly(velrho + j), j < nBound, c, acc);
    }
  }
  return acc;
}

}  // namespace sph::verlet
