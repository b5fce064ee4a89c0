// <drawprism> rasterisation; the rule is stated in prism_shape.h.
#include "prism_shape.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sph::gen {
namespace {

Vec3d sub(const Vec3d& a, const Vec3d& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(const Vec3d& a, const Vec3d& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double component(const Vec3d& v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); }

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

void PrismShape::faceNodes(uint64_t faces, const LatticeFrame& frame, const std::array<int64_t, 3>& limLo,
                           const std::array<int64_t, 3>& limHi, std::vector<std::array<int64_t, 3>>& out) const {
  for (size_t f = 0; f < faces_.size(); ++f) {
    if (f < 64 && !((faces >> f) & 1)) continue;
    for (const Triangle& t : faces_[f]) triangleNodes(t.a, t.b, t.c, frame, limLo, limHi, out);
  }
}

}  // namespace sph::gen
