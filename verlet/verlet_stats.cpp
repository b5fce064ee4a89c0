#include "verlet_stats.h"

#include <algorithm>

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

template ListStats listStats(const HostLists&, const Real4<float>*, double, const PeriodicBox<double>&);
template ListStats listStats(const HostLists&, const Real4<double>*, double, const PeriodicBox<double>&);

}  // namespace sph::verlet
