// The per-particle work of the cell search: particle_ops.h's force and mDBC sums over the cells
// around a particle or a ghost node (cell_iteration.h, forEachCandidate), and the candidate and
// in-range counts of one particle.
#pragma once

#include <cstdint>

#include "cell_iteration.h"
#include "particle_ops.h"

namespace sph::cell {

using neighbours::CandidateTally;
using neighbours::distance2;
using neighbours::ForceInputs;
using neighbours::forceInputs;
using neighbours::ghostSumsOver;
using neighbours::NoTally;
using neighbours::particleForcesOver;
using neighbours::Tally;

// The same over the cells around a (cell_iteration.h, forEachCandidate): the cell search's pass.
template <KernelKind K, bool Periodic = true, bool Coded = false, bool Shift = false, bool Sps = false,
          typename T, typename Counter>
SPH_HD SPH_FORCEINLINE PairAccum<T, Shift, Sps> particleForces(uint32_t a, const ForceInputs<T>& in,
                                                               const PhysicsConstants<T>& c, Counter& counter) {
  const uint32_t keyA = loadReadOnly(in.lookup.keys + a);
  return particleForcesOver<K, Periodic, Coded, Shift, Sps>(
      a, in, c, counter, [&](const Real4<T>& posA, bool boundA, auto&& fn) SPH_LAMBDA_INLINE {
        forEachCandidate<Periodic>(in.lookup, keyA, posA, boundA, fn);
      });
}

// The cell key a boundary particle at point g would have: forEachCandidate() from it visits the
// fluid rows of g's block only.
template <typename T>
SPH_HD SPH_FORCEINLINE uint32_t pointKey(const CellLookup& l, const Real4<T>& g) {
  const int32_t cx = cellCoord(axisCells(double(g.x), l.origin[0], l.invCellSize[0], l.ncx, l.periodic(0)), l.ncx);
  const int32_t cy = cellCoord(axisCells(double(g.y), l.origin[1], l.invCellSize[1], l.ncy, l.periodic(1)), l.ncy);
  const int32_t cz = cellCoord(axisCells(double(g.z), l.origin[2], l.invCellSize[2], l.ncz, l.periodic(2)), l.ncz);
  return uint32_t(cx) + uint32_t(l.ncx) * (uint32_t(cy) + uint32_t(l.ncy) * uint32_t(cz));
}

// The same over the fluid rows of the cells around the ghost node. The tables may be older than
// the positions (the Verlet plugin's, from its last rebuild) as long as they were built for a
// radius that covers the support plus every particle's displacement since: the distance test
// uses the positions. One thread per boundary particle (the CPU loop; the GPU kernel splits each
// particle's rows among several lanes, cell_gpu_mdbc.cu).
template <KernelKind K, bool Periodic = true, bool Slip = false, typename T>
SPH_HD SPH_FORCEINLINE MdbcSums<T> ghostSums(uint32_t b, const Real4<T>& n, const ForceInputs<T>& in,
                                             const PhysicsConstants<T>& c) {
  return ghostSumsOver<K, Periodic, Slip>(b, n, in, c, [&](const Real4<T>& g, auto&& fn) SPH_LAMBDA_INLINE {
    forEachCandidate<Periodic>(in.lookup, pointKey(in.lookup, g), g, true, fn);
  });
}

// Inlets/outlets: buffer particle p's ghost node's sums over the fluid of the cells around it.
template <KernelKind K, bool Periodic = true, typename T>
SPH_HD SPH_FORCEINLINE InOutSums inOutSums(const Real4<T>& g, const ForceInputs<T>& in, const PhysicsConstants<T>& c) {
  return neighbours::inOutSumsOver<K, Periodic>(g, in, c, [&](const Real4<T>& node, auto&& fn) SPH_LAMBDA_INLINE {
    forEachCandidate<Periodic>(in.lookup, pointKey(in.lookup, node), node, true, fn);
  });
}

// Candidates of particle a and those with r^2 < radius2 (physics' distance expression, the
// minimum image of the grid's periodic axes).
template <typename T>
SPH_HD SPH_FORCEINLINE CandidateTally particleTally(uint32_t a, const CellLookup& l, const Real4<T>* pos,
                                                    uint32_t nBound, T radius2) {
  const Real4<T> posA = loadReadOnly(pos + a);
  const PeriodicBox<T> box = l.image<T>();
  Tally tally;
  forEachCandidate(l, loadReadOnly(l.keys + a), posA, a < nBound, [&](uint32_t j) {
    tally.candidate();
    if (distance2(posA, loadReadOnly(pos + j), box) < radius2) tally.inRange(j == a);
  });
  return tally.t;
}

// Writes the in-range neighbours of a (itself included when visited) through out(j).
template <typename T, typename Out>
SPH_HD SPH_FORCEINLINE void particleNeighbours(uint32_t a, const CellLookup& l, const Real4<T>* pos,
                                               uint32_t nBound, T radius2, Out&& out) {
  const Real4<T> posA = loadReadOnly(pos + a);
  const PeriodicBox<T> box = l.image<T>();
  forEachCandidate(l, loadReadOnly(l.keys + a), posA, a < nBound, [&](uint32_t j) {
    if (distance2(posA, loadReadOnly(pos + j), box) < radius2) out(j);
  });
}

}  // namespace sph::cell
