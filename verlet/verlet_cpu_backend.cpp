// The CPU backend: the GPU's data structure with 32-lane warps emulated by loops, OpenMP over
// particles (count, fill, forces) and over groups (warp maximum).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <new>
#include <type_traits>

#include "neighbours/displacement.h"
#include "neighbours/interaction_variant.h"
#include "neighbours/pair_once_cpu.h"
#include "sph/plugin/errors.h"
#include "verlet_bitmask.h"
#include "verlet_backend_for.h"
#include "verlet_clusters.h"
#include "verlet_particle_ops.h"
#include "verlet_stats.h"

namespace sph::verlet {
namespace {

constexpr int kChunk = 256;
constexpr uint32_t kPadding = std::numeric_limits<uint32_t>::max();  // unused slots of a region

class VerletCpuBackend final : public VerletBackendFor<VerletCpuBackend> {
 public:
  explicit VerletCpuBackend(int threads) : threads_(threads > 0 ? threads : omp_get_max_threads()) {}

  double maxDisplacement2(const ParticleView<float>& p) override { return maxDisplacement2T(p); }
  double maxDisplacement2(const ParticleView<double>& p) override { return maxDisplacement2T(p); }
  void queueDisplacement2(const ParticleView<float>& p) override { queued_ = maxDisplacement2T(p); }
  void queueDisplacement2(const ParticleView<double>& p) override { queued_ = maxDisplacement2T(p); }
  double queuedDisplacement2() override { return queued_; }
  BuildResult build(const ParticleView<float>& p, const cell::CellLookup& l, const BuildRequest& r) override {
    return withinHostMemory([&] { return buildT(p, l, r); });
  }
  BuildResult build(const ParticleView<double>& p, const cell::CellLookup& l, const BuildRequest& r) override {
    return withinHostMemory([&] { return buildT(p, l, r); });
  }
  // A build buffer the host cannot give (the lists' or the counts') is a build that did not fit,
  // as on the GPU: the strategy tries its next layout, then the cell search, whose memory the
  // run was checked for. The next build that fits rewrites every buffer.
  template <typename Build>
  static BuildResult withinHostMemory(Build&& build) {
    try {
      return build();
    } catch (const std::bad_alloc&) {
      return BuildResult{};
    }
  }
  HostLists download() const override {
    if (layout_ == ListLayout::Bitmask) return decodeMasks(masks(), lanes_);
    if (layout_ == ListLayout::Clusters) return decodeClusters(clusters(), lanes_);
    return {entries_, regionEnd_, length_, n_, lanes_};
  }
  size_t deviceBytes() const override { return 0; }
  size_t peakDeviceBytes() const override { return 0; }

 private:
  friend class VerletBackendFor<VerletCpuBackend>;
  template <typename T>
  ListStats statsT(const ParticleView<T>& p, double support) const {
    if (layout_ == ListLayout::Bitmask)
      return maskListStats(masks(), p.pos, support, box_, lanes_);
    if (layout_ == ListLayout::Clusters) return clusterListStats(clusters(), p.pos, support, box_, lanes_);
    return listStats(download(), p.pos, support, box_);
  }
  template <typename T>
  double maxSpeedT(const ParticleView<T>& p) const {
    double m = 0;
#pragma omp parallel for num_threads(threads_) reduction(max : m) schedule(static)
    for (int64_t i = 0; i < int64_t(p.n); ++i) {
      const Real4<T> v = p.velrho[i];
      m = std::max(m, double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z);
    }
    return std::sqrt(m);
  }

  template <typename T>
  double maxDisplacement2T(const ParticleView<T>& p) const {
    if (ref_.size() < p.n) return std::numeric_limits<double>::infinity();
    double m = 0;
#pragma omp parallel for num_threads(threads_) reduction(max : m) schedule(static)
    for (int64_t i = 0; i < int64_t(p.n); ++i) {
      m = std::max(m, neighbours::displacement2(p.pos[i], ref_[i], p.code ? p.code[i] : 0u, box_));
    }
    return m;
  }

  // The entries of cluster `cluster` into `out` (ascending j-clusters, masks merged); returns the
  // members of its particles' lists (half lists with `once`).
  template <typename T>
  static uint64_t collectCluster(uint32_t cluster, const ParticleView<T>& p, const cell::CellLookup& l, T rc2,
                                 bool once, std::vector<std::pair<uint32_t, uint64_t>>& out) {
    out.clear();
    const Real4Source<T> pos{p.pos};
    const uint32_t first = cluster * kClusterSize, last = std::min(p.n, first + kClusterSize);
    for (uint32_t a = first; a < last; ++a)
      forEachListMember<true, 1>(
          a, 0, l, pos, p.nBound, rc2,
          [&](uint32_t j) {
            out.push_back({j / kClusterSize, memberBit(a, j)});
          },
          NoRowHook{}, once);
    const uint64_t members = out.size();
    std::sort(out.begin(), out.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    size_t kept = 0;
    for (size_t i = 0; i < out.size(); ++i) {
      if (kept > 0 && out[kept - 1].first == out[i].first)
        out[kept - 1].second |= out[i].second;
      else
        out[kept++] = out[i];
    }
    out.resize(kept);
    return members;
  }

  // The cluster layout's build: count each cluster's entries, scan, write them.
  template <typename T>
  BuildResult buildClustersT(const ParticleView<T>& p, const cell::CellLookup& l, const BuildRequest& r) {
    const uint32_t n = p.n, clusters = clusterCount(n);
    const T rc2 = T(r.listRadius) * T(r.listRadius);
    const bool once = r.pairsOnce;
    std::vector<uint64_t> begin(clusters), count(clusters);
    uint64_t members = 0;
#pragma omp parallel num_threads(threads_) reduction(+ : members)
    {
      std::vector<std::pair<uint32_t, uint64_t>> scratch;
#pragma omp for schedule(dynamic, 64)
      for (int64_t c = 0; c < int64_t(clusters); ++c) {
        members += collectCluster(uint32_t(c), p, l, rc2, once, scratch);
        count[c] = scratch.size();
      }
    }
    uint64_t total = 0;
    for (uint32_t c = 0; c < clusters; ++c) {
      begin[c] = total;
      total += count[c];
    }
    BuildResult res;
    res.entries = total;
    res.members = members;
    res.bytes = total * (sizeof(uint32_t) + sizeof(uint64_t)) + size_t(clusters) * sizeof(uint64_t);
    if (r.memoryCap > 0 && res.bytes > r.memoryCap) return res;
    try {
      clusterJ_.resize(total);
      clusterMask_.resize(total);
    } catch (const std::bad_alloc&) {
      return res;
    }
#pragma omp parallel num_threads(threads_)
    {
      std::vector<std::pair<uint32_t, uint64_t>> scratch;
#pragma omp for schedule(dynamic, 64)
      for (int64_t c = 0; c < int64_t(clusters); ++c) {
        collectCluster(uint32_t(c), p, l, rc2, once, scratch);
        uint64_t e = begin[c];
        for (const auto& [j, m] : scratch) {
          clusterJ_[e] = j;
          clusterMask_[e++] = m;
        }
      }
    }
    clusterBegin_ = std::move(begin);
    clusterCount_ = std::move(count);
    finishBuild(p, l, r);
    once_ = once;
    res.pairsOnce = once;
    res.built = true;
    return res;
  }

  template <typename T>
  void finishBuild(const ParticleView<T>& p, const cell::CellLookup& l, const BuildRequest& r) {
    layout_ = r.layout;
    once_ = false;
    lookup_ = l;
    nBound_ = p.nBound;
    n_ = p.n;
    lanes_ = r.lanes;
    box_ = l.image<double>();
    ref_.resize(p.n);
    for (uint32_t i = 0; i < p.n; ++i) ref_[i] = {double(p.pos[i].x), double(p.pos[i].y), double(p.pos[i].z), 0.0};
  }

  template <typename T>
  BuildResult buildT(const ParticleView<T>& p, const cell::CellLookup& l, const BuildRequest& r) {
    if (r.layout == ListLayout::Clusters) return buildClustersT(p, l, r);
    const uint32_t n = p.n, groups = warpCount(n);
    const T rc2 = T(r.listRadius) * T(r.listRadius);
    const Real4Source<T> pos{p.pos};
    std::vector<uint32_t> length(n);
    const bool useMasks = r.layout == ListLayout::Bitmask;
    // Half lists (each pair once) in the index layout, as on the GPU (bitmask lists hold
    // candidates, not members: always whole).
    const bool once = r.pairsOnce && r.layout == ListLayout::Indices;
    // 1. count (members; for a mask, the words its candidates take)
#pragma omp parallel for num_threads(threads_) schedule(dynamic, kChunk)
    for (int64_t a = 0; a < int64_t(n); ++a)
      length[a] = useMasks ? maskWords(candidateCount<true, T>(uint32_t(a), l, pos, p.nBound))
                           : countList(uint32_t(a), 0, l, pos, p.nBound, rc2, once);
    // 2. per-group maximum (the warp shuffle of the GPU), 3. inclusive scan
    std::vector<uint64_t> regionEnd(groups);
    uint64_t total = 0, members = 0;
    for (uint32_t g = 0; g < groups; ++g) {
      uint32_t longest = 0;
      for (uint32_t a = g * kWarp; a < std::min(n, (g + 1) * kWarp); ++a) {
        longest = std::max(longest, length[a]);
        members += length[a];
      }
      total += uint64_t(longest) * kWarp;
      regionEnd[g] = total;
    }
    BuildResult res;
    res.entries = total;
    res.members = members;  // a mask's are counted by the fill
    res.bytes = total * sizeof(uint32_t) + size_t(n) * sizeof(uint32_t) + size_t(groups) * sizeof(uint64_t);
    if (r.memoryCap > 0 && res.bytes > r.memoryCap) return res;
    try {
      if (entries_.size() != listCapacity(entries_.size(), total)) entries_.assign(listCapacity(0, total), kPadding);
    } catch (const std::bad_alloc&) {
      return res;
    }
    std::fill(entries_.begin(), entries_.begin() + total, kPadding);
    // 4. fill
    const uint64_t* ends = regionEnd.data();
    uint32_t* entries = entries_.data();
    if (useMasks) {
      uint64_t sum = 0;
#pragma omp parallel for num_threads(threads_) schedule(dynamic, kChunk) reduction(+ : sum)
      for (int64_t a = 0; a < int64_t(n); ++a) sum += fillMask<true>(uint32_t(a), l, pos, p.nBound, rc2, ends, entries);
      res.members = sum;
    } else {
#pragma omp parallel for num_threads(threads_) schedule(dynamic, kChunk)
      for (int64_t a = 0; a < int64_t(n); ++a) fillList(uint32_t(a), l, pos, p.nBound, rc2, ends, entries, once);
    }
    length_ = std::move(length);
    regionEnd_ = std::move(regionEnd);
    finishBuild(p, l, r);
    once_ = once;
    res.pairsOnce = once;
    res.built = true;
    return res;
  }

  template <typename T>
  void interactT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
    if (once_) {
      interactOnce(p, c, out);
      return;
    }
    neighbours::dispatchInteraction(c, out, p.tangent != nullptr, [&](auto v) {
      if (layout_ == ListLayout::Bitmask)
        withLanes<kMaskLanes2D, kMaskLanes3D>(lanes_, [&](auto lanes) { loopLanesOver<decltype(v), lanes()>(masks(), p, c, out); });
      else if (layout_ == ListLayout::Clusters)
        loopLanesOver<decltype(v), kClusterLanes>(clusters(), p, c, out);
      else
        withLanes<kLanes2D, kLanes3D>(lanes_, [&](auto lanes) {
          loopLanesOver<decltype(v), lanes()>(ListsView{entries_.data(), regionEnd_.data(), length_.data(), n_}, p, c, out);
        });
    });
  }
  // V: interaction_variant.h
  template <typename V, uint32_t P, typename Lists, typename T>
  void loopLanesOver(const Lists& lists, const ParticleView<T>& p, const PhysicsConstants<T>& c,
                     const ForceOutputs<T>& out) const {
#pragma omp parallel for num_threads(threads_) schedule(dynamic, kChunk)
    for (int64_t a = 0; a < int64_t(p.n); ++a) {
      if (out.part != ForcePart::All && !sumsIn(out.part, p.code[a])) continue;
      // The parts of the list as the GPU's lanes take them, added in the same order.
      writeForces(uint32_t(a), addParts<P>([&](uint32_t q) {
                    return partForces<V::K, V::Periodic, V::Coded, V::Shift, V::Sps, P>(
                        lists, uint32_t(a), q, p.pos, p.velrho, p.code, p.spsTau, p.tangent, p.nBound, c);
                  }),
                  out);
    }
  }

  // Over half lists: each pair once (neighbours/pair_once_cpu.h), a fluid particle's members in
  // list order (index lists) or rank order (cluster lists).
  template <typename T>
  void interactOnce(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
    if (!neighbours::pairOncePass(c, out, p.tangent != nullptr))
      throw RunError(
          "verlet neighbour search: half lists (pairs once) in a pass that needs every pair from both sides");
    auto& once = onceScratch_.of<T>();
    const ListsView lists{entries_.data(), regionEnd_.data(), length_.data(), n_};
    const ClusterLists clustered = clusters();
    const bool byCluster = layout_ == ListLayout::Clusters;
    // A plain pass: the kernel and the periodicity are all that vary (dispatchInOut's choice).
    neighbours::dispatchInOut(c, [&](auto k, auto periodic) {
      once.template run<decltype(k)::value, decltype(periodic)::value>(
          p, c, out, threads_, [&](uint32_t a, auto&& pair) {
            if (byCluster) {
              forEachClusterMember(clustered, a, 0, 1, pair);
              return;
            }
            const uint32_t len = lists.length[a];
            const uint32_t* e = lists.entries + regionStart(lists.regionEnd, a / kWarp) + (a % kWarp);
            for (uint32_t k2 = 0; k2 < len; ++k2) pair(e[uint64_t(k2) * kWarp]);
          });
    });
  }

  MaskLists<double> masks() const {
    return {{entries_.data(), regionEnd_.data(), length_.data(), n_}, lookup_, ref_.data(), nBound_};
  }
  ClusterLists clusters() const {
    return {clusterJ_.data(), clusterMask_.data(), clusterBegin_.data(), clusterCount_.data(), n_};
  }

  int threads_;
  double queued_ = 0;
  uint32_t n_ = 0, nBound_ = 0;
  uint32_t lanes_ = kLanes3D;
  ListLayout layout_ = ListLayout::Indices;
  bool once_ = false;  // the lists in hand are half lists
  neighbours::PairOnceCpuScratch onceScratch_;
  cell::CellLookup lookup_;  // the build's cell tables (a mask's rows), untouched until the next rebuild
  std::vector<uint32_t> entries_, length_;
  std::vector<uint64_t> regionEnd_;
  std::vector<uint32_t> clusterJ_;  // the cluster layout's entries (verlet_clusters.h)
  std::vector<uint64_t> clusterMask_, clusterBegin_, clusterCount_;
  std::vector<Real4<double>> ref_;
  PeriodicBox<double> box_;  // the periodic axes of the last build
};

}  // namespace

std::unique_ptr<VerletBackend> makeVerletCpuBackend(int threads) { return std::make_unique<VerletCpuBackend>(threads); }

}  // namespace sph::verlet
