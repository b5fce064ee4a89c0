// One simulation of a loaded case: owns the particle arrays (host or device), the chosen
// neighbour strategy and the integrator, and produces output and the run report.
#pragma once

#include <cstdint>
#include <memory>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "output/output.h"
#include "parallel/communicator.h"
#include "sph/plugin/neighbour_strategy.h"

namespace sph {

struct InOutTotals;         // inout/inout_zones.h
struct RankExchangeTotals;  // run/rank_domain.h

struct RunOptions {
  std::string neighbours;            // "" : XML parameter NeighbourSearch, else "cell"
  std::vector<std::string> pluginDirs;  // searched first for the plugin (--plugin-path)
  std::optional<Device> device;      // unset: the GPU when one is usable, else the CPU
  Precision precision = Precision::Single;
  std::string outDir;                // "" : out/<case name>
  std::optional<double> timeMax;     // overrides TimeMax
  std::optional<double> timeOut;     // overrides TimeOut
  std::optional<uint64_t> maxSteps;  // stop after this many steps
  int threads = 0;                   // CPU threads; 0 = all cores
  // The neighbour plugin's options (NeighbourStrategy::options(), by key) given on the command
  // line: they override the case's. A key the plugin has not is warned of and ignored.
  std::map<std::string, std::string> strategyOptions;
  bool writeOutput = true;           // any files at all (run.json, excluded.csv, VTK)
  // Replace an earlier run's results in the output folder (output/output_folder.h). The library's
  // default; `sph run` gives false unless --overwrite.
  bool overwrite = true;
  // Wall-clock seconds between checkpoints (OUT/checkpoint/checkpoint.bin, written atomically),
  // and a last one when a signal stops the run; 0: none at all. Only with writeOutput.
  double checkpointEvery = 900;
  // A checkpoint also when maxSteps stops the run before TimeMax, to go on from with more steps.
  // Off unless asked for (`sph run` asks when --checkpoint-every is given): a benchmark's short
  // runs of hundreds of millions of particles would each write tens of gigabytes.
  bool checkpointAtStepLimit = false;
  // Continue the run whose checkpoint is in OUT (outDir) into the same folder: its results are
  // kept, those written after the checkpoint are cut off, and the run goes on from the step of
  // the checkpoint (maxSteps and timeMax count from the run's start). The case, its parameters
  // (TimeMax aside), the precision and sph's version must be those of the checkpoint.
  bool resume = false;
  bool writeVtk = true;              // VTK files every TimeOut (benchmarks turn them off)
  bool progress = true;              // progress line on stderr
  // Per-phase timing (CUDA events on the GPU, the steady clock on the CPU). Off (--no-timers,
  // DualSPHysics' -svtimers:0) it costs nothing: at DamBreak2D's 21k particles the ~10 events
  // of a step take about a sixth of the step's host time.
  bool phaseTimers = true;
  // GPU runs record a steady step's device work (phase-timer events included) once as a CUDA
  // graph and replay it (run/step_graphs.h); off (--no-graphs) every step launches its kernels one
  // by one.
  bool stepGraphs = true;
  // How the particles that go between GPU ranks travel (runs over several ranks): through
  // page-locked host memory and MPI, or from GPU to GPU by NCCL (parallel/nccl_link.h), when asked.
  enum class RankLink { Host, Nccl };
  RankLink rankLink = RankLink::Host;
  // Runs over several ranks, force passes whose halo is refreshed (between exchanges, for a
  // strategy that allows it: NeighbourStrategy::preparesBeforeHaloRefresh): the particles out of
  // the halo's reach interact while the messages travel, those within it after (ForcePart); off
  // (--rank-overlap off) the halo is refreshed first.
  bool rankOverlap = true;
  // Runs over several ranks: every rankRebalanceEvery force passes the slabs move towards an even
  // cost when the busiest rank's force passes took more than rankRebalance (a fraction: 0.1 is
  // 10%) over the mean (run/rank_domain.h); negative: the slabs keep their first bounds.
  double rankRebalance = 0.1;
  uint32_t rankRebalanceEvery = 50;
  // Runs over several ranks: where the slabs start, the ranks' inner boundaries along the slab
  // axis (m, ranks - 1 of them, each moved to the nearest layer boundary); empty: balanced by the
  // particles (parallel/slab_plan.h).
  std::vector<double> rankSlabBounds;
};

class Simulation {
 public:
  // comm: the ranks that run the case together, each its slab of it (run/rank_domain.h); all of
  // them construct the simulation and call run() (or step()) alike. The world of an MPI launcher by
  // default: one rank without one.
  Simulation(const CaseDefinition& c, const RunOptions& o,
             const parallel::Communicator& comm = parallel::Communicator::world());
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  // Runs to TimeMax (or maxSteps) writing output every TimeOut; returns the report, which is
  // also written to OUT/run.json. Errors during the run are rethrown after a report with
  // status "failed" has been written.
  RunReport run();

  void step();  // one time step (two force passes for the symplectic integrator)
  bool finished() const;
  double time() const;
  uint64_t steps() const;
  double lastDt() const;
  // Inlet/outlet zone `zone`'s zsurf now (m; +inf: none), as the zone imposes it; a calculated
  // zsurf (<imposezsurf mode="2">) across a 3D zone has one per column (model/case_inout.h):
  // inOutZsurf gives the first, inOutZsurfColumns all.
  double inOutZsurf(uint32_t zone) const;
  std::vector<double> inOutZsurfColumns(uint32_t zone) const;
  uint32_t activeParticles() const;
  // The inlets' and outlets' counts so far (null without <inout>); over ranks, every rank's.
  const InOutTotals* inOutTotals() const;
  // Over several ranks, what this rank's exchanges moved (null on one rank).
  const RankExchangeTotals* rankExchangeTotals() const;
  ParticleSnapshot snapshot() const;  // host copy of the current state
  const SimParameters& parameters() const;
  Device device() const;
  std::string strategyName() const;
  // The parts of the set-up with their wall seconds, "parameters 0.01 s, ...".
  std::string setupPhaseText() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

// Picks the device a run would use when none is requested (GPU if usable).
// The case's parameters, the neighbour plugin's options among them, with the options that
// override them (--time-max, --time-out, the plugin's options on the command line).
SimParameters runParameters(const CaseDefinition& c, const RunOptions& o, const PluginOptions& plugin);

Device defaultDevice();

// After a failure before the run began (loading the case or setting it up: out of memory, a CUDA
// error), writes OUT/run.json with status "failed" and `error`, where the run would have written:
// not with --no-output, not into another live run's folder, not over an earlier run's results
// without --overwrite. Returns the report's path, or "" when none was written.
std::string reportFailedSetup(const std::string& casePath, const RunOptions& o, const std::string& error);

}  // namespace sph
