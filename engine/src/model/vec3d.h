// A point or vector of the case description, in double precision (SI units), and the vector
// arithmetic the geometry code shares.
#pragma once

#include <cmath>

namespace sph {

struct Vec3d {
  double x = 0, y = 0, z = 0;
};

inline Vec3d add(const Vec3d& a, const Vec3d& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3d sub(const Vec3d& a, const Vec3d& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3d scale(const Vec3d& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
inline double dot(const Vec3d& a, const Vec3d& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double norm(const Vec3d& a) { return std::sqrt(dot(a, a)); }

// The single-precision vector of GenCase's particle files (initial velocities).
struct Vec3f {
  float x = 0, y = 0, z = 0;
};

}  // namespace sph
