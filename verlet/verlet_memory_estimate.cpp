#include "verlet_memory_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "neighbours/cell_mode.h"
#include "verlet_layout.h"

namespace sph::verlet {
namespace {

// The skin's share of the list radius the estimate assumes. DamBreak's lists held 166 entries a
// particle on average at 18 M particles (skin 1% of 2h, fewer neighbours near walls and the
// surface) and about 230 at the peak of a whole run (a wider skin, warp padding, storage
// headroom); the lattice has 170 neighbours within 2h and 202 within 2.1h.
constexpr double kSkinShare = 0.05;

}  // namespace

double latticeNeighbours(double radius, int dim) {
  const long r = long(std::ceil(radius));
  long count = 0;
  for (long i = -r; i <= r; ++i)
    for (long j = dim == 3 ? -r : 0; j <= (dim == 3 ? r : 0); ++j)
      for (long k = -r; k <= r; ++k)
        if ((i || j || k) && double(i * i + j * j + k * k) < radius * radius) ++count;
  return double(count);
}

double latticeCandidates(double listRadius, int dim) {
  const double perCell = std::pow(listRadius / 2, dim);
  const double at[4] = {0.125, 0.375, 0.625, 0.875};
  auto distance = [](double f, int d) { return std::max({double(d) - f, f - double(d + 1), 0.0}); };
  double sum = 0;
  int samples = 0;
  for (double fx : at)
    for (double fy : at)
      for (double fz : at) {
        long cells = 0;
        for (int dz = -2; dz <= 2; ++dz)
          for (int dy = dim == 3 ? -2 : 0; dy <= (dim == 3 ? 2 : 0); ++dy) {
            const double ey = dim == 3 ? distance(fy, dy) : 0.0, ez = distance(fz, dz);
            const double left = 4.0 - ey * ey - ez * ez;
            if (left <= 0) continue;
            const double e = std::sqrt(left);
            const long lo = std::max(-2L, long(std::floor(fx - e))), hi = std::min(2L, long(std::floor(fx + e)));
            if (hi >= lo) cells += hi - lo + 1;
          }
        sum += double(cells) * perCell;
        ++samples;
      }
  return sum / samples;
}

namespace {

// A cube of lattice nodes (a square in 2D) with `margin` nodes beyond the reach of Rc on each side,
// sorted as a build sorts particles (cells of Rc/2, x fastest; within a cell, in lattice order):
// rank[index(x, y, z)] is a node's place in that order; offsets, the (dx, dy, dz) within Rc.
struct SortedLattice {
  struct Node {
    int64_t key;
    int x, y, z;
  };
  int reach = 0, side = 0, ny = 1;
  std::vector<Node> nodes;  // in sorted order
  std::vector<int> rank;
  std::vector<int> offsets;  // packed triples

  SortedLattice(double listRadius, int dim, int margin) {
    reach = int(std::ceil(listRadius));
    side = 2 * reach + margin;
    ny = dim == 3 ? side : 1;
    const double cell = listRadius / 2;
    const int nc = int(std::floor((side - 1) / cell)) + 1;
    nodes.reserve(size_t(side) * ny * side);
    for (int z = 0; z < side; ++z)
      for (int y = 0; y < ny; ++y)
        for (int x = 0; x < side; ++x) {
          const int64_t cx = int64_t(x / cell), cy = int64_t(y / cell), cz = int64_t(z / cell);
          nodes.push_back({cx + nc * (cy + int64_t(nc) * cz), x, y, z});
        }
    std::stable_sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) { return a.key < b.key; });
    rank.resize(nodes.size());
    for (size_t r = 0; r < nodes.size(); ++r) rank[index(nodes[r].x, nodes[r].y, nodes[r].z)] = int(r);
    for (int dz = -reach; dz <= reach; ++dz)
      for (int dy = dim == 3 ? -reach : 0; dy <= (dim == 3 ? reach : 0); ++dy)
        for (int dx = -reach; dx <= reach; ++dx)
          if ((dx || dy || dz) && double(dx * dx + dy * dy + dz * dz) < listRadius * listRadius) {
            offsets.push_back(dx);
            offsets.push_back(dy);
            offsets.push_back(dz);
          }
  }
  size_t index(int x, int y, int z) const { return (size_t(z) * ny + y) * side + x; }
  // All its neighbours within Rc are nodes of the block.
  bool inside(const Node& n) const {
    auto in = [&](int v) { return v >= reach && v < side - reach; };
    return in(n.x) && in(n.z) && (ny == 1 || in(n.y));
  }
  // Calls fn(rank of j) for each neighbour j within Rc of node n (inside()).
  template <typename Fn>
  void forEachNeighbour(const Node& n, Fn&& fn) const {
    for (size_t o = 0; o < offsets.size(); o += 3)
      fn(rank[index(n.x + offsets[o], n.y + offsets[o + 1], n.z + offsets[o + 2])]);
  }
};

}  // namespace

// The cluster layout on a lattice: clusters of 8 consecutive sorted nodes; each cluster of the
// block's interior has an entry per cluster holding a node within Rc of one of its nodes (with
// `half`, a node whose pair one of its nodes holds). Their mean over 8.
double latticeClusterEntries(double listRadius, int dim, bool half) {
  constexpr int kCluster = 8;
  const SortedLattice l(listRadius, dim, 4 * kCluster);
  double entries = 0;
  long clusters = 0;
  std::vector<int> js;
  for (size_t first = 0; first + kCluster <= l.nodes.size(); first += kCluster) {
    if (!std::all_of(l.nodes.begin() + first, l.nodes.begin() + first + kCluster,
                     [&](const SortedLattice::Node& n) { return l.inside(n); }))
      continue;
    js.clear();
    for (size_t r = first; r < first + kCluster; ++r)
      l.forEachNeighbour(l.nodes[r], [&](int j) {
        if (!half || holdsPair(uint32_t(r), uint32_t(j))) js.push_back(j / kCluster);
      });
    std::sort(js.begin(), js.end());
    entries += double(std::unique(js.begin(), js.end()) - js.begin());
    ++clusters;
  }
  return clusters ? entries / clusters / kCluster : 0.0;
}

// Half lists (pairs once) on a lattice: a node lists the neighbours whose pair it holds
// (holdsPair, by places in the sorted order), and a warp's 32 lists take the room of its longest.
double latticeHalfListEntries(double listRadius, int dim) {
  constexpr int kWarpNodes = 32;
  const SortedLattice l(listRadius, dim, 2 * kWarpNodes);
  double entries = 0;
  long warps = 0;
  for (size_t first = 0; first + kWarpNodes <= l.nodes.size(); first += kWarpNodes) {
    int longest = 0;
    bool all = true;
    for (size_t r = first; r < first + kWarpNodes && all; ++r) {
      all = l.inside(l.nodes[r]);
      int held = 0;
      if (all) l.forEachNeighbour(l.nodes[r], [&](int j) { held += holdsPair(uint32_t(r), uint32_t(j)); });
      longest = std::max(longest, held);
    }
    if (!all) continue;
    entries += longest;
    ++warps;
  }
  return warps ? entries / warps : 0.0;
}

std::vector<MemoryNeed> estimateVerletMemory(const MemoryQuery& q) {
  const double n = double(q.particles);
  const double real4 = q.precision == Precision::Double ? 32 : 16;
  const double radius = (1 + kSkinShare) * q.support / q.dp;
  // The cell search beside the lists sorts and builds them (no pass of its own); alone (the
  // fallback) it pairs as the lists do (VerletStrategy::configure), with its own pass's scratch.
  MemoryQuery cellQuery = q;
  cellQuery.options["CellPairs"] = "twice";
  MemoryNeed cell = cell::cellSearchMemory(cellQuery);
  std::vector<MemoryNeed> needs;
  // Entries (padded to the warp's longest: none on a lattice), lengths, region offsets, and the
  // positions of the last build (the displacement check).
  // Half lists (VerletPairs once, cell::pairsOnceRuns) add the pass's scratch.
  const bool half =
      cell::pairsOnceRuns(q.device, q.precision) &&
      cell::pairsOnceAsked(pairsOption(q.options) == "once", q.options.count("VerletPairs") > 0, q.device);
  const double entries = half ? latticeHalfListEntries(radius, q.dim) : latticeNeighbours(radius, q.dim);
  const double scratch = half ? cell::pairOnceScratchBytes(q) : 0.0;
  needs.push_back({"index lists", cell.bytes + n * (4 * entries + 4 + 8.0 / 32 + real4 + scratch),
                   fmt::format("the cell search and {:.0f} entries a particle at rest{}", entries,
                               half ? " (each pair once)" : "")});
  // An entry: a 32-bit j-cluster and a 64-bit mask; per cluster of 8, its entry count and offset.
  // Half lists in this layout too (the GPU's; the CPU's when asked), with the same scratch.
  const double clusterEntries = latticeClusterEntries(radius, q.dim, half);
  needs.push_back({"cluster lists", cell.bytes + n * (12 * clusterEntries + 16.0 / 8 + real4 + scratch),
                   fmt::format("the cell search and {:.1f} entries a particle{}", clusterEntries,
                               half ? " (each pair once)" : "")});
  // Words of 32 candidates (half a word of rounding and a word of warp padding on average).
  const double candidates = latticeCandidates(radius, q.dim);
  needs.push_back({"bitmask lists", cell.bytes + n * (4 * (candidates / 32 + 1.5) + 4 + 8.0 / 32 + real4),
                   fmt::format("the cell search and {:.0f} candidates a particle", candidates)});
  cellQuery.options["CellPairs"] = pairsOption(q.options);
  MemoryNeed alone = cell::cellSearchMemory(cellQuery);
  alone.what = "cell search alone";
  alone.detail = "when no list layout fits";
  alone.minimum = true;
  needs.push_back(alone);
  return needs;
}

}  // namespace sph::verlet
