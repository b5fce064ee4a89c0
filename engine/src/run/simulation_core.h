// The precision-specific core of a simulation: set-up, the time step, exclusion and snapshots.
// The run loop lives in run/simulation.cpp, the output schedule in run/run_output.h, the report in
// run/report_builder.h.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "floating/floating_bodies.h"
#include "gauges/gauge_sampler.h"
#include "inout/inout_zones.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "output/checkpoint.h"
#include "output/output.h"
#include "output/part_filter.h"
#include "parallel/communicator.h"
#include "platform/phase_timers.h"
#include "platform/plugin_loader.h"
#include "run/engine_ops.h"
#include "run/neighbour_plugin.h"
#include "run/particle_state.h"
#include "run/rank_domain.h"
#include "run/relaxation_zones.h"
#include "run/run_output.h"
#include "run/simulation.h"

namespace sph {

// The state of a run and the one step that advances it. Only the precision-specific core
// (run/simulation_core.cpp) writes the state; the run loop (run/simulation.cpp), its output schedule
// (run/run_output.h) and its report (run/report_builder.h) read it through the accessors.
class Simulation::Impl : public OutputSource {
 public:
  ~Impl() override = default;
  virtual void step() = 0;
  virtual size_t engineDeviceBytes() const = 0;
  // How steps were run: "off (why)" or "on", with the graphs recorded and the steps replayed
  // (run/step_graphs.h), for run.json.
  virtual std::string stepGraphSummary() const = 0;
  // A resumed run: the state saveState() wrote, over the state the set-up made from the case.
  virtual void restoreState(const CheckpointReader& r) = 0;
  const CheckpointHeader& checkpointHeader() const override { return header_; }
  // The checkpoint a resumed run started from, kept from the set-up (Simulation's constructor)
  // until the run loop has resumed its output from it.
  std::unique_ptr<CheckpointReader> resumedFrom;
  // <special><outputparts>'s filter of the parts written (null without one), made by the
  // constructor with the floating bodies where the case starts them.
  std::unique_ptr<PartFilter> partFilter;
  // Device memory free before the run allocated anything (GPU runs; 0 on the CPU): what the
  // memory check compared the estimate with.
  double deviceFreeAtStart = 0;
  // The step a resumed run started at (0 otherwise) and the particle-steps done by then, for the
  // report.
  uint64_t firstStep() const { return firstStep_; }
  uint64_t firstParticleSteps() const { return firstParticleSteps_; }

  const SimParameters& params() const { return p; }
  const RunOptions& options() const { return opts; }
  const std::string& name() const { return caseName; }
  const std::string& path() const { return casePath; }
  Device where() const { return device; }
  const PluginInfo& pluginInfo() const { return plugin; }
  const NeighbourStrategy& neighbours() const { return *strategy; }
  // Runs over several ranks: what this rank's exchanges moved; null on one rank.
  virtual const RankExchangeTotals* rankExchangeTotals() const { return nullptr; }
  RecordingTimer& phaseTimer() const { return *timer; }
  uint32_t boundInitially() const { return nBoundInitial; }
  uint32_t fluidInitially() const { return nFluidInitial; }
  double now() const { return t; }
  double stepDt() const { return dt; }
  double endTime() const { return timeMax; }
  bool reachedEnd() const { return reachedEndTime(t, timeMax, p.timeOut); }
  uint64_t stepsDone() const { return stepCount; }
  uint64_t dtMinHitCount() const { return dtMinHits; }
  uint64_t particleStepCount() const { return particleSteps; }
  uint64_t compactionCount() const { return compactions; }
  const ExclusionCounts& exclusions() const { return excluded; }
  const std::vector<ExcludedParticle>& exclusionLog() const { return excludedLog; }
  const CaseGauges& caseGauges() const { return gauges; }
  // Runs with inlets/outlets: their counts (null otherwise); the particles the run holds now.
  virtual const InOutTotals* inOutTotals() const { return nullptr; }
  virtual double inOutZsurf(uint32_t) const { return HUGE_VAL; }
  virtual std::vector<double> inOutZsurfColumns(uint32_t zone) const { return {inOutZsurf(zone)}; }
  virtual uint64_t particlesNow() const = 0;
  const std::vector<WavePaddle>& wavePaddles() const { return paddles; }
  const RelaxationZones* relaxationZones() const { return relaxZones.get(); }
  // Wall seconds the run spent being set up (arrays filled and uploaded, the plugin created), for
  // run.json; set by Simulation's constructor.
  double setupSeconds() const { return setupTime; }
  void setSetupSeconds(double s) { setupTime = s; }
  // The parts of the set-up in order, with their wall seconds: where a case of hundreds of
  // millions of particles spends the time before its first step (run.json, `sph run`).
  const std::vector<std::pair<std::string, double>>& setupPhases() const { return setupPhases_; }

 protected:
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
  CaseGauges gauges;  // sampled by the run's output schedule (run/run_output.h)
  std::vector<WavePaddle> paddles;  // their <savemotion> files are written at the start
  std::shared_ptr<const RelaxationZones> relaxZones;  // null without <relaxationzones>
  double setupTime = 0;
  CheckpointHeader header_;
  uint64_t firstStep_ = 0, firstParticleSteps_ = 0;

  // Ends the set-up part that began at the last call (or at construction) under `name`.
  void setupLap(const char* name) {
    const auto now = std::chrono::steady_clock::now();
    setupPhases_.emplace_back(name, std::chrono::duration<double>(now - setupLapStart_).count());
    setupLapStart_ = now;
  }

 private:
  std::vector<std::pair<std::string, double>> setupPhases_;
  std::chrono::steady_clock::time_point setupLapStart_ = std::chrono::steady_clock::now();
};

// comm: the ranks the case is divided among (run/rank_domain.h); one rank runs it whole.
std::unique_ptr<Simulation::Impl> makeSimulationCore(const CaseDefinition& c, const RunOptions& o, Device device,
                                                     NeighbourPlugin plugin, const parallel::Communicator& comm);

}  // namespace sph
