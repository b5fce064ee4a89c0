// Lattice particle generation; the rule is stated in geometry/particle_generator.h.
#include "geometry/particle_generator.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "geometry/triangle_nodes.h"
#include "platform/host_memory.h"
#include "sph/plugin/errors.h"

namespace sph::gen {
namespace {

// 2 bytes per node: 8 Gi nodes would need 16 GiB, far beyond any case we expect.
constexpr uint64_t kMaxNodes = uint64_t(1) << 33;
// A node within this many dp of a face's plane is on the face (GenCase's reach for triangles).
constexpr double kFaceReach = 0.6;

double axis(const Vec3d& v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); }

}  // namespace

ParticleGenerator::ParticleGenerator(const LatticeSpec& spec) : spec_(spec) {
  for (int a = 0; a < 3; ++a) {
    lattice_.lo[a] = 0;
    lattice_.hi[a] = int64_t(std::floor((axis(spec_.pointMax, a) - axis(spec_.pointMin, a)) / spec_.dp)) - 1;
  }
  if (spec_.twoD) lattice_.lo[1] = lattice_.hi[1] = 0;
}

uint16_t ParticleGenerator::family(bool bound, int local) {
  for (size_t f = 0; f < families_.size(); ++f) {
    if (families_[f].bound == bound && families_[f].local == local) return uint16_t(f + 1);
  }
  if (families_.size() >= std::numeric_limits<uint16_t>::max() - 1) {
    throw InputError("too many particle families (mk values) in one case");
  }
  families_.push_back({bound, local});
  return uint16_t(families_.size());
}

int ParticleGenerator::addPattern(NodePattern p) {
  patterns_.push_back(std::move(p));
  return int(patterns_.size()) - 1;
}

int ParticleGenerator::patternIndex(const std::string& name) const {
  const auto lower = [](std::string t) {
    for (char& c : t) c = char(std::tolower(static_cast<unsigned char>(c)));
    return t;
  };
  for (size_t k = 0; k < patterns_.size(); ++k)
    if (lower(patterns_[k].name) == lower(name)) return int(k);
  return -1;
}

void ParticleGenerator::usePattern(int pattern, Background background, uint16_t backgroundFamily) {
  pattern_ = pattern;
  background_ = background;
  backgroundFamily_ = backgroundFamily;
}

void ParticleGenerator::push(Op op) {
  op.pattern = pattern_;
  op.background = background_;
  op.backgroundFamily = backgroundFamily_;
  ops_.push_back(op);
}

int64_t ParticleGenerator::snapIndex(double x, int a) const {
  // std::round goes half-way values away from zero, as GenCase does. Clamp one node beyond the
  // lattice before converting, so huge shapes cannot overflow and faces outside the lattice stay
  // outside it.
  const double r = std::round((x - axis(spec_.pointMin, a)) / spec_.dp);
  return int64_t(std::clamp(r, double(lattice_.lo[a] - 1), double(lattice_.hi[a] + 1)));
}

int64_t ParticleGenerator::nodeIndex(double x, int a) const {
  // Vertices and centres keep their place outside the lattice (a prism's slope must not bend);
  // the bound only keeps the conversion defined.
  constexpr double kFar = double(int64_t(1) << 40);
  return int64_t(std::clamp(std::round((x - axis(spec_.pointMin, a)) / spec_.dp), -kFar, kFar));
}

NodeBox ParticleGenerator::snap(const Vec3d& lo, const Vec3d& hi) const {
  NodeBox b;
  for (int a = 0; a < 3; ++a) {
    b.lo[a] = snapIndex(std::min(axis(lo, a), axis(hi, a)), a);
    b.hi[a] = snapIndex(std::max(axis(lo, a), axis(hi, a)), a);
  }
  return b;
}

Vec3d ParticleGenerator::nodePosition(int64_t i, int64_t j, int64_t k) const {
  return {spec_.pointMin.x + double(i) * spec_.dp, spec_.pointMin.y + double(j) * spec_.dp,
          spec_.pointMin.z + double(k) * spec_.dp};
}

void ParticleGenerator::drawBox(const Vec3d& lo, const Vec3d& hi, bool solid, uint8_t faces,
                                uint16_t family) {
  Op op{Kind::Box, snap(lo, hi)};
  op.solid = solid;
  op.faces = faces & kAllFaces;
  op.family = family;
  push(op);
}

void ParticleGenerator::drawWave(const Vec3d& lo, const Vec3d& hi, double level, double height, double k, double x0,
                                 uint16_t family) {
  Op op{Kind::Wave, snap(lo, hi)};
  op.prism = int(waves_.size());
  waves_.push_back({level, height, k, x0});
  op.family = family;
  push(op);
}

void ParticleGenerator::drawBoxInterior(const Vec3d& lo, const Vec3d& hi, uint16_t family) {
  Op op{Kind::Interior, snap(lo, hi)};
  // The corners keep their place beyond the lattice: the diagonal's slope depends on them.
  for (int a = 0; a < 3; ++a) {
    op.seed[a] = nodeIndex(std::min(axis(lo, a), axis(hi, a)), a);
    op.axisEnd[a] = nodeIndex(std::max(axis(lo, a), axis(hi, a)), a);
  }
  ++op.box.lo[2];  // strictly between the bottom and the top
  --op.box.hi[2];
  op.family = family;
  push(op);
}

std::string ParticleGenerator::snappedPrism(const std::vector<Vec3d>& points, PrismShape& prism) const {
  std::vector<Vec3d> snapped;
  for (const Vec3d& p : points)
    snapped.push_back({double(nodeIndex(p.x, 0)), double(nodeIndex(p.y, 1)), double(nodeIndex(p.z, 2))});
  return PrismShape::build(snapped, LatticeFrame{spec_.pointMin, spec_.dp}, prism);
}

std::string ParticleGenerator::drawPrism(const std::vector<Vec3d>& points, uint64_t faces, bool interior,
                                         uint16_t family) {
  PrismShape prism;
  std::string problem = snappedPrism(points, prism);
  if (!problem.empty()) return problem;
  Op op{Kind::Prism, NodeBox{}};
  for (int a = 0; a < 3; ++a) {
    op.box.lo[a] = prism.lo()[a];
    op.box.hi[a] = prism.hi()[a];
  }
  op.faces = faces;
  op.prismInterior = interior;
  op.family = family;
  op.prism = int(prisms_.size());
  prisms_.push_back(std::move(prism));
  push(op);
  return "";
}

void ParticleGenerator::drawMesh(const std::vector<std::array<Vec3d, 3>>& triangles, uint16_t family) {
  Op op{Kind::Mesh, NodeBox{}};
  std::vector<std::array<Vec3d, 3>> snapped;
  snapped.reserve(triangles.size());
  bool first = true;
  for (const std::array<Vec3d, 3>& t : triangles) {
    std::array<Vec3d, 3> s;
    for (int v = 0; v < 3; ++v) {
      const int64_t ijk[3] = {nodeIndex(t[v].x, 0), nodeIndex(t[v].y, 1), nodeIndex(t[v].z, 2)};
      s[v] = {double(ijk[0]), double(ijk[1]), double(ijk[2])};
      for (int a = 0; a < 3; ++a) {
        op.box.lo[a] = first ? ijk[a] : std::min(op.box.lo[a], ijk[a]);
        op.box.hi[a] = first ? ijk[a] : std::max(op.box.hi[a], ijk[a]);
      }
      first = false;
    }
    snapped.push_back(s);
  }
  if (snapped.empty()) return;
  op.family = family;
  op.prism = int(meshes_.size());
  meshes_.push_back(std::move(snapped));
  push(op);
}

void ParticleGenerator::drawPyramid(const Vec3d& apex, const std::vector<Vec3d>& base, uint64_t faces, bool interior,
                                    uint16_t family) {
  const size_t n = base.size();
  if (interior) {
    const LatticeFrame frame{spec_.pointMin, spec_.dp};
    // The vertices on their nodes, in metres.
    std::vector<Vec3d> v{apex};
    v.insert(v.end(), base.begin(), base.end());
    Op op{Kind::Convex, NodeBox{}};
    for (size_t k = 0; k < v.size(); ++k) {
      const int64_t ijk[3] = {nodeIndex(v[k].x, 0), nodeIndex(v[k].y, 1), nodeIndex(v[k].z, 2)};
      for (int a = 0; a < 3; ++a) {
        op.box.lo[a] = k == 0 ? ijk[a] : std::min(op.box.lo[a], ijk[a]);
        op.box.hi[a] = k == 0 ? ijk[a] : std::max(op.box.hi[a], ijk[a]);
      }
      v[k] = world(frame, {double(ijk[0]), double(ijk[1]), double(ijk[2])});
    }
    Vec3d centroid;
    for (const Vec3d& p : v) centroid = add(centroid, scale(p, 1.0 / double(v.size())));
    std::vector<std::pair<WorldPlane, double>> planes;
    planes.emplace_back(WorldPlane(v[1], v[2], v[3]), 0.0);
    for (size_t i = 0; i < n; ++i) planes.emplace_back(WorldPlane(v[0], v[1 + i], v[1 + (i + 1) % n]), 0.0);
    bool flat = false;
    for (auto& [plane, inward] : planes) {
      const double c = plane.value(centroid);
      inward = c > 0 ? 1.0 : -1.0;
      flat = flat || c == 0;
    }
    if (!flat) {  // a pyramid of no volume has no inside
      op.family = family;
      op.prism = int(convexes_.size());
      convexes_.push_back(std::move(planes));
      push(op);
    }
  }
  std::vector<std::array<Vec3d, 3>> triangles;
  if (faces & 1) {
    triangles.push_back({base[0], base[1], base[2]});
    if (n == 4) triangles.push_back({base[0], base[2], base[3]});
  }
  for (size_t i = 0; i < n; ++i)
    if (faces & (uint64_t(1) << (i + 1))) triangles.push_back({apex, base[i], base[(i + 1) % n]});
  drawMesh(triangles, family);
}

void ParticleGenerator::drawSphere(const Vec3d& centre, double radius, SphereDraw what, uint16_t family,
                                   double reach) {
  Op op{Kind::Sphere, NodeBox{}};
  op.sphere = what;
  op.radius = std::round(radius / spec_.dp);
  op.radiusGiven = radius;
  op.reach = reach;
  const int64_t span = int64_t(op.radius + std::ceil(reach)) + 1;
  for (int a = 0; a < 3; ++a) {
    op.seed[a] = nodeIndex(axis(centre, a), a);
    op.box.lo[a] = op.seed[a] - span;
    op.box.hi[a] = op.seed[a] + span;
  }
  op.family = family;
  push(op);
}

void ParticleGenerator::drawCylinder(const Vec3d& a, const Vec3d& b, double radius, uint64_t faces, bool interior,
                                     uint16_t family, const DrawReach& within) {
  Op op{Kind::Cylinder, NodeBox{}};
  op.radius = radius;
  op.reach = within.cylinderSide;
  op.capReach = within.cylinderCap;
  const int64_t reach =
      int64_t(std::round(radius / spec_.dp) + std::ceil(std::max(within.cylinderSide, within.cylinderCap))) + 3;
  for (int d = 0; d < 3; ++d) {
    op.seed[d] = nodeIndex(axis(a, d), d);
    op.axisEnd[d] = nodeIndex(axis(b, d), d);
    op.box.lo[d] = std::min(op.seed[d], op.axisEnd[d]) - reach;
    op.box.hi[d] = std::max(op.seed[d], op.axisEnd[d]) + reach;
  }
  op.faces = faces;
  op.solid = interior;
  op.family = family;
  push(op);
}

void ParticleGenerator::drawLine(const Vec3d& a, const Vec3d& b, uint16_t family, double reach) {
  Op op{Kind::Line, NodeBox{}};
  for (int d = 0; d < 3; ++d) {
    op.seed[d] = nodeIndex(axis(a, d), d);
    op.axisEnd[d] = nodeIndex(axis(b, d), d);
    op.box.lo[d] = std::min(op.seed[d], op.axisEnd[d]);
    op.box.hi[d] = std::max(op.seed[d], op.axisEnd[d]);
  }
  op.reach = reach;
  op.family = family;
  push(op);
}

void ParticleGenerator::drawEllipsoid(const Vec3d& focus1, const Vec3d& focus2, double sumR, SphereDraw what,
                                      uint16_t family, double reach) {
  Op op{Kind::Ellipsoid, NodeBox{}};
  const LatticeFrame frame{spec_.pointMin, spec_.dp};
  const Vec3d f[2] = {focus1, focus2};
  // The nodes within sumR + reach dp of a focus hold every node drawn.
  const int64_t extent = int64_t(std::ceil((sumR + reach * spec_.dp) / spec_.dp)) + 1;
  for (int n = 0; n < 2; ++n) {
    const int64_t ijk[3] = {nodeIndex(f[n].x, 0), nodeIndex(f[n].y, 1), nodeIndex(f[n].z, 2)};
    op.focus[n] = world(frame, {double(ijk[0]), double(ijk[1]), double(ijk[2])});
    for (int a = 0; a < 3; ++a) {
      op.box.lo[a] = n == 0 ? ijk[a] - extent : std::min(op.box.lo[a], ijk[a] - extent);
      op.box.hi[a] = n == 0 ? ijk[a] + extent : std::max(op.box.hi[a], ijk[a] + extent);
    }
  }
  if (spec_.twoD) op.box.lo[1] = op.box.hi[1] = 0;
  op.radiusGiven = sumR;
  op.reach = reach;
  op.sphere = what;
  op.family = family;
  push(op);
}

NodeBox ParticleGenerator::strictlyInside(const std::pair<Vec3d, Vec3d>& box) const {
  NodeBox b = snap(box.first, box.second);
  for (int a = 0; a < 3; ++a) {  // the nodes the limits snap to left out
    ++b.lo[a];
    --b.hi[a];
  }
  if (spec_.twoD) b.lo[1] = b.hi[1] = 0;
  return b;
}

void ParticleGenerator::redraw(const std::optional<std::pair<Vec3d, Vec3d>>& box, int from, uint16_t family) {
  Op op{Kind::Redraw, lattice_};
  if (box) op.box = strictlyInside(*box);
  op.redrawFrom = from;
  op.family = family;
  push(op);
}

void ParticleGenerator::redrawNear(const std::optional<std::pair<Vec3d, Vec3d>>& box, const NearRule& rule,
                                   uint16_t family) {
  Op op{Kind::Near, lattice_};
  if (box) op.box = strictlyInside(*box);
  op.prism = int(nearRules_.size());
  nearRules_.push_back(rule);
  op.family = family;
  push(op);
}

std::string ParticleGenerator::fillPrism(const Vec3d& seed, const std::vector<Vec3d>& points, uint8_t kinds, bool invert,
                                        int fluidLocal, int boundLocal, uint16_t family) {
  PrismShape prism;
  std::string problem = snappedPrism(points, prism);
  if (!problem.empty()) return problem;
  fillFrom(seed, kinds, invert, fluidLocal, boundLocal, family);
  Op& op = ops_.back();
  for (int a = 0; a < 3; ++a) {
    op.box.lo[a] = prism.lo()[a];
    op.box.hi[a] = prism.hi()[a];
  }
  op.prism = int(prisms_.size());
  prisms_.push_back(std::move(prism));
  return "";
}

void ParticleGenerator::fillFrom(const Vec3d& seed, uint8_t kinds, bool invert, int fluidLocal, int boundLocal,
                                 uint16_t family) {
  Op op{Kind::Fill, lattice_};
  for (int a = 0; a < 3; ++a) op.seed[a] = snapIndex(axis(seed, a), a);
  if (spec_.twoD) op.seed[1] = 0;
  op.fillKinds = kinds;
  op.fillInvert = invert;
  op.fillFluidLocal = fluidLocal;
  op.fillBoundLocal = boundLocal;
  op.family = family;
  push(op);
}

void ParticleGenerator::fillBox(const Vec3d& seed, const Vec3d& lo, const Vec3d& hi, FillKind kind,
                                uint16_t family, int boundLocal, bool withLimits) {
  Op op{Kind::Fill, snap(lo, hi)};
  for (int a = 0; a < 3; ++a) {
    if (!withLimits) {  // strictly inside the box
      ++op.box.lo[a];
      --op.box.hi[a];
    }
    op.seed[a] = snapIndex(axis(seed, a), a);
  }
  if (spec_.twoD) {
    op.box.lo[1] = op.box.hi[1] = 0;
    op.seed[1] = 0;
  }
  op.fillKind = kind;
  op.fillBoundLocal = kind == FillKind::Bound ? boundLocal : -1;
  op.family = family;
  push(op);
}

namespace {

// Distance from p to the line through c0 and c1 (|c1 - c0| = len > 0): twice the area of
// (p, c0, c1) over len, in GenCase's order of operations, which decides the exact ties.
double lineDistance(const Vec3d& p, const Vec3d& c0, const Vec3d& c1, double len) {
  const double qx = c0.x - p.x, qy = c0.y - p.y, qz = c0.z - p.z;
  const double rx = c1.x - p.x, ry = c1.y - p.y, rz = c1.z - p.z;
  const double vi = qy * rz - ry * qz, vj = -(qx * rz - rx * qz), vk = qx * ry - rx * qy;
  return (0.5 * std::sqrt(vi * vi + vj * vj + vk * vk) * 2) / len;
}

NodeBox intersect(const NodeBox& a, const NodeBox& b) {
  NodeBox r;
  for (int d = 0; d < 3; ++d) {
    r.lo[d] = std::max(a.lo[d], b.lo[d]);
    r.hi[d] = std::min(a.hi[d], b.hi[d]);
  }
  return r;
}

}  // namespace

// The dense node array over `span`, z fastest: the order GenCase lists the particles of an mk in.
class NodeGrid {
 public:
  explicit NodeGrid(const NodeBox& span) : span_(span) {
    uint64_t total = 1;
    for (int d = 0; d < 3; ++d) {
      n_[d] = uint64_t(span.hi[d] - span.lo[d] + 1);
      if (n_[d] > kMaxNodes / total) {
        throw InputError(fmt::format("the particle lattice would need more than {} nodes; use a "
                                     "larger dp or smaller shapes",
                                     kMaxNodes));
      }
      total *= n_[d];
    }
    // Cleared plane by plane in parallel: the pages land where the planes are later drawn.
    nodes_.reset(new uint16_t[size_t(total)]);
    const uint64_t plane = n_[1] * n_[2];
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < int64_t(n_[0]); ++i) std::fill_n(nodes_.get() + uint64_t(i) * plane, plane, uint16_t(0));
  }

  // The particle pattern the writes below go through (geometry/node_pattern.h): a node that is
  // not one of its particle places gets the background instead of the value (or keeps its own).
  void usePattern(const NodePattern* pattern, ParticleGenerator::Background background, uint16_t backgroundFamily) {
    pattern_ = pattern;
    background_ = background;
    backgroundFamily_ = backgroundFamily;
  }

  // Sets the nodes of `region` for which member(i, j, k) holds.
  template <typename Member>
  void fillIf(const NodeBox& region, uint16_t value, Member member) {
    const NodeBox r = intersect(region, span_);
    if (r.empty()) return;
#pragma omp parallel for schedule(dynamic, 1)
    for (int64_t i = r.lo[0]; i <= r.hi[0]; ++i)
      for (int64_t j = r.lo[1]; j <= r.hi[1]; ++j)
        for (int64_t k = r.lo[2]; k <= r.hi[2]; ++k)
          if (member(i, j, k)) write(i, j, k, value);
  }

  void fill(const NodeBox& region, uint16_t value) {
    const NodeBox r = intersect(region, span_);
    if (r.empty()) return;
    if (pattern_) {
      fillIf(region, value, [](int64_t, int64_t, int64_t) { return true; });
      return;
    }
#pragma omp parallel for schedule(static)
    for (int64_t i = r.lo[0]; i <= r.hi[0]; ++i) {
      for (int64_t j = r.lo[1]; j <= r.hi[1]; ++j) {
        uint16_t* row = nodes_.get() + index(i, j, r.lo[2]);
        std::fill(row, row + (r.hi[2] - r.lo[2] + 1), value);
      }
    }
  }

  uint16_t at(int64_t i, int64_t j, int64_t k) const { return nodes_[index(i, j, k)]; }
  const NodeBox& span() const { return span_; }

  size_t index(int64_t i, int64_t j, int64_t k) const {
    return size_t((uint64_t(i - span_.lo[0]) * n_[1] + uint64_t(j - span_.lo[1])) * n_[2] +
                  uint64_t(k - span_.lo[2]));
  }
  // Sets the nodes of `region` reachable from `seed` through nodes of `region` for which
  // of(value) holds, stepping along the axes; nothing when the seed is outside or not such a node.
  template <typename OfKind>
  void floodFill(const NodeBox& region, const int64_t seed[3], uint16_t value, OfKind of) {
    floodFillWithin(region, seed, value, of, [](int64_t, int64_t, int64_t) { return true; });
  }

  // The same through the nodes for which within(i, j, k) also holds.
  template <typename OfKind, typename Within>
  void floodFillWithin(const NodeBox& region, const int64_t seed[3], uint16_t value, OfKind of, Within within) {
    const NodeBox r = intersect(region, span_);
    if (r.empty()) return;
    for (int d = 0; d < 3; ++d)
      if (seed[d] < r.lo[d] || seed[d] > r.hi[d]) return;
    if (!of(nodes_[index(seed[0], seed[1], seed[2])]) || !within(seed[0], seed[1], seed[2])) return;
    // A fill through boundary (or fluid) nodes with a boundary (fluid) family leaves them of the
    // same kind: mark what was visited.
    const uint64_t nr[3] = {uint64_t(r.hi[0] - r.lo[0] + 1), uint64_t(r.hi[1] - r.lo[1] + 1),
                            uint64_t(r.hi[2] - r.lo[2] + 1)};
    std::vector<uint8_t> seen(size_t(nr[0] * nr[1] * nr[2]), 0);
    auto visit = [&](const std::array<int64_t, 3>& q) -> uint8_t& {
      return seen[size_t((uint64_t(q[0] - r.lo[0]) * nr[1] + uint64_t(q[1] - r.lo[1])) * nr[2] + uint64_t(q[2] - r.lo[2]))];
    };
    std::vector<std::array<int64_t, 3>> stack{{seed[0], seed[1], seed[2]}};
    visit(stack.back()) = 1;
    while (!stack.empty()) {
      const std::array<int64_t, 3> q = stack.back();
      stack.pop_back();
      write(q[0], q[1], q[2], value);
      for (int d = 0; d < 3; ++d) {
        for (int64_t step : {-1, 1}) {
          std::array<int64_t, 3> n = q;
          n[d] += step;
          if (n[d] < r.lo[d] || n[d] > r.hi[d]) continue;
          uint8_t& v = visit(n);
          if (v || !of(nodes_[index(n[0], n[1], n[2])]) || !within(n[0], n[1], n[2])) continue;
          v = 1;
          stack.push_back(n);
        }
      }
    }
  }

  void set(int64_t i, int64_t j, int64_t k, uint16_t value) {
    if (i < span_.lo[0] || i > span_.hi[0] || j < span_.lo[1] || j > span_.hi[1] || k < span_.lo[2] || k > span_.hi[2])
      return;
    write(i, j, k, value);
  }

  // A node of the span takes `value` (or the pattern's background).
  void write(int64_t i, int64_t j, int64_t k, uint16_t value) {
    uint16_t& node = nodes_[index(i, j, k)];
    if (!pattern_ || pattern_->filled(i, j, k)) node = value;
    else if (background_ == ParticleGenerator::Background::Void) node = 0;
    else if (background_ == ParticleGenerator::Background::Family) node = backgroundFamily_;
  }

  const uint16_t* nodes() const { return nodes_.get(); }
  uint64_t extent(int d) const { return n_[d]; }

 private:
  NodeBox span_;
  uint64_t n_[3] = {0, 0, 0};
  std::unique_ptr<uint16_t[]> nodes_;
  const NodePattern* pattern_ = nullptr;
  ParticleGenerator::Background background_ = ParticleGenerator::Background::Keep;
  uint16_t backgroundFamily_ = 0;
};

// Draws one operation into the node array, in the order of the commands. One case per shape of
// GenCase, each a short loop over its nodes: kept together, they read as the list of shapes.
void ParticleGenerator::paint(NodeGrid& grid, const Op& op) const {
  grid.usePattern(op.pattern >= 0 ? &patterns_[size_t(op.pattern)] : nullptr, op.background, op.backgroundFamily);
  paintShape(grid, op);
  grid.usePattern(nullptr, Background::Keep, 0);
}

void ParticleGenerator::paintShape(NodeGrid& grid, const Op& op) const {
  switch (op.kind) {
    case Kind::Fill:
      if (op.fillKinds != 0) {  // <fillpoint>, <fillprism>
        const PrismShape* within = op.prism >= 0 ? &prisms_[size_t(op.prism)] : nullptr;
        if (within && !within->hasInterior()) break;
        grid.floodFillWithin(op.box, op.seed, op.family, [&](uint16_t v) {
          bool listed;
          if (v == 0) {
            listed = op.fillKinds & 1;
          } else {
            const Family& f = families_[v - 1];
            const int limit = f.bound ? op.fillBoundLocal : op.fillFluidLocal;
            listed = (op.fillKinds & (f.bound ? 4 : 2)) && (limit < 0 || f.local == limit);
          }
          return listed != op.fillInvert;
        }, [&](int64_t i, int64_t j, int64_t k) { return !within || within->inInterior(i, j, k); });
        break;
      }
      grid.floodFill(op.box, op.seed, op.family, [&](uint16_t v) {
        if (v == 0) return op.fillKind == FillKind::Void;
        const Family& f = families_[v - 1];
        if (op.fillBoundLocal >= 0 && f.local != op.fillBoundLocal) return false;
        return op.fillKind == (f.bound ? FillKind::Bound : FillKind::Fluid);
      });
      break;
    case Kind::Redraw:
      grid.fillIf(op.box, op.family, [&](int64_t i, int64_t j, int64_t k) {
        return op.redrawFrom == kAnyNode || int(grid.at(i, j, k)) == op.redrawFrom;
      });
      break;
    case Kind::Near: {
      const NearRule& rule = nearRules_[size_t(op.prism)];
      const auto isKind = [&](uint16_t v, int kind, int local) {
        if (v == 0) return kind == 0;
        const Family& f = families_[v - 1];
        return kind == (f.bound ? 2 : 1) && (local < 0 || f.local == local);
      };
      const NodeBox span = grid.span();
      const NodeBox region = intersect(op.box, span);
      if (region.empty()) break;
      std::vector<std::array<int64_t, 3>> hit;
      for (int pass = 0; pass < rule.times; ++pass) {
        hit.clear();
        // The targets of a pass see the grid as the pass found it.
        for (int64_t i = region.lo[0]; i <= region.hi[0]; ++i)
          for (int64_t j = region.lo[1]; j <= region.hi[1]; ++j)
            for (int64_t k = region.lo[2]; k <= region.hi[2]; ++k) {
              if (!isKind(grid.at(i, j, k), rule.targetKind, rule.targetLocal)) continue;
              bool near = false;
              for (int d = 0; d < 27 && !near; ++d) {
                if (!(rule.directions >> d & 1u)) continue;
                const int64_t b[3] = {i - (d / 9 - 1), j - (d / 3 % 3 - 1), k - (d % 3 - 1)};
                if (b[0] < span.lo[0] || b[0] > span.hi[0] || b[1] < span.lo[1] || b[1] > span.hi[1] ||
                    b[2] < span.lo[2] || b[2] > span.hi[2])
                  continue;
                near = isKind(grid.at(b[0], b[1], b[2]), rule.borderKind, rule.borderLocal);
              }
              if (near) hit.push_back({i, j, k});
            }
        for (const auto& q : hit) grid.set(q[0], q[1], q[2], op.family);
      }
      break;
    }
    case Kind::Ellipsoid: {
      const LatticeFrame frame{spec_.pointMin, spec_.dp};
      const double band = op.reach * spec_.dp;
      grid.fillIf(op.box, op.family, [&](int64_t i, int64_t j, int64_t k) {
        const Vec3d p = world(frame, {double(i), double(j), double(k)});
        const double sum = norm(sub(p, op.focus[0])) + norm(sub(p, op.focus[1]));
        const bool inside = sum <= op.radiusGiven, surface = std::abs(sum - op.radiusGiven) < band;
        return op.sphere == SphereDraw::Inside ? inside : op.sphere == SphereDraw::Surface ? surface : inside || surface;
      });
      break;
    }
    case Kind::Prism: {
      const PrismShape& prism = prisms_[size_t(op.prism)];
      if (op.prismInterior && prism.hasInterior())
        grid.fillIf(op.box, op.family, [&](int64_t i, int64_t j, int64_t k) { return prism.inInterior(i, j, k); });
      std::vector<std::array<int64_t, 3>> nodes;
      const std::array<int64_t, 3> lo{lattice_.lo[0], lattice_.lo[1], lattice_.lo[2]};
      const std::array<int64_t, 3> hi{lattice_.hi[0], lattice_.hi[1], lattice_.hi[2]};
      prism.faceNodes(op.faces, LatticeFrame{spec_.pointMin, spec_.dp}, lo, hi, nodes);
      for (const auto& q : nodes) grid.set(q[0], q[1], q[2], op.family);
      break;
    }
    case Kind::Convex: {
      const auto& planes = convexes_[size_t(op.prism)];
      const LatticeFrame frame{spec_.pointMin, spec_.dp};
      grid.fillIf(op.box, op.family, [&](int64_t i, int64_t j, int64_t k) {
        const Vec3d p = world(frame, {double(i), double(j), double(k)});
        for (const auto& [plane, inward] : planes)
          if (!(plane.value(p) * inward > 0)) return false;
        return true;
      });
      break;
    }
    case Kind::Mesh: {
      const std::array<int64_t, 3> lo{lattice_.lo[0], lattice_.lo[1], lattice_.lo[2]};
      const std::array<int64_t, 3> hi{lattice_.hi[0], lattice_.hi[1], lattice_.hi[2]};
      const LatticeFrame frame{spec_.pointMin, spec_.dp};
      std::vector<std::array<int64_t, 3>> nodes;
      for (const std::array<Vec3d, 3>& t : meshes_[size_t(op.prism)]) {
        nodes.clear();
        triangleNodes(t[0], t[1], t[2], frame, lo, hi, nodes);
        for (const auto& q : nodes) grid.set(q[0], q[1], q[2], op.family);
      }
      break;
    }
    case Kind::Interior: {
      const int64_t* l = op.seed;
      const int64_t* h = op.axisEnd;
      if (l[0] == h[0] || l[1] == h[1]) break;  // a bottom without area draws nothing
      // The diagonal from (x max, y min) to (x min, y max), vertical; its plane through three of
      // its corners in metres as GenCase takes them (the order decides the ties).
      const LatticeFrame frame{spec_.pointMin, spec_.dp};
      const auto corner = [&](int64_t i, int64_t j, int64_t k) {
        return world(frame, {double(i), double(j), double(k)});
      };
      const WorldPlane diagonal(corner(h[0], l[1], l[2]), corner(l[0], h[1], l[2]), corner(l[0], h[1], h[2]));
      const double reach = kFaceReach * spec_.dp;
      grid.fillIf(op.box, op.family, [&](int64_t i, int64_t j, int64_t k) {
        if (i > l[0] && i < h[0] && j > l[1] && j < h[1]) return true;
        return diagonal.distance(nodePosition(i, j, k)) < reach;
      });
      break;
    }
    case Kind::Cylinder: {
      // In metres and in GenCase's order of operations, which decides the exact ties.
      const Vec3d c0 = nodePosition(op.seed[0], op.seed[1], op.seed[2]);
      const Vec3d c1 = nodePosition(op.axisEnd[0], op.axisEnd[1], op.axisEnd[2]);
      const Vec3d n{c1.x - c0.x, c1.y - c0.y, c1.z - c0.z};
      const double nn = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
      if (nn == 0) break;  // both ends on one node: no axis, nothing drawn
      const double rs = std::round(op.radius / spec_.dp) * spec_.dp;
      const double reach = op.reach * spec_.dp, capReach = op.capReach * spec_.dp;
      auto plane = [](const Vec3d& p, const Vec3d& c, const Vec3d& m) {
        return m.x * p.x + m.y * p.y + m.z * p.z + -(m.x * c.x + m.y * c.y + m.z * c.z);
      };
      const Vec3d back{-n.x, -n.y, -n.z};
      grid.fillIf(op.box, op.family, [&](int64_t i, int64_t j, int64_t k) {
        const Vec3d p = nodePosition(i, j, k);
        const double lp = lineDistance(p, c0, c1, nn);
        const double s0 = plane(p, c0, n);
        const bool between = s0 > 0 && plane(p, c1, back) > 0;
        if (op.solid && between && lp <= op.radius) return true;
        if ((op.faces & 4) && between && std::abs(lp - rs) < reach) return true;
        if ((op.faces & 1) && lp <= op.radius && std::abs(s0 / nn) < capReach) return true;
        return (op.faces & 2) && lp <= op.radius && std::abs(plane(p, c1, n) / nn) < capReach;
      });
      break;
    }
    case Kind::Line: {
      const Vec3d c0 = nodePosition(op.seed[0], op.seed[1], op.seed[2]);
      const Vec3d c1 = nodePosition(op.axisEnd[0], op.axisEnd[1], op.axisEnd[2]);
      const double len = std::sqrt((c1.x - c0.x) * (c1.x - c0.x) + (c1.y - c0.y) * (c1.y - c0.y) +
                                   (c1.z - c0.z) * (c1.z - c0.z));
      if (len == 0) break;  // both ends on one node: GenCase draws nothing
      const double reach = op.reach * spec_.dp;
      grid.fillIf(op.box, op.family, [&](int64_t i, int64_t j, int64_t k) {
        return lineDistance(nodePosition(i, j, k), c0, c1, len) < reach;
      });
      break;
    }
    case Kind::Sphere: {
      const Vec3d c = nodePosition(op.seed[0], op.seed[1], op.seed[2]);
      grid.fillIf(op.box, op.family, [&](int64_t i, int64_t j, int64_t k) {
        if (op.sphere == SphereDraw::Inside) {
          // In metres against the radius as given, which decides the ties as GenCase does.
          const Vec3d p = nodePosition(i, j, k);
          const double dx = p.x - c.x, dy = p.y - c.y, dz = p.z - c.z;
          return std::sqrt(dx * dx + dy * dy + dz * dz) <= op.radiusGiven;
        }
        const double d = std::sqrt(double((i - op.seed[0]) * (i - op.seed[0]) + (j - op.seed[1]) * (j - op.seed[1]) +
                                          (k - op.seed[2]) * (k - op.seed[2])));
        return std::abs(d - op.radius) < op.reach || (op.sphere == SphereDraw::Full && d * spec_.dp <= op.radiusGiven);
      });
      break;
    }
    case Kind::Wave: {
      const WaveSurface& w = waves_[size_t(op.prism)];
      grid.fillIf(op.box, op.family, [&](int64_t i, int64_t j, int64_t k) {
        const Vec3d p = nodePosition(i, j, k);
        const double c = std::cosh(w.k * (p.x - w.x0));
        return p.z < w.level + w.height / (c * c);
      });
      break;
    }
    case Kind::Box:
      if (op.solid) {
        grid.fill(op.box, op.family);
        break;
      }
      for (int d = 0; d < 3; ++d) {
        for (int side = 0; side < 2; ++side) {
          if (!(op.faces & (1u << (2 * d + side)))) continue;
          NodeBox face = op.box;
          if (side == 0) face.hi[d] = face.lo[d];
          else face.lo[d] = face.hi[d];
          grid.fill(face, op.family);
        }
      }
      break;
  }
}

// Host bytes of a generated particle: its position and mk index.
constexpr double kParticleBytes = sizeof(Vec3d) + sizeof(uint16_t);

// The node box the drawing shapes span within the lattice (only drawing shapes widen the array;
// erasing outside it has nothing to erase); nullopt when nothing is drawn.
std::optional<NodeBox> ParticleGenerator::drawnSpan() const {
  NodeBox span;
  bool any = false;
  for (const Op& op : ops_) {
    const NodeBox b = intersect(op.box, lattice_);
    if (op.family == 0 || b.empty()) continue;
    for (int d = 0; d < 3; ++d) {
      span.lo[d] = any ? std::min(span.lo[d], b.lo[d]) : b.lo[d];
      span.hi[d] = any ? std::max(span.hi[d], b.hi[d]) : b.hi[d];
    }
    any = true;
  }
  if (!any) return std::nullopt;
  return span;
}

// The final table: the families with particles (count[family id]), boundary ones by mk, then
// fluid ones by mk.
std::vector<uint16_t> ParticleGenerator::familyOrder(const std::vector<uint64_t>& count) const {
  std::vector<uint16_t> order;
  for (size_t f = 0; f < families_.size(); ++f) {
    if (count[f + 1] > 0) order.push_back(uint16_t(f));
  }
  std::sort(order.begin(), order.end(), [&](uint16_t a, uint16_t b) {
    if (families_[a].bound != families_[b].bound) return families_[a].bound;
    return families_[a].local < families_[b].local;
  });
  return order;
}

// Writes the particles of every painted node of `grid` (spanning `span`), plane by plane in
// parallel: planeCount holds, per x plane and family, where its first particle goes, perNode the
// particles a node of each family makes, finalIndex each family's index in the final table.
void ParticleGenerator::placeParticles(const NodeGrid& grid, const NodeBox& span, std::vector<uint64_t>& planeCount,
                                       const std::vector<uint64_t>& perNode, const std::vector<uint16_t>& finalIndex,
                                       GeneratedParticles& out) const {
  const size_t nFam = families_.size() + 1;
  const uint64_t planes = grid.extent(0), plane = grid.extent(1) * grid.extent(2);
  const uint16_t* nodes = grid.nodes();
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < int64_t(planes); ++i) {
    uint64_t* next = planeCount.data() + uint64_t(i) * nFam;
    const uint16_t* p = nodes + uint64_t(i) * plane;
    uint64_t q = 0;
    for (uint64_t j = 0; j < grid.extent(1); ++j) {
      for (uint64_t k = 0; k < grid.extent(2); ++k, ++q) {
        const uint16_t v = p[q];
        if (v == 0) continue;
        const Vec3d p = nodePosition(span.lo[0] + i, span.lo[1] + int64_t(j), span.lo[2] + int64_t(k));
        const uint64_t slot = next[v];
        next[v] += perNode[v];
        if (perNode[v] == 1) {
          out.positions[slot] = p;
        } else {
          const double q = 0.25 * spec_.dp, qy = spec_.twoD ? 0.0 : q;
          out.positions[slot] = {p.x - q, p.y - qy, p.z - q};
          out.positions[slot + 1] = {p.x + q, p.y + qy, p.z + q};
          out.mkIndex[slot + 1] = finalIndex[v];
        }
        out.mkIndex[slot] = finalIndex[v];
      }
    }
  }
}

GeneratedParticles ParticleGenerator::generate(int mkBoundFirst, int mkFluidFirst) const {
  GeneratedParticles out;
  const std::optional<NodeBox> drawn = drawnSpan();
  if (!drawn) return out;
  const NodeBox span = *drawn;

  {
    double nodes = 1;
    for (int d = 0; d < 3; ++d) nodes *= double(span.hi[d] - span.lo[d] + 1);
    if (spec_.maxNodes && nodes > double(spec_.maxNodes))
      throw InputError(fmt::format("the shapes span {:.3g} lattice nodes, more than the {} allowed here", nodes,
                                   spec_.maxNodes));
    // Refused when the lattice alone cannot be had; the dp then suggested leaves room for the
    // particles it may hold (every node at most) and their share of the run to come: an upper
    // bound, as how many nodes the shapes fill is not known yet.
    requireHostMemory(nodes * sizeof(uint16_t), fmt::format("the lattice of {:.3g} nodes", nodes), spec_.dp,
                      spec_.twoD ? 2 : 3, nodes * (sizeof(uint16_t) + kParticleBytes + spec_.runBytesPerParticle));
    out.peakBytes = nodes * sizeof(uint16_t);
  }
  NodeGrid grid(span);
  for (const Op& op : ops_) paint(grid, op);

  // Nodes of each family in each x plane, counted in parallel; the particles are then written
  // plane by plane in parallel, each plane's block of each family at its place.
  const size_t nFam = families_.size() + 1;
  const uint64_t planes = grid.extent(0), plane = grid.extent(1) * grid.extent(2);
  std::vector<uint64_t> planeCount(planes * nFam, 0);
  const uint16_t* nodes = grid.nodes();
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < int64_t(planes); ++i) {
    uint64_t* c = planeCount.data() + uint64_t(i) * nFam;
    const uint16_t* p = nodes + uint64_t(i) * plane;
    for (uint64_t q = 0; q < plane; ++q) ++c[p[q]];
  }
  // Particles per node of each family: two on GenCase's lattice 2.
  std::vector<uint64_t> perNode(nFam, 1);
  for (size_t f = 0; f < families_.size(); ++f)
    if (families_[f].bound ? spec_.boundPairs : spec_.fluidPairs) perNode[f + 1] = 2;
  for (uint64_t i = 0; i < planes; ++i)
    for (size_t v = 0; v < nFam; ++v) planeCount[i * nFam + v] *= perNode[v];
  std::vector<uint64_t> count(nFam, 0);
  for (uint64_t i = 0; i < planes; ++i)
    for (size_t v = 0; v < nFam; ++v) count[v] += planeCount[i * nFam + v];

  const std::vector<uint16_t> order = familyOrder(count);
  std::vector<uint16_t> finalIndex(families_.size() + 1, 0);
  uint64_t nBound = 0, nFluid = 0;
  for (size_t n = 0; n < order.size(); ++n) {
    const Family& fam = families_[order[n]];
    const uint64_t c = count[order[n] + 1];
    finalIndex[order[n] + 1] = uint16_t(n);
    out.mks.push_back({fam.bound, fam.local, fam.local + (fam.bound ? mkBoundFirst : mkFluidFirst),
                       uint32_t(c)});
    (fam.bound ? nBound : nFluid) += c;
  }
  if (nBound + nFluid > std::numeric_limits<uint32_t>::max()) {
    throw InputError(fmt::format("the case has {} particles, more than the 2^32-1 supported",
                                 nBound + nFluid));
  }
  out.nBound = uint32_t(nBound);
  out.nFluid = uint32_t(nFluid);
  // The positions and mk of every particle (the node grid's pages are taken already).
  out.peakBytes += double(nBound + nFluid) * kParticleBytes;
  // Refused when the lattice and the positions cannot be had together; the dp then suggested
  // leaves room for the run of these particles too (the run checks its own need exactly).
  requireHostMemory(out.peakBytes, fmt::format("the lattice and its {} particles", nBound + nFluid), spec_.dp,
                    spec_.twoD ? 2 : 3, double(nBound + nFluid) * (kParticleBytes + spec_.runBytesPerParticle),
                    double(nBound) / double(std::max<uint64_t>(1, nBound + nFluid)));
  out.positions.resize(nBound + nFluid);
  out.mkIndex.resize(nBound + nFluid);

  // One block per family in the table's order, each in node order (x slowest, z fastest): each
  // plane's part of a family's block starts after the planes before it.
  std::vector<uint64_t> start(nFam, 0);
  uint64_t at = 0;
  for (const uint16_t f : order) {
    start[f + 1] = at;
    at += count[f + 1];
  }
  for (uint64_t i = 0; i < planes; ++i) {
    for (size_t v = 1; v < nFam; ++v) {
      const uint64_t c = planeCount[i * nFam + v];
      planeCount[i * nFam + v] = start[v];
      start[v] += c;
    }
  }
  placeParticles(grid, span, planeCount, perNode, finalIndex, out);
  return out;
}

}  // namespace sph::gen
