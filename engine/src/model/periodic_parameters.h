// Periodic boundaries of a case: which axes wrap, read from DualSPHysics' XPeriodicIncY,
// XPeriodicIncZ, YPeriodicIncX, YPeriodicIncZ, ZPeriodicIncX and ZPeriodicIncY parameters (or
// XYPeriodic, XZPeriodic, YZPeriodic: two axes, no shift, replacing those), and
// what the engine derives from them (the box the physics wraps and images with, open exclusion
// limits). The strategies learn the axes through StrategyContext::periodic.
#pragma once

#include <limits>

#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "physics/integrator_physics.h"
#include "sph/plugin/periodic.h"

namespace sph {

// Sets p.periodic and, on each periodic axis, p.domainMin/Max to the particles' extent widened by
// dp/2 on both sides (DualSPHysics' rule: its map limits take a border of dp/2 instead of the
// usual one on a periodic axis, the <simulationdomain> spec is not applied there, and the image
// shift is the resulting map size; JPartsLoad4::CalculeLimits, JSph::ResizeMapLimits). The period
// is then the extent plus one dp, so a lattice continues across the boundary with spacing dp. Call after p.domainMin/Max, p.dp and p.support are set. Throws InputError naming
// the file, line and key for a nonzero shift, a periodic y in 2D, or a period too short.
void derivePeriodicAxes(const CaseDefinition& c, SimParameters& p);

inline double axisValue(const Vec3d& v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

template <typename T>
PeriodicBox<T> makePeriodicBox(const SimParameters& p) {
  PeriodicBox<T> b;
  for (int a = 0; a < 3; ++a) {
    if (!p.periodic[a]) continue;
    b.min[a] = T(axisValue(p.domainMin, a));
    b.length[a] = T(p.period(a));
  }
  return b;
}

// Particles are never excluded for their position along a periodic axis (they wrap instead).
template <typename T>
void openPeriodicLimits(ExclusionLimits<T>& l, const SimParameters& p) {
  T* lo[3] = {&l.minX, &l.minY, &l.minZ};
  T* hi[3] = {&l.maxX, &l.maxY, &l.maxZ};
  for (int a = 0; a < 3; ++a) {
    if (!p.periodic[a]) continue;
    *lo[a] = std::numeric_limits<T>::lowest();  // finite: NaN positions still fail the test
    *hi[a] = std::numeric_limits<T>::max();
  }
}

}  // namespace sph
