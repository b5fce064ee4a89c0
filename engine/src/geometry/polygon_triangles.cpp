#include "geometry/polygon_triangles.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sph::gen {
namespace {

// The corner angle at v between its neighbours p and q (radians; 0 when an edge has no length).
double cornerAngle(const Vec3d& p, const Vec3d& v, const Vec3d& q) {
  const Vec3d a = sub(p, v), b = sub(q, v);
  const double len = std::sqrt(dot(a, a) * dot(b, b));
  return len == 0 ? 0.0 : std::acos(std::clamp(dot(a, b) / len, -1.0, 1.0));
}

// Is point x inside or on triangle (a, b, c), whose normal is n?
bool inTriangle(const Vec3d& x, const Vec3d& a, const Vec3d& b, const Vec3d& c, const Vec3d& n) {
  return dot(cross(sub(b, a), sub(x, a)), n) >= 0 && dot(cross(sub(c, b), sub(x, b)), n) >= 0 &&
         dot(cross(sub(a, c), sub(x, c)), n) >= 0;
}

// Whether segments ab and cd, in the plane of normal n, cross at a point inside both (touching
// ends do not count).
bool properCross(const Vec3d& a, const Vec3d& b, const Vec3d& c, const Vec3d& d, const Vec3d& n) {
  const double d1 = dot(cross(sub(b, a), sub(c, a)), n), d2 = dot(cross(sub(b, a), sub(d, a)), n);
  const double d3 = dot(cross(sub(d, c), sub(a, c)), n), d4 = dot(cross(sub(d, c), sub(b, c)), n);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

}  // namespace

std::vector<std::array<size_t, 3>> clipEars(const Vec3d* poly, size_t n, const Vec3d& normal) {
  std::vector<size_t> left(n);
  for (size_t i = 0; i < n; ++i) left[i] = i;
  std::vector<std::array<size_t, 3>> out;
  while (left.size() > 3) {
    const size_t m = left.size();
    size_t best = m;
    double bestAngle = 0;
    for (size_t t = 0; t < m; ++t) {
      const size_t p = left[(t + m - 1) % m], v = left[t], q = left[(t + 1) % m];
      // An ear is a convex corner whose triangle holds no other vertex (concave bottoms).
      if (dot(cross(sub(poly[v], poly[p]), sub(poly[q], poly[v])), normal) < 0) continue;
      bool empty = true;
      for (size_t u : left)
        if (u != p && u != v && u != q && inTriangle(poly[u], poly[p], poly[v], poly[q], normal)) empty = false;
      if (!empty) continue;
      const double a = cornerAngle(poly[p], poly[v], poly[q]);
      if (best == m || a < bestAngle) {
        best = t;
        bestAngle = a;
      }
    }
    if (best == m) best = 0;  // no ear (a self-crossing bottom): clip in order
    out.push_back({left[(best + m - 1) % m], left[best], left[(best + 1) % m]});
    left.erase(left.begin() + std::ptrdiff_t(best));
  }
  out.push_back({left[0], left[1], left[2]});
  return out;
}

std::vector<std::array<size_t, 3>> polygonTriangles(const std::vector<Vec3d>& p) {
  const size_t n = p.size();
  if (n < 3) throw PolygonError(fmt::format("a polygon needs at least 3 points, got {}", n));
  // Newell's normal: its length is twice the area, its direction the winding's.
  Vec3d normal{0, 0, 0};
  double extent = 0;
  for (size_t i = 0; i < n; ++i) {
    const Vec3d& a = p[i];
    const Vec3d& b = p[(i + 1) % n];
    normal.x += (a.y - b.y) * (a.z + b.z);
    normal.y += (a.z - b.z) * (a.x + b.x);
    normal.z += (a.x - b.x) * (a.y + b.y);
    extent = std::max({extent, std::fabs(b.x - p[0].x), std::fabs(b.y - p[0].y), std::fabs(b.z - p[0].z)});
  }
  const double length = std::sqrt(dot(normal, normal));
  if (!(length > 1e-12 * extent * extent)) throw PolygonError("the polygon has no area (its points are on a line)");
  normal = {normal.x / length, normal.y / length, normal.z / length};
  for (size_t i = 1; i < n; ++i) {
    const double off = dot(sub(p[i], p[0]), normal);
    if (std::fabs(off) > 1e-9 * extent)
      throw PolygonError(
          fmt::format("point {} is {:g} m off the plane of the others: only planar polygons are drawn "
                      "(GenCase cuts others by a rule not reproduced here)",
                      i + 1, off));
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // neighbours through the closing edge
      if (properCross(p[i], p[i + 1], p[j], p[(j + 1) % n], normal))
        throw PolygonError(fmt::format("the polygon's edges {} and {} cross", i + 1, j + 1));
    }
  return clipEars(p.data(), n, normal);
}

}  // namespace sph::gen
