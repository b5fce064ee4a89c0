#include "geometry/shape_normals.h"

#include <cmath>
#include <limits>

namespace sph {
namespace {

// a / |a|, or zero for a zero vector (a point on a sphere's centre or a cylinder's axis, which
// has no nearest surface direction).
Vec3d unit(const Vec3d& a) {
  const double n = norm(a);
  return n > 0 ? scale(a, 1.0 / n) : Vec3d{};
}

bool sameVector(const Vec3d& a, const Vec3d& b, double tolerance) {
  return std::abs(a.x - b.x) < tolerance && std::abs(a.y - b.y) < tolerance && std::abs(a.z - b.z) < tolerance;
}

}  // namespace

std::optional<Vec3d> planeNormal(const Vec3d& p, const Vec3d& point, const Vec3d& unitNormal, double maxDist) {
  const double signedDistance = dot(sub(p, point), unitNormal);
  if (!(std::abs(signedDistance) < maxDist)) return std::nullopt;
  return scale(unitNormal, -signedDistance);
}

bool isAxisNormal(const Vec3d& n) {
  // GenCase's tolerance for recognising a normal along an axis.
  constexpr double kTolerance = 1e-7;
  for (const Vec3d axis : {Vec3d{1, 0, 0}, Vec3d{0, 1, 0}, Vec3d{0, 0, 1}})
    if (sameVector(n, axis, kTolerance) || sameVector(n, scale(axis, -1), kTolerance)) return true;
  return false;
}

Vec3d autoPlanePoint(const Vec3d& lo, const Vec3d& hi, const Vec3d& n, double farthest, double offset) {
  const Vec3d centre = scale(add(lo, hi), 0.5);
  if (!isAxisNormal(n)) return add(centre, scale(n, farthest + offset));
  Vec3d point = centre;
  // The face of the box on the fluid side, then `offset` beyond it.
  if (n.x > 0.5) point.x = hi.x + offset;
  if (n.x < -0.5) point.x = lo.x - offset;
  if (n.y > 0.5) point.y = hi.y + offset;
  if (n.y < -0.5) point.y = lo.y - offset;
  if (n.z > 0.5) point.z = hi.z + offset;
  if (n.z < -0.5) point.z = lo.z - offset;
  return point;
}

std::optional<Vec3d> sphereNormal(const Vec3d& p, const Vec3d& centre, double radius, bool inside, double maxDist) {
  const Vec3d radial = sub(p, centre);
  // Positive inside the sphere, negative outside.
  const double toSurface = radius - norm(radial);
  const bool reached = inside ? (toSurface > 0 && toSurface <= maxDist) : (toSurface < 0 && -toSurface <= maxDist);
  if (!reached) return std::nullopt;
  return sub(add(centre, scale(unit(radial), radius)), p);
}

std::optional<Vec3d> cylinderNormal(const Vec3d& p, const Vec3d& c1, const Vec3d& c2, double radius, bool inside,
                                    bool limit1, bool limit2, double maxDist, double tolerance) {
  const Vec3d towards2 = unit(sub(c2, c1));  // from end 1 into the cylinder
  const Vec3d towards1 = scale(towards2, -1);
  // The point of the axis (as an infinite line) nearest p, and p's distances, positive inside:
  // to the side wall and to the planes of the two end faces.
  const Vec3d onAxis = add(c1, scale(towards2, dot(sub(p, c1), towards2)));
  const Vec3d radial = unit(sub(p, onAxis));
  const double toSide = radius - norm(sub(p, onAxis));
  const double toEnd1 = dot(sub(p, c1), towards2);
  const double toEnd2 = dot(sub(p, c2), towards1);
  const Vec3d sidePoint = add(onAxis, scale(radial, radius));
  Vec3d target;
  if (inside) {
    if (!(toSide > 0 && toEnd1 > 0 && toEnd2 > 0)) return std::nullopt;
    // An end face that is not a wall (an open pipe) is never the nearest surface.
    constexpr double kFar = std::numeric_limits<double>::infinity();
    const double wall1 = limit1 ? toEnd1 : kFar, wall2 = limit2 ? toEnd2 : kFar;
    if (!(toSide <= maxDist || wall1 <= maxDist || wall2 <= maxDist)) return std::nullopt;
    const bool nearEnd1 = wall1 <= wall2;
    const double toEnd = nearEnd1 ? wall1 : wall2;
    const Vec3d outOfEnd = nearEnd1 ? towards1 : towards2;
    if (std::abs(toSide - toEnd) < tolerance) target = add(sidePoint, scale(outOfEnd, toEnd));  // the rim
    else if (toSide < toEnd) target = sidePoint;
    else target = add(p, scale(outOfEnd, toEnd));
  } else {
    const bool reached = (toSide < 0 && -toSide <= maxDist) || (toEnd1 < 0 && -toEnd1 <= maxDist) ||
                         (toEnd2 < 0 && -toEnd2 <= maxDist);
    if (!reached) return std::nullopt;
    // Beyond an end plane the negative distance moves the point back onto that plane.
    if (toSide < 0) {
      if (toEnd1 < 0) target = add(sidePoint, scale(towards1, toEnd1));
      else if (toEnd2 < 0) target = add(sidePoint, scale(towards2, toEnd2));
      else target = sidePoint;
    } else if (toEnd1 < 0) {
      target = add(p, scale(towards1, toEnd1));
    } else {
      target = add(p, scale(towards2, toEnd2));
    }
  }
  return sub(target, p);
}

}  // namespace sph
