// Lattice particle generation; the rule is stated in case_generator.h.
#include "case_generator.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>

#include <fmt/format.h>

#include "sph/errors.h"

namespace sph::gen {
namespace {

// Coordinates divided by dp carry rounding noise of a few ulps of the quotient; a limit within
// this many node spacings of a node or of a half-way point counts as exactly there.
constexpr double kSnapTolerance = 1e-6;

// 2 bytes per node: 8 Gi nodes would need 16 GiB, far beyond any case we expect.
constexpr uint64_t kMaxNodes = uint64_t(1) << 33;

double axis(const Vec3d& v, int a) { return a == 0 ? v.x : (a == 1 ? v.y : v.z); }

}  // namespace

ParticleGenerator::ParticleGenerator(const LatticeSpec& spec) : spec_(spec) {
  if (spec_.twoD) spec_.origin.y = spec_.pointMin.y;
  for (int a = 0; a < 3; ++a) {
    const double o = axis(spec_.origin, a);
    lattice_.lo[a] = int64_t(std::ceil((axis(spec_.pointMin, a) - o) / spec_.dp - kSnapTolerance));
    lattice_.hi[a] = int64_t(std::floor((axis(spec_.pointMax, a) - o) / spec_.dp + kSnapTolerance));
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

NodeBox ParticleGenerator::snap(const Vec3d& lo, const Vec3d& hi) const {
  NodeBox b;
  for (int a = 0; a < 3; ++a) {
    const double o = axis(spec_.origin, a);
    const double s = (std::min(axis(lo, a), axis(hi, a)) - o) / spec_.dp;
    const double e = (std::max(axis(lo, a), axis(hi, a)) - o) / spec_.dp;
    // Clamp one node beyond the lattice before converting, so huge shapes cannot overflow and
    // faces outside the lattice stay outside it.
    const double minIdx = double(lattice_.lo[a] - 1), maxIdx = double(lattice_.hi[a] + 1);
    b.lo[a] = int64_t(std::clamp(std::ceil(s - 0.5 + kSnapTolerance), minIdx, maxIdx));
    b.hi[a] = int64_t(std::clamp(std::floor(e + 0.5 - kSnapTolerance), minIdx, maxIdx));
  }
  return b;
}

Vec3d ParticleGenerator::nodePosition(int64_t i, int64_t j, int64_t k) const {
  return {spec_.origin.x + double(i) * spec_.dp, spec_.origin.y + double(j) * spec_.dp,
          spec_.origin.z + double(k) * spec_.dp};
}

void ParticleGenerator::drawBox(const Vec3d& lo, const Vec3d& hi, bool solid, uint8_t faces,
                                uint16_t family) {
  ops_.push_back({snap(lo, hi), solid, uint64_t(faces & kAllFaces), family});
}

void ParticleGenerator::drawPrism(const PrismShape& prism, bool solid, uint64_t faces,
                                  uint16_t family) {
  // Nodes within half a spacing outside the vertices' box can belong to the prism.
  const double m = 0.5 * spec_.dp;
  const Vec3d lo{prism.lo().x - m, prism.lo().y - m, prism.lo().z - m};
  const Vec3d hi{prism.hi().x + m, prism.hi().y + m, prism.hi().z + m};
  NodeBox box = snap(lo, hi);
  for (int d = 0; d < 3; ++d) {  // snapping may round a limit inwards: widen by a node
    box.lo[d] = std::max(box.lo[d] - 1, lattice_.lo[d]);
    box.hi[d] = std::min(box.hi[d] + 1, lattice_.hi[d]);
  }
  prisms_.push_back(prism);
  ops_.push_back({box, solid, faces, family, int(prisms_.size() - 1)});
}

void ParticleGenerator::fillBox(const Vec3d& seed, const Vec3d& lo, const Vec3d& hi, uint16_t family) {
  Op op{snap(lo, hi), false, 0, family};
  op.fill = true;
  for (int a = 0; a < 3; ++a) {
    const double o = axis(spec_.origin, a);
    op.seed[a] = int64_t(std::llround((axis(seed, a) - o) / spec_.dp));
    if (op.seed[a] < op.box.lo[a] || op.seed[a] > op.box.hi[a])
      throw InputError(fmt::format("the seed point ({}, {}, {}) is outside the box to fill", seed.x, seed.y, seed.z));
  }
  if (spec_.twoD) op.seed[1] = 0;
  ops_.push_back(op);
}

namespace {

NodeBox intersect(const NodeBox& a, const NodeBox& b) {
  NodeBox r;
  for (int d = 0; d < 3; ++d) {
    r.lo[d] = std::max(a.lo[d], b.lo[d]);
    r.hi[d] = std::min(a.hi[d], b.hi[d]);
  }
  return r;
}

// The dense node array over `span`, x fastest.
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
    nodes_.assign(size_t(total), 0);
  }

  // Sets the nodes of `region` for which member(i, j, k) holds.
  template <typename Member>
  void fillIf(const NodeBox& region, uint16_t value, Member member) {
    const NodeBox r = intersect(region, span_);
    if (r.empty()) return;
    for (int64_t k = r.lo[2]; k <= r.hi[2]; ++k)
      for (int64_t j = r.lo[1]; j <= r.hi[1]; ++j)
        for (int64_t i = r.lo[0]; i <= r.hi[0]; ++i)
          if (member(i, j, k)) nodes_[index(i, j, k)] = value;
  }

  void fill(const NodeBox& region, uint16_t value) {
    const NodeBox r = intersect(region, span_);
    if (r.empty()) return;
    for (int64_t k = r.lo[2]; k <= r.hi[2]; ++k) {
      for (int64_t j = r.lo[1]; j <= r.hi[1]; ++j) {
        uint16_t* row = nodes_.data() + index(r.lo[0], j, k);
        std::fill(row, row + (r.hi[0] - r.lo[0] + 1), value);
      }
    }
  }

  size_t index(int64_t i, int64_t j, int64_t k) const {
    return size_t((uint64_t(k - span_.lo[2]) * n_[1] + uint64_t(j - span_.lo[1])) * n_[0] +
                  uint64_t(i - span_.lo[0]));
  }
  // Sets the empty nodes of `region` reachable from `seed` through empty nodes of `region`,
  // stepping along the axes.
  void floodFill(const NodeBox& region, const int64_t seed[3], uint16_t value) {
    const NodeBox r = intersect(region, span_);
    if (r.empty() || value == 0) return;
    for (int d = 0; d < 3; ++d)
      if (seed[d] < r.lo[d] || seed[d] > r.hi[d]) return;
    if (nodes_[index(seed[0], seed[1], seed[2])] != 0) return;
    std::vector<std::array<int64_t, 3>> stack{{seed[0], seed[1], seed[2]}};
    nodes_[index(seed[0], seed[1], seed[2])] = value;
    while (!stack.empty()) {
      const std::array<int64_t, 3> q = stack.back();
      stack.pop_back();
      for (int d = 0; d < 3; ++d) {
        for (int64_t step : {-1, 1}) {
          std::array<int64_t, 3> n = q;
          n[d] += step;
          if (n[d] < r.lo[d] || n[d] > r.hi[d]) continue;
          uint16_t& node = nodes_[index(n[0], n[1], n[2])];
          if (node != 0) continue;
          node = value;
          stack.push_back(n);
        }
      }
    }
  }

  const std::vector<uint16_t>& nodes() const { return nodes_; }
  uint64_t extent(int d) const { return n_[d]; }

 private:
  NodeBox span_;
  uint64_t n_[3] = {0, 0, 0};
  std::vector<uint16_t> nodes_;
};

}  // namespace

GeneratedParticles ParticleGenerator::generate(int mkBoundFirst, int mkFluidFirst) const {
  GeneratedParticles out;
  // Only drawing shapes widen the array; erasing outside it has nothing to erase.
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
  if (!any) return out;

  NodeGrid grid(span);
  for (const Op& op : ops_) {
    if (op.fill) {
      grid.floodFill(op.box, op.seed, op.family);
      continue;
    }
    if (op.prism >= 0) {
      const PrismShape& prism = prisms_[size_t(op.prism)];
      grid.fillIf(op.box, op.family, [&](int64_t i, int64_t j, int64_t k) {
        const Vec3d x = nodePosition(i, j, k);
        return op.solid ? prism.inSolid(x) : prism.onFaces(x, op.faces);
      });
      continue;
    }
    if (op.solid) {
      grid.fill(op.box, op.family);
      continue;
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
  }

  std::vector<uint64_t> count(families_.size() + 1, 0);
  for (uint16_t v : grid.nodes()) ++count[v];

  // Final table: used boundary families by mk, then used fluid families by mk.
  std::vector<uint16_t> order;
  for (size_t f = 0; f < families_.size(); ++f) {
    if (count[f + 1] > 0) order.push_back(uint16_t(f));
  }
  std::sort(order.begin(), order.end(), [&](uint16_t a, uint16_t b) {
    if (families_[a].bound != families_[b].bound) return families_[a].bound;
    return families_[a].local < families_[b].local;
  });
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
  out.positions.resize(nBound + nFluid);
  out.mkIndex.resize(nBound + nFluid);

  size_t nextBound = 0, nextFluid = nBound;
  const std::vector<uint16_t>& nodes = grid.nodes();
  size_t idx = 0;
  for (uint64_t k = 0; k < grid.extent(2); ++k) {
    for (uint64_t j = 0; j < grid.extent(1); ++j) {
      for (uint64_t i = 0; i < grid.extent(0); ++i, ++idx) {
        const uint16_t v = nodes[idx];
        if (v == 0) continue;
        size_t& slot = families_[v - 1].bound ? nextBound : nextFluid;
        out.positions[slot] = nodePosition(span.lo[0] + int64_t(i), span.lo[1] + int64_t(j),
                                           span.lo[2] + int64_t(k));
        out.mkIndex[slot] = finalIndex[v];
        ++slot;
      }
    }
  }
  return out;
}

}  // namespace sph::gen
