// The device-specific half of the Verlet strategy: where the lists are built and used. The
// strategy (verlet_strategy.h) owns the rebuild rule, the cell sort it borrows from the cell
// plugin, timing and fallback; a backend owns the list storage and the loops. The CPU backend
// emulates 32-lane warps with the same layout, so CI tests the layout, offsets and overflow.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "neighbours/cell_iteration.h"
#include "sph/plugin/particle_view.h"
#include "sph/plugin/physics_constants.h"
#include "verlet_layout.h"

namespace sph::verlet {

// What a build asks for and what it got.
struct BuildRequest {
  double listRadius = 0;    // Rc
  size_t memoryCap = 0;     // most bytes the lists may take (0: only what the device has)
  uint32_t lanes = kLanes3D;            // lanes per particle in the interaction (verlet_layout.h)
  uint32_t countLanes = kCountLanes3D;  // lanes per particle in the GPU's count pass
  ListLayout layout = ListLayout::Indices;
  // Half lists for force passes that compute each pair once (forEachListMember's `once`), where
  // the backend has such a pass: index and cluster lists, on the GPU in single precision only
  // (gpu/once_forces.cuh); never bitmask lists (they hold candidates, not members).
  bool pairsOnce = false;
};
struct BuildResult {
  bool built = false;       // false: the lists did not fit (nothing was changed)
  bool pairsOnce = false;   // the lists are half lists: interact() computes each pair once
  uint64_t entries = 0;     // allocated entries or mask words (regions, padding included)
  uint64_t members = 0;     // list members (sum of lengths)
  size_t bytes = 0;         // bytes the lists need (entries or words, lengths, offsets)
};

// The lists copied to the host, for tests and statistics, in the Indices layout whatever the
// build's (a bitmask is decoded: its members in candidate order).
struct HostLists {
  std::vector<uint32_t> entries;
  std::vector<uint64_t> regionEnd;
  std::vector<uint32_t> length;
  uint32_t n = 0;
  uint32_t lanes = kLanes3D;  // lanes per particle of the interaction over these lists
};

// Lists of another layout as index lists (for tests and the host statistics): each(a, add)
// calls add(j) for a's members in list order, from host copies of the build's data.
template <typename Each>
HostLists decodeLists(uint32_t n, uint32_t lanes, Each&& each) {
  HostLists out;
  out.n = n;
  out.lanes = lanes;
  out.length.assign(n, 0);
  std::vector<std::vector<uint32_t>> members(n);
  for (uint32_t a = 0; a < n; ++a) each(a, [&](uint32_t j) { members[a].push_back(j); });
  out.regionEnd.resize(warpCount(n));
  uint64_t total = 0;
  for (uint32_t g = 0; g < out.regionEnd.size(); ++g) {
    size_t longest = 0;
    for (uint32_t a = g * kWarp; a < n && a < (g + 1) * kWarp; ++a) longest = members[a].size() > longest ? members[a].size() : longest;
    total += uint64_t(longest) * kWarp;
    out.regionEnd[g] = total;
  }
  out.entries.assign(total, 0xFFFFFFFFu);
  for (uint32_t a = 0; a < n; ++a) {
    out.length[a] = uint32_t(members[a].size());
    for (uint32_t k = 0; k < out.length[a]; ++k) out.entries[entrySlot(out.regionEnd.data(), a, k)] = members[a][k];
  }
  return out;
}

struct ListStats;

class VerletBackend {
 public:
  virtual ~VerletBackend() = default;
  // Largest |v| over [0, n) (blocks until known).
  virtual double maxSpeed(const ParticleView<float>& p) = 0;
  virtual double maxSpeed(const ParticleView<double>& p) = 0;
  // Largest |x - x_build|^2 over [0, n) against the positions saved by the last build.
  virtual double maxDisplacement2(const ParticleView<float>& p) = 0;
  virtual double maxDisplacement2(const ParticleView<double>& p) = 0;
  // maxDisplacement2 without waiting: queue() starts it, queued() returns it (waiting only if
  // the device has not finished; the engine's end-of-step wait normally has).
  virtual void queueDisplacement2(const ParticleView<float>& p) = 0;
  virtual void queueDisplacement2(const ParticleView<double>& p) = 0;
  virtual double queuedDisplacement2() = 0;
  // CUDA-graph replay (NeighbourStrategy::replayToken): a number that changes whenever the
  // device work of interact() and queueDisplacement2() changes for the same particle arrays
  // (list buffers moved, particle count, lanes, periodic box); 0: the backend is not replayable.
  virtual uint64_t launchGeneration() const { return 0; }
  // The engine replayed a recorded queueDisplacement2() (and waits for the step's end itself).
  virtual void markQueuedByReplay() {}
  // The four-step build (count, warp maximum, scan, fill) over the cell tables `l`, which
  // must come from a sort of these very positions; saves the positions for the displacement.
  virtual BuildResult build(const ParticleView<float>& p, const cell::CellLookup& l, const BuildRequest& r) = 0;
  virtual BuildResult build(const ParticleView<double>& p, const cell::CellLookup& l, const BuildRequest& r) = 0;
  virtual void interact(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                        const ForceOutputs<float>& out) = 0;
  virtual void interact(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                        const ForceOutputs<double>& out) = 0;
  virtual HostLists download() const = 0;
  // Statistics of the current lists for the positions in `p` (copied to the host on the GPU).
  virtual ListStats stats(const ParticleView<float>& p, double support) const = 0;
  virtual ListStats stats(const ParticleView<double>& p, double support) const = 0;
  virtual size_t deviceBytes() const = 0;
  virtual size_t peakDeviceBytes() const = 0;
};

std::unique_ptr<VerletBackend> makeVerletCpuBackend(int threads);
// Defined in gpu/ with CUDA; in nogpu/ it throws RunError("built without CUDA").
std::unique_ptr<VerletBackend> makeVerletGpuBackend();

// Storage grows by a sixteenth beyond what is needed and shrinks when more than twice as large
// as needed, so lists that breathe with the flow do not reallocate at every rebuild. The
// headroom is peak memory: with a quarter, DamBreak's peak ranged from 171.8 to 206.8 MiB
// between runs, depending only on where in the lists' growth the last reallocation fell; a
// sixteenth costs a few more reallocations over a run (one cudaMalloc each).
inline size_t listCapacity(size_t current, size_t needed) {
  if (current >= needed && current <= 2 * needed + 4096) return current;
  return needed + needed / 16 + 1024;
}

}  // namespace sph::verlet
