// The particles an initial operation of a case applies to (GenCase's <initials> and <normals>,
// DualSPHysics' <initialize>): those of some mks of one kind (mkbound or mkfluid, a list such as
// "0,2-4"; every one of that kind without the attribute) whose position is inside <onlypos>.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "model/vec3d.h"

namespace sph {

// <onlypos><posmin x y z/><posmax x y z/></onlypos>: an axis left out is unbounded; the limits are
// inclusive (DualSPHysics' JDsInitializeOp). Read by case/particle_selection.h.
struct PositionBox {
  Vec3d lo{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, hi{HUGE_VAL, HUGE_VAL, HUGE_VAL};
  bool contains(const Vec3d& p) const {
    return p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z;
  }
};

struct ParticleSelection {
  bool bound = false;
  std::vector<int> mks;  // local mk numbers (mkbound or mkfluid); empty: all of the kind
  PositionBox box;
  // Whether the particles of the mk numbered `local` of that kind are selected.
  bool hasMk(bool isBound, int local) const {
    if (isBound != bound) return false;
    for (int mk : mks)
      if (mk == local) return true;
    return mks.empty();
  }
};

}  // namespace sph
