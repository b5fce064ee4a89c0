// Mesh vertex placement; the rule is stated in geometry/mesh_placement.h.
#include "geometry/mesh_placement.h"

#include <cmath>

namespace sph::gen {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Right-handed rotation by `deg` degrees about axis a (0 = x, 1 = y, 2 = z).
Vec3d rotate(const Vec3d& v, int a, double deg) {
  if (deg == 0) return v;
  const double r = deg * kPi / 180.0;
  const double c = std::cos(r), s = std::sin(r);
  if (a == 0) return {v.x, c * v.y - s * v.z, s * v.y + c * v.z};
  if (a == 1) return {c * v.x + s * v.z, v.y, -s * v.x + c * v.z};
  return {c * v.x - s * v.y, s * v.x + c * v.y, v.z};
}

}  // namespace

Vec3d MeshPlacement::apply(const Vec3f& f) const { return apply(Vec3d{double(f.x), double(f.y), double(f.z)}); }

Vec3d MeshPlacement::apply(const Vec3d& f) const {
  Vec3d v{f.x * scale.x, f.y * scale.y, f.z * scale.z};
  v = rotate(v, 1, rotateDegrees.y);
  v = rotate(v, 0, rotateDegrees.x);
  v = rotate(v, 2, rotateDegrees.z);
  return {v.x + move.x, v.y + move.y, v.z + move.z};
}

}  // namespace sph::gen
