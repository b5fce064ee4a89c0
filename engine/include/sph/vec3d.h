// A point or vector of the case description, in double precision (SI units).
#pragma once

namespace sph {

struct Vec3d {
  double x = 0, y = 0, z = 0;
};

}  // namespace sph
