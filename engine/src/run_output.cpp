#include "run_output.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "sph/errors.h"

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

}  // namespace

// The names of the gauges, whose files in OUT/gauges belong to the engine.
static std::vector<std::string> gaugeNames(const CaseGauges& gauges) {
  std::vector<std::string> names;
  for (const GaugeSpec& g : gauges.items) names.push_back(g.name);
  return names;
}

RunOutput::RunOutput(fs::path out, bool write, bool writeVtk, bool overwrite, const CaseGauges& gauges,
                     const SimParameters& p, PhaseTimer* timer)
    : out_(std::move(out)),
      folder_(write ? std::make_unique<OutputFolder>(out_, overwrite, gaugeNames(gauges)) : nullptr),
      write_(write),
      writeVtk_(writeVtk),
      timeOut_(p.timeOut),
      timer_(timer),
      gauges_(gauges, p, write ? out_ / "gauges" : fs::path()) {}

void RunOutput::atTime(double t, OutputSource& source) {
  if (!started_) {
    started_ = true;
    nextOut_ = timeOut_;
    save(t, source);
    sampleGauges(t, source);
    if (folder_) folder_->dropPrevious();  // the new run has written its first output
    return;
  }
  sampleGauges(t, source);
  if (t >= nextOut_ - 1e-12 * timeOut_) {
    save(t, source);
    gauges_.flush();
    // The next multiple of TimeOut after t, counted rather than summed: adding a TimeOut that t
    // dwarfs (1e-25 s at t = 1 s) would never get past t.
    // A part written within the tolerance before a multiple was that multiple's.
    nextOut_ = std::max((std::floor(t / timeOut_ + 1e-12) + 1) * timeOut_,
                        std::nextafter(t, std::numeric_limits<double>::infinity()));
  }
}

void RunOutput::sampleGauges(double t, OutputSource& source) {
  if (!gauges_.due(t)) return;
  OutputClock clock{outputSeconds_};
  ScopedPhase ph(timer_, "SU-Gauges", PhaseGroup::Other);
  gauges_.sample(t, source.gaugeSource());
}

void RunOutput::save(double t, OutputSource& source) {
  saveFloating(t, source);
  if (!write_ || !writeVtk_) return;
  OutputClock clock{outputSeconds_};
  ScopedPhase ph(timer_, "SU-SavePart", PhaseGroup::Other);
  source.snapshotInto(frame_);
  writeVtkParticles((out_ / "vtk" / fmt::format("Part_{:04d}.vtk", part_)).string(), frame_);
  ++part_;
}

void RunOutput::saveFloating(double t, OutputSource& source) {
  if (!write_) return;
  const std::vector<FloatingBodyState> bodies = source.floatingStates();
  if (bodies.empty()) return;
  OutputClock clock{outputSeconds_};
  ScopedPhase ph(timer_, "SU-SavePart", PhaseGroup::Other);
  appendFloatingRows(floatingRows_, t, bodies);
  writeTextFileAtomic((out_ / "floating.csv").string(), kFloatingCsvHeader + floatingRows_);
}

std::filesystem::path RunOutput::saveNow(double t, OutputSource& source) {
  if (!write_ || !writeVtk_) return {};
  save(t, source);
  return out_ / "vtk" / fmt::format("Part_{:04d}.vtk", part_ - 1);
}

void RunOutput::finish(const std::vector<ExcludedParticle>& excluded) {
  gauges_.finish();
  if (write_ && !excluded.empty()) writeExcludedCsv(out_ / "excluded.csv", excluded);
}

}  // namespace sph
