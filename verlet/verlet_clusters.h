// The cluster-pair list layout: lists shared by clusters of 8 consecutive sorted particles, in
// the spirit of the cluster-pair lists of GROMACS (nbnxm), with the pair mask kept per particle.
//
// Particle a belongs to i-cluster a / 8 and, as a neighbour, to j-cluster a / 8 (the same
// grouping). The list of an i-cluster is its entries: the j-clusters that hold a member of any of
// its particles, in ascending order, each with a 64-bit mask whose byte r says which of the
// j-cluster's 8 particles are members of particle 8 I + r's list (bit b: particle 8 jc + b).
// The entries of cluster I are count[I] consecutive elements from begin[I] of two arrays (the
// j-clusters and the masks). The clusters' entries need not lie in cluster order: the GPU's
// one-pass build places each cluster where an atomic cursor puts it.
//
// Why: the particles of a cluster lie within a cell or two of each other (the cells of Rc/2
// run x fastest, so 8 consecutive particles are a short run along x), and their lists mostly
// share j-clusters. An entry costs 12 bytes shared by 8 particles, 1.5 bytes a particle, and a
// particle's members come 2.5-4 to an entry: DamBreak's lists take ~80 bytes a particle (~4
// bits a member) against ~650 for index lists. Unlike the bitmask layout (verlet_bitmask.h) the
// force pass walks no cell rows: an entry gives its members directly.
//
// Half lists (each pair once, verlet_layout.h's holdsPair) keep in a particle's byte only the
// members whose pair it holds: a cluster's own entry and those of the clusters after it in the
// sorted order mostly, about half the entries; a cluster of walls has none.
//
// Lane `part` of the P lanes of a particle takes the members whose rank in the particle's list
// (entry order, bits ascending within an entry) is part (mod P). The GPU stages the members of P
// entries at a time in shared memory by rank (gpu/staged_clusters.cuh) so that the pair physics
// runs in step across the warp; forEachClusterMember gives the CPU the same assignment.
#pragma once

#include <cstdint>

#include "verlet_backend.h"
#include "verlet_particle_ops.h"

namespace sph::verlet {

inline constexpr uint32_t kClusterSize = 8;
SPH_HD SPH_FORCEINLINE uint32_t clusterCount(uint32_t n) { return (n + kClusterSize - 1) / kClusterSize; }

// Read-only view of one build's cluster lists (device pointers on the GPU, host on the CPU).
struct ClusterLists {
  const uint32_t* jcluster = nullptr;  // per entry: its j-cluster
  const uint64_t* mask = nullptr;      // per entry: byte r for particle 8 I + r
  const uint64_t* begin = nullptr;     // per i-cluster: its first entry
  const uint64_t* count = nullptr;     // per i-cluster: its entries
  uint32_t n = 0;                      // particles
};

// The byte of particle a in an entry's mask.
SPH_HD SPH_FORCEINLINE uint32_t memberByte(uint64_t mask, uint32_t a) {
  return uint32_t(mask >> (8u * (a % kClusterSize))) & 0xFFu;
}

// The bit of member j of particle a in an entry's mask.
SPH_HD SPH_FORCEINLINE uint64_t memberBit(uint32_t a, uint32_t j) {
  return uint64_t(1) << (8u * (a % kClusterSize) + j % kClusterSize);
}

// Calls fn(j) for the members of a's list whose rank is part (mod P), in rank order (P = 1:
// the whole list, ascending).
template <typename Fn>
SPH_HD SPH_FORCEINLINE void forEachClusterMember(const ClusterLists& l, uint32_t a, uint32_t part, uint32_t P,
                                                 Fn&& fn) {
  const uint32_t cluster = a / kClusterSize;
  const uint64_t first = loadReadOnly(l.begin + cluster), last = first + loadReadOnly(l.count + cluster);
  uint32_t rank = 0;
  for (uint64_t e = first; e < last; ++e) {
    uint32_t m = memberByte(loadReadOnly(l.mask + e), a);
    if (m == 0) continue;
    const uint32_t base = loadReadOnly(l.jcluster + e) * kClusterSize;
    while (m) {
      const uint32_t b = lowestBit(m);
      m &= m - 1u;
      if (rank++ % P == part) fn(base + b);
    }
  }
}

// The cluster counterpart of listForces(): the members of a's list taken by lane `part` of P
// (the CPU loop calls this; the GPU kernel stages the same members, gpu/staged_clusters.cuh).
template <KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps, uint32_t P, typename T>
SPH_HD SPH_FORCEINLINE PairAccum<T, Shift, Sps> partForces(const ClusterLists& lists, uint32_t a, uint32_t part,
                                                           const Real4<T>* pos, const Real4<T>* velrho,
                                                           const uint32_t* code, const SymTensor<T>* tau,
                                                           const Real4<T>* tangent, uint32_t nBound,
                                                           const PhysicsConstants<T>& c) {
  return forcesOver<K, Periodic, Coded, Shift, Sps>(a, pos, velrho, code, tau, tangent, nBound, c, [&](auto&& pair) {
    forEachClusterMember(lists, a, part, P, pair);
  });
}

// Every cluster list decoded into index lists, members in ascending order (decodeLists).
inline HostLists decodeClusters(const ClusterLists& l, uint32_t lanes) {
  return decodeLists(l.n, lanes, [&](uint32_t a, auto&& add) { forEachClusterMember(l, a, 0, 1, add); });
}

}  // namespace sph::verlet
