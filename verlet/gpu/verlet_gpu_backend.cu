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
// The kernels: verlet_gpu_build.cuh (the build), verlet_gpu_forces.cuh (the force passes),
// verlet_gpu_checks.cuh (speed and displacement), verlet_gpu_stats.cuh (the statistics).
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
#include "verlet_gpu_build.cuh"
#include "verlet_gpu_checks.cuh"
#include "verlet_gpu_forces.cuh"
#include "once_forces.cuh"
#include "verlet_gpu_launch.cuh"
#include "verlet_gpu_stats.cuh"

namespace sph::verlet {
namespace {

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
           scanTemp_.bytes() + refF_.bytes() + refD_.bytes() + xy_.bytes() + z_.bytes() + clusterSums_.bytes() +
           onceDdt_.bytes() + onceFlags_.bytes();
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
    onceDdt_.release();
    onceFlags_.release();
    once_ = false;
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
    const bool once = halfLists<T>(r);
    if (n > 0) {
      if (masks) {
        SPH_LAUNCH("counting mask words (VL-Build step 1)", n, kBlock, 0,
                   (periodic ? &maskCountKernel<T, Source, true> : &maskCountKernel<T, Source, false>), l, pos, n,
                   p.nBound, length_.data());
      } else {
        // Open grids skip the minimum image per candidate (periodic.h, pairDeltaIf).
        withLanes<kCountLanes2D, kCountLanes3D>(r.countLanes, [&](auto lanes) {
          auto* count = periodic ? &countKernel<T, Source, true, lanes()> : &countKernel<T, Source, false, lanes()>;
          SPH_LAUNCH("counting neighbour lists (VL-Build step 1)", n * lanes(), kBlock, 0, count, l, pos, n, p.nBound,
                     rc2, once, length_.data(), scalars_.data());
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
                 (periodic ? &fillKernel<T, Source, true> : &fillKernel<T, Source, false>), l, pos, n, p.nBound, rc2,
                 once, regionEnd_.data(), entries_);
    }
    setHalfLists(once, n);
    finishBuild(p, l, r, ref, total);
    res.built = true;
    res.pairsOnce = once;
    return res;
  }

  // Whether a build makes half lists (each pair once): asked for, a layout whose pass can take
  // them (not bitmask lists, which hold candidates rather than members) and single precision
  // (the pass's float4 atomics).
  template <typename T>
  static bool halfLists(const BuildRequest& r) {
    return r.pairsOnce && r.layout != ListLayout::Bitmask && std::is_same_v<T, float>;
  }
  // The lists about to be finished are half lists (or not), with the pass's scratch for them.
  void setHalfLists(bool once, uint32_t n) {
    if (once) {
      grow(onceDdt_, n, "allocating the pair-once diffusion sums");
      grow(onceFlags_, n, "allocating the pair-once diffusion flags");
    }
    once_ = once;
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
    const LaunchSignature now{
        entries_, length_.data(), regionEnd_.data(), refF_.data(), refD_.data(), clusters().mask, onceDdt_.data(),
        n_,       lanes_,         layout_,           once_,        box_,         lookup_};
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
    once_ = false;
    const bool once = halfLists<T>(r);
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
                 (periodic ? &clusterBuildKernel<T, Source, true> : &clusterBuildKernel<T, Source, false>), l, pos, n,
                 p.nBound, rc2, once, capacity, regionEnd_.data(), regionSize_.data(), entries_, clusterMasks(),
                 clusterSums_.data());
      readSums("reading the cluster list size");
      if (!sums.overflow) {
        res.entries = sums.cursor;
        res.members = sums.members;
        res.bytes = sums.cursor * 12 + size_t(clusters) * perCluster;
        setHalfLists(once, n);
        finishClusterBuild(p, l, r, ref, sums.cursor);
        res.built = true;
        res.pairsOnce = once;
        return res;
      }
    }
    clusterStorage_ = false;
    clearSums();
    uint64_t total = 0;
    if (n > 0) {
      SPH_LAUNCH("counting cluster entries (VL-Build step 1)", size_t(clusters) * kWarp, kClusterBuildBlock, 0,
                 (periodic ? &clusterCountKernel<T, Source, true> : &clusterCountKernel<T, Source, false>), l, pos, n,
                 p.nBound, rc2, once, regionSize_.data(), clusterSums_.data());
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
                 p.nBound, rc2, once, regionEnd_.data(), regionSize_.data(), entries_, clusterMasks());
    setHalfLists(once, n);
    finishClusterBuild(p, l, r, ref, total);
    res.built = true;
    res.pairsOnce = once;
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
    if (once_) {
      if constexpr (std::is_same_v<T, float>)
        launchOnce(p, c, out);
      else
        throw RunError("verlet neighbour search: half lists (pairs once) in a double-precision pass");
      return;
    }
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

  // The pass over half lists (once_forces.cuh): the outputs cleared, each pair once, then the
  // diffusion sums added where a wall can switch them off.
  void launchOnce(const ParticleView<float>& p, const PhysicsConstants<float>& c, const ForceOutputs<float>& out) {
    if (!neighbours::pairOncePass(c, out, p.tangent != nullptr))
      throw RunError(
          "verlet neighbour search: half lists (pairs once) in a pass that needs every pair from both sides");
    if (p.n == 0) return;
    const bool split = wallsCanSwitchOffDiffusion(c);
    const PairOnceOutputs once{out.ace, out.viscdt, out.contacts, split ? onceDdt_.data() : nullptr, onceFlags_.data()};
    // Without fluid particles nothing is launched and the cleared outputs stand. A split pass
    // clears at its first part and adds the diffusion at its last (ForcePart).
    const bool first = out.part != ForcePart::Border, last = out.part != ForcePart::Interior;
    if (first) neighbours::gpu::clearPairOnceOutputs(once, p.n, p.nBound);
    if (layout_ == ListLayout::Clusters) {
      // From the cluster of the first fluid particle; a plain pass (checked above): no coded variant.
      auto clustered = [&](auto lanes) {
        using Lanes = decltype(lanes);
        auto* kernel = neighbours::dispatchInteraction(c, out, false, [](auto v) {
          using V = decltype(v);
          return &clusterOnceForcesKernel<V::K, V::Periodic, Lanes::value>;
        });
        const uint32_t from = p.nBound / kClusterSize * kClusterSize;
        SPH_LAUNCH("computing forces once a pair from half cluster lists (CF-Forces)", size_t(p.n - from) * lanes(),
                   kForceBlock, 0, kernel, clusters(), p.pos, p.velrho, p.code, from, p.n, p.nBound, c, once, out.part);
      };
      if (p.n - p.nBound >= kOnceFewerLanesFrom)
        clustered(std::integral_constant<uint32_t, kOnceFewerLanes>{});
      else
        clustered(std::integral_constant<uint32_t, kClusterLanes>{});
      if (last) neighbours::gpu::addPairOnceDiffusion(once, p.n, p.nBound);
      return;
    }
    auto each = [&](auto lanes) {
      using Lanes = decltype(lanes);
      auto* kernel = neighbours::dispatchInteraction(c, out, false, [](auto v) {
        using V = decltype(v);
        return &onceForcesKernel<V::K, V::Periodic, Lanes::value>;  // never a coded variant here (checked above)
      });
      SPH_LAUNCH("computing forces once a pair from half lists (CF-Forces)", (p.n - p.nBound) * lanes(), kForceBlock, 0,
                 kernel, indexLists(), p.pos, p.velrho, p.code, p.n, p.nBound, c, once, out.part);
    };
    if (p.n - p.nBound >= kOnceFewerLanesFrom)
      each(std::integral_constant<uint32_t, kOnceFewerLanes>{});
    else
      withLanes<kLanes2D, kLanes3D>(lanes_, each);
    if (last) neighbours::gpu::addPairOnceDiffusion(once, p.n, p.nBound);
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
    const void* onceDdt = nullptr;      // the pair-once pass's diffusion sums (with its flags)
    uint32_t n = 0, lanes = 0;
    ListLayout layout = ListLayout::Indices;
    bool once = false;
    PeriodicBox<double> box;
    cell::CellLookup cells;  // a mask's rows: the tables and grid of its build
    bool sameAs(const LaunchSignature& o) const {
      return entries == o.entries && length == o.length && regionEnd == o.regionEnd && refF == o.refF &&
             refD == o.refD && clusterMask == o.clusterMask && onceDdt == o.onceDdt && n == o.n && lanes == o.lanes &&
             layout == o.layout && once == o.once && std::memcmp(&box, &o.box, sizeof(box)) == 0 &&
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
  DeviceBuffer<float> onceDdt_;       // half lists: the diffusion sums of a pass
  DeviceBuffer<uint32_t> onceFlags_;  // and each particle's PairAccum::ddtOff
  bool once_ = false;                 // the lists are half lists (BuildRequest::pairsOnce)
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
