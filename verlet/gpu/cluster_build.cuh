// The GPU's build of cluster lists (verlet_clusters.h): one warp per i-cluster, 4 lanes per
// particle over its candidates (the cell rows of forEachCandidateRow, the members of
// listMember). The j-clusters of the members go into a hash table in the warp's shared memory
// (open addressing, keyed by j-cluster, the mask bits ORed in).
// A cluster's entries are written in ascending j-cluster order (each entry's place is its rank
// among the keys), so the lists of a build are deterministic.
//
// Two passes size the storage: the count pass keeps only the keys and stores how many there
// are, a scan gives each cluster its place, and the fill pass builds the table again with its
// masks and writes the entries. Once there is storage from a cluster build, later builds take
// one pass (clusterBuildKernel): each warp claims its cluster's room with an atomic cursor, so a
// build walks the candidates once; only when the storage is too small do the two passes run.
//
// once: half lists (BuildRequest::pairsOnce, verlet_particle_ops.h's forEachListMember): a fluid
// particle's bits are its walls and the fluid after it (holdsPair), a wall's none, so that a
// cluster of walls has no entry.
//
// A table has kClusterTable slots: a cluster whose particles reach more j-clusters (over ~1,500
// members a particle in 3D) reports an overflow and the build fails, as when the lists do not
// fit in memory, so the strategy falls back to another layout.
#pragma once

#include <cstdint>

#include "../verlet_clusters.h"
#include "sph/plugin/gpu/warp_reduce.cuh"

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
                           uint32_t nBound, T rc2, bool once) {
    clear(lane);
    constexpr uint32_t P = kClusterBuildLanes;
    const uint32_t r = lane / P, part = lane % P;
    const uint32_t a = cluster * kClusterSize + r;
    uint32_t members = 0;
    if (a < n && !(once && a < nBound)) {  // a particle's lanes skip together (its shuffles' group)
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
                                            // Half lists hold only the fluid after a (holdsPair).
                                            range(once ? max(fBegin, min(a + 1u, fEnd)) : fBegin, fEnd);
                                            range(bBegin, bEnd);
                                          });
    }
    __syncwarp();
    return members;
  }
};

// What a build adds up over all clusters.
struct ClusterBuildSums {
  unsigned long long members = 0;
  unsigned long long cursor = 0;  // the one-pass build's next free entry
  unsigned int overflow = 0;      // some cluster's table was full, or (one pass) the storage
};

// Count pass (of two): each cluster's entries into count[cluster].
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kClusterBuildBlock)
    clusterCountKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2, bool once,
                       unsigned long long* __restrict__ count, ClusterBuildSums* __restrict__ sums) {
  __shared__ ClusterTable<false> tables[kClusterBuildBlock / kWarp];
  const uint32_t lane = threadIdx.x % kWarp;
  ClusterTable<false>& table = tables[threadIdx.x / kWarp];
  const uint32_t cluster = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  if (cluster >= clusterCount(n)) return;  // the whole warp
  const uint32_t members = table.fill<Periodic>(cluster, lane, l, pos, n, nBound, rc2, once);
  const unsigned long long sum = sph::gpu::groupSum(static_cast<unsigned long long>(members));
  if (lane != 0) return;
  count[cluster] = table.used;
  if (table.full) atomicOr(&sums->overflow, 1u);
  atomicAdd(&sums->members, sum);
}

// The entries of a warp's table, written from `first` in ascending j-cluster order: the used
// slots packed in slot order, then each placed by its key's rank. Returns their number.
template <uint32_t kWarps>
struct ClusterWriter {
  ClusterTable<true> tables[kWarps];
  uint32_t denseKey[kWarps][kClusterTable];
  uint16_t denseSlot[kWarps][kClusterTable];

  __device__ uint32_t pack(uint32_t warp, uint32_t lane) {
    const ClusterTable<true>& table = tables[warp];
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
    return used;
  }
  __device__ void write(uint32_t warp, uint32_t lane, uint32_t used, uint64_t first, uint32_t* jcluster,
                        unsigned long long* mask) const {
    for (uint32_t d = lane; d < used; d += kWarp) {
      const uint32_t key = denseKey[warp][d];
      uint32_t rank = 0;
      for (uint32_t t = 0; t < used; ++t) rank += denseKey[warp][t] < key;
      jcluster[first + rank] = key;
      mask[first + rank] = tables[warp].mask[denseSlot[warp][d]];
    }
  }
};

// Fill pass (of two): each cluster's entries where the inclusive scan of the counts puts them;
// the scan's end of each cluster is replaced by its begin.
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kClusterBuildBlock)
    clusterFillKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2, bool once,
                      unsigned long long* __restrict__ endToBegin, const unsigned long long* __restrict__ count,
                      uint32_t* __restrict__ jcluster, unsigned long long* __restrict__ mask) {
  constexpr uint32_t kWarps = kClusterBuildBlock / kWarp;
  __shared__ ClusterWriter<kWarps> w;
  const uint32_t lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const uint32_t cluster = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  if (cluster >= clusterCount(n)) return;  // the whole warp
  w.tables[warp].template fill<Periodic>(cluster, lane, l, pos, n, nBound, rc2, once);
  const uint32_t used = w.pack(warp, lane);
  const uint64_t first = endToBegin[cluster] - count[cluster];
  w.write(warp, lane, used, first, jcluster, mask);
  __syncwarp();
  if (lane == 0) endToBegin[cluster] = first;
}

// The one-pass build, over the storage of the last cluster build (`capacity` entries): each
// warp takes room for its cluster from an atomic cursor and writes its entries there. A cluster
// that finds no room writes nothing and reports an overflow; the two-pass build then sizes the
// storage again. The clusters' places depend on the warps' order, their entries do not.
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kClusterBuildBlock)
    clusterBuildKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2, bool once, uint64_t capacity,
                       unsigned long long* __restrict__ begin, unsigned long long* __restrict__ count,
                       uint32_t* __restrict__ jcluster, unsigned long long* __restrict__ mask,
                       ClusterBuildSums* __restrict__ sums) {
  constexpr uint32_t kWarps = kClusterBuildBlock / kWarp;
  __shared__ ClusterWriter<kWarps> w;
  const uint32_t lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  const uint32_t cluster = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  if (cluster >= clusterCount(n)) return;  // the whole warp
  const uint32_t members = w.tables[warp].template fill<Periodic>(cluster, lane, l, pos, n, nBound, rc2, once);
  const unsigned long long sum = sph::gpu::groupSum(static_cast<unsigned long long>(members));
  const uint32_t used = w.pack(warp, lane);
  unsigned long long first = 0;
  if (lane == 0) first = atomicAdd(&sums->cursor, static_cast<unsigned long long>(used));
  first = __shfl_sync(sph::gpu::kFullWarp, first, 0);
  const bool fits = first + used <= capacity && !w.tables[warp].full;
  if (fits) w.write(warp, lane, used, first, jcluster, mask);
  if (lane != 0) return;
  begin[cluster] = first;
  count[cluster] = used;
  if (!fits) atomicOr(&sums->overflow, 1u);
  atomicAdd(&sums->members, sum);
}

}  // namespace sph::verlet
