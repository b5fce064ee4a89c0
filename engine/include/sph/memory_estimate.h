// What a run will hold on the device, estimated from the case before anything is allocated, so
// that `sph info` can say it per plugin and `sph run` can refuse a case that cannot fit (naming
// the largest dp that does) instead of failing in an allocation part-way through its set-up.
#pragma once

#include <cstdint>
#include <string>

#include "sph/neighbour_strategy.h"
#include "sph/sim_parameters.h"

namespace sph {

struct DeviceMemoryEstimate {
  double engine = 0;       // the engine's particle arrays: two sets (for reordering), force outputs
  double cellSearch = 0;   // the cell search's keys and indices (double-buffered for the radix sort)
  double verletLists = 0;  // Verlet lists of a lattice at rest: 4 bytes per neighbour within 2h
                           // plus a twentieth of it (the skin), and the build's saved positions
  double verletMasks = 0;  // the same lists in the bitmask layout: a bit per build candidate
  double verletClusters = 0;  // the same lists in the cluster layout: entries shared by 8 particles
  double listEntriesPerParticle = 0;
  double maskCandidatesPerParticle = 0;   // lattice nodes in the cells a build scans
  double clusterEntriesPerParticle = 0;  // a cluster's entries (j-clusters with a member) / 8

  double cell() const { return engine + cellSearch; }
  double verlet() const { return engine + cellSearch + verletLists; }
  double verletBitmask() const { return engine + cellSearch + verletMasks; }
  double verletClustered() const { return engine + cellSearch + verletClusters; }
};

DeviceMemoryEstimate estimateDeviceMemory(const SimParameters& p, uint64_t particles, Precision precision);

// Throws InputError when the engine and the cell search alone (what every plugin needs; the
// Verlet plugin falls back to the cell search when its lists do not fit), with 6% for what the
// estimate leaves out, exceed `deviceBytes`.
// The message names the dp that would fit, scaling dp by (need / have)^(1 / dim).
void requireDeviceMemory(const DeviceMemoryEstimate& e, double deviceBytes, const SimParameters& p,
                         const std::string& deviceName);

}  // namespace sph
