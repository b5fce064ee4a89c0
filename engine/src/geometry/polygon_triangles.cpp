#include "geometry/polygon_triangles.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sph::gen {
namespace {

struct P2 {
  double u, v;
};

double cross(const P2& o, const P2& a, const P2& b) { return (a.u - o.u) * (b.v - o.v) - (a.v - o.v) * (b.u - o.u); }

// Whether p lies inside or on triangle (a, b, c), counter-clockwise.
bool inTriangle(const P2& p, const P2& a, const P2& b, const P2& c) {
  return cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0;
}

// Whether segments ab and cd cross at a point inside both (touching ends do not count).
bool properCross(const P2& a, const P2& b, const P2& c, const P2& d) {
  const double d1 = cross(a, b, c), d2 = cross(a, b, d), d3 = cross(c, d, a), d4 = cross(c, d, b);
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

}  // namespace

std::vector<std::array<size_t, 3>> polygonTriangles(const std::vector<Vec3d>& p) {
  const size_t n = p.size();
  if (n < 3) throw PolygonError(fmt::format("a polygon needs at least 3 points, got {}", n));
  // Newell's normal: its length is twice the area.
  double nx = 0, ny = 0, nz = 0, extent = 0;
  for (size_t i = 0; i < n; ++i) {
    const Vec3d& a = p[i];
    const Vec3d& b = p[(i + 1) % n];
    nx += (a.y - b.y) * (a.z + b.z);
    ny += (a.z - b.z) * (a.x + b.x);
    nz += (a.x - b.x) * (a.y + b.y);
    extent = std::max({extent, std::fabs(b.x - p[0].x), std::fabs(b.y - p[0].y), std::fabs(b.z - p[0].z)});
  }
  const double length = std::sqrt(nx * nx + ny * ny + nz * nz);
  if (!(length > 1e-12 * extent * extent)) throw PolygonError("the polygon has no area (its points are on a line)");
  nx /= length;
  ny /= length;
  nz /= length;
  for (size_t i = 1; i < n; ++i) {
    const double off = (p[i].x - p[0].x) * nx + (p[i].y - p[0].y) * ny + (p[i].z - p[0].z) * nz;
    if (std::fabs(off) > 1e-9 * extent)
      throw PolygonError(fmt::format("point {} is {:g} m off the plane of the others: only planar polygons are drawn "
                                     "(GenCase cuts others by a rule not reproduced here)",
                                     i + 1, off));
  }
  // The plane seen along its normal's largest component, counter-clockwise.
  const int drop = std::fabs(nx) >= std::fabs(ny) && std::fabs(nx) >= std::fabs(nz) ? 0 : std::fabs(ny) >= std::fabs(nz) ? 1 : 2;
  const double sign = (drop == 0 ? nx : drop == 1 ? ny : nz) > 0 ? 1.0 : -1.0;
  std::vector<P2> q(n);
  for (size_t i = 0; i < n; ++i) {
    const Vec3d& v = p[i];
    q[i] = drop == 0 ? P2{v.y, v.z} : drop == 1 ? P2{v.z, v.x} : P2{v.x, v.y};
    q[i].v *= sign;
  }
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 2; j < n; ++j) {
      if (i == 0 && j == n - 1) continue;  // neighbours through the closing edge
      if (properCross(q[i], q[i + 1], q[j], q[(j + 1) % n]))
        throw PolygonError(fmt::format("the polygon's edges {} and {} cross", i + 1, j + 1));
    }
  std::vector<size_t> left(n);
  for (size_t i = 0; i < n; ++i) left[i] = i;
  std::vector<std::array<size_t, 3>> out;
  while (left.size() > 3) {
    const size_t m = left.size();
    bool cut = false;
    for (size_t k = 0; k < m && !cut; ++k) {
      const size_t a = left[(k + m - 1) % m], b = left[k], c = left[(k + 1) % m];
      if (cross(q[a], q[b], q[c]) <= 0) continue;  // a reflex (or flat) corner is no ear
      bool empty = true;
      for (size_t o : left)
        if (o != a && o != b && o != c && inTriangle(q[o], q[a], q[b], q[c])) {
          empty = false;
          break;
        }
      if (!empty) continue;
      out.push_back({a, b, c});
      left.erase(left.begin() + std::ptrdiff_t(k));
      cut = true;
    }
    if (!cut) throw PolygonError("the polygon cannot be cut into triangles (do its edges cross or overlap?)");
  }
  out.push_back({left[0], left[1], left[2]});
  return out;
}

}  // namespace sph::gen
