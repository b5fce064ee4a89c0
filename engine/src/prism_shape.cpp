// <drawprism> rasterisation; the rule is stated in prism_shape.h.
#include "prism_shape.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sph::gen {
namespace {

// A node is on a face when both distances are below this (node units).
constexpr double kReach = 0.6;
// Squared distances within this of kReach^2 count as exactly kReach (left out). The vertices are
// integers, so the squared distances are ratios of integers; rounding noise is far below this.
constexpr double kTie = 1e-9;

Vec3d sub(const Vec3d& a, const Vec3d& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(const Vec3d& a, const Vec3d& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double component(const Vec3d& v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); }
void setComponent(Vec3d& v, int a, double x) { (a == 0 ? v.x : (a == 1 ? v.y : v.z)) = x; }

double segmentDistance2(const Vec3d& p, const Vec3d& a, const Vec3d& b) {
  const Vec3d ab = sub(b, a);
  const double len2 = dot(ab, ab);
  const double t = len2 == 0 ? 0.0 : std::clamp(dot(sub(p, a), ab) / len2, 0.0, 1.0);
  const Vec3d q{a.x + t * ab.x - p.x, a.y + t * ab.y - p.y, a.z + t * ab.z - p.z};
  return dot(q, q);
}

// Is p within reach of triangle (a, b, c) with normal n (|n|^2 = nn > 0)?
bool nearTriangle(const Vec3d& p, const Vec3d& a, const Vec3d& b, const Vec3d& c, const Vec3d& n, double nn) {
  const double limit = kReach * kReach - kTie;
  const double da = dot(sub(p, a), n);
  if (da * da / nn >= limit) return false;
  const Vec3d q{p.x - da * n.x / nn, p.y - da * n.y / nn, p.z - da * n.z / nn};  // projection
  const bool inside = dot(cross(sub(b, a), sub(q, a)), n) >= 0 && dot(cross(sub(c, b), sub(q, b)), n) >= 0 &&
                      dot(cross(sub(a, c), sub(q, c)), n) >= 0;
  if (inside) return true;
  return std::min({segmentDistance2(q, a, b), segmentDistance2(q, b, c), segmentDistance2(q, c, a)}) < limit;
}

}  // namespace

std::string PrismShape::build(const std::vector<Vec3d>& v, PrismShape& out) {
  if (v.size() < 6 || v.size() % 2 != 0)
    return fmt::format("needs 2n points (n >= 3: the bottom polygon, then the top one), got {}", v.size());
  const size_t n = v.size() / 2;
  out = PrismShape();
  for (int a = 0; a < 3; ++a) {
    double lo = component(v[0], a), hi = lo;
    for (const Vec3d& p : v) {
      lo = std::min(lo, component(p, a));
      hi = std::max(hi, component(p, a));
    }
    out.lo_[a] = int64_t(lo);
    out.hi_[a] = int64_t(hi);
  }
  const Vec3d* bottom = v.data();
  const Vec3d* top = v.data() + n;
  std::vector<Triangle> cap;
  for (size_t i = 1; i + 1 < n; ++i) cap.push_back({bottom[0], bottom[i], bottom[i + 1]});
  out.faces_.push_back(cap);
  cap.clear();
  for (size_t i = 1; i + 1 < n; ++i) cap.push_back({top[0], top[i], top[i + 1]});
  out.faces_.push_back(cap);
  for (size_t i = 0; i < n; ++i) {
    const size_t j = (i + 1) % n;
    out.faces_.push_back({{bottom[i], bottom[j], top[j]}, {bottom[i], top[j], top[i]}});
  }

  // The interior: inward planes of the caps (Newell normal of the bottom polygon) and the sides.
  Vec3d nb;
  Vec3d centre, bottomCentre;
  for (size_t i = 0; i < n; ++i) {
    const Vec3d& a = bottom[i];
    const Vec3d& b = bottom[(i + 1) % n];
    nb.x += (a.y - b.y) * (a.z + b.z);
    nb.y += (a.z - b.z) * (a.x + b.x);
    nb.z += (a.x - b.x) * (a.y + b.y);
    bottomCentre = {bottomCentre.x + a.x / double(n), bottomCentre.y + a.y / double(n), bottomCentre.z + a.z / double(n)};
  }
  for (const Vec3d& p : v)
    centre = {centre.x + p.x / double(v.size()), centre.y + p.y / double(v.size()), centre.z + p.z / double(v.size())};
  out.hasInterior_ = dot(nb, sub(centre, bottomCentre)) > 0;
  if (out.hasInterior_) {
    out.planes_.push_back({nb, bottom[0]});
    out.planes_.push_back({{-nb.x, -nb.y, -nb.z}, top[0]});
    for (size_t i = 0; i < n; ++i) {
      const size_t j = (i + 1) % n;
      Vec3d s = cross(sub(bottom[j], bottom[i]), sub(top[i], bottom[i]));
      if (s.x == 0 && s.y == 0 && s.z == 0) continue;
      if (dot(s, sub(centre, bottom[i])) < 0) s = {-s.x, -s.y, -s.z};
      out.planes_.push_back({s, bottom[i]});
    }
  }
  return "";
}

bool PrismShape::inInterior(int64_t i, int64_t j, int64_t k) const {
  const Vec3d c{double(i), double(j), double(k)};
  for (const Plane& p : planes_)
    if (!(dot(p.n, sub(c, p.p)) > 0)) return false;
  return hasInterior_;
}

void PrismShape::faceNodes(uint64_t faces, const std::array<int64_t, 3>& limLo, const std::array<int64_t, 3>& limHi,
                           std::vector<std::array<int64_t, 3>>& out) const {
  for (size_t f = 0; f < faces_.size(); ++f) {
    if (f < 64 && !((faces >> f) & 1)) continue;
    for (const Triangle& t : faces_[f]) {
      const Vec3d n = cross(sub(t.b, t.a), sub(t.c, t.a));
      const double nn = dot(n, n);
      if (nn == 0) continue;  // no area after snapping: GenCase draws nothing
      // The vertices are nodes, so no node outside their range is within reach.
      std::array<int64_t, 3> lo{}, hi{};
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::max(int64_t(std::min({component(t.a, a), component(t.b, a), component(t.c, a)})), limLo[a]);
        hi[a] = std::min(int64_t(std::max({component(t.a, a), component(t.b, a), component(t.c, a)})), limHi[a]);
        if (lo[a] > hi[a]) break;
      }
      if (lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]) continue;
      // Walk the plane along the two axes it is least steep to, the third within reach of it.
      int m = 0;
      for (int a = 1; a < 3; ++a)
        if (std::abs(component(n, a)) > std::abs(component(n, m))) m = a;
      const int u = m == 0 ? 1 : 0, w = m == 2 ? 1 : 2;
      const double nm = component(n, m), na = dot(n, t.a);
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
            if (nearTriangle(p, t.a, t.b, t.c, n, nn)) out.push_back({int64_t(p.x), int64_t(p.y), int64_t(p.z)});
          }
        }
      }
    }
  }
}

}  // namespace sph::gen
