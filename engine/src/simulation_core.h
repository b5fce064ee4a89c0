// The precision-specific core of a simulation: set-up, the time step, exclusion and snapshots.
// The run loop, output and report live in simulation.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine_ops.h"
#include "floating_bodies.h"
#include "gauge_sampler.h"
#include "particle_state.h"
#include "phase_timers.h"
#include "sph/case_model.h"
#include "sph/output.h"
#include "sph/plugin_loader.h"
#include "sph/sim_parameters.h"
#include "sph/simulation.h"

namespace sph {

// One excluded particle, kept for OUT/excluded.csv.
struct ExcludedParticle {
  double time;
  uint32_t id;
  double x, y, z, vx, vy, vz, rho;
  const char* reason;
};

struct Simulation::Impl {
  virtual ~Impl() = default;
  virtual void step() = 0;
  // Host copy of the current state into `into`, reusing its storage and the core's staging
  // buffers (no allocation once the sizes have been reached).
  virtual void snapshotInto(ParticleSnapshot& into) const = 0;
  virtual size_t engineDeviceBytes() const = 0;
  virtual std::vector<FloatingBodyState> floatingStates() const = 0;  // empty without floating bodies
  // Where the gauges take their samples of the current state (gauge_sampler.h).
  virtual GaugeSource& gaugeSource() = 0;
  // How steps were run: "off (why)" or "on", with the graphs recorded and the steps replayed
  // (step_graphs.h), for run.json.
  virtual std::string stepGraphSummary() const = 0;

  SimParameters p;
  RunOptions opts;
  std::string caseName, casePath;
  std::vector<MkEntry> mks;
  Device device = Device::Cpu;
  std::unique_ptr<RecordingTimer> timer;
  StrategyPtr strategy;
  PluginInfo plugin;
  uint32_t nBoundInitial = 0, nFluidInitial = 0;
  double t = 0, dt = 0, timeMax = 0;
  uint64_t stepCount = 0, dtMinHits = 0, particleSteps = 0;
  uint64_t compactions = 0;  // reorders of the arrays to drop excluded particles
  ExclusionCounts excluded;
  std::vector<ExcludedParticle> excludedLog;
  CaseGauges gauges;  // run by Simulation::run (gauge_recorder.h)
};

std::unique_ptr<Simulation::Impl> makeSimulationCore(const CaseDefinition& c, const RunOptions& o,
                                                     Device device);

}  // namespace sph
