// What a run will hold on the device, estimated from the case before anything is allocated, so
// that `sph info` can say it per plugin and `sph run` can refuse a case that cannot fit (naming
// the largest dp that does) instead of failing in an allocation part-way through its set-up.
#pragma once

#include <cstdint>
#include <string>

#include "sph/case_model.h"
#include "sph/plugin/neighbour_strategy.h"
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

// What a run will hold in host memory: the case as loaded (positions, mk, normals, initial
// velocities and densities), the particle generator's peak (its lattice and positions, freed
// before the run) and the run's own host arrays: on the CPU the engine's particle arrays and the
// cell search (estimateDeviceMemory's, which the Verlet plugin falls back to when its lists do
// not fit); on the GPU the snapshot that output, gauges and checkpoints copy the particles into,
// and its VTK file buffer.
struct HostMemoryEstimate {
  double caseData = 0;
  double generatorPeak = 0;
  double run = 0;
  double peak() const { return generatorPeak > caseData + run ? generatorPeak : caseData + run; }
};

// Bytes of memory this process may still take: MemAvailable of /proc/meminfo (else the physical
// memory), within what is left under a container's limit (cgroup v2 memory.max) and under
// `ulimit -v` (RLIMIT_AS); 0 when unknown.
double availableHostBytes();

// The dp at which `need` bytes at `dp` shrink to `have`, with 2% to spare: the fluid's particles
// (and memory) grow as dp^-dim, the boundary's, a `boundShare` of them, as dp^-(dim-1) (walls are
// surfaces).
double dpThatFits(double dp, double need, double have, int dim, double boundShare = 0);

// The host bytes a particle of a run on `device` in `precision` takes besides the case's own, for a
// case of the usual options (the symplectic integrator, no SPS, mDBC or shifting): what the loader
// counts for the run to come (LoadOptions::runHostBytesPerParticle) before the case is known.
double runHostBytesPerParticle(Device device, Precision precision);

HostMemoryEstimate estimateHostMemory(const CaseDefinition& c, const SimParameters& p, Device device,
                                      Precision precision);

// Throws InputError when the host's peak exceeds `hostBytes` or, for a GPU run (`device` given),
// the engine arrays and the cell search (every plugin's need: the Verlet plugin falls back to the
// cell search when no list layout fits), with 6% and 48 MiB for what the estimate leaves out,
// exceed `deviceBytes`. The message names what does not fit and the dp at which both fit, each need
// scaled as dp^-dim.
void requireRunMemory(const HostMemoryEstimate& host, double hostBytes, const DeviceMemoryEstimate* device,
                      double deviceBytes, const SimParameters& p, const std::string& deviceName,
                      double boundShare = 0);

}  // namespace sph
