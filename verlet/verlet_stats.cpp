#include "verlet_stats.h"

#include <algorithm>

#include "verlet_layout.h"

namespace sph::verlet {

template <typename T>
ListStats listStats(const HostLists& l, const Real4<T>* pos, double support, const PeriodicBox<double>& box) {
  ListStats s;
  const double s2 = support * support;
  uint64_t members = 0, inSupport = 0, laneIterations = 0, idle = 0;
  for (uint32_t g = 0; g < warpCount(l.n); ++g) {
    const uint32_t first = g * kWarp, last = std::min(l.n, first + kWarp);
    uint32_t longest = 0;
    for (uint32_t a = first; a < last; ++a) longest = std::max(longest, l.length[a]);
    s.longest = std::max(s.longest, longest);
    laneIterations += uint64_t(longest) * (last - first);
    for (uint32_t k = 0; k < longest; ++k) {
      uint32_t busy = 0;
      for (uint32_t a = first; a < last; ++a) {
        if (k >= l.length[a]) continue;
        const Real4<T>& p = pos[a];
        const Real4<T>& q = pos[l.entries[entrySlot(l.regionEnd.data(), a, k)]];
        double dx, dy, dz;
        pairDelta(Real4<double>{double(p.x), double(p.y), double(p.z), 0.0},
                  Real4<double>{double(q.x), double(q.y), double(q.z), 0.0}, box, dx, dy, dz);
        ++members;
        if (dx * dx + dy * dy + dz * dz < s2) ++busy;
      }
      inSupport += busy;
      if (busy > 0) idle += (last - first) - busy;
    }
  }
  s.meanLength = l.n ? double(members) / l.n : 0;
  s.idleRatio = laneIterations ? double(idle) / double(laneIterations) : 0;
  s.inSupportRatio = members ? double(inSupport) / double(members) : 0;
  return s;
}

template ListStats listStats(const HostLists&, const Real4<float>*, double, const PeriodicBox<double>&);
template ListStats listStats(const HostLists&, const Real4<double>*, double, const PeriodicBox<double>&);

}  // namespace sph::verlet
