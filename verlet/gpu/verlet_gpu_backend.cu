// The GPU backend: the four-step list build of Takada et al. (2017), "Acceleration of SPH-based
// fluid simulation on GPU" (sections 3.2-3.3), and the list interaction, all on stream 0. Step 1
// counts each list over the cell candidates (lanesPerParticle() lanes per particle, each over its
// share of the candidates); step 2 is the warp maximum by __shfl_xor_sync, one thread per
// particle (no shared memory, no atomics); step 3 is CUB's inclusive sum of the 64-bit region
// sizes; step 4 writes the indices, a warp per group staging its stores in shared memory so that
// they go out as whole 128-byte rows (staged_fill.cuh).
// Storage is sized from the scan at every build (listCapacity: grow with headroom, shrink when
// far too large); a build that does not fit (cap or a failed cudaMalloc) reports it and leaves
// no lists.
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "neighbours/interaction_variant.h"
#include "../verlet_backend_for.h"
#include "../verlet_bitmask.h"
#include "../verlet_clusters.h"
#include "../verlet_particle_ops.h"
#include "../verlet_stats.h"
#include "cluster_build.cuh"
#include "staged_clusters.cuh"
#include "staged_fill.cuh"
#include "staged_members.cuh"
#include "sph/plugin/gpu/cuda_check.cuh"
#include "sph/plugin/gpu/device_buffer.cuh"
#include "sph/plugin/gpu/warp_reduce.cuh"

namespace sph::verlet {
namespace {

using gpu::DeviceBuffer;
constexpr unsigned kBlock = 128;  // a multiple of 32: warps hold 32 consecutive particles
// Threads per block of the list force kernel (SPH_VERLET_FORCE_BLOCK overrides, for experiments).
// With one lane per particle, 64, 128 and 256 threads ran equally fast on DamBreak and
// DamBreak2D on Hopper GPUs: the list kernel does not care.
#ifndef SPH_VERLET_FORCE_BLOCK
#define SPH_VERLET_FORCE_BLOCK 128
#endif
constexpr unsigned kForceBlock = SPH_VERLET_FORCE_BLOCK;

// The scalars a build reads back (pinned on the host).
struct Scalars {
  unsigned long long members = 0;  // sum of list lengths
};

// A maximum over all particles that finishes on the device: blocks fold into `bits`, and the
// last block to finish (counted after a fence) stores the result straight into mapped pinned
// host memory and clears the accumulator for the next use. A check then costs one launch,
// with no memset and no copy: DamBreak2D's steps are bound by launches (one check per step).
struct MaxReduction {
  unsigned long long bits = 0;  // a non-negative double as bits (atomicMax orders them)
  unsigned int blocksDone = 0;
};

// Every thread of the block calls this with its value (no thread may have returned).
__device__ inline void finishMax(double v, MaxReduction* acc, unsigned long long* result) {
  __shared__ bool last;
  v = sph::gpu::groupMax(v);
  if ((threadIdx.x & 31) == 0) sph::gpu::atomicMaxNonNegative(&acc->bits, v);
  __syncthreads();
  if (threadIdx.x != 0) return;
  last = sph::gpu::finishedLast(&acc->blocksDone);
  if (!last) return;
  *result = *static_cast<volatile unsigned long long*>(&acc->bits);
  acc->bits = 0;
  acc->blocksDone = 0;
}

template <typename T>
__global__ void __launch_bounds__(kBlock) maxSpeed2Kernel(const Real4<T>* __restrict__ velrho, uint32_t n,
                                                          MaxReduction* acc, unsigned long long* result) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double v2 = 0;
  if (i < n) {
    const Real4<T> v = velrho[i];
    v2 = double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z;
  }
  finishMax(v2, acc, result);
}

// A particle that wrapped around a periodic axis since the build moved by its minimum image.
// Parked particles (excluded, far outside the domain: the engine's parkParticle) are no one's
// neighbour wherever they are, and do not count.
template <typename T>
__global__ void __launch_bounds__(kBlock) maxDisplacement2Kernel(const Real4<T>* __restrict__ pos,
                                                                 const Real4<T>* __restrict__ ref,
                                                                 const uint32_t* __restrict__ code, uint32_t n,
                                                                 PeriodicBox<double> box, MaxReduction* acc,
                                                                 unsigned long long* result) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double d2 = 0;
  if (i < n && !(code && code::isParked(code[i]))) {
    const Real4<T> a = pos[i], b = ref[i];
    double dx, dy, dz;
    pairDelta(Real4<double>{double(a.x), double(a.y), double(a.z), 0.0},
              Real4<double>{double(b.x), double(b.y), double(b.z), 0.0}, box, dx, dy, dz);
    d2 = dx * dx + dy * dy + dz * dz;
  }
  finishMax(d2, acc, result);
}

// The sums behind ListStats (verlet_stats.h), gathered on the device: copying every list to the
// host and walking it on one thread took half a minute for 18 million particles.
struct StatsCounters {
  unsigned long long members = 0, inSupport = 0, laneIterations = 0, idle = 0;
  unsigned int longest = 0;
};

// One warp per interaction warp (kWarp / P particles of P lanes each), with the interaction's
// mapping: lane L is lane L % P of particle first + L / P and looks at entry i P + L % P at
// iteration i (verlet_stats.cpp counts the same on the host). The distance is summed without
// fused multiply-adds, as the host sums it, so both give the same counts.
template <typename T>
__global__ void __launch_bounds__(kBlock) listStatsKernel(ListsView lists, const Real4<T>* __restrict__ pos,
                                                          uint32_t lanes, double support2, PeriodicBox<double> box,
                                                          StatsCounters* __restrict__ out) {
  const uint32_t lane = threadIdx.x & 31;
  const uint32_t perWarp = kWarp / lanes;
  const uint32_t first = ((blockIdx.x * blockDim.x + threadIdx.x) / 32) * perWarp;
  if (first >= lists.n) return;  // the whole warp
  const uint32_t last = min(lists.n, first + perWarp);
  const uint32_t a = first + lane / lanes, part = lane % lanes;
  const bool active = a < last;
  const uint32_t length = active ? lists.length[a] : 0;
  const uint32_t longest = sph::gpu::groupMax(length);
  const uint32_t iterations = (longest + lanes - 1) / lanes, busyLanes = (last - first) * lanes;
  Real4<double> p{0, 0, 0, 0};
  if (active) p = Real4<double>{double(pos[a].x), double(pos[a].y), double(pos[a].z), 0.0};
  unsigned long long members = 0, inSupport = 0, idle = 0;
  for (uint32_t i = 0; i < iterations; ++i) {
    const uint32_t k = i * lanes + part;
    bool in = false;
    if (active && k < length) {
      ++members;
      const Real4<T> q = pos[lists.entries[entrySlot(lists.regionEnd, a, k)]];
      double dx, dy, dz;
      pairDelta(p, Real4<double>{double(q.x), double(q.y), double(q.z), 0.0}, box, dx, dy, dz);
      in = __dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz)) < support2;
    }
    const unsigned busy = __popc(__ballot_sync(sph::gpu::kFullWarp, in));
    inSupport += in;
    if (busy > 0) idle += busyLanes - busy;
  }
  members = sph::gpu::groupSum(members);
  inSupport = sph::gpu::groupSum(inSupport);
  if (lane != 0) return;
  atomicAdd(&out->members, members);
  atomicAdd(&out->inSupport, inSupport);
  atomicAdd(&out->laneIterations, static_cast<unsigned long long>(iterations) * busyLanes);
  atomicAdd(&out->idle, idle);
  atomicMax(&out->longest, longest);
}

// The members of a bitmask or a cluster list that lane `part` of P takes, in order, for
// rankedStatsKernel.
template <typename R>
struct MaskMembers {
  MaskLists<R> m;
  template <typename Fn>
  __device__ void operator()(uint32_t a, uint32_t part, uint32_t P, Fn&& fn) const {
    forEachMaskMember<true>(a, part, P, m.words, m.cells, m.built[a], m.nBound, fn);
  }
};
struct ClusterMembers {
  ClusterLists l;
  template <typename Fn>
  __device__ void operator()(uint32_t a, uint32_t part, uint32_t P, Fn&& fn) const {
    forEachClusterMember(l, a, part, P, fn);
  }
};

// listStatsKernel for bitmask and cluster lists (verlet_stats.h, maskListStats and
// clusterListStats: iteration i of a lane is its i-th member). The iterations where some lane of the warp has a pair within the support are
// marked in shared memory; a warp's lanes past kBusyIterations (lists of over 16 thousand
// members at 8 lanes) count as busy.
constexpr uint32_t kBusyWords = 64, kBusyIterations = 32 * kBusyWords;
template <typename T, typename Members>
__global__ void __launch_bounds__(kBlock) rankedStatsKernel(Members members, uint32_t n,
                                                            const Real4<T>* __restrict__ pos, uint32_t lanes,
                                                            double support2, PeriodicBox<double> box,
                                                            StatsCounters* __restrict__ out) {
  __shared__ uint32_t busyBits[kBlock / 32][kBusyWords];
  const uint32_t lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  uint32_t* const busy = busyBits[warp];
  for (uint32_t k = lane; k < kBusyWords; k += 32) busy[k] = 0;
  __syncwarp();
  const uint32_t perWarp = kWarp / lanes;
  const uint32_t first = ((blockIdx.x * blockDim.x + threadIdx.x) / 32) * perWarp;
  if (first >= n) return;  // the whole warp
  const uint32_t last = min(n, first + perWarp);
  const uint32_t a = first + lane / lanes, part = lane % lanes;
  uint32_t i = 0;
  unsigned long long inSupport = 0;
  if (a < last) {
    const Real4<double> p{double(pos[a].x), double(pos[a].y), double(pos[a].z), 0.0};
    members(a, part, lanes, [&](uint32_t j) {
      const Real4<T> q = pos[j];
      double dx, dy, dz;
      pairDelta(p, Real4<double>{double(q.x), double(q.y), double(q.z), 0.0}, box, dx, dy, dz);
      if (__dadd_rn(__dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy)), __dmul_rn(dz, dz)) < support2) {
        ++inSupport;
        if (i < kBusyIterations) atomicOr(&busy[i / 32], 1u << (i % 32));
      }
      ++i;
    });
  }
  __syncwarp();
  uint32_t length = i;  // the particle's members: the sum over its lanes
  for (uint32_t o = 1; o < lanes; o <<= 1) length += __shfl_xor_sync(sph::gpu::kFullWarp, length, o);
  const uint32_t iterations = sph::gpu::groupMax(i);
  const uint32_t longest = sph::gpu::groupMax(a < last ? length : 0u);
  const unsigned long long memberSum = sph::gpu::groupSum(static_cast<unsigned long long>(i));
  inSupport = sph::gpu::groupSum(inSupport);
  uint32_t busyIterations = 0;
  for (uint32_t k = lane; k < kBusyWords; k += 32) busyIterations += __popc(busy[k]);
  busyIterations = sph::gpu::groupSum(busyIterations);
  if (iterations > kBusyIterations) busyIterations += iterations - kBusyIterations;
  if (lane != 0) return;
  const unsigned long long busyLanes = (last - first) * lanes;
  atomicAdd(&out->members, memberSum);
  atomicAdd(&out->inSupport, inSupport);
  atomicAdd(&out->laneIterations, static_cast<unsigned long long>(iterations) * busyLanes);
  atomicAdd(&out->idle, busyIterations * busyLanes - inSupport);
  atomicMax(&out->longest, longest);
}

__global__ void __launch_bounds__(kBlock) splitXyZKernel(const Real4<double>* __restrict__ pos, uint32_t n,
                                                        double2* __restrict__ xy, double* __restrict__ z) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Real4<double> p = pos[i];
  xy[i] = double2{p.x, p.y};
  z[i] = p.z;
}

// Step 1: the length of each list; the Lanes lanes of a particle (adjacent: t = Lanes a +
// part, verlet_layout.h) count a share of its candidates each and add their counts by shuffles.
template <typename T, typename Source, bool Periodic, uint32_t Lanes>
__global__ void __launch_bounds__(kBlock)
    countKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2, uint32_t* __restrict__ length,
                Scalars* __restrict__ out) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = t / Lanes, part = t % Lanes;
  const uint32_t count = a < n ? countList<Periodic, Lanes>(a, part, l, pos, nBound, rc2) : 0;
  uint32_t total = count;
  total = sph::gpu::groupSum<Lanes>(total);
  if (a < n && part == 0) length[a] = total;
  const unsigned long long sum = sph::gpu::groupSum(static_cast<unsigned long long>(count));
  if ((threadIdx.x & 31) == 0 && sum > 0) atomicAdd(&out->members, sum);  // statistics only
}

// Step 2: per group of 32 particles (one warp here, one thread per particle), the region size
// 32 * (longest list) by __shfl_xor_sync. Threads past n take part with length 0.
__global__ void __launch_bounds__(kBlock)
    regionSizeKernel(const uint32_t* __restrict__ length, uint32_t n, unsigned long long* __restrict__ regionSize) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t longest = a < n ? length[a] : 0;
  longest = sph::gpu::groupMax(longest);
  if ((threadIdx.x & 31) == 0 && a < n) regionSize[a / kWarp] = static_cast<unsigned long long>(longest) * kWarp;
}

// Step 4: one thread per particle, a warp per group, stores staged in shared memory
// (staged_fill.cuh).
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kBlock)
    fillKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2,
               const unsigned long long* __restrict__ regionEnd, uint32_t* __restrict__ entries) {
  __shared__ uint32_t stage[kBlock / kWarp][kStageRows][kWarp];
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  stagedFillList<Periodic>(a, n, l, pos, nBound, rc2, reinterpret_cast<const uint64_t*>(regionEnd), entries,
                           stage[threadIdx.x / kWarp]);
}

// Step 1 of a bitmask build: the words of each mask (its candidates; no distances needed).
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kBlock)
    maskCountKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, uint32_t* __restrict__ length) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a < n) length[a] = maskWords(candidateCount<Periodic, T>(a, l, pos, nBound));
}

// Step 4 of a bitmask build: one thread per particle writes its words and counts its members.
template <typename T, typename Source, bool Periodic>
__global__ void __launch_bounds__(kBlock)
    maskFillKernel(cell::CellLookup l, Source pos, uint32_t n, uint32_t nBound, T rc2,
                   const unsigned long long* __restrict__ regionEnd, uint32_t* __restrict__ words,
                   Scalars* __restrict__ out) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t members = 0;
  if (a < n) members = fillMask<Periodic>(a, l, pos, nBound, rc2, reinterpret_cast<const uint64_t*>(regionEnd), words);
  const unsigned long long sum = sph::gpu::groupSum(static_cast<unsigned long long>(members));
  if ((threadIdx.x & 31) == 0 && sum > 0) atomicAdd(&out->members, sum);
}

// Adds up the sums of the Lanes lanes of each particle by shuffles, in the order of the CPU's
// addParts; every lane of the warp must call it. Only coded variants count DEM contacts.
template <uint32_t Lanes, bool Coded, typename T, bool Shift, bool Sps>
__device__ SPH_FORCEINLINE void sumLanes(PairAccum<T, Shift, Sps>& acc) {
  for (uint32_t o = 1; o < Lanes; o <<= 1) {
    PairAccum<T, Shift, Sps> other;
    other.ax = __shfl_xor_sync(0xffffffffu, acc.ax, o);
    other.ay = __shfl_xor_sync(0xffffffffu, acc.ay, o);
    other.az = __shfl_xor_sync(0xffffffffu, acc.az, o);
    other.arho = __shfl_xor_sync(0xffffffffu, acc.arho, o);
    other.viscdt = __shfl_xor_sync(0xffffffffu, acc.viscdt, o);
    other.ddt = __shfl_xor_sync(0xffffffffu, acc.ddt, o);
    other.ddtOff = __shfl_xor_sync(0xffffffffu, acc.ddtOff, o);
    if constexpr (Coded) {
      other.contacts = __shfl_xor_sync(0xffffffffu, acc.contacts, o);
      other.demdt = __shfl_xor_sync(0xffffffffu, acc.demdt, o);
    }
    if constexpr (Shift) {
      other.sx = __shfl_xor_sync(0xffffffffu, acc.sx, o);
      other.sy = __shfl_xor_sync(0xffffffffu, acc.sy, o);
      other.sz = __shfl_xor_sync(0xffffffffu, acc.sz, o);
      other.sdiv = __shfl_xor_sync(0xffffffffu, acc.sdiv, o);
      other.shiftOff = __shfl_xor_sync(0xffffffffu, acc.shiftOff, o);
    }
    if constexpr (Sps) {
      other.strain.xx = __shfl_xor_sync(0xffffffffu, acc.strain.xx, o);
      other.strain.xy = __shfl_xor_sync(0xffffffffu, acc.strain.xy, o);
      other.strain.xz = __shfl_xor_sync(0xffffffffu, acc.strain.xz, o);
      other.strain.yy = __shfl_xor_sync(0xffffffffu, acc.strain.yy, o);
      other.strain.yz = __shfl_xor_sync(0xffffffffu, acc.strain.yz, o);
      other.strain.zz = __shfl_xor_sync(0xffffffffu, acc.strain.zz, o);
    }
    addPart(acc, other);
  }
}

// Coded (with Periodic) is the variant for runs with floating bodies or mDBC2 walls; Shift and Sps
// (with Coded) for the passes that sum the shifting terms and those of the SPS model
// (verlet_particle_ops.h). Each lane sums its part of the list (index lists); the Lanes lanes of a particle add their sums up by shuffles and the first writes them.
template <typename T, KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps, uint32_t Lanes, typename Lists>
__global__ void __launch_bounds__(kForceBlock)
    listForcesKernel(Lists lists, const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ velrho,
                     const uint32_t* __restrict__ code, const SymTensor<T>* __restrict__ tau,
                     const Real4<T>* __restrict__ tangent, uint32_t n, uint32_t nBound, PhysicsConstants<T> c,
                     ForceOutputs<T> out) {
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = t / Lanes, part = t % Lanes;
  PairAccum<T, Shift, Sps> acc;
  if (a < n)
    acc = partForces<K, Periodic, Coded, Shift, Sps, Lanes>(lists, a, part, pos, velrho, code, tau, tangent, nBound, c);
  sumLanes<Lanes, Coded>(acc);
  if (a >= n || part != 0) return;
  writeForces(a, acc, out);
}

// The same over bitmask lists, the members staged in shared memory (staged_members.cuh). Lanes
// past n walk particle n - 1's rows and take no member: the stage's flushes need every lane.
template <typename T, KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps, uint32_t Lanes, typename R>
__global__ void __launch_bounds__(kForceBlock)
    maskForcesKernel(MaskLists<R> m, const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ velrho,
                     const uint32_t* __restrict__ code, const SymTensor<T>* __restrict__ tau,
                     const Real4<T>* __restrict__ tangent, uint32_t n, uint32_t nBound, PhysicsConstants<T> c,
                     ForceOutputs<T> out) {
  __shared__ uint32_t stage[kForceBlock / kWarp][kMaskStage][kWarp];
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = t / Lanes, part = t % Lanes;
  const bool active = a < n;
  const uint32_t self = active ? a : n - 1;
  const Real4<R> builtA = loadReadOnly(m.built + self);
  PairAccum<T, Shift, Sps> acc = forcesOver<K, Periodic, Coded, Shift, Sps>(
      self, pos, velrho, code, tau, tangent, nBound, c, [&](auto&& pair) {
        stagedMaskMembers<Periodic, Lanes>(self, part, active, m, builtA, stage[threadIdx.x / kWarp], pair);
      });
  sumLanes<Lanes, Coded>(acc);
  if (!active || part != 0) return;
  writeForces(a, acc, out);
}

// The same over cluster lists, the members staged in shared memory by rank
// (staged_clusters.cuh). Lanes past n read particle n - 1's cluster and take no member.
template <typename T, KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps, uint32_t Lanes>
__global__ void __launch_bounds__(kForceBlock)
    clusterForcesKernel(ClusterLists lists, const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ velrho,
                        const uint32_t* __restrict__ code, const SymTensor<T>* __restrict__ tau,
                        const Real4<T>* __restrict__ tangent, uint32_t n, uint32_t nBound, PhysicsConstants<T> c,
                        ForceOutputs<T> out) {
  __shared__ uint32_t stage[kForceBlock / Lanes][kClusterStage<Lanes>];
  const uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t a = t / Lanes, part = t % Lanes;
  const bool active = a < n;
  const uint32_t self = active ? a : n - 1;
  PairAccum<T, Shift, Sps> acc = forcesOver<K, Periodic, Coded, Shift, Sps>(
      self, pos, velrho, code, tau, tangent, nBound, c, [&](auto&& pair) {
        stagedClusterMembers<Lanes>(lists, self, part, active, stage[threadIdx.x / Lanes], pair);
      });
  sumLanes<Lanes, Coded>(acc);
  if (!active || part != 0) return;
  writeForces(a, acc, out);
}

class VerletGpuBackend final : public VerletBackendFor<VerletGpuBackend> {
 public:
  VerletGpuBackend()
      : scalars_(1, "allocating Verlet scalars"),
        clusterSums_(1, "allocating Verlet scalars"),
        maxAcc_(1, "allocating Verlet scalars") {
    SPH_CUDA_CHECK(cudaMallocHost(&host_, sizeof(Scalars)), "allocating pinned Verlet scalars");
    SPH_CUDA_CHECK(cudaHostAlloc(&maxResult_, 2 * sizeof(unsigned long long), cudaHostAllocMapped),
                   "allocating mapped Verlet scalars");
    SPH_CUDA_CHECK(cudaHostGetDevicePointer(&maxResultDevice_, maxResult_, 0),
                   "mapping the Verlet scalars into the device");
    SPH_CUDA_CHECK(cudaMemset(maxAcc_.data(), 0, sizeof(MaxReduction)), "clearing Verlet scalars");
    SPH_CUDA_CHECK(cudaEventCreateWithFlags(&queuedDone_, cudaEventDisableTiming), "creating a Verlet event");
  }
  ~VerletGpuBackend() override {
    cudaEventDestroy(queuedDone_);
    cudaFreeHost(maxResult_);
    cudaFreeHost(host_);
    if (entries_) cudaFree(entries_);
  }
  VerletGpuBackend(const VerletGpuBackend&) = delete;
  VerletGpuBackend& operator=(const VerletGpuBackend&) = delete;

  double maxDisplacement2(const ParticleView<float>& p) override { return maxDisplacement2T(p, refF_); }
  double maxDisplacement2(const ParticleView<double>& p) override { return maxDisplacement2T(p, refD_); }
  void queueDisplacement2(const ParticleView<float>& p) override { queueT(p, refF_); }
  void queueDisplacement2(const ParticleView<double>& p) override { queueT(p, refD_); }
  double queuedDisplacement2() override {
    if (!hasQueued_) return HUGE_VAL;
    // A check queued by a recorded or replayed step has no event (an event node would cost more
    // than the graph saves); the engine's end-of-step wait has finished it.
    if (queuedEventRecorded_)
      SPH_CUDA_CHECK(cudaEventSynchronize(queuedDone_), "waiting for the queued displacement check");
    return __builtin_bit_cast(double, readResult(kQueuedSlot));
  }
  uint64_t launchGeneration() const override { return generation_; }
  void markQueuedByReplay() override {
    hasQueued_ = true;
    queuedEventRecorded_ = false;
  }
  BuildResult build(const ParticleView<float>& p, const cell::CellLookup& l, const BuildRequest& r) override {
    return withinDeviceMemory([&] { return buildT(p, l, r, Real4Source<float>{p.pos}, refF_); });
  }
  BuildResult build(const ParticleView<double>& p, const cell::CellLookup& l, const BuildRequest& r) override {
    return withinDeviceMemory([&] {
      // The paper's double layout (3.4): (x, y) as 16-byte double2 plus a separate z array.
      grow(xy_, 2 * size_t(p.n), "allocating the double2 build positions");
      grow(z_, p.n, "allocating the build z array");
      SPH_LAUNCH("splitting positions for the list build", p.n, kBlock, 0, splitXyZKernel, p.pos, p.n,
                 reinterpret_cast<double2*>(xy_.data()), z_.data());
      return buildT(p, l, r, XyZSource{xy_.data(), z_.data()}, refD_);
    });
  }

  HostLists download() const override {
    if (layout_ == ListLayout::Clusters) return downloadClusters();
    HostLists h;
    h.n = n_;
    h.lanes = lanes_;
    h.length.resize(n_);
    h.regionEnd.resize(warpCount(n_));
    if (n_ == 0) return h;
    h.entries.resize(lastGoodTotal_);
    copy(h.length.data(), length_.data(), n_ * sizeof(uint32_t), "downloading list lengths");
    copy(h.regionEnd.data(), regionEnd_.data(), h.regionEnd.size() * sizeof(uint64_t), "downloading list offsets");
    copy(h.entries.data(), entries_, h.entries.size() * sizeof(uint32_t), "downloading lists");
    if (layout_ != ListLayout::Bitmask) return h;
    // The masks are decoded on the host with copies of the build's cell tables and positions.
    std::vector<uint32_t> start(size_t(2) * lookup_.ncells + 1), keys(n_);
    copy(start.data(), lookup_.start, start.size() * sizeof(uint32_t), "downloading the build's cell starts");
    copy(keys.data(), lookup_.keys, keys.size() * sizeof(uint32_t), "downloading the build's cell keys");
    cell::CellLookup cells = lookup_;
    cells.start = start.data();
    cells.keys = keys.data();
    const ListsView words{h.entries.data(), h.regionEnd.data(), h.length.data(), n_};
    auto decode = [&](auto built) {
      using R = std::decay_t<decltype(built[0].x)>;
      return decodeMasks(MaskLists<R>{words, cells, built.data(), nBound_}, lanes_);
    };
    return builtDouble_ ? decode(downloadBuilt(refD_)) : decode(downloadBuilt(refF_));
  }

  HostLists downloadClusters() const {
    const ClusterLists d = clusters();
    const uint32_t count = clusterCount(n_);
    std::vector<uint32_t> jcluster(lastGoodTotal_);
    std::vector<uint64_t> mask(lastGoodTotal_), begin(count), entries(count);
    if (n_ > 0) {
      copy(jcluster.data(), d.jcluster, jcluster.size() * sizeof(uint32_t), "downloading the cluster lists");
      copy(mask.data(), d.mask, mask.size() * sizeof(uint64_t), "downloading the cluster masks");
      copy(begin.data(), d.begin, begin.size() * sizeof(uint64_t), "downloading the cluster offsets");
      copy(entries.data(), d.count, entries.size() * sizeof(uint64_t), "downloading the cluster entry counts");
    }
    return decodeClusters(ClusterLists{jcluster.data(), mask.data(), begin.data(), entries.data(), n_}, lanes_);
  }

  size_t deviceBytes() const override {
    return entriesCapacity_ * sizeof(uint32_t) + length_.bytes() + regionSize_.bytes() + regionEnd_.bytes() +
           scanTemp_.bytes() + refF_.bytes() + refD_.bytes() + xy_.bytes() + z_.bytes() + clusterSums_.bytes();
  }
  size_t peakDeviceBytes() const override { return peak_; }

 private:
  // A build whose buffers the device cannot hold (any of them, not only the entries) is a build
  // that did not fit: every list buffer is given back, so that the cell search the plugin falls
  // back to (or the next, smaller layout) has the room.
  template <typename Build>
  BuildResult withinDeviceMemory(Build&& build) {
    try {
      return build();
    } catch (const DeviceOutOfMemory&) {
      releaseLists();
      BuildResult none;
      none.bytes = lastAttemptBytes_;
      return none;
    }
  }
  void releaseLists() {
    if (entries_) cudaFree(entries_);
    entries_ = nullptr;
    entriesCapacity_ = 0;
    length_.release();
    regionSize_.release();
    regionEnd_.release();
    scanTemp_.release();
    refF_.release();
    refD_.release();
    xy_.release();
    z_.release();
    n_ = 0;
    lastGoodTotal_ = 0;
    clusterStorage_ = false;
  }

  template <typename R>
  std::vector<Real4<R>> downloadBuilt(const DeviceBuffer<Real4<R>>& ref) const {
    std::vector<Real4<R>> h(n_);
    copy(h.data(), ref.data(), h.size() * sizeof(Real4<R>), "downloading the build positions");
    return h;
  }
  friend class VerletBackendFor<VerletGpuBackend>;
  static void copy(void* dst, const void* src, size_t bytes, const char* what) {
    SPH_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), what);
  }
  template <typename V>
  void grow(DeviceBuffer<V>& b, size_t needed, const char* what) {
    if (b.size() >= needed) return;
    b.resize(needed + needed / 4 + 256, what);
    peak_ = std::max(peak_, deviceBytes());
  }
  Scalars readScalars(const char* what) {
    SPH_CUDA_CHECK(cudaMemcpyAsync(host_, scalars_.data(), sizeof(Scalars), cudaMemcpyDeviceToHost, 0), what);
    SPH_CUDA_CHECK(cudaStreamSynchronize(0), what);
    return *host_;
  }
  void clearScalars() {
    SPH_CUDA_CHECK(cudaMemsetAsync(scalars_.data(), 0, sizeof(Scalars), 0), "clearing Verlet scalars");
  }

  // Launches a max reduction (maxSpeed2Kernel or maxDisplacement2Kernel) into result slot `slot`.
  template <typename Kernel, typename... Args>
  void launchMax(const char* what, uint32_t n, int slot, Kernel kernel, Args... args) {
    SPH_LAUNCH(what, n, kBlock, 0, kernel, args..., maxAcc_.data(), maxResultDevice_ + slot);
  }
  unsigned long long readResult(int slot) const {
    return static_cast<volatile const unsigned long long*>(maxResult_)[slot];
  }
  double waitMax(int slot, const char* what) {
    SPH_CUDA_CHECK(cudaStreamSynchronize(0), what);
    return __builtin_bit_cast(double, readResult(slot));
  }

  template <typename T>
  double maxSpeedT(const ParticleView<T>& p) {
    if (p.n == 0) return 0;
    launchMax("finding the largest particle speed", p.n, kNowSlot, maxSpeed2Kernel<T>, p.velrho, p.n);
    return std::sqrt(waitMax(kNowSlot, "reading the largest speed"));
  }

  template <typename T>
  double maxDisplacement2T(const ParticleView<T>& p, const DeviceBuffer<Real4<T>>& ref) {
    if (p.n == 0) return 0;
    if (ref.size() < p.n) return HUGE_VAL;
    launchMax("measuring displacements since the list build", p.n, kNowSlot, maxDisplacement2Kernel<T>, p.pos,
              ref.data(), p.code, p.n, box_);
    return waitMax(kNowSlot, "reading the largest displacement");
  }

  template <typename T>
  void queueT(const ParticleView<T>& p, const DeviceBuffer<Real4<T>>& ref) {
    hasQueued_ = p.n > 0 && ref.size() >= p.n;
    if (!hasQueued_) return;
    launchMax("measuring displacements since the list build", p.n, kQueuedSlot, maxDisplacement2Kernel<T>, p.pos,
              ref.data(), p.code, p.n, box_);
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    SPH_CUDA_CHECK(cudaStreamIsCapturing(cudaStreamPerThread, &capture), "asking whether a step is being recorded");
    queuedEventRecorded_ = capture == cudaStreamCaptureStatusNone;
    if (queuedEventRecorded_) SPH_CUDA_CHECK(cudaEventRecord(queuedDone_, 0), "recording the displacement check");
  }

  template <typename T, typename Source>
  BuildResult buildT(const ParticleView<T>& p, const cell::CellLookup& l, const BuildRequest& r, const Source& pos,
                     DeviceBuffer<Real4<T>>& ref) {
    if (r.layout == ListLayout::Clusters) return buildClustersT(p, l, r, pos, ref);
    clusterStorage_ = false;  // the entries are overwritten
    const uint32_t n = p.n, groups = warpCount(n);
    lastAttemptBytes_ = 0;
    // The saved positions first: the entries are then the last large allocation of a build.
    grow(ref, p.n, "allocating build positions");
    const bool periodic = l.periodic(0) || l.periodic(1) || l.periodic(2);
    BuildResult res;
    const T rc2 = T(r.listRadius) * T(r.listRadius);
    grow(length_, n, "allocating list lengths");
    grow(regionSize_, groups, "allocating list region sizes");
    grow(regionEnd_, groups, "allocating list offsets");
    clearScalars();
    const bool masks = r.layout == ListLayout::Bitmask;
    if (n > 0) {
      if (masks) {
        SPH_LAUNCH("counting mask words (VL-Build step 1)", n, kBlock, 0,
                   (periodic ? &maskCountKernel<T, Source, true> : &maskCountKernel<T, Source, false>), l, pos, n,
                   p.nBound, length_.data());
      } else {
        // Open grids skip the minimum image per candidate (periodic.h, pairDeltaIf).
        withLanes<kCountLanes2D, kCountLanes3D>(r.countLanes, [&](auto lanes) {
          auto* count = periodic ? &countKernel<T, Source, true, lanes()> : &countKernel<T, Source, false, lanes()>;
          SPH_LAUNCH("counting neighbour lists (VL-Build step 1)", n * lanes(), kBlock, 0, count, l, pos, n,
                     p.nBound, rc2, length_.data(), scalars_.data());
        });
      }
      SPH_LAUNCH("finding the longest list per warp (VL-Build step 2)", n, kBlock, 0, regionSizeKernel,
                 length_.data(), n, regionSize_.data());
      scanSizes(groups, "scanning list region sizes (VL-Build step 3)");
    }
    const Scalars s = readScalars("reading the list size");
    const uint64_t total = n > 0 ? regionEndHostLast_ : 0;
    res.entries = total;
    res.members = s.members;
    res.bytes = total * sizeof(uint32_t) + size_t(n) * sizeof(uint32_t) + size_t(groups) * sizeof(uint64_t);
    lastAttemptBytes_ = res.bytes;
    if (!reserveEntries(total, res.bytes - total * sizeof(uint32_t), r.memoryCap)) {
      n_ = 0;  // the count pass overwrote the old lists' lengths and offsets: no lists now
      lastGoodTotal_ = 0;
      return res;
    }
    if (n > 0 && masks) {
      clearScalars();
      SPH_LAUNCH("writing neighbour masks (VL-Build step 4)", n, kBlock, 0,
                 (periodic ? &maskFillKernel<T, Source, true> : &maskFillKernel<T, Source, false>), l, pos, n,
                 p.nBound, rc2, regionEnd_.data(), entries_, scalars_.data());
      res.members = readScalars("reading the mask members").members;
    } else if (n > 0) {
      SPH_LAUNCH("writing neighbour lists (VL-Build step 4)", n, kBlock, 0,
                 (periodic ? &fillKernel<T, Source, true> : &fillKernel<T, Source, false>), l, pos, n,
                 p.nBound, rc2, regionEnd_.data(), entries_);
    }
    finishBuild(p, l, r, ref, total);
    res.built = true;
    return res;
  }

  // Step 3 of a build: regionEnd_ = the inclusive sum of the first `count` regionSize_, its last
  // element queued for regionEndHostLast_ (valid after the next synchronisation).
  void scanSizes(uint32_t count, const char* what) {
    size_t bytes = 0;
    SPH_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, bytes, regionSize_.data(), regionEnd_.data(), count,
                                                 cudaStream_t(0)),
                   what);
    grow(scanTemp_, bytes, "allocating the list offset scan");
    SPH_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scanTemp_.data(), bytes, regionSize_.data(), regionEnd_.data(), count,
                                                 cudaStream_t(0)),
                   what);
    SPH_CUDA_CHECK(cudaMemcpyAsync(&regionEndHostLast_, regionEnd_.data() + count - 1, sizeof(uint64_t),
                                   cudaMemcpyDeviceToHost, 0),
                   what);
  }

  // What every build does last: save the positions, remember what the lists were built with.
  template <typename T>
  void finishBuild(const ParticleView<T>& p, const cell::CellLookup& l, const BuildRequest& r,
                   DeviceBuffer<Real4<T>>& ref, uint64_t total) {
    grow(ref, p.n, "allocating build positions");
    if (p.n > 0)
      SPH_CUDA_CHECK(cudaMemcpyAsync(ref.data(), p.pos, p.n * sizeof(Real4<T>), cudaMemcpyDeviceToDevice, 0),
                     "saving build positions");
    n_ = p.n;
    nBound_ = p.nBound;
    lanes_ = r.lanes;
    layout_ = r.layout;
    lookup_ = l;
    builtDouble_ = sizeof(T) == sizeof(double);
    box_ = l.image<double>();
    lastGoodTotal_ = total;
    const LaunchSignature now{entries_, length_.data(), regionEnd_.data(), refF_.data(), refD_.data(),
                              clusters().mask, n_, lanes_, layout_, box_, lookup_};
    if (!now.sameAs(launched_)) {
      launched_ = now;
      ++generation_;
    }
    peak_ = std::max(peak_, deviceBytes());
  }

  // The cluster layout in entries_ (W 32-bit words): room for clusterCapacity(W) entries, an
  // even number C, the j-clusters in words [0, C) and the 64-bit masks from word C.
  static uint64_t clusterCapacity(uint64_t words) { return words < 2 ? 0 : ((words - 2) / 3) & ~uint64_t(1); }
  static uint64_t clusterWords(uint64_t entries) { return 3 * (entries + (entries & 1u)) + 2; }
  unsigned long long* clusterMasks() const {
    return reinterpret_cast<unsigned long long*>(entries_ + clusterCapacity(entriesCapacity_));
  }

  // The cluster layout's build (cluster_build.cuh): in one pass into the storage of the last
  // cluster build when there is one and it is not far too large, else (or when that storage
  // turned out too small) count each cluster's entries, scan, fill.
  template <typename T, typename Source>
  BuildResult buildClustersT(const ParticleView<T>& p, const cell::CellLookup& l, const BuildRequest& r,
                             const Source& pos, DeviceBuffer<Real4<T>>& ref) {
    const uint32_t n = p.n, clusters = clusterCount(n);
    const bool periodic = l.periodic(0) || l.periodic(1) || l.periodic(2);
    const T rc2 = T(r.listRadius) * T(r.listRadius);
    const size_t perCluster = 2 * sizeof(uint64_t);  // begin and count
    BuildResult res;
    lastAttemptBytes_ = 0;
    grow(ref, p.n, "allocating build positions");
    grow(regionSize_, clusters, "allocating cluster entry counts");
    grow(regionEnd_, clusters, "allocating cluster offsets");
    // Whatever happens now, the old lists are gone (their offsets or entries are overwritten).
    n_ = 0;
    lastGoodTotal_ = 0;
    ClusterBuildSums sums;
    auto readSums = [&](const char* what) {
      SPH_CUDA_CHECK(cudaMemcpyAsync(&sums, clusterSums_.data(), sizeof(sums), cudaMemcpyDeviceToHost, 0), what);
      SPH_CUDA_CHECK(cudaStreamSynchronize(0), what);
    };
    auto clearSums = [&] {
      SPH_CUDA_CHECK(cudaMemsetAsync(clusterSums_.data(), 0, sizeof(ClusterBuildSums), 0), "clearing the cluster sums");
    };
    const uint64_t capacity = clusterCapacity(entriesCapacity_);
    if (n > 0 && clusterStorage_ && capacity <= 2 * lastClusterTotal_ + 4096 &&
        (r.memoryCap == 0 || capacity * 12 + size_t(clusters) * perCluster <= r.memoryCap)) {
      clearSums();
      SPH_LAUNCH("writing cluster lists in one pass (VL-Build)", size_t(clusters) * kWarp, kClusterBuildBlock, 0,
                 (periodic ? &clusterBuildKernel<T, Source, true> : &clusterBuildKernel<T, Source, false>), l, pos,
                 n, p.nBound, rc2, capacity, regionEnd_.data(), regionSize_.data(), entries_, clusterMasks(),
                 clusterSums_.data());
      readSums("reading the cluster list size");
      if (!sums.overflow) {
        res.entries = sums.cursor;
        res.members = sums.members;
        res.bytes = sums.cursor * 12 + size_t(clusters) * perCluster;
        finishClusterBuild(p, l, r, ref, sums.cursor);
        res.built = true;
        return res;
      }
    }
    clusterStorage_ = false;
    clearSums();
    uint64_t total = 0;
    if (n > 0) {
      SPH_LAUNCH("counting cluster entries (VL-Build step 1)", size_t(clusters) * kWarp, kClusterBuildBlock, 0,
                 (periodic ? &clusterCountKernel<T, Source, true> : &clusterCountKernel<T, Source, false>), l, pos,
                 n, p.nBound, rc2, regionSize_.data(), clusterSums_.data());
      scanSizes(clusters, "scanning cluster entry counts (VL-Build step 3)");
      readSums("reading the cluster list size");
      total = regionEndHostLast_;
    }
    res.entries = total;
    res.members = sums.members;
    res.bytes = total * 12 + size_t(clusters) * perCluster;
    lastAttemptBytes_ = res.bytes;
    if (sums.overflow) return res;  // a cluster reaches more j-clusters than a table holds
    if (!reserveEntries(clusterWords(total), size_t(clusters) * perCluster, r.memoryCap)) return res;
    if (n > 0)
      SPH_LAUNCH("writing cluster lists (VL-Build step 4)", size_t(clusters) * kWarp, kClusterBuildBlock, 0,
                 (periodic ? &clusterFillKernel<T, Source, true> : &clusterFillKernel<T, Source, false>), l, pos, n,
                 p.nBound, rc2, regionEnd_.data(), regionSize_.data(), entries_, clusterMasks());
    finishClusterBuild(p, l, r, ref, total);
    res.built = true;
    return res;
  }
  template <typename T>
  void finishClusterBuild(const ParticleView<T>& p, const cell::CellLookup& l, const BuildRequest& r,
                          DeviceBuffer<Real4<T>>& ref, uint64_t total) {
    finishBuild(p, l, r, ref, total);
    clusterStorage_ = true;
    lastClusterTotal_ = total;
  }

  // Room for `total` entries, with `others` more bytes of list data (lengths, offsets), within
  // the cap (VerletMemoryLimit counts the lists, as on the CPU) and the device's free memory;
  // false (nothing changed but the CUDA error state cleared) when it cannot be had.
  bool reserveEntries(uint64_t total, size_t others, size_t cap) {
    const size_t want = listCapacity(entriesCapacity_, total);
    const size_t fixed = others;
    if (cap > 0 && total * sizeof(uint32_t) + fixed > cap) return false;
    if (want == entriesCapacity_) return true;
    if (entries_) cudaFree(entries_);
    entries_ = nullptr;
    entriesCapacity_ = 0;
    void* p = nullptr;
    size_t got = want;
    if (cap > 0 && want * sizeof(uint32_t) + fixed > cap) got = total;  // no headroom past the cap
    if (cudaMalloc(&p, got * sizeof(uint32_t)) != cudaSuccess) {
      (void)cudaGetLastError();  // an out-of-memory error is not sticky: clear it
      // Without the headroom it may still fit (the next build that grows then reallocates).
      if (got == total || cudaMalloc(&p, total * sizeof(uint32_t)) != cudaSuccess) {
        (void)cudaGetLastError();
        return false;
      }
      got = total;
    }
    entries_ = static_cast<uint32_t*>(p);
    entriesCapacity_ = got;
    return true;
  }

  template <typename T>
  void interactT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
    if (p.n != n_) throw RunError("verlet neighbour search: interact() on particles the lists were not built for");
    if (layout_ == ListLayout::Bitmask)
      launchForces(masks<T>(), p, c, out);
    else if (layout_ == ListLayout::Clusters)
      launchForces(clusters(), p, c, out);
    else
      launchForces(indexLists(), p, c, out);
  }
  ClusterLists clusters() const {
    return {entries_, entries_ ? reinterpret_cast<const uint64_t*>(clusterMasks()) : nullptr,
            reinterpret_cast<const uint64_t*>(regionEnd_.data()), reinterpret_cast<const uint64_t*>(regionSize_.data()),
            n_};
  }
  ListsView indexLists() const {
    return {entries_, reinterpret_cast<const uint64_t*>(regionEnd_.data()), length_.data(), n_};
  }
  // The masks of the last build, read with the build positions of precision T (the build's).
  template <typename T>
  MaskLists<T> masks() const {
    const Real4<T>* built = nullptr;
    if constexpr (sizeof(T) == sizeof(double)) built = refD_.data();
    else built = refF_.data();
    return {indexLists(), lookup_, built, nBound_};
  }
  template <typename Lists, typename T>
  void launchForces(const Lists& lists, const ParticleView<T>& p, const PhysicsConstants<T>& c,
                    const ForceOutputs<T>& out) {
    auto each = [&](auto lanes) {
      using Lanes = decltype(lanes);
      auto* kernel = neighbours::dispatchInteraction(c, out, p.tangent != nullptr, [](auto v) {
        using V = decltype(v);
        if constexpr (std::is_same_v<Lists, MaskLists<T>>)
          return &maskForcesKernel<T, V::K, V::Periodic, V::Coded, V::Shift, V::Sps, Lanes::value, T>;
        else if constexpr (std::is_same_v<Lists, ClusterLists>)
          return &clusterForcesKernel<T, V::K, V::Periodic, V::Coded, V::Shift, V::Sps, Lanes::value>;
        else
          return &listForcesKernel<T, V::K, V::Periodic, V::Coded, V::Shift, V::Sps, Lanes::value, Lists>;
      });
      SPH_LAUNCH("computing forces from neighbour lists (CF-Forces)", p.n * lanes(), kForceBlock, 0, kernel, lists,
                 p.pos, p.velrho, p.code, p.spsTau, p.tangent, p.n, p.nBound, c, out);
    };
    if constexpr (std::is_same_v<Lists, MaskLists<T>>)
      withLanes<kMaskLanes2D, kMaskLanes3D>(lanes_, each);
    else if constexpr (std::is_same_v<Lists, ClusterLists>)
      each(std::integral_constant<uint32_t, kClusterLanes>{});
    else
      withLanes<kLanes2D, kLanes3D>(lanes_, each);
  }

  template <typename T>
  ListStats statsT(const ParticleView<T>& p, double support) const {
    ListStats s;
    if (n_ == 0) return s;
    DeviceBuffer<StatsCounters> sums;
    sums.resize(1, "allocating the list statistics' sums");
    SPH_CUDA_CHECK(cudaMemset(sums.data(), 0, sizeof(StatsCounters)), "clearing the list statistics' sums");
    const uint32_t warps = (n_ + kWarp / lanes_ - 1) / (kWarp / lanes_);
    if (layout_ == ListLayout::Bitmask)
      SPH_LAUNCH("summing the mask statistics", size_t(warps) * 32, kBlock, 0, (rankedStatsKernel<T, MaskMembers<T>>),
                 MaskMembers<T>{masks<T>()}, n_, p.pos, lanes_, support * support, box_, sums.data());
    else if (layout_ == ListLayout::Clusters)
      SPH_LAUNCH("summing the cluster list statistics", size_t(warps) * 32, kBlock, 0,
                 (rankedStatsKernel<T, ClusterMembers>), ClusterMembers{clusters()}, n_, p.pos, lanes_,
                 support * support, box_, sums.data());
    else
      SPH_LAUNCH("summing the list statistics", size_t(warps) * 32, kBlock, 0, listStatsKernel<T>, indexLists(),
                 p.pos, lanes_, support * support, box_, sums.data());
    StatsCounters h;
    copy(&h, sums.data(), sizeof(h), "downloading the list statistics");
    s.longest = h.longest;
    s.meanLength = double(h.members) / double(n_);
    s.idleRatio = h.laneIterations ? double(h.idle) / double(h.laneIterations) : 0;
    s.inSupportRatio = h.members ? double(h.inSupport) / double(h.members) : 0;
    return s;
  }

  // What the force and check kernels are launched with, besides the engine's arrays: a
  // recorded step stays valid while this stays the same (launchGeneration).
  struct LaunchSignature {
    const void *entries = nullptr, *length = nullptr, *regionEnd = nullptr, *refF = nullptr, *refD = nullptr;
    const void* clusterMask = nullptr;  // moves with the entry count within the same allocation
    uint32_t n = 0, lanes = 0;
    ListLayout layout = ListLayout::Indices;
    PeriodicBox<double> box;
    cell::CellLookup cells;  // a mask's rows: the tables and grid of its build
    bool sameAs(const LaunchSignature& o) const {
      return entries == o.entries && length == o.length && regionEnd == o.regionEnd && refF == o.refF &&
             refD == o.refD && clusterMask == o.clusterMask && n == o.n && lanes == o.lanes && layout == o.layout &&
             std::memcmp(&box, &o.box, sizeof(box)) == 0 &&
             (layout != ListLayout::Bitmask || std::memcmp(&cells, &o.cells, sizeof(cells)) == 0);
    }
  };

  DeviceBuffer<Scalars> scalars_;
  DeviceBuffer<ClusterBuildSums> clusterSums_;
  Scalars* host_ = nullptr;
  // Max reductions: one accumulator (they run one after another on stream 0) and two result
  // slots in mapped pinned memory, so that a synchronous one does not overwrite a queued check.
  static constexpr int kNowSlot = 0, kQueuedSlot = 1;
  DeviceBuffer<MaxReduction> maxAcc_;
  unsigned long long* maxResult_ = nullptr;        // host view (read as volatile)
  unsigned long long* maxResultDevice_ = nullptr;  // the same memory seen from the device
  cudaEvent_t queuedDone_ = nullptr;
  bool hasQueued_ = false, queuedEventRecorded_ = false;
  LaunchSignature launched_;
  uint64_t generation_ = 1;
  DeviceBuffer<uint32_t> length_;
  DeviceBuffer<unsigned long long> regionSize_, regionEnd_;
  DeviceBuffer<unsigned char> scanTemp_;
  DeviceBuffer<Real4<float>> refF_;
  DeviceBuffer<Real4<double>> refD_;
  DeviceBuffer<double> xy_, z_;
  uint32_t* entries_ = nullptr;
  size_t lastAttemptBytes_ = 0;  // what the current build's lists need, once counted
  size_t entriesCapacity_ = 0;
  bool clusterStorage_ = false;     // entries_ holds the last build's cluster lists (one-pass builds may reuse it)
  uint64_t lastClusterTotal_ = 0;   // their entries
  uint64_t regionEndHostLast_ = 0, lastGoodTotal_ = 0;
  uint32_t n_ = 0, nBound_ = 0;
  uint32_t lanes_ = kLanes3D;  // of the last build
  ListLayout layout_ = ListLayout::Indices;
  cell::CellLookup lookup_;    // the build's cell tables (a mask's rows), untouched until the next rebuild
  bool builtDouble_ = false;   // the build positions are refD_ (else refF_)
  PeriodicBox<double> box_;  // the periodic axes of the last build
  size_t peak_ = 0;
};

}  // namespace

std::unique_ptr<VerletBackend> makeVerletGpuBackend() { return std::make_unique<VerletGpuBackend>(); }

}  // namespace sph::verlet
