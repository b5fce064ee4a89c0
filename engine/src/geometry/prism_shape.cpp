// <drawprism> rasterisation; the rule is stated in geometry/prism_shape.h.
#include "geometry/prism_shape.h"

#include "geometry/polygon_triangles.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace sph::gen {
namespace {

// A node is on a cut when its distance to the cut's plane is below this (in dp).
constexpr double kCutReach = 0.6;

double component(const Vec3d& v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); }

}  // namespace

std::string PrismShape::build(const std::vector<Vec3d>& v, const LatticeFrame& frame, PrismShape& out) {
  if (v.size() < 6 || v.size() % 2 != 0)
    return fmt::format("needs 2n points (n >= 3: the bottom polygon, then the top one), got {}", v.size());
  const size_t n = v.size() / 2;
  out = PrismShape();
  out.frame_ = frame;
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

  // The winding: the bottom's Newell normal against the way to the top.
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
  if (!out.hasInterior_) return "";

  // The pieces, in metres. A side's inner sign is taken at the piece's centre, well away from
  // every side of a piece with area.
  const auto at = [&](const Vec3d& node) { return world(frame, node); };
  const auto side = [](const WorldPlane& plane, const Vec3d& inner) {
    return Side{plane, plane.value(inner) > 0 ? 1.0 : -1.0};
  };
  const auto nodeBox = [](std::initializer_list<Vec3d> pts, std::array<int64_t, 3>& lo, std::array<int64_t, 3>& hi) {
    for (int a = 0; a < 3; ++a) {
      double l = component(*pts.begin(), a), h = l;
      for (const Vec3d& p : pts) {
        l = std::min(l, component(p, a));
        h = std::max(h, component(p, a));
      }
      lo[a] = int64_t(l);
      hi[a] = int64_t(h);
    }
  };
  const std::vector<std::array<size_t, 3>> ears = clipEars(bottom, n, nb);
  for (size_t e = 0; e < ears.size(); ++e) {
    const auto [p, c, q] = ears[e];
    if (dot(cross(sub(bottom[c], bottom[p]), sub(bottom[q], bottom[p])), nb) <= 0) continue;  // no area
    Vec3d mid;
    for (size_t s : {p, c, q})
      for (const Vec3d& x : {at(bottom[s]), at(top[s])})
        mid = {mid.x + x.x / 6, mid.y + x.y / 6, mid.z + x.z / 6};
    Piece piece;
    piece.sides.push_back(side(WorldPlane(at(bottom[p]), at(bottom[c]), at(bottom[q])), mid));
    piece.sides.push_back(side(WorldPlane(at(top[p]), at(top[c]), at(top[q])), mid));
    const std::array<size_t, 3> corner{p, c, q};
    for (int s = 0; s < 3; ++s) {
      const size_t i = corner[size_t(s)], j = corner[size_t((s + 1) % 3)];
      piece.sides.push_back(side(WorldPlane(at(bottom[j]), at(top[j]), at(top[i])), mid));
    }
    nodeBox({bottom[p], bottom[c], bottom[q], top[p], top[c], top[q]}, piece.lo, piece.hi);
    // Every ear but the last leaves a cut from its previous vertex to its next one.
    if (e + 1 < ears.size()) {
      const WorldPlane plane(at(bottom[p]), at(bottom[q]), at(top[q]));
      if (plane.norm > 0) {
        Cut cut{plane, {piece.sides[0], piece.sides[1]}, {}, {}};
        nodeBox({bottom[p], bottom[q], top[p], top[q]}, cut.lo, cut.hi);
        out.cuts_.push_back(cut);
      }
    }
    out.pieces_.push_back(std::move(piece));
  }
  return "";
}

bool PrismShape::inInterior(int64_t i, int64_t j, int64_t k) const {
  if (!hasInterior_) return false;
  const std::array<int64_t, 3> node{i, j, k};
  const auto within = [&](const std::array<int64_t, 3>& lo, const std::array<int64_t, 3>& hi) {
    for (int a = 0; a < 3; ++a)
      if (node[size_t(a)] < lo[size_t(a)] || node[size_t(a)] > hi[size_t(a)]) return false;
    return true;
  };
  const Vec3d p = world(frame_, {double(i), double(j), double(k)});
  for (const Piece& piece : pieces_) {
    if (!within(piece.lo, piece.hi)) continue;
    if (std::all_of(piece.sides.begin(), piece.sides.end(), [&](const Side& s) { return s.inside(p); })) return true;
  }
  const double reach = kCutReach * frame_.dp;
  for (const Cut& cut : cuts_) {
    if (!within(cut.lo, cut.hi) || !cut.caps[0].inside(p) || !cut.caps[1].inside(p)) continue;
    if (cut.plane.distance(p) < reach) return true;
  }
  return false;
}

void PrismShape::faceNodes(uint64_t faces, const LatticeFrame& frame, const std::array<int64_t, 3>& limLo,
                           const std::array<int64_t, 3>& limHi, std::vector<std::array<int64_t, 3>>& out) const {
  for (size_t f = 0; f < faces_.size(); ++f) {
    if (f < 64 && !((faces >> f) & 1)) continue;
    for (const Triangle& t : faces_[f]) triangleNodes(t.a, t.b, t.c, frame, limLo, limHi, out);
  }
}

}  // namespace sph::gen
