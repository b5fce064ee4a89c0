// <execution><special><shifting>: DualSPHysics' particle shifting set in <special> instead of the
// parameters (JSphShifting::ReadXml), with the zones it is limited to (physics/shifting_zones.h).
#pragma once

#include <vector>

#include "model/vec3d.h"

namespace sph {

// A zone as the case gives it: the box from `origin` along the edges vx, vy, vz, after any
// <rotateaxis>.
struct ShiftZoneDef {
  Vec3d origin, vx, vy, vz;
  int line = 0;
};

struct CaseShifting {
  bool given = false;
  int line = 0;
  int mode = 0;  // as the Shifting parameter: 0 none, 1 no bound, 2 no fixed, 3 full
  double coef = -2, tfs = 0;
  std::vector<ShiftZoneDef> zones;
};

}  // namespace sph
