// The output schedule of a run: what is written when, into OUT (docs/usage.md, "Output"):
//   - vtk/Part_NNNN.vtk and floating.csv at the start and at every TimeOut; floating.csv also every
//     TimeOutExtra when the case gives it;
//   - awas.csv (absorbing pistons with <savedata>), rows of every step or of output times,
//     written at every TimeOut;
//   - the gauges at their own times (gauges/gauge_recorder.h), their files flushed at every TimeOut;
//   - excluded.csv at the end;
//   - checkpoint/checkpoint.bin when the run loop asks (output/checkpoint.h), and the resumption of all
//     of the above from one.
// It reads the simulation through OutputSource and times its own host work (outputSeconds()),
// so that the report can give the compute time without it.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "floating/floating_bodies.h"
#include "gauges/gauge_recorder.h"
#include "model/case_model.h"
#include "output/dt_log.h"
#include "model/sim_parameters.h"
#include "motion/paddle_awas.h"
#include "output/checkpoint.h"
#include "output/output.h"
#include "output/output_folder.h"
#include "output/part_filter.h"
#include "parallel/communicator.h"
#include "sph/plugin/phase_timer.h"

namespace sph {

struct RunOptions;

// One excluded particle, kept for OUT/excluded.csv.
struct ExcludedParticle {
  double time;
  uint32_t id;
  double x, y, z, vx, vy, vz, rho;
  const char* reason;
};

// The exclusion log in a checkpoint, at full precision (excluded.csv is rewritten from it).
void saveExclusionLog(CheckpointWriter& w, const std::vector<ExcludedParticle>& log);
std::vector<ExcludedParticle> restoreExclusionLog(const CheckpointReader& r);

// What the output needs of a simulation's current state.
class OutputSource {
 public:
  virtual ~OutputSource() = default;
  // Host copy of the current state into `into`, reusing its storage and the core's staging
  // buffers (no allocation once the sizes have been reached).
  virtual void snapshotInto(ParticleSnapshot& into) const = 0;
  // This rank's own particles alone (no halo copies), for a file every rank writes its part of.
  virtual void ownSnapshotInto(ParticleSnapshot& into) const = 0;
  // The ranks that run the case together (one without an MPI launcher).
  virtual const parallel::Communicator& communicator() const = 0;
  virtual std::vector<FloatingBodyState> floatingStates() const = 0;  // empty without floating bodies
  // The absorbing pistons' last steps (motion/paddle_awas.h); empty without them.
  virtual std::vector<AwasState> awasStates() const { return {}; }
  // Where the gauges take their samples of the current state (gauges/gauge_sampler.h).
  virtual GaugeSource& gaugeSource() = 0;
  // Before force gauges are sampled, outside their phase (SU-Gauges): a run over several ranks
  // brings its halo up to date (refreshed or exchanged, with the phases of a pass's).
  virtual void beforeForceGauges() {}
  // <special><savedt>'s log of the time steps so far (output/dt_log.h); null without one.
  virtual const DtLog* dtLog() const { return nullptr; }
  // Checkpoints: everything the next step depends on, and what the checkpoint must match.
  virtual void saveState(CheckpointWriter& w) const = 0;
  virtual const CheckpointHeader& checkpointHeader() const = 0;
};

class RunOutput {
 public:
  // Creates OUT (and OUT/vtk) and locks it (output/output_folder.h: an earlier run's results there need
  // FolderUse::Overwrite, and go once this run has written its first output), unless `write` is
  // false (--no-output: nothing is written, no gauge is run). `timer` receives the phases
  // SU-SavePart, SU-Gauges and SU-Checkpoint. `rank`: this process's rank in a run over several.
  // A rank other than 0 (a follower) keeps rank 0's schedule and takes the same gauge samples,
  // whose particles go to rank 0 (the source gathers them), and writes its particles into the
  // VTK parts every rank writes together (run/rank_domain.h, writeVtkOverRanks), but no other
  // file but its own checkpoint (checkpointPath(out, rank)).
  RunOutput(std::filesystem::path out, bool write, bool writeVtk, FolderUse use, const CaseGauges& gauges,
            const SimParameters& p, PhaseTimer* timer, int rank = 0);

  // The outputs of time t: at the start (first call) and after every step.
  void atTime(double t, OutputSource& source);
  // The end of the run, completed or failed: gauge files complete, excluded.csv written, the time
  // steps' log (<savedt>) written in full.
  void finish(const std::vector<ExcludedParticle>& excluded);
  // A snapshot of the current state outside the schedule (a diverged run's last state), as the
  // next VTK part; its path, or empty when nothing is written.
  std::filesystem::path saveNow(double t, OutputSource& source);
  // Writes OUT/checkpoint/checkpoint.bin atomically: the source's state and this schedule's
  // (call after atTime() of the step, so that the outputs of its time are done).
  void checkpoint(const OutputSource& source);
  // A resumed run, before its first step (instead of the first atTime()): the schedule of the
  // checkpoint, and the files cut back to it: gauge rows and floating.csv rows written after it,
  // VTK parts numbered from its part counter on, excluded.csv rewritten from `excluded` (the
  // restored log). InputError naming the file when one is missing or shorter than then.
  void resume(const CheckpointReader& r, const std::vector<ExcludedParticle>& excluded);

  // <special><outputparts>: the parts hold only the particles `filter` selects (null: all). It must
  // outlive the output.
  void setPartFilter(const PartFilter* filter) { partFilter_ = filter; }

  const std::filesystem::path& dir() const { return out_; }
  bool writes() const { return write_ && !follower_; }
  int parts() const { return part_; }
  int checkpoints() const { return checkpoints_; }  // written by this process
  double outputSeconds() const { return outputSeconds_; }  // host time spent on output

 private:
  void save(double t, OutputSource& source);
  void saveFloating(double t, OutputSource& source);
  // floating.csv's row of time t between output times (TimeOutExtra), written to the file at the
  // next output, checkpoint or the end.
  void addExtraFloatingRows(double t, OutputSource& source);
  void writeFloatingCsv();
  double nextExtraTime(double t) const;
  // awas.csv: rows of the pistons whose <savedata> asks for this step (every step, or output
  // times), the file rewritten at output times.
  void recordAwas(OutputSource& source, bool outputTime);
  void sampleGauges(double t, OutputSource& source);
  // DtInfo.csv at output times; also DtAllInfo.csv (every step: large) when `all` (the end).
  void writeDtLog(bool all);

  std::filesystem::path out_;
  const PartFilter* partFilter_ = nullptr;
  std::unique_ptr<OutputFolder> folder_;  // while writing
  bool write_, follower_, writeVtk_;
  int rank_;
  double timeOut_;
  double timeOutExtra_;  // <parameter key="TimeOutExtra">: floating.csv rows between parts, < 0 none
  std::vector<OutputInterval> outputTimes_;  // <special><timeout>, else empty
  PhaseTimer* timer_;
  GaugeRecorder gauges_;
  ParticleSnapshot frame_;    // reused by every VTK part
  std::string floatingRows_;  // floating.csv is rewritten whole (atomically) at every output
  bool floatingRowsUnwritten_ = false;
  double nextExtra_ = 0;      // the time of the next TimeOutExtra row
  std::string awasRows_;      // awas.csv likewise
  bool started_ = false;
  const DtLog* dtLog_ = nullptr;  // the source's, taken at the first atTime()
  int part_ = 0;
  int checkpoints_ = 0;
  double nextOut_ = 0;
  double outputSeconds_ = 0;
};

}  // namespace sph
