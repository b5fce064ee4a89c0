#include "sph/memory_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "host_memory.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

// The skin's share of the list radius the estimate assumes. DamBreak's lists held 166 entries a
// particle on average at 18 M particles (skin 1% of 2h, fewer neighbours near walls and the
// surface) and about 230 at the peak of a whole run (a wider skin, warp padding, storage
// headroom); the lattice has 170 neighbours within 2h and 202 within 2.1h.
constexpr double kSkinShare = 0.05;

// What the estimate leaves out (cell tables, the radix sort's scratch, the CUDA context), as a
// share of it: about 4% with the cell plugin on DamBreak (tools/bench/RESULTS.md).
constexpr double kUnestimated = 1.06;
// And what does not grow with the particles: the cell tables, CUB's scratch, recorded steps and
// the 2 MiB rounding of each of some twenty device arrays: a small DamBreak needed 25-30 MiB more
// than its estimate (tools/bench/RESULTS.md, "Memory").
constexpr double kDeviceFixedBytes = 48.0 * 1024 * 1024;

// Lattice neighbours within `radius` (in dp) of a node, the node itself left out.
double latticeNeighbours(double radius, int dim) {
  const long r = long(std::ceil(radius));
  long count = 0;
  for (long i = -r; i <= r; ++i)
    for (long j = dim == 3 ? -r : 0; j <= (dim == 3 ? r : 0); ++j)
      for (long k = -r; k <= r; ++k)
        if ((i || j || k) && double(i * i + j * j + k * k) < radius * radius) ++count;
  return double(count);
}

// Build candidates of a lattice node (in dp): the nodes in the cells of Rc/2 that the rows of
// the cell iteration keep after trimming (engine/neighbours/cell_iteration.h), averaged over 4
// positions of the node in its cell along each axis.
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

// Entries a particle of the cluster layout (verlet/verlet_clusters.h) takes on a lattice: a
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

}  // namespace

DeviceMemoryEstimate estimateDeviceMemory(const SimParameters& p, uint64_t particles, Precision precision) {
  const double n = double(particles);
  const double real4 = precision == Precision::Double ? 32 : 16, real = real4 / 4;
  // One set: position, velocity and density, the integrator's copy of it (and of the position
  // with the symplectic integrator), code and id.
  double perSet = real4 * (p.stepAlgorithm == 2 ? 4 : 3) + 8;
  if (p.viscosity == Viscosity::LaminarSps) perSet += 6 * real;  // the SPS stress
  if (p.mdbc()) perSet += real4;                                 // mDBC's normals
  if (p.mdbc2()) perSet += real4;                                // mDBC2's tangential velocities
  if (precision == Precision::Single) perSet += real4;           // positions' remainders (position_split.h)
  double outputs = real4 + real + 4;  // acceleration, viscous dt, permutation
  if (p.shifting != Shifting::None) outputs += real4;
  if (p.viscosity == Viscosity::LaminarSps) outputs += 6 * real;  // the SPS strain rate
  DeviceMemoryEstimate e;
  e.engine = n * (2 * perSet + outputs);
  e.cellSearch = n * 16;
  e.listEntriesPerParticle = latticeNeighbours((1 + kSkinShare) * p.support / p.dp, p.dim);
  // Entries (padded to the warp's longest: none on a lattice), lengths, region offsets, and the
  // positions of the last build (the displacement check).
  e.verletLists = n * (4 * e.listEntriesPerParticle + 4 + 8.0 / 32 + real4);
  // Words of 32 candidates (half a word of rounding and a word of warp padding on average).
  e.maskCandidatesPerParticle = latticeCandidates((1 + kSkinShare) * p.support / p.dp, p.dim);
  e.verletMasks = n * (4 * (e.maskCandidatesPerParticle / 32 + 1.5) + 4 + 8.0 / 32 + real4);
  // An entry: a 32-bit j-cluster and a 64-bit mask; per cluster of 8, its entry count and offset.
  e.clusterEntriesPerParticle = latticeClusterEntries((1 + kSkinShare) * p.support / p.dp, p.dim);
  e.verletClusters = n * (12 * e.clusterEntriesPerParticle + 16.0 / 8 + real4);
  return e;
}

namespace {
// The snapshot (output.h: position 24, velocity 12, density, pressure, mk and id 4 each, type 1)
// and the VTK writer's buffer of about as much.
constexpr double kSnapshotBytes = 2 * (24 + 12 + 4 + 4 + 4 + 4 + 1);
}  // namespace

double runHostBytesPerParticle(Device device, Precision precision) {
  if (device == Device::Gpu) return kSnapshotBytes;
  SimParameters usual;
  usual.stepAlgorithm = 2;
  usual.dim = 3;
  usual.dp = 1;
  usual.support = 2;
  return estimateDeviceMemory(usual, 1, precision).cell() * kUnestimated + kSnapshotBytes;
}

HostMemoryEstimate estimateHostMemory(const CaseDefinition& c, const SimParameters& p, Device device,
                                      Precision precision) {
  HostMemoryEstimate h;
  const double n = double(c.positions.size());
  h.caseData = double(c.positions.capacity()) * sizeof(Vec3d) + double(c.mkIndex.capacity()) * sizeof(uint16_t) +
               double(c.normals.capacity()) * sizeof(Vec3d) + double(c.velocities.capacity()) * sizeof(Vec3f) +
               double(c.densities.capacity()) * sizeof(float);
  h.generatorPeak = c.generatorPeakBytes;
  if (device == Device::Gpu) {
    h.run = n * kSnapshotBytes;
  } else {
    const DeviceMemoryEstimate e = estimateDeviceMemory(p, c.positions.size(), precision);
    h.run = e.cell() * kUnestimated + n * kSnapshotBytes;
  }
  return h;
}

void requireRunMemory(const HostMemoryEstimate& host, double hostBytes, const DeviceMemoryEstimate* device,
                      double deviceBytes, const SimParameters& p, const std::string& deviceName,
                      double boundShare) {
  constexpr double kGiB = 1024.0 * 1024 * 1024;
  const double hostNeed = host.peak();
  const double deviceNeed = device ? device->cell() * kUnestimated + kDeviceFixedBytes : 0;
  const bool hostShort = hostBytes > 0 && hostNeed > hostBytes;
  const bool deviceShort = device && deviceBytes > 0 && deviceNeed > deviceBytes;
  if (!hostShort && !deviceShort) return;
  double fits = p.dp;
  if (hostBytes > 0) fits = std::max(fits, dpThatFits(p.dp, hostNeed, hostBytes, p.dim, boundShare));
  // The fixed part stays whatever the dp.
  const bool noDpFits = device && deviceBytes > 0 && deviceBytes <= kDeviceFixedBytes * 1.02;
  if (device && deviceBytes > 0 && !noDpFits)
    fits = std::max(fits, dpThatFits(p.dp, deviceNeed - kDeviceFixedBytes, deviceBytes - kDeviceFixedBytes, p.dim,
                                     boundShare));
  auto size = [&](double b) {
    return b >= kGiB ? fmt::format("{:.2f} GiB", b / kGiB) : fmt::format("{:.0f} MiB", b / (1024.0 * 1024));
  };
  std::string what;
  if (hostShort)
    what = fmt::format("the run needs about {} of host memory (the case {}, the run's arrays {}, the particle "
                       "generator at its peak {}), more than the {} available",
                       size(hostNeed), size(host.caseData), size(host.run), size(host.generatorPeak), size(hostBytes));
  if (deviceShort)
    what += fmt::format("{}the particles need about {} on the device (engine arrays and cell search), more than the "
                        "{} free on {}",
                        what.empty() ? "" : "; ", size(deviceNeed), size(deviceBytes), deviceName);
  if (noDpFits)
    throw InputError(fmt::format("dp {}: {}; no dp fits: a run needs {} on the device whatever its size", p.dp, what,
                                 size(kDeviceFixedBytes)));
  throw InputError(fmt::format("dp {}: {}; a dp of about {:.3g} or larger fits", p.dp, what, fits));
}

}  // namespace sph
