// DualSPHysics' shifting zones (<special><shifting><shiftingzone>, JSphShifting): with zones,
// only the fluid particles inside one of them are shifted (physics/shifting_physics.h). A zone is
// a box from its reference point along three edge vectors, the axes' (<size>) or any (<vecx>,
// <vecy>, <vecz>, possibly turned by <rotateaxis>); its limits count as inside.
//
// DualSPHysics compares y with the box's upper x limit in its axis-aligned test (a slip in its
// PointInMinMax); this engine compares y with the upper y limit.
#pragma once

#include <cstdint>

#include "sph/plugin/hd.h"
#include "sph/plugin/real4.h"

namespace sph {

struct ShiftZone {
  // Axis-aligned (box != 0): [lo, hi]. Otherwise the edge coordinates s = inv (p - origin) must
  // each lie in [0, 1]; in a 2D case whose zone has no y edge, y is left out (s[1] = 0).
  uint32_t box = 0;
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  double origin[3] = {0, 0, 0};
  double inv[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
};

SPH_HD SPH_FORCEINLINE bool insideShiftZone(const ShiftZone& z, const double p[3]) {
  if (z.box) {
    for (int a = 0; a < 3; ++a)
      if (!(p[a] >= z.lo[a] && p[a] <= z.hi[a])) return false;
    return true;
  }
  const double d[3] = {p[0] - z.origin[0], p[1] - z.origin[1], p[2] - z.origin[2]};
  for (int a = 0; a < 3; ++a) {
    const double s = z.inv[a][0] * d[0] + z.inv[a][1] * d[1] + z.inv[a][2] * d[2];
    if (!(s >= 0 && s <= 1)) return false;
  }
  return true;
}

SPH_HD SPH_FORCEINLINE bool insideAnyShiftZone(const ShiftZone* zones, uint32_t count, const double p[3]) {
  for (uint32_t k = 0; k < count; ++k)
    if (insideShiftZone(zones[k], p)) return true;
  return false;
}

// Clears the shifting sums of fluid particle i when it is outside every zone (its shift is then
// zero), after the force pass that summed them at those positions (DualSPHysics marks the
// particles outside before the pass, which comes to the same).
template <typename T>
SPH_HD SPH_FORCEINLINE void cancelShiftOutsideZones(uint32_t i, Real4<T>* shift, const Real4<T>* pos,
                                                    const ShiftZone* zones, uint32_t count) {
  const double p[3] = {double(pos[i].x), double(pos[i].y), double(pos[i].z)};
  if (!insideAnyShiftZone(zones, count, p)) shift[i] = Real4<T>{T(0), T(0), T(0), T(0)};
}

}  // namespace sph
