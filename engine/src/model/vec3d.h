// A point or vector of the case description, in double precision (SI units).
#pragma once

namespace sph {

struct Vec3d {
  double x = 0, y = 0, z = 0;
};

// The single-precision vector of GenCase's particle files (initial velocities).
struct Vec3f {
  float x = 0, y = 0, z = 0;
};

}  // namespace sph
