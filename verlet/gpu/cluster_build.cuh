// The GPU's build of cluster lists (verlet_clusters.h): one warp per i-cluster, 4 lanes per
// particle over its candidates (the cell rows of forEachCandidateRow, the members of
// listMember). The j-clusters of the members go into a hash table in the warp's shared memory
// (open addressing, keyed by j-cluster, the mask bits ORed in).
// The count pass keeps only the keys and stores how many there are; the fill pass builds the
// table again with its masks and writes the entries in ascending j-cluster order (each entry's
// place is its rank among the keys), so a build is deterministic.
//
// A table has kClusterTable slots: a cluster whose particles reach more j-clusters (over ~1,500
// members a particle in 3D) reports an overflow and the build fails, as when the lists do not
// fit in memory, so the strategy falls back to another layout.
#pragma once

#include <cstdint>

#include "../verlet_clusters.h"
#include "sph/gpu/warp_reduce.cuh"

namespace sph::verlet {

inline constexpr uint32_t kClusterTable = 512;      // slots of a warp's table (a power of 2)
inline constexpr uint32_t kClusterTableBits = 9;    // log2(kClusterTable)
inline constexpr uint32_t kClusterBuildBlock = 64;  // 2 warps: the fill's tables take 9 KiB each
inline constexpr uint32_t kClusterBuildLanes = kWarp / kClusterSize;  // lanes per particle: a cluster per warp
inline constexpr uint32_t kNoKey = 0xFFFFFFFFu;
static_assert(kClusterTable == 1u << kClusterTableBits, "the table's size is 2^kClusterTableBits");

// One warp's table. Masks = false: keys only (the count pass).
template <bool Masks>
struct ClusterTable {
  uint32_t key[kClusterTable];
  unsigned long long mask[Masks ? kClusterTable : 1];
  uint32_t used;
  uint32_t full;

  __device__ void clear(uint32_t lane) {
    for (uint32_t s = lane; s < kClusterTable; s += kWarp) {
      key[s] = kNoKey;
      if constexpr (Masks) mask[s] = 0;
    }
    if (lane == 0) used = full = 0;
    __syncwarp();
  }

  // Adds the member bits `bits` of j-cluster jc (linear probing from a multiplicative hash; a
  // slot is claimed by compare-and-swap only when it reads empty).
  __device__ void insert(uint32_t jc, unsigned long long bits) {
    uint32_t s = (jc * 2654435761u) >> (32u - kClusterTableBits);
    for (uint32_t probe = 0; probe < kClusterTable; ++probe, s = (s + 1u) & (kClusterTable - 1u)) {
      uint32_t k = static_cast<volatile uint32_t*>(key)[s];
      if (k == kNoKey) {
        k = atomicCAS(&key[s], kNoKey, jc);
        if (k == kNoKey) atomicAdd(&used, 1u);
      }
      if (k == kNoKey || k == jc) {
        if constexpr (Masks) atomicOr(&mask[s], bits);
        return;
      }
    }
    full = 1;
  }

  // Adds the members of every particle of `cluster`; returns how many this lane found. Every
  // lane of the warp calls it. The 4 lanes of a particle test a window of up to 32 candidates
  // of a range together (lane `part` the candidates part (mod 4)), OR their bits by shuffles,
  // and then insert each j-cluster of the window once (lane `part` the j-clusters part (mod
  // 4)): a j-cluster holds ~3 members of a particle, and one insert per member made the
  // table's atomics the build's largest cost.
  template <bool Periodic, typename T, typename Source>
  __device__ uint32_t fill(uint32_t cluster, uint32_t lane, const cell::CellLookup& l, const Source& pos, uint32_t n,
                           uint32_t nBound, T rc2) {
    clear(lane);
    constexpr uint32_t P = kClusterBuildLanes;
    const uint32_t r = lane / P, part = lane % P;
    const uint32_t a = cluster * kClusterSize + r;
    uint32_t members = 0;
    if (a < n) {
      const unsigned group = ((1u << P) - 1u) << (lane - part);  // the particle's lanes
      const Real4<T> posA = pos(a);
      const PeriodicBox<T> box = l.image<T>();
      auto range = [&](uint32_t begin, uint32_t end) {
        for (uint32_t w = begin; w < end; w += 32u) {
          const uint32_t stop = min(end, w + 32u);
          uint32_t bits = 0;
          for (uint32_t j = w + part; j < stop; j += P)
            if (listMember<Periodic>(a, j, posA, pos(j), box, rc2)) bits |= 1u << (j - w);
          members += __popc(bits);
          for (uint32_t o = 1; o < P; o <<= 1) bits |= __shfl_xor_sync(group, bits, o, P);
          for (uint32_t c = w / kClusterSize + part; c * kClusterSize < stop; c += P) {
            const int shift = int(c * kClusterSize) - int(w);  // bit of the j-cluster's first particle
            const uint32_t byte = (shift >= 0 ? bits >> shift : bits << -shift) & 0xFFu;
            if (byte) insert(c, static_cast<unsigned long long>(byte) << (8u * r));
          }
        }
      };
      cell::forEachCandidateRow<Periodic>(l, loadReadOnly(l.keys + a), posA, a < nBound,
                                          [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd) {
                                            range(fBegin, fEnd);
                                            range(bBegin, bEnd);
                                          });
    }
    __syncwarp();
    return members;
  }
};

// What both passes add up over all clusters.
struct ClusterBuildSums {
  unsigned long long members = 0;
  unsigned int overflow = 0;  // some cluster's table was full
};

// Count pass: each cluster's entries into count[cluster].
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kClusterBuildBlock)
    clusterCountKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2,
                       unsigned long long* __restrict__ count, ClusterBuildSums* __restrict__ sums) {
  __shared__ ClusterTable<false> tables[kClusterBuildBlock / kWarp];
  const uint32_t lane = threadIdx.x % kWarp;
  ClusterTable<false>& table = tables[threadIdx.x / kWarp];
  const uint32_t cluster = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  if (cluster >= clusterCount(n)) return;  // the whole warp
  const uint32_t members = table.fill<Periodic>(cluster, lane, l, pos, n, nBound, rc2);
  const unsigned long long sum = sph::gpu::groupSum(static_cast<unsigned long long>(members));
  if (lane != 0) return;
  count[cluster] = table.used;
  if (table.full) atomicOr(&sums->overflow, 1u);
  atomicAdd(&sums->members, sum);
}

// Fill pass: each cluster's entries at clusterBegin(end, cluster), ascending j-clusters.
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kClusterBuildBlock)
    clusterFillKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2,
                      const unsigned long long* __restrict__ end, uint32_t* __restrict__ jcluster,
                      unsigned long long* __restrict__ mask) {
  constexpr uint32_t kWarps = kClusterBuildBlock / kWarp;
  __shared__ ClusterTable<true> tables[kWarps];
  __shared__ uint32_t denseKey[kWarps][kClusterTable];
  __shared__ uint16_t denseSlot[kWarps][kClusterTable];
  const uint32_t lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  ClusterTable<true>& table = tables[warp];
  const uint32_t cluster = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  if (cluster >= clusterCount(n)) return;  // the whole warp
  table.fill<Periodic>(cluster, lane, l, pos, n, nBound, rc2);
  // The used slots packed in slot order, then each placed by its key's rank.
  uint32_t used = 0;
  for (uint32_t s0 = 0; s0 < kClusterTable; s0 += kWarp) {
    const uint32_t s = s0 + lane;
    const uint32_t key = table.key[s];
    const unsigned taken = __ballot_sync(sph::gpu::kFullWarp, key != kNoKey);
    if (key != kNoKey) {
      const uint32_t d = used + __popc(taken & ((1u << lane) - 1u));
      denseKey[warp][d] = key;
      denseSlot[warp][d] = uint16_t(s);
    }
    used += __popc(taken);
  }
  __syncwarp();
  const uint64_t begin = clusterBegin(reinterpret_cast<const uint64_t*>(end), cluster);
  for (uint32_t d = lane; d < used; d += kWarp) {
    const uint32_t key = denseKey[warp][d];
    uint32_t rank = 0;
    for (uint32_t t = 0; t < used; ++t) rank += denseKey[warp][t] < key;
    jcluster[begin + rank] = key;
    mask[begin + rank] = table.mask[denseSlot[warp][d]];
  }
}

}  // namespace sph::verlet
