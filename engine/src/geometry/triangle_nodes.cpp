// Triangle rasterisation; the rule is stated in geometry/triangle_nodes.h.
#include "geometry/triangle_nodes.h"

#include <algorithm>
#include <cmath>

namespace sph::gen {
namespace {

// A node is on the triangle when both distances are below this (node units).
constexpr double kReach = 0.6;
// In-plane squared distances within this of kReach^2 count as exactly kReach (left out). The
// vertices are integers, so the squared distances are ratios of integers; rounding noise is far
// below this.
constexpr double kTie = 1e-9;

double component(const Vec3d& v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); }
void setComponent(Vec3d& v, int a, double x) { (a == 0 ? v.x : (a == 1 ? v.y : v.z)) = x; }


double segmentDistance2(const Vec3d& p, const Vec3d& a, const Vec3d& b) {
  const Vec3d ab = sub(b, a);
  const double len2 = dot(ab, ab);
  const double t = len2 == 0 ? 0.0 : std::clamp(dot(sub(p, a), ab) / len2, 0.0, 1.0);
  const Vec3d q{a.x + t * ab.x - p.x, a.y + t * ab.y - p.y, a.z + t * ab.z - p.z};
  return dot(q, q);
}

// Is the projection of p (node units) on the plane of (a, b, c), normal n (|n|^2 = nn > 0),
// within reach of the triangle?
bool projectionNear(const Vec3d& p, const Vec3d& a, const Vec3d& b, const Vec3d& c, const Vec3d& n, double nn) {
  const double limit = kReach * kReach - kTie;
  const double da = dot(sub(p, a), n);
  const Vec3d q{p.x - da * n.x / nn, p.y - da * n.y / nn, p.z - da * n.z / nn};
  const bool inside = dot(cross(sub(b, a), sub(q, a)), n) >= 0 && dot(cross(sub(c, b), sub(q, b)), n) >= 0 &&
                      dot(cross(sub(a, c), sub(q, c)), n) >= 0;
  if (inside) return true;
  return std::min({segmentDistance2(q, a, b), segmentDistance2(q, b, c), segmentDistance2(q, c, a)}) < limit;
}

}  // namespace

Vec3d world(const LatticeFrame& f, const Vec3d& node) {
  return {f.origin.x + node.x * f.dp, f.origin.y + node.y * f.dp, f.origin.z + node.z * f.dp};
}

WorldPlane::WorldPlane(const Vec3d& p1, const Vec3d& p2, const Vec3d& p3) {
  const Vec3d v1 = sub(p2, p1), v2 = sub(p3, p1);
  a = v1.y * v2.z - v1.z * v2.y;
  b = v1.z * v2.x - v1.x * v2.z;
  c = v1.x * v2.y - v1.y * v2.x;
  d = -((a * p1.x) + (b * p1.y) + (c * p1.z));
  norm = std::sqrt(a * a + b * b + c * c);
}

void triangleNodes(const Vec3d& a, const Vec3d& b, const Vec3d& c, const LatticeFrame& frame,
                   const std::array<int64_t, 3>& limLo, const std::array<int64_t, 3>& limHi,
                   std::vector<std::array<int64_t, 3>>& out) {
  const Vec3d n = cross(sub(b, a), sub(c, a));
  const double nn = dot(n, n);
  if (nn == 0) return;  // no area after snapping: GenCase draws nothing
  // The vertices are nodes, so no node outside their range is within reach.
  std::array<int64_t, 3> lo{}, hi{};
  for (int d = 0; d < 3; ++d) {
    lo[d] = std::max(int64_t(std::min({component(a, d), component(b, d), component(c, d)})), limLo[d]);
    hi[d] = std::min(int64_t(std::max({component(a, d), component(b, d), component(c, d)})), limHi[d]);
    if (lo[d] > hi[d]) return;
  }
  const WorldPlane plane(world(frame, a), world(frame, b), world(frame, c));
  const double reach = kReach * frame.dp;
  // Walk the plane along the two axes it is least steep to, the third within reach of it.
  int m = 0;
  for (int d = 1; d < 3; ++d)
    if (std::abs(component(n, d)) > std::abs(component(n, m))) m = d;
  const int u = m == 0 ? 1 : 0, w = m == 2 ? 1 : 2;
  const double nm = component(n, m), na = dot(n, a);
  for (int64_t iu = lo[u]; iu <= hi[u]; ++iu) {
    for (int64_t iw = lo[w]; iw <= hi[w]; ++iw) {
      const double m0 = (na - component(n, u) * double(iu) - component(n, w) * double(iw)) / nm;
      const int64_t from = std::max(lo[m], int64_t(std::floor(m0 - 1.1)));
      const int64_t to = std::min(hi[m], int64_t(std::ceil(m0 + 1.1)));
      for (int64_t im = from; im <= to; ++im) {
        Vec3d p;
        setComponent(p, u, double(iu));
        setComponent(p, w, double(iw));
        setComponent(p, m, double(im));
        if (!(plane.distance(world(frame, p)) < reach)) continue;
        if (projectionNear(p, a, b, c, n, nn)) out.push_back({int64_t(p.x), int64_t(p.y), int64_t(p.z)});
      }
    }
  }
}

}  // namespace sph::gen
