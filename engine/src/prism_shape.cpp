// Prism geometry for <drawprism>; the node rule is stated in prism_shape.h.
#include "prism_shape.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sph::gen {
namespace {

Vec3d sub(const Vec3d& a, const Vec3d& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3d add(const Vec3d& a, const Vec3d& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
Vec3d scale(const Vec3d& a, double s) { return {a.x * s, a.y * s, a.z * s}; }
double dot(const Vec3d& a, const Vec3d& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double norm(const Vec3d& a) { return std::sqrt(dot(a, a)); }

// Coordinates are given to a few decimals; anything within this fraction of the shape's size
// counts as exact (planarity, the translation between the caps, collinear edges).
constexpr double kGeomTolerance = 1e-9;
// As in case_generator.cpp: a node this many spacings from a layer limit counts as on it.
constexpr double kSnapTolerance = 1e-6;
constexpr int kMaxVertices = 62;  // faces fit in a 64-bit mask

}  // namespace

std::string PrismShape::build(const std::vector<Vec3d>& points, double dp, PrismShape& out) {
  if (points.size() % 2 != 0 || points.size() < 6) {
    return fmt::format("a prism needs 2n points (n >= 3 bottom vertices, then the n top ones); "
                       "got {}", points.size());
  }
  const size_t n = points.size() / 2;
  if (n > size_t(kMaxVertices)) return fmt::format("at most {} vertices per cap", kMaxVertices);
  out = PrismShape();
  out.lo_ = out.hi_ = points[0];
  for (const Vec3d& p : points) {
    out.lo_ = {std::min(out.lo_.x, p.x), std::min(out.lo_.y, p.y), std::min(out.lo_.z, p.z)};
    out.hi_ = {std::max(out.hi_.x, p.x), std::max(out.hi_.y, p.y), std::max(out.hi_.z, p.z)};
  }
  const double size = norm(sub(out.hi_, out.lo_));
  const double tol = kGeomTolerance * size;

  // Newell's normal of the bottom polygon (robust for any vertex order).
  Vec3d normal;
  for (size_t i = 0; i < n; ++i) normal = add(normal, cross(points[i], points[(i + 1) % n]));
  const double area2 = norm(normal);
  if (!(area2 > tol * size)) return "the bottom polygon has no area";
  normal = scale(normal, 1 / area2);
  const Vec3d sweep = sub(points[n], points[0]);
  for (size_t i = 0; i < n; ++i) {
    if (std::fabs(dot(normal, sub(points[i], points[0]))) > tol) {
      return fmt::format("bottom point {} is not in the plane of the others", i + 1);
    }
    if (norm(sub(sub(points[n + i], points[i]), sweep)) > tol) {
      return fmt::format("top point {} is not bottom point {} moved like the first one "
                         "(the top polygon must be a translated copy of the bottom one)",
                         n + i + 1, i + 1);
    }
  }
  double height = dot(normal, sweep);
  if (std::fabs(height) <= tol) return "the top polygon lies in the plane of the bottom one";
  if (height < 0) {
    normal = scale(normal, -1);
    height = -height;
  }
  // The polygon winds counter-clockwise seen from `normal` when its Newell normal agrees with it.
  Vec3d newell;
  for (size_t i = 0; i < n; ++i) newell = add(newell, cross(points[i], points[(i + 1) % n]));
  const double winding = dot(newell, normal) > 0 ? 1 : -1;

  auto plane = [&](Vec3d nrm, const Vec3d& through) {
    nrm = scale(nrm, 1 / norm(nrm));
    const double t = 0.5 * dp * std::max({std::fabs(nrm.x), std::fabs(nrm.y), std::fabs(nrm.z)});
    return Plane{nrm, dot(nrm, through), t};
  };
  out.eps_ = kSnapTolerance * dp;
  out.faces_.push_back(plane(scale(normal, -1), points[0]));  // 1: bottom
  out.faces_.push_back(plane(normal, points[n]));             // 2: top
  for (size_t i = 0; i < n; ++i) {
    const Vec3d edge = sub(points[(i + 1) % n], points[i]);
    if (norm(edge) <= tol) return fmt::format("bottom points {} and {} coincide", i + 1, (i + 1) % n + 1);
    // Outward for a counter-clockwise polygon: edge x normal; the side contains the sweep.
    Vec3d side = cross(edge, sweep);
    if (dot(side, cross(edge, normal)) * winding < 0) side = scale(side, -1);
    out.faces_.push_back(plane(side, points[i]));
  }
  // Convex: every vertex lies inside (or on) every side plane.
  for (size_t f = 2; f < out.faces_.size(); ++f) {
    for (size_t i = 0; i < n; ++i) {
      if (dot(out.faces_[f].n, points[i]) - out.faces_[f].c > tol) {
        return "the bottom polygon is not convex (only convex prisms are supported; split the "
               "shape into convex prisms)";
      }
    }
  }
  return {};
}

double PrismShape::distance(int f, const Vec3d& x) const {
  return dot(faces_[size_t(f)].n, x) - faces_[size_t(f)].c;
}

bool PrismShape::inSolid(const Vec3d& x) const {
  for (int f = 0; f < faceCount(); ++f) {
    if (!(distance(f, x) < faces_[size_t(f)].half - eps_)) return false;
  }
  return true;
}

bool PrismShape::onFaces(const Vec3d& x, uint64_t faces) const {
  if (!inSolid(x)) return false;
  for (int f = 0; f < faceCount(); ++f) {
    // Inside the solid the layer's outer limit d < t holds already; -t <= d remains.
    if (((faces >> f) & 1u) && distance(f, x) >= -faces_[size_t(f)].half - eps_) return true;
  }
  return false;
}

}  // namespace sph::gen
