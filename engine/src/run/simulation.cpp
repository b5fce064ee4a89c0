// The run loop: a step, then the outputs of its time (run/run_output.h), until TimeMax; the progress
// line; the report at the end (run/report_builder.h), also when the run fails.
#include "run/simulation.h"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>

#include <fmt/format.h>

#include "motion/paddle_output.h"
#include "output/output_folder.h"
#include "platform/gpu_runtime.h"
#include "platform/host_memory.h"
#include "platform/stop_request.h"
#include "run/memory_estimate.h"
#include "run/neighbour_plugin.h"
#include "run/rank_domain.h"
#include "run/report_builder.h"
#include "run/run_output.h"
#include "run/simulation_core.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// The progress line on stderr, at most once a second: rewritten in place on a terminal, one line
// each otherwise. Rates count from where this process started (a resumed run: the checkpoint's
// step and time).
class ProgressLine {
 public:
  ProgressLine(bool on, uint64_t step0, double time0)
      : on_(on), tty_(isatty(fileno(stderr))), step0_(step0), time0_(time0) {}
  void update(const Simulation::Impl& s, uint32_t particles) {
    if (!on_ || secondsSince(last_) < 1.0) return;
    last_ = Clock::now();
    const double el = secondsSince(t0_);
    const double rate = double(s.stepsDone() - step0_) / el;
    const double done = s.now() - time0_;
    const double eta = done > 0 ? el * (s.endTime() - s.now()) / done : 0;
    fmt::print(stderr, "{}t={:.4f}/{:.4f} s  step {}  dt {:.3e}  particles {}  {:.0f} steps/s  ETA {:.0f} s{}",
               tty_ ? "\r" : "", s.now(), s.endTime(), s.stepsDone(), s.stepDt(), particles, rate, eta,
               tty_ ? "   " : "\n");
    std::fflush(stderr);
  }
  void done() const {
    if (on_ && tty_) fmt::print(stderr, "\n");
  }

 private:
  bool on_, tty_;
  uint64_t step0_;
  double time0_;
  Clock::time_point t0_ = Clock::now(), last_ = t0_;
};

// OUT: --out, else out/<case name>.
fs::path outputDir(const RunOptions& o, const std::string& caseName) {
  return o.outDir.empty() ? fs::path("out") / caseName : fs::path(o.outDir);
}

FolderUse folderUse(const RunOptions& o) {
  return o.resume ? FolderUse::Resume : o.overwrite ? FolderUse::Overwrite : FolderUse::New;
}

}  // namespace

std::string reportFailedSetup(const std::string& casePath, const RunOptions& o, const std::string& error) {
  if (!o.writeOutput) return {};
  const std::string name = caseNameOf(casePath);
  const fs::path out = outputDir(o, name);
  try {
    // Only where the run itself would have written: not into another live run's folder, nor over
    // an earlier run's results without --overwrite.
    checkOutputFolder(out, folderUse(o), {});
    RunReport r;
    r.caseName = name;
    r.casePath = casePath;
    r.strategy = o.neighbours;
    r.precision = precisionName(o.precision);
    r.device = o.device ? deviceName(*o.device) : "";
    r.status = "failed";
    r.error = error;
    r.extra["failed_in"] = "set-up";
    const fs::path report = out / "run.json";
    writeRunReport(report.string(), r);
    return report.string();
  } catch (const std::exception&) {
    return {};
  }
}

Device defaultDevice() { return gpu::available() ? Device::Gpu : Device::Cpu; }

Simulation::Simulation(const CaseDefinition& c, const RunOptions& o, const parallel::Communicator& comm) {
  // Before the set-up: a folder or a checkpoint that cannot be used should not cost a large
  // case's set-up.
  if (o.resume && !o.writeOutput)
    throw InputError("--resume continues the results in an output folder: it cannot go with --no-output");
  if (o.resume && c.dtLog.active)
    throw InputError(fmt::format("{}:{}: <savedt>: a run that logs its time steps cannot be resumed from a checkpoint "
                                 "(the log before it is not in the checkpoint); run it again from the start",
                                 c.path, c.dtLog.line));
  if (o.resume && c.inout.active)
    throw InputError(
        fmt::format("{}: a run with inlets/outlets (<inout>) cannot be resumed from a checkpoint: its "
                    "particles are created and removed as it runs (DualSPHysics does not restart such "
                    "runs either)",
                    c.path));
  // Rank 0 writes the output of a run over several ranks.
  if (o.writeOutput && comm.rank() == 0)
    checkOutputFolder(outputDir(o, c.name), folderUse(o), gaugeFileNames(c.gauges));
  NeighbourPlugin neighbours = loadNeighbourPlugin(c, o);
  std::unique_ptr<CheckpointReader> resume;
  if (o.resume) {
    // Each rank its own file (its particles), written at the same step as every other's.
    resume = std::make_unique<CheckpointReader>(checkpointPath(outputDir(o, c.name), comm.rank()));
    resume->requireMatch(checkpointHeaderFor(c, runParameters(c, o, neighbours.options()), o.precision));
  }
  Device d = o.device.value_or(defaultDevice());
  if (d == Device::Gpu && !gpu::available())
    throw InputError(gpu::builtWithCuda() ? "--device gpu: no usable CUDA device was found"
                                          : "--device gpu: this build of sph has no CUDA support");
  double deviceFree = 0;
  {
    // Before anything of the run is allocated: a case that cannot fit is refused with the dp that does.
    const SimParameters p = runParameters(c, o, neighbours.options());  // the case's and the command line's options
    const HostMemoryEstimate host = estimateHostMemory(c, p, d, o.precision, *neighbours.strategy);
    // The case is in memory already: what the run may use is what is left and what the case holds.
    const double hostBudget = availableHostBytes() + host.caseData;
    const double boundShare = c.positions.empty() ? 0 : double(c.nBound) / double(c.positions.size());
    // A rank of several holds its slab and halo.
    const uint64_t particles =
        comm.single() ? c.positions.size()
                      : planRanks(c, p, neighbours.strategy->haloReach(p.support), comm).expectedParticles();
    if (d == Device::Gpu) {
      const DeviceMemoryEstimate device =
          estimateDeviceMemory(p, particles, o.precision, *neighbours.strategy, Device::Gpu, uint32_t(comm.size()));
      // What is free now: the device less the CUDA context (and anything else holding it).
      deviceFree = double(gpu::freeMemoryBytes());
      requireRunMemory(host, hostBudget, &device, deviceFree, p, gpu::deviceDescription(), boundShare);
    } else {
      requireRunMemory(host, hostBudget, nullptr, 0, p, "", boundShare);
    }
  }
  const auto start = std::chrono::steady_clock::now();
  impl_ = makeSimulationCore(c, o, d, std::move(neighbours), comm);
  impl_->deviceFreeAtStart = deviceFree;
  if (c.outputParts.active) impl_->partFilter = std::make_unique<PartFilter>(c.outputParts, c, centresOf(impl_->floatingStates()));
  if (resume) {
    impl_->restoreState(*resume);
    // A resumption that would run no step is not what was asked for.
    if (o.maxSteps && impl_->stepsDone() >= *o.maxSteps)
      throw InputError(fmt::format("{}: the checkpoint is at step {} (t={:.6g} s): --steps {} would run no step; "
                                   "give more steps (--steps counts from the start of the run)",
                                   resume->path().string(), impl_->stepsDone(), impl_->now(), *o.maxSteps));
    if (impl_->reachedEnd())
      throw InputError(fmt::format("{}: the checkpoint is at t={:.6g} s, at or past the end time {:.6g} s: the run "
                                   "is complete; give a larger --time-max to go further",
                                   resume->path().string(), impl_->now(), impl_->endTime()));
    impl_->resumedFrom = std::move(resume);
  }
  impl_->setSetupSeconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
}
Simulation::~Simulation() = default;

void Simulation::step() { impl_->step(); }
bool Simulation::finished() const {
  const RunOptions& o = impl_->options();
  if (o.maxSteps && impl_->stepsDone() >= *o.maxSteps) return true;
  return impl_->reachedEnd();
}
double Simulation::time() const { return impl_->now(); }
uint64_t Simulation::steps() const { return impl_->stepsDone(); }
double Simulation::lastDt() const { return impl_->stepDt(); }
double Simulation::inOutZsurf(uint32_t zone) const { return impl_->inOutZsurf(zone); }
std::vector<double> Simulation::inOutZsurfColumns(uint32_t zone) const { return impl_->inOutZsurfColumns(zone); }
// Not from the initial counts and the exclusions: inlets/outlets create and remove particles.
uint32_t Simulation::activeParticles() const { return uint32_t(impl_->particlesNow()); }
const InOutTotals* Simulation::inOutTotals() const { return impl_->inOutTotals(); }
const RankExchangeTotals* Simulation::rankExchangeTotals() const { return impl_->rankExchangeTotals(); }
ParticleSnapshot Simulation::snapshot() const {
  ParticleSnapshot s;
  impl_->snapshotInto(s);
  return s;
}
const SimParameters& Simulation::parameters() const { return impl_->params(); }
Device Simulation::device() const { return impl_->where(); }
std::string Simulation::strategyName() const { return impl_->pluginInfo().name; }
std::string Simulation::setupPhaseText() const { return setupPhaseSummary(impl_->setupPhases()); }

namespace {

// A run killed from its first output on (SIGKILL, the OOM killer) leaves this report saying
// "running" with its process id, its lock file (no longer held) and its last checkpoint, which
// --resume continues from.
void writeRunningReport(const RunReport& r, Simulation::Impl& s, const RunOutput& output, double seconds) {
  RunReport running = r;
  completeReport(running, s, output, "running", "", seconds);
  running.extra["process_id"] = fmt::format("{}", long(::getpid()));
  writeRunReport((output.dir() / "run.json").string(), running);
}

// Writes the state a run diverged in, for inspection in ParaView; what to add to its error.
std::string saveDivergedState(RunOutput& output, Simulation::Impl& s) {
  try {
    const fs::path part = output.saveNow(s.now(), s);
    return part.empty() ? std::string() : fmt::format(" (last state written to {})", part.string());
  } catch (const std::exception& w) {
    return fmt::format(" (its last state could not be written: {})", w.what());
  }
}

}  // namespace

RunReport Simulation::run() {
  Impl& s = *impl_;
  const RunOptions& o = s.options();
  // Over several ranks rank 0 writes; the others follow its schedule (run/run_output.h).
  const parallel::Communicator& comm = s.communicator();
  RunOutput output(outputDir(o, s.name()), o.writeOutput, o.writeVtk, folderUse(o), s.caseGauges(), s.params(),
                   &s.phaseTimer(), comm.rank());
  output.setPartFilter(s.partFilter.get());
  const bool resumed = s.resumedFrom != nullptr;
  if (resumed) {
    output.resume(*s.resumedFrom, s.exclusionLog());
    s.resumedFrom.reset();
  }
  RunReport r = startReport(s);
  ProgressLine progress(o.progress && comm.rank() == 0, s.stepsDone(), s.now());
  const auto t0 = Clock::now();
  // Checkpoints every checkpointEvery wall seconds after a step's outputs, and when a signal
  // stops the run (unless this step's was just written).
  // Runs with inlets/outlets cannot resume (see the constructor): no checkpoints to resume from.
  const bool checkpoints = o.writeOutput && o.checkpointEvery > 0 && !s.inOutTotals();
  auto lastCheckpoint = t0;
  uint64_t checkpointStep = resumed ? s.stepsDone() : ~uint64_t(0);
  auto checkpoint = [&] {
    output.checkpoint(s);
    lastCheckpoint = Clock::now();
    checkpointStep = s.stepsDone();
  };
  auto report = [&](const std::string& status, const std::string& error) {
    completeReport(r, s, output, status, error, secondsSince(t0));
    if (output.writes()) writeRunReport((output.dir() / "run.json").string(), r);
  };
  try {
    if (!resumed) {
      output.atTime(s.now(), s);  // a resumed run's outputs of this time are done
      if (output.writes()) writeWavePaddleMotions(output.dir(), s.wavePaddles(), s.params().timeMax, s.params().timeOut);
      if (output.writes() && s.relaxationZones())
        s.relaxationZones()->writeSaveMotions(output.dir().string(), s.params().timeOut);
    }
    if (output.writes()) writeRunningReport(r, s, output, secondsSince(t0));
    while (!finished()) {
      step();
      output.atTime(s.now(), s);
      progress.update(s, activeParticles());
      bool due = checkpoints && secondsSince(lastCheckpoint) >= o.checkpointEvery;
      int signal = stopRequested();
      if (!comm.single()) {
        // Every rank checkpoints, and stops, after the same step: rank clocks and signals differ.
        double v[2] = {due ? 1.0 : 0.0, double(signal)};
        comm.maximumInPlace(v, 2);
        due = v[0] > 0;
        signal = int(v[1]);
      }
      if (due) checkpoint();
      if (signal)
        throw InterruptedError(fmt::format("interrupted by signal {} ({}) at t={:.6g} s after step {}", signal,
                                           signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : "?",
                                           s.now(), s.stepsDone()),
                               signal);
    }
    progress.done();
    // Stopped by --steps before TimeMax: a checkpoint to go on from with --resume and more steps.
    if (checkpoints && o.checkpointAtStepLimit && !s.reachedEnd() && checkpointStep != s.stepsDone()) checkpoint();
    output.finish(s.exclusionLog());
  } catch (const std::exception& e) {
    progress.done();
    std::string error = e.what();
    if (dynamic_cast<const DivergenceError*>(&e)) error += saveDivergedState(output, s);
    const auto* stop = dynamic_cast<const InterruptedError*>(&e);
    if (stop && checkpoints) {
      try {
        if (checkpointStep != s.stepsDone()) checkpoint();
        error += fmt::format(" (checkpoint written: continue with --resume {})", output.dir().string());
      } catch (const std::exception& w) {
        error += fmt::format(" (no checkpoint could be written: {})", w.what());
      }
    }
    try {
      output.finish(s.exclusionLog());  // what was measured before the failure stays valid
    } catch (...) {
    }
    try {
      report(stop ? "interrupted" : "failed", error);
    } catch (...) {
    }
    if (dynamic_cast<const DivergenceError*>(&e)) throw DivergenceError(error);
    if (stop) throw InterruptedError(error, stop->signal());
    throw;
  }
  report("completed", "");
  return r;
}

}  // namespace sph
