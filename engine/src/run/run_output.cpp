#include "run/run_output.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "run/rank_domain.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

// Adds the host time of one output to a total, by the steady clock so that the compute time
// (wall time less this) means the same with or without phase timers.
struct OutputClock {
  double& total;
  Clock::time_point t0 = Clock::now();
  ~OutputClock() { total += std::chrono::duration<double>(Clock::now() - t0).count(); }
};

constexpr const char* kOutOfDomain = "out-of-domain";
constexpr const char* kDensity = "density";

// One excluded particle in a checkpoint.
struct PackedExclusion {
  double time;
  double x, y, z, vx, vy, vz, rho;
  uint32_t id;
  uint32_t outOfDomain;
};

// The number of a part file's name, Part_NNNN.vtk, or -1 for another name.
long partNumber(const std::string& name) {
  constexpr std::string_view head = "Part_", tail = ".vtk";
  if (name.size() <= head.size() + tail.size() || name.compare(0, head.size(), head) != 0 ||
      name.compare(name.size() - tail.size(), tail.size(), tail) != 0)
    return -1;
  const std::string digits = name.substr(head.size(), name.size() - head.size() - tail.size());
  if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9) return -1;
  return std::stol(digits);
}

void writeExcludedCsv(const fs::path& path, const std::vector<ExcludedParticle>& log) {
  std::string s = "time;id;x;y;z;vx;vy;vz;rho;reason\n";
  for (const auto& e : log)
    s += fmt::format("{:.6f};{};{:.6g};{:.6g};{:.6g};{:.6g};{:.6g};{:.6g};{:.6g};{}\n", e.time, e.id, e.x, e.y, e.z,
                     e.vx, e.vy, e.vz, e.rho, e.reason);
  writeTextFileAtomic(path.string(), s);
}

// OUT/floating.csv: one row per body and output time (';'-separated like DualSPHysics' CSVs).
constexpr const char* kFloatingCsvHeader =
    "time [s];mkbound;center.x [m];center.y [m];center.z [m];vel.x [m/s];vel.y [m/s];vel.z [m/s];"
    "omega.x [rad/s];omega.y [rad/s];omega.z [rad/s]\n";

void appendFloatingRows(std::string& rows, double time, const std::vector<FloatingBodyState>& bodies) {
  for (const FloatingBodyState& b : bodies)
    rows += fmt::format("{:.6f};{};{:.9g};{:.9g};{:.9g};{:.9g};{:.9g};{:.9g};{:.9g};{:.9g};{:.9g}\n", time, b.mkBound,
                        b.center[0], b.center[1], b.center[2], b.vel[0], b.vel[1], b.vel[2], b.omega[0], b.omega[1],
                        b.omega[2]);
}

// OUT/awas.csv: the absorbing pistons' steps (motion/paddle_awas.h), in the quantities of DualSPHysics'
// AWASData.csv.
constexpr const char* kAwasCsvHeader =
    "time [s];mkbound;dt [s];x(t) [m];gauge x [m];eta measured [m];eta target [m];u target [m/s];"
    "u correction [m/s];u [m/s];ace [m/s^2];capped;u drift [m/s]\n";

// No row once the motion has ended, as DualSPHysics' AWASData.csv stops there.
void appendAwasRow(std::string& rows, const AwasState& a) {
  const PaddleAwasControl::Record& r = a.last;
  if (r.ended) return;
  rows += fmt::format("{:.9f};{};{:.9g};{:.9g};{:.9g};{:.9g};{:.9g};{:.9g};{:.9g};{:.9g};{:.9g};{};{:.9g}\n", r.t,
                      a.mkbound, r.dt, r.displacement, r.gaugeX, r.measured, r.target, r.uTarget, r.uCorrection, r.u,
                      r.acceleration, r.capped ? 1 : 0, r.uDrift);
}

}  // namespace

void saveExclusionLog(CheckpointWriter& w, const std::vector<ExcludedParticle>& log) {
  std::vector<PackedExclusion> packed(log.size());
  for (size_t k = 0; k < log.size(); ++k) {
    const ExcludedParticle& e = log[k];
    packed[k] = {e.time, e.x, e.y, e.z, e.vx, e.vy, e.vz, e.rho, e.id, std::strcmp(e.reason, kOutOfDomain) == 0};
  }
  w.putVector("exclusions", packed);
}

std::vector<ExcludedParticle> restoreExclusionLog(const CheckpointReader& r) {
  const std::vector<PackedExclusion> packed = r.vector<PackedExclusion>("exclusions");
  std::vector<ExcludedParticle> log(packed.size());
  for (size_t k = 0; k < packed.size(); ++k) {
    const PackedExclusion& p = packed[k];
    log[k] = {p.time, p.id, p.x, p.y, p.z, p.vx, p.vy, p.vz, p.rho, p.outOfDomain ? kOutOfDomain : kDensity};
  }
  return log;
}

RunOutput::RunOutput(fs::path out, bool write, bool writeVtk, FolderUse use, const CaseGauges& gauges,
                     const SimParameters& p, PhaseTimer* timer, int rank)
    : out_(std::move(out)),
      folder_(write && rank == 0 ? std::make_unique<OutputFolder>(out_, use, gaugeFileNames(gauges)) : nullptr),
      write_(write),
      follower_(rank != 0),
      writeVtk_(writeVtk),
      rank_(rank),
      timeOut_(p.timeOut),
      timeOutExtra_(p.timeOutExtra),
      outputTimes_(p.outputTimes),
      timer_(timer),
      gauges_(gauges, p, write ? out_ / "gauges" : fs::path(), rank != 0) {}

void RunOutput::atTime(double t, OutputSource& source) {
  if (!started_) {
    started_ = true;
    dtLog_ = source.dtLog();
    nextOut_ = nextOutputTime(outputTimes_, timeOut_, t);
    nextExtra_ = nextExtraTime(t);
    save(t, source);
    sampleGauges(t, source);
    if (folder_) folder_->dropPrevious();  // the new run has written its first output
    return;
  }
  sampleGauges(t, source);
  const bool outputTime = reachedOutputTime(t, nextOut_, timeOut_);
  recordAwas(source, outputTime);
  if (timeOutExtra_ >= 0 && reachedOutputTime(t, nextExtra_, timeOutExtra_)) {
    if (!outputTime) addExtraFloatingRows(t, source);  // an output time writes its own row
    nextExtra_ = nextExtraTime(t);
  }
  if (outputTime) {
    save(t, source);
    gauges_.flush();
    writeDtLog(false);
    // The next multiple of TimeOut (or of <timeout>'s interval) after t, counted rather than
    // summed: adding a TimeOut that t dwarfs (1e-25 s at t = 1 s) would never get past t.
    // A part written within the tolerance before a multiple was that multiple's.
    nextOut_ = nextOutputTime(outputTimes_, timeOut_, t);
  }
}

void RunOutput::sampleGauges(double t, OutputSource& source) {
  if (!gauges_.due(t)) return;
  if (gauges_.forcesDue(t)) source.beforeForceGauges();
  OutputClock clock{outputSeconds_};
  ScopedPhase ph(timer_, "SU-Gauges", PhaseGroup::Other);
  gauges_.sample(t, source.gaugeSource());
}

void RunOutput::save(double t, OutputSource& source) {
  saveFloating(t, source);
  if (!write_ || !writeVtk_) return;
  OutputClock clock{outputSeconds_};
  ScopedPhase ph(timer_, "SU-SavePart", PhaseGroup::Other);
  const std::string path = (out_ / "vtk" / fmt::format("Part_{:04d}.vtk", part_)).string();
  ++part_;
  const parallel::Communicator& ranks = source.communicator();
  if (ranks.single())
    source.snapshotInto(frame_);
  else
    source.ownSnapshotInto(frame_);  // every rank writes its own particles into the part
  if (partFilter_ && partFilter_->filters(part_ - 1)) partFilter_->apply(frame_, centresOf(source.floatingStates()));
  if (ranks.single())
    writeVtkParticles(path, frame_);
  else
    writeVtkOverRanks(ranks, path, frame_);
}

void RunOutput::saveFloating(double t, OutputSource& source) {
  if (!writes()) return;
  const std::vector<FloatingBodyState> bodies = source.floatingStates();
  if (bodies.empty()) return;
  OutputClock clock{outputSeconds_};
  ScopedPhase ph(timer_, "SU-SavePart", PhaseGroup::Other);
  appendFloatingRows(floatingRows_, t, bodies);
  writeFloatingCsv();
}

void RunOutput::addExtraFloatingRows(double t, OutputSource& source) {
  if (!writes()) return;
  const std::vector<FloatingBodyState> bodies = source.floatingStates();
  if (bodies.empty()) return;
  OutputClock clock{outputSeconds_};
  appendFloatingRows(floatingRows_, t, bodies);
  floatingRowsUnwritten_ = true;
}

void RunOutput::writeFloatingCsv() {
  writeTextFileAtomic((out_ / "floating.csv").string(), kFloatingCsvHeader + floatingRows_);
  floatingRowsUnwritten_ = false;
}

// The time of the TimeOutExtra row after t, as DualSPHysics counts it: the first multiple of
// TimeOutExtra past t (TimeOutExtra 0: the next step); none when TimeOutExtra is negative.
double RunOutput::nextExtraTime(double t) const {
  if (timeOutExtra_ < 0) return HUGE_VAL;
  if (timeOutExtra_ == 0) return t;
  return nextOutputTime({}, timeOutExtra_, t);
}

void RunOutput::recordAwas(OutputSource& source, bool outputTime) {
  if (!writes()) return;
  const std::vector<AwasState> pistons = source.awasStates();
  bool any = false;
  for (const AwasState& a : pistons) {
    if (a.saveData == 3 || (a.saveData > 0 && outputTime)) {
      appendAwasRow(awasRows_, a);
      any = true;
    }
  }
  if (any && outputTime) writeTextFileAtomic((out_ / "awas.csv").string(), kAwasCsvHeader + awasRows_);
}

std::filesystem::path RunOutput::saveNow(double t, OutputSource& source) {
  if (!write_ || !writeVtk_) return {};
  save(t, source);
  return out_ / "vtk" / fmt::format("Part_{:04d}.vtk", part_ - 1);
}

void RunOutput::writeDtLog(bool all) {
  if (!writes() || !dtLog_) return;
  OutputClock clock{outputSeconds_};
  dtLog_->write(out_, all);
}

void RunOutput::finish(const std::vector<ExcludedParticle>& excluded) {
  gauges_.finish();
  writeDtLog(true);
  if (writes() && !awasRows_.empty()) writeTextFileAtomic((out_ / "awas.csv").string(), kAwasCsvHeader + awasRows_);
  if (writes() && floatingRowsUnwritten_) writeFloatingCsv();
  if (writes() && !excluded.empty()) writeExcludedCsv(out_ / "excluded.csv", excluded);
}

namespace {
// The schedule of a run's output in a checkpoint.
struct OutputCheckpoint {
  double nextOut;
  int64_t part;
  uint64_t floatingRowBytes;
};
}  // namespace

void RunOutput::checkpoint(const OutputSource& source) {
  if (!write_) return;  // every rank writes its own
  OutputClock clock{outputSeconds_};
  ScopedPhase ph(timer_, "SU-Checkpoint", PhaseGroup::Other);
  CheckpointWriter w(checkpointPath(out_, rank_), source.checkpointHeader());
  source.saveState(w);
  w.putValue("output", OutputCheckpoint{nextOut_, part_, floatingRows_.size()});
  // On disk first, so that a resumption finds every row the checkpoint counts.
  if (floatingRowsUnwritten_ && !follower_) writeFloatingCsv();
  if (timeOutExtra_ >= 0) w.putValue("output.next_extra", nextExtra_);
  if (!awasRows_.empty()) {
    // On disk first, so that a resumption finds every row the checkpoint counts.
    writeTextFileAtomic((out_ / "awas.csv").string(), kAwasCsvHeader + awasRows_);
    w.putValue("output.awas_row_bytes", uint64_t(awasRows_.size()));
  }
  gauges_.save(w);
  w.commit();
  ++checkpoints_;
}

namespace {
// The rows of a table the run appends to (floating.csv, awas.csv) as they were at the checkpoint:
// its first `rowBytes` bytes after the header. InputError when the file is missing or shorter.
std::string rowsAtCheckpoint(const fs::path& csv, const char* header, uint64_t rowBytes, const CheckpointReader& r) {
  std::ifstream f(csv, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const size_t headerBytes = std::strlen(header);
  if (text.compare(0, headerBytes, header) != 0 || text.size() < headerBytes + rowBytes)
    throw InputError(fmt::format("{}: missing, or shorter than the {} bytes of rows it had at the checkpoint ({}); "
                                 "the run cannot be resumed into this folder",
                                 csv.string(), rowBytes, r.path().string()));
  return text.substr(headerBytes, rowBytes);
}
}  // namespace

void RunOutput::resume(const CheckpointReader& r, const std::vector<ExcludedParticle>& excluded) {
  started_ = true;
  if (!write_) return;
  // Every check before the first change: a refused resumption leaves the folder as it was.
  const auto o = r.value<OutputCheckpoint>("output");
  if (follower_) {  // rank 0's schedule, and no file
    nextOut_ = o.nextOut;
    part_ = int(o.part);
    gauges_.resume(r);
    return;
  }
  const std::string floatingRows =
      o.floatingRowBytes > 0 ? rowsAtCheckpoint(out_ / "floating.csv", kFloatingCsvHeader, o.floatingRowBytes, r)
                             : std::string();
  const std::string awasRows =
      r.has("output.awas_row_bytes")
          ? rowsAtCheckpoint(out_ / "awas.csv", kAwasCsvHeader, r.value<uint64_t>("output.awas_row_bytes"), r)
          : std::string();
  gauges_.checkResumable(r);

  nextOut_ = o.nextOut;
  part_ = int(o.part);
  if (r.has("output.next_extra")) nextExtra_ = r.value<double>("output.next_extra");
  gauges_.resume(r);
  if (!floatingRows.empty()) {
    floatingRows_ = floatingRows;
    writeTextFileAtomic((out_ / "floating.csv").string(), kFloatingCsvHeader + floatingRows_);
  }
  if (!awasRows.empty()) {
    awasRows_ = awasRows;
    writeTextFileAtomic((out_ / "awas.csv").string(), kAwasCsvHeader + awasRows_);
  }
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(out_ / "vtk", ec))
    if (partNumber(e.path().filename().string()) >= part_) fs::remove(e.path(), ec);
  if (!excluded.empty()) writeExcludedCsv(out_ / "excluded.csv", excluded);
  else fs::remove(out_ / "excluded.csv", ec);
}

}  // namespace sph
