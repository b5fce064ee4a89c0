#include "verlet_stats.h"

#include <algorithm>
#include <vector>

#include "verlet_bitmask.h"
#include "verlet_clusters.h"
#include "verlet_layout.h"

namespace sph::verlet {

template <typename T>
ListStats listStats(const HostLists& l, const Real4<T>* pos, double support, const PeriodicBox<double>& box) {
  ListStats s;
  const double s2 = support * support;
  uint64_t members = 0, inSupport = 0, laneIterations = 0, idle = 0;
  // The interaction's warps: kWarp / P particles with P lanes each, lane `part` of particle a
  // taking entries k = part, part + P, ... (verlet_layout.h).
  const uint32_t P = l.lanes, perWarp = kWarp / P;
  for (uint32_t first = 0; first < l.n; first += perWarp) {
    const uint32_t last = std::min(l.n, first + perWarp);
    uint32_t longest = 0;
    for (uint32_t a = first; a < last; ++a) longest = std::max(longest, l.length[a]);
    s.longest = std::max(s.longest, longest);
    const uint32_t iterations = (longest + P - 1) / P, lanes = (last - first) * P;
    laneIterations += uint64_t(iterations) * lanes;
    for (uint32_t i = 0; i < iterations; ++i) {
      uint32_t busy = 0;
      for (uint32_t a = first; a < last; ++a)
        for (uint32_t k = i * P; k < std::min(l.length[a], (i + 1) * P); ++k) {
          const Real4<T>& p = pos[a];
          const Real4<T>& q = pos[l.entries[entrySlot(l.regionEnd.data(), a, k)]];
          double dx, dy, dz;
          pairDelta(Real4<double>{double(p.x), double(p.y), double(p.z), 0.0},
                    Real4<double>{double(q.x), double(q.y), double(q.z), 0.0}, box, dx, dy, dz);
          ++members;
          if (dx * dx + dy * dy + dz * dz < s2) ++busy;
        }
      inSupport += busy;
      if (busy > 0) idle += lanes - busy;
    }
  }
  s.meanLength = l.n ? double(members) / l.n : 0;
  s.idleRatio = laneIterations ? double(idle) / double(laneIterations) : 0;
  s.inSupportRatio = members ? double(inSupport) / double(members) : 0;
  return s;
}

namespace {

// The statistics of lists whose lane `part` of P takes its members one per iteration:
// each(a, part, fn) calls fn(j) for them in order (bitmask and cluster lists).
template <typename T, typename Each>
ListStats rankedListStats(uint32_t n, const Real4<T>* pos, double support, const PeriodicBox<double>& box, uint32_t P,
                          Each&& each) {
  ListStats s;
  const uint32_t perWarp = kWarp / P;
  const double s2 = support * support;
  uint64_t members = 0, inSupport = 0, laneIterations = 0, idle = 0;
  std::vector<bool> busy;  // per iteration of the warp: some lane has a pair within the support
  for (uint32_t first = 0; first < n; first += perWarp) {
    const uint32_t last = std::min(n, first + perWarp), lanes = (last - first) * P;
    uint32_t iterations = 0;
    uint64_t groupInSupport = 0;
    busy.assign(busy.size(), false);
    for (uint32_t a = first; a < last; ++a) {
      uint32_t length = 0;
      const Real4<double> p{double(pos[a].x), double(pos[a].y), double(pos[a].z), 0.0};
      for (uint32_t part = 0; part < P; ++part) {
        uint32_t i = 0;
        each(a, part, [&](uint32_t j) {
          const Real4<T>& q = pos[j];
          double dx, dy, dz;
          pairDelta(p, Real4<double>{double(q.x), double(q.y), double(q.z), 0.0}, box, dx, dy, dz);
          if (dx * dx + dy * dy + dz * dz < s2) {
            if (i >= busy.size()) busy.resize(i + 1, false);
            busy[i] = true;
            ++groupInSupport;
          }
          ++i;
        });
        length += i;
        iterations = std::max(iterations, i);
      }
      members += length;
      s.longest = std::max(s.longest, length);
    }
    laneIterations += uint64_t(iterations) * lanes;
    const uint64_t busyIterations = std::count(busy.begin(), busy.begin() + std::min<size_t>(iterations, busy.size()), true);
    idle += busyIterations * lanes - groupInSupport;  // the idle lanes of the busy iterations
    inSupport += groupInSupport;
  }
  s.meanLength = n ? double(members) / n : 0;
  s.idleRatio = laneIterations ? double(idle) / double(laneIterations) : 0;
  s.inSupportRatio = members ? double(inSupport) / double(members) : 0;
  return s;
}

}  // namespace

template <typename T>
ListStats maskListStats(const MaskLists<double>& m, const Real4<T>* pos, double support, const PeriodicBox<double>& box,
                        uint32_t P) {
  return rankedListStats(m.words.n, pos, support, box, P, [&](uint32_t a, uint32_t part, auto&& fn) {
    forEachMaskMember<true>(a, part, P, m.words, m.cells, m.built[a], m.nBound, fn);
  });
}

template <typename T>
ListStats clusterListStats(const ClusterLists& l, const Real4<T>* pos, double support, const PeriodicBox<double>& box,
                           uint32_t P) {
  return rankedListStats(l.n, pos, support, box, P,
                         [&](uint32_t a, uint32_t part, auto&& fn) { forEachClusterMember(l, a, part, P, fn); });
}

template ListStats clusterListStats(const ClusterLists&, const Real4<float>*, double, const PeriodicBox<double>&,
                                    uint32_t);
template ListStats clusterListStats(const ClusterLists&, const Real4<double>*, double, const PeriodicBox<double>&,
                                    uint32_t);
template ListStats listStats(const HostLists&, const Real4<float>*, double, const PeriodicBox<double>&);
template ListStats maskListStats(const MaskLists<double>&, const Real4<float>*, double, const PeriodicBox<double>&,
                                 uint32_t);
template ListStats maskListStats(const MaskLists<double>&, const Real4<double>*, double, const PeriodicBox<double>&,
                                 uint32_t);
template ListStats listStats(const HostLists&, const Real4<double>*, double, const PeriodicBox<double>&);

}  // namespace sph::verlet
