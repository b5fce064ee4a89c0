#include "verlet_memory_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "neighbours/cell_mode.h"

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

// The cluster layout on a lattice: a
// block of nodes sorted as a build sorts them (cells of Rc/2, x fastest; within a cell, in
// lattice order), cut into clusters of 8 consecutive nodes; each cluster of the block's interior
// has an entry per cluster holding a node within Rc of one of its nodes. Their mean over 8.
double latticeClusterEntries(double listRadius, int dim) {
  constexpr int kCluster = 8;
  const int reach = int(std::ceil(listRadius));
  const int side = 2 * reach + 4 * kCluster, ny = dim == 3 ? side : 1;
  const double cell = listRadius / 2;
  const int nc = int(std::floor((side - 1) / cell)) + 1;
  struct Node {
    int64_t key;
    int x, y, z;
  };
  std::vector<Node> nodes;
  nodes.reserve(size_t(side) * ny * side);
  for (int z = 0; z < side; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < side; ++x) {
        const int64_t cx = int64_t(x / cell), cy = int64_t(y / cell), cz = int64_t(z / cell);
        nodes.push_back({cx + nc * (cy + int64_t(nc) * cz), x, y, z});
      }
  std::stable_sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) { return a.key < b.key; });
  std::vector<int> rank(nodes.size());
  auto index = [&](int x, int y, int z) { return (size_t(z) * ny + y) * side + x; };
  for (size_t r = 0; r < nodes.size(); ++r) rank[index(nodes[r].x, nodes[r].y, nodes[r].z)] = int(r);
  std::vector<int> offsets;  // (dx, dy, dz) within Rc, packed
  for (int dz = -reach; dz <= reach; ++dz)
    for (int dy = dim == 3 ? -reach : 0; dy <= (dim == 3 ? reach : 0); ++dy)
      for (int dx = -reach; dx <= reach; ++dx)
        if ((dx || dy || dz) && double(dx * dx + dy * dy + dz * dz) < listRadius * listRadius) {
          offsets.push_back(dx);
          offsets.push_back(dy);
          offsets.push_back(dz);
        }
  auto inside = [&](const Node& n) {
    auto in = [&](int v) { return v >= reach && v < side - reach; };
    return in(n.x) && in(n.z) && (dim == 2 || in(n.y));
  };
  double entries = 0;
  long clusters = 0;
  std::vector<int> js;
  for (size_t first = 0; first + kCluster <= nodes.size(); first += kCluster) {
    if (!std::all_of(nodes.begin() + first, nodes.begin() + first + kCluster, inside)) continue;
    js.clear();
    for (size_t r = first; r < first + kCluster; ++r)
      for (size_t o = 0; o < offsets.size(); o += 3)
        js.push_back(rank[index(nodes[r].x + offsets[o], nodes[r].y + offsets[o + 1], nodes[r].z + offsets[o + 2])] /
                     kCluster);
    std::sort(js.begin(), js.end());
    entries += double(std::unique(js.begin(), js.end()) - js.begin());
    ++clusters;
  }
  return clusters ? entries / clusters / kCluster : 0.0;
}

std::vector<MemoryNeed> estimateVerletMemory(const MemoryQuery& q) {
  const double n = double(q.particles);
  const double real4 = q.precision == Precision::Double ? 32 : 16;
  const double radius = (1 + kSkinShare) * q.support / q.dp;
  MemoryNeed cell = cell::cellSearchMemory(q);
  std::vector<MemoryNeed> needs;
  // Entries (padded to the warp's longest: none on a lattice), lengths, region offsets, and the
  // positions of the last build (the displacement check).
  const double entries = latticeNeighbours(radius, q.dim);
  needs.push_back({"index lists", cell.bytes + n * (4 * entries + 4 + 8.0 / 32 + real4),
                   fmt::format("the cell search and {:.0f} entries a particle at rest", entries)});
  // An entry: a 32-bit j-cluster and a 64-bit mask; per cluster of 8, its entry count and offset.
  const double clusterEntries = latticeClusterEntries(radius, q.dim);
  needs.push_back({"cluster lists", cell.bytes + n * (12 * clusterEntries + 16.0 / 8 + real4),
                   fmt::format("the cell search and {:.1f} entries a particle", clusterEntries)});
  // Words of 32 candidates (half a word of rounding and a word of warp padding on average).
  const double candidates = latticeCandidates(radius, q.dim);
  needs.push_back({"bitmask lists", cell.bytes + n * (4 * (candidates / 32 + 1.5) + 4 + 8.0 / 32 + real4),
                   fmt::format("the cell search and {:.0f} candidates a particle", candidates)});
  cell.what = "cell search alone";
  cell.detail = "when no list layout fits";
  cell.minimum = true;
  needs.push_back(cell);
  return needs;
}

}  // namespace sph::verlet
