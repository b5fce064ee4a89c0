// The bitmask list layout: one bit per candidate of the build instead of a 32-bit index per
// member. A particle's candidates are the ranges of sorted particles that the cell iteration
// (engine/neighbours/cell_iteration.h, forEachCandidateRow) gives it at the build; bit i of its
// mask says whether the i-th of them, in that order, is in its list. The ranges are not stored:
// they come again from the cell tables of the build (which stay untouched until the next
// rebuild, the particles not being re-sorted in between), the particle's sorted key and its
// position at the build, so the iteration trims the same rows as the build did.
//
// Why: an index costs 32 bits per member and the lists of a 3D case hold ~150-500 members, so
// the seed layout (verlet_layout.h) takes 4-12 times the memory of the whole cell search. About
// a third of the trimmed candidates of cells of Rc/2 are within Rc (DamBreak: 156 of ~520), so a
// bit per candidate costs about three bits per member: the lists shrink about tenfold. What it
// costs: every force pass walks the particle's rows again.
//
// The words use the seed's warp interleaving: word k of particle a sits at
// entrySlot(regionEnd, a, k); ListsView::length holds the words of each particle.
#pragma once

#include <cstdint>
#include <vector>

#include "verlet_backend.h"
#include "verlet_particle_ops.h"

namespace sph::verlet {

SPH_HD SPH_FORCEINLINE uint32_t maskWords(uint32_t bits) { return (bits + 31u) / 32u; }

// The bits lane `part` of P takes: bit i of a mask goes to lane i % P. As 32 is a multiple of
// P, the lane's bits form the same pattern in every word: every P-th bit from bit `part`.
// P is a power of 2 up to 32 (a constant in the kernels, folded away).
SPH_HD SPH_FORCEINLINE uint32_t lanePattern(uint32_t P, uint32_t part) {
  return (P >= 32u ? 1u : 0xFFFFFFFFu / ((1u << P) - 1u)) << part;
}

// Word k of a mask (w: the particle's word 0, words kWarp apart) reduced to the bits in
// [offset, last) that the lane pattern `mine` selects.
SPH_HD SPH_FORCEINLINE uint32_t rangeWord(const uint32_t* w, uint32_t k, uint32_t offset, uint32_t last,
                                          uint32_t mine) {
  const uint32_t base = k << 5;
  uint32_t bits = loadReadOnly(w + uint64_t(k) * kWarp) & mine;
  if (offset > base) bits &= ~0u << (offset - base);
  if (last - base < 32u) bits &= (1u << (last - base)) - 1u;
  return bits;
}

// Candidates of a at the build: the bits of its mask.
template <bool Periodic, typename T, typename Source>
SPH_HD SPH_FORCEINLINE uint32_t candidateCount(uint32_t a, const CellLookup& l, const Source& pos, uint32_t nBound) {
  uint32_t count = 0;
  const Real4<T> posA = pos(a);
  cell::forEachCandidateRow<Periodic>(l, loadReadOnly(l.keys + a), posA, a < nBound,
                                      [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd) {
                                        count += (fEnd - fBegin) + (bEnd - bBegin);
                                      });
  return count;
}

// Writes a's mask (one thread per particle; a warp's lanes write their k-th words at about the
// same time, so the stores of a warp mostly share sectors); returns its members.
template <bool Periodic, typename T, typename Source>
SPH_HD SPH_FORCEINLINE uint32_t fillMask(uint32_t a, const CellLookup& l, const Source& pos, uint32_t nBound, T rc2,
                                         const uint64_t* regionEnd, uint32_t* words) {
  const Real4<T> posA = pos(a);
  const PeriodicBox<T> box = l.image<T>();
  uint32_t* const out = words + entrySlot(regionEnd, a, 0);  // word k at out[32 k]
  uint32_t word = 0, bit = 0, members = 0;
  uint64_t k = 0;
  auto range = [&](uint32_t begin, uint32_t end) {
    for (uint32_t j = begin; j < end; ++j) {
      if (listMember<Periodic>(a, j, posA, pos(j), box, rc2)) {
        word |= 1u << bit;
        ++members;
      }
      if (++bit == 32u) {
        out[k++ * kWarp] = word;
        word = 0;
        bit = 0;
      }
    }
  };
  cell::forEachCandidateRow<Periodic>(l, loadReadOnly(l.keys + a), posA, a < nBound,
                                      [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd) {
                                        range(fBegin, fEnd);
                                        range(bBegin, bEnd);
                                      });
  if (bit > 0) out[k * kWarp] = word;
  return members;
}

// One build's masks and what reading them needs besides the words: the build's cell tables and
// the positions at the build (R: the precision they were saved in).
template <typename R>
struct MaskLists {
  ListsView words;  // entries: the mask words; length: words per particle
  CellLookup cells;
  const Real4<R>* built = nullptr;
  uint32_t nBound = 0;
};

// Calls fn(j) for the members of a's mask whose bit index is part (mod P), in ascending order;
// P = 1 gives the whole list in candidate order. builtA: a's position at the build.
template <bool Periodic, typename R, typename Fn>
SPH_HD SPH_FORCEINLINE void forEachMaskMember(uint32_t a, uint32_t part, uint32_t P, const ListsView& masks,
                                              const CellLookup& l, const Real4<R>& builtA, uint32_t nBound, Fn&& fn) {
  const uint32_t* const w = masks.entries + regionStart(masks.regionEnd, a / kWarp) + (a % kWarp);
  const uint32_t mine = lanePattern(P, part);
  uint32_t offset = 0;  // bit index of the range's first candidate
  auto range = [&](uint32_t begin, uint32_t end) {
    if (end <= begin) return;
    const uint32_t last = offset + (end - begin);  // one past the range's last bit
    for (uint32_t k = offset >> 5; k <= (last - 1u) >> 5; ++k) {
      uint32_t m = rangeWord(w, k, offset, last, mine);
      while (m) {
        const uint32_t b = lowestBit(m);
        m &= m - 1u;
        fn(begin + ((k << 5) + b - offset));
      }
    }
    offset = last;
  };
  cell::forEachCandidateRow<Periodic>(l, loadReadOnly(l.keys + a), builtA, a < nBound,
                                      [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd) {
                                        range(fBegin, fEnd);
                                        range(bBegin, bEnd);
                                      });
}

// The bitmask counterpart of listForces(): the members of a's mask taken by lane `part` of P.
template <KernelKind K, bool Periodic = true, bool Coded = false, bool Shift = false, bool Sps = false,
          uint32_t P = 1, typename T, typename R>
SPH_HD SPH_FORCEINLINE PairAccum<T, Shift, Sps> maskForces(uint32_t a, uint32_t part, const MaskLists<R>& m,
                                                           const Real4<T>* pos, const Real4<T>* velrho,
                                                           const uint32_t* code, const SymTensor<T>* tau,
                                                           const Real4<T>* tangent, uint32_t nBound,
                                                           const PhysicsConstants<T>& c) {
  const Real4<R> builtA = loadReadOnly(m.built + a);
  return forcesOver<K, Periodic, Coded, Shift, Sps>(a, pos, velrho, code, tau, tangent, nBound, c, [&](auto&& pair) {
    forEachMaskMember<Periodic>(a, part, P, m.words, m.cells, builtA, nBound, pair);
  });
}

// One lane's part of a's forces over either layout (the CPU loop and the GPU kernel call this).
template <KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps, uint32_t P, typename T>
SPH_HD SPH_FORCEINLINE PairAccum<T, Shift, Sps> partForces(const ListsView& lists, uint32_t a, uint32_t part,
                                                           const Real4<T>* pos, const Real4<T>* velrho,
                                                           const uint32_t* code, const SymTensor<T>* tau,
                                                           const Real4<T>* tangent, uint32_t nBound,
                                                           const PhysicsConstants<T>& c) {
  return listForces<K, Periodic, Coded, Shift, Sps, P>(a, part, lists, pos, velrho, code, tau, tangent, nBound, c);
}
template <KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps, uint32_t P, typename T, typename R>
SPH_HD SPH_FORCEINLINE PairAccum<T, Shift, Sps> partForces(const MaskLists<R>& masks, uint32_t a, uint32_t part,
                                                           const Real4<T>* pos, const Real4<T>* velrho,
                                                           const uint32_t* code, const SymTensor<T>* tau,
                                                           const Real4<T>* tangent, uint32_t nBound,
                                                           const PhysicsConstants<T>& c) {
  return maskForces<K, Periodic, Coded, Shift, Sps, P>(a, part, masks, pos, velrho, code, tau, tangent, nBound, c);
}

// Every mask decoded into index lists, members in candidate order (decodeLists).
template <typename R>
HostLists decodeMasks(const MaskLists<R>& m, uint32_t lanes) {
  return decodeLists(m.words.n, lanes, [&](uint32_t a, auto&& add) {
    forEachMaskMember<true>(a, 0, 1, m.words, m.cells, m.built[a], m.nBound, add);
  });
}

}  // namespace sph::verlet
