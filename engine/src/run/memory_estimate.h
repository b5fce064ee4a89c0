// What a run will hold on the device, estimated from the case before anything is allocated, so
// that `sph info` can say it per plugin and `sph run` can refuse a case that cannot fit (naming
// the largest dp that does) instead of failing in an allocation part-way through its set-up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "platform/host_memory.h"
#include "sph/plugin/neighbour_strategy.h"

namespace sph {

struct DeviceMemoryEstimate {
  double engine = 0;  // the engine's particle arrays: two sets (for reordering), force outputs
  // The neighbour plugin's needs beyond them (NeighbourStrategy::estimateMemory).
  std::vector<MemoryNeed> strategy;
  // The plugin's need marked minimum (0 without one): what a run must have room for.
  double strategyMinimum() const;
  double run() const { return engine + strategyMinimum(); }
};

// The engine's arrays for `particles` particles of a run with the parameters `p`.
double estimateEngineMemory(const SimParameters& p, uint64_t particles, Precision precision);

// The engine's arrays and the plugin's needs, on `device` (host memory on the CPU); over several
// `ranks`, `particles` are one rank's (its slab's and its halo).
DeviceMemoryEstimate estimateDeviceMemory(const SimParameters& p, uint64_t particles, Precision precision,
                                          const NeighbourStrategy& strategy, Device device = Device::Gpu,
                                          uint32_t ranks = 1);

// What a run will hold in host memory: the case as loaded (positions, mk, normals, initial
// velocities and densities), the particle generator's peak (its lattice and positions, freed
// before the run) and the run's own host arrays: on the CPU the engine's particle arrays and the
// plugin's minimum need; on the GPU the snapshot that output, gauges and checkpoints copy the
// particles into, and its VTK file buffer.
struct HostMemoryEstimate {
  double caseData = 0;
  double generatorPeak = 0;
  double run = 0;
  double peak() const { return generatorPeak > caseData + run ? generatorPeak : caseData + run; }
};

// The host bytes a particle of a run on `device` in `precision` takes besides the case's own, for a
// case of the usual options (the symplectic integrator, no SPS, mDBC or shifting), the plugin's
// aside: what the loader counts for the run to come (LoadOptions::runHostBytesPerParticle) before
// the case and its plugin are known. The run's own check (requireRunMemory) counts the plugin.
double runHostBytesPerParticle(Device device, Precision precision);

HostMemoryEstimate estimateHostMemory(const CaseDefinition& c, const SimParameters& p, Device device,
                                      Precision precision, const NeighbourStrategy& strategy);

// Throws InputError when the host's peak exceeds `hostBytes` or, for a GPU run (`device` given),
// the engine arrays and the plugin's minimum need (DeviceMemoryEstimate::run), with 6% and 48 MiB
// for what the estimate leaves out, exceed `deviceBytes`. The message names what does not fit and
// the dp at which both fit, each need scaled as dp^-dim.
void requireRunMemory(const HostMemoryEstimate& host, double hostBytes, const DeviceMemoryEstimate* device,
                      double deviceBytes, const SimParameters& p, const std::string& deviceName,
                      double boundShare = 0);

}  // namespace sph
