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
#include <type_traits>

#include "neighbours/cell_iteration.h"
#include "neighbours/particle_ops.h"
#include "sph/plugin/floating_pair_physics.h"
#include "sph/plugin/pair_physics.h"
#include "verlet_layout.h"

namespace sph::verlet {

using cell::CellLookup;
using neighbours::distance2;
using cell::loadReadOnly;

// Positions as the build reads them: Real4<float> (16-byte float4 loads) in single precision;
// in double precision the GPU reads (x, y) as double2 and z from its own array (the layout of
// section 3.4 of Takada et al. (2017), "Acceleration of SPH-based fluid simulation on GPU"), the
// CPU reads Real4<double>. Each source returns a Real4 with w = 0.
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

// Whether candidate j (at q) belongs to a's list (at posA): every j != a within Rc.
template <bool Periodic, typename T>
SPH_HD SPH_FORCEINLINE bool listMember(uint32_t a, uint32_t j, const Real4<T>& posA, const Real4<T>& q,
                                       const PeriodicBox<T>& box, T rc2) {
  return j != a && distance2<Periodic>(posA, q, box) < rc2;
}

struct NoRowHook {
  SPH_HD void operator()() const {}
};

// Calls out(j) for every list member of a among its candidates of part `part` (of Parts): within
// each candidate range, j = begin + part, begin + part + Parts, ... The GPU's count splits a
// particle's candidates over Parts lanes (more warps in flight than one lane per particle
// gives); Parts = 1 takes them whole, in candidate order (the list order). afterRow() runs after
// each row of cells; every particle of a grid makes the same number of row calls, so GPU lanes
// reach it together (the staged GPU fill flushes there).
// once: the half lists of a pass that computes each pair once (gpu/once_forces.cuh): a fluid
// particle keeps its wall neighbours and the fluid neighbours whose pair it holds (holdsPair), a
// wall particle none.
template <bool Periodic, uint32_t Parts, typename T, typename Source, typename Out, typename AfterRow = NoRowHook>
SPH_HD SPH_FORCEINLINE void forEachListMember(uint32_t a, uint32_t part, const CellLookup& l, const Source& pos,
                                              uint32_t nBound, T rc2, Out&& out, AfterRow&& afterRow = AfterRow{},
                                              bool once = false) {
  const Real4<T> posA = pos(a);
  const PeriodicBox<T> box = l.image<T>();
  const bool boundA = a < nBound;
  const bool none = once && boundA;  // rows still walked: the GPU's lanes meet at afterRow()
  auto range = [&](uint32_t begin, uint32_t end, bool fluid) {
    if (none) return;
    for (uint32_t j = begin + part; j < end; j += Parts)
      if ((!once || !fluid || holdsPair(a, j)) && listMember<Periodic>(a, j, posA, pos(j), box, rc2)) out(j);
  };
  cell::forEachCandidateRow<Periodic>(l, loadReadOnly(l.keys + a), posA, boundA,
                                      [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd) {
                                        range(fBegin, fEnd, true);
                                        range(bBegin, bEnd, false);
                                        afterRow();
                                      });
}

// Members of part `part` of a's list (the whole list with Parts = 1). Periodic = false only for
// grids without a periodic axis (periodic.h, pairDeltaIf).
template <bool Periodic = true, uint32_t Parts = 1, typename T, typename Source>
SPH_HD SPH_FORCEINLINE uint32_t countList(uint32_t a, uint32_t part, const CellLookup& l, const Source& pos,
                                          uint32_t nBound, T rc2, bool once = false) {
  uint32_t count = 0;
  forEachListMember<Periodic, Parts>(
      a, part, l, pos, nBound, rc2, [&](uint32_t) { ++count; }, NoRowHook{}, once);
  return count;
}

// Writes a's list in candidate order (the CPU's fill; the GPU stages its stores, see
// gpu/staged_fill.cuh, in the same order).
template <bool Periodic = true, typename T, typename Source>
SPH_HD SPH_FORCEINLINE void fillList(uint32_t a, const CellLookup& l, const Source& pos, uint32_t nBound, T rc2,
                                     const uint64_t* regionEnd, uint32_t* entries, bool once = false) {
  uint64_t slot = entrySlot(regionEnd, a, 0);
  forEachListMember<Periodic, 1>(
      a, 0, l, pos, nBound, rc2,
      [&](uint32_t j) {
        entries[slot] = j;
        slot += kWarp;
      },
      NoRowHook{}, once);
}

// The interaction of particle a with the members that `members` gives: members(pair) calls
// pair(j) for each, and the pairs within the support are summed. Coded = true (only with
// Periodic = true) reads the code words and calls interactPairCoded() (floating_pair_physics.h):
// runs with floating bodies, and the passes that sum the shifting terms (Shift = true, always
// coded: the shifting mode asks whether a wall particle moves) and the passes of the SPS model
// (Sps = true, coded too: fewer variants; tau is read only by them), and mDBC2 runs (tangent,
// the walls' tangential velocities, not null); code may be null otherwise.
template <KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps, typename T, typename Members>
SPH_HD SPH_FORCEINLINE PairAccum<T, Shift, Sps> forcesOver(uint32_t a, const Real4<T>* pos, const Real4<T>* velrho,
                                                           const uint32_t* code, const SymTensor<T>* tau,
                                                           const Real4<T>* tangent, uint32_t nBound,
                                                           const PhysicsConstants<T>& c, Members&& members) {
  static_assert((!Shift && !Sps) || Coded, "the shifting and SPS variants are coded");
  const Real4<T> posA = loadReadOnly(pos + a);
  const Real4<T> velA = loadReadOnly(velrho + a);
  const bool boundA = a < nBound;
  uint32_t codeA = 0;
  if constexpr (Coded) codeA = loadReadOnly(code + a);
  PairAccum<T, Shift, Sps> acc;
  if constexpr (Sps) acc.tauA = loadReadOnly(tau + a);
  members([&](uint32_t j) {
    const Real4<T> posB = loadReadOnly(pos + j);
    if (distance2<Periodic>(posA, posB, c.periodic) < c.support2) {
      if constexpr (Coded)
        neighbours::codedPair<K, Periodic, Sps>(posA, velA, codeA, posB, j, velrho, code, tau, tangent, nBound, c, acc);
      else
        interactPair<K, Periodic>(posA, velA, boundA, posB, loadReadOnly(velrho + j), j < nBound, c, acc);
    }
  });
  return acc;
}

// The interaction of particle a with the members k = part, part + Parts, ... of its list within
// the support (the whole list with Parts = 1; the GPU adds up the parts' sums); see forcesOver.
template <KernelKind K, bool Periodic = true, bool Coded = false, bool Shift = false, bool Sps = false,
          uint32_t Parts = 1, typename T>
SPH_HD SPH_FORCEINLINE PairAccum<T, Shift, Sps> listForces(uint32_t a, uint32_t part, const ListsView& lists,
                                                           const Real4<T>* pos, const Real4<T>* velrho,
                                                           const uint32_t* code, const SymTensor<T>* tau,
                                                           const Real4<T>* tangent, uint32_t nBound,
                                                           const PhysicsConstants<T>& c) {
  const uint32_t len = loadReadOnly(lists.length + a);
  const uint32_t* e = lists.entries + regionStart(lists.regionEnd, a / kWarp) + (a % kWarp);
  return forcesOver<K, Periodic, Coded, Shift, Sps>(a, pos, velrho, code, tau, tangent, nBound, c, [&](auto&& pair) {
    for (uint32_t k = part; k < len; k += Parts) pair(loadReadOnly(e + uint64_t(k) * kWarp));
  });
}

// Adds the sums of another part of the same particle's list (the GPU's lanes exchange them by
// shuffles; the CPU adds its parts in the same order).
template <typename T, bool Shift, bool Sps>
SPH_HD SPH_FORCEINLINE void addPart(PairAccum<T, Shift, Sps>& acc, const PairAccum<T, Shift, Sps>& other) {
  acc.add(other);
}

// The sum of the P parts part(0), ..., part(P-1) of one list in the order of the GPU's
// butterfly (lane q adds lane q ^ o's sum for o = 1, 2, 4, ...; lane 0 keeps the result):
// ((p0 + p1) + (p2 + p3)) + ... , the lower lanes' sum always on the left.
template <uint32_t P, typename Part>
SPH_HD SPH_FORCEINLINE auto addParts(Part&& part, uint32_t first = 0) {
  if constexpr (P == 1) {
    return part(first);
  } else {
    auto low = addParts<P / 2>(part, first);
    addPart(low, addParts<P / 2>(part, first + P / 2));
    return low;
  }
}

// Calls f(std::integral_constant<uint32_t, P>) with P = lanes, one of the configured counts
// First, Rest... (the last one when lanes is none of them).
template <uint32_t First, uint32_t... Rest, typename F>
decltype(auto) withLanes(uint32_t lanes, F&& f) {
  if constexpr (sizeof...(Rest) == 0) {
    return f(std::integral_constant<uint32_t, First>{});
  } else {
    if (lanes == First) return f(std::integral_constant<uint32_t, First>{});
    return withLanes<Rest...>(lanes, f);
  }
}

}  // namespace sph::verlet
