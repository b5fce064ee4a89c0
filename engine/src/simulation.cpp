// The run loop: output every TimeOut, the progress line, the end-of-run report.
#include "sph/simulation.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "gauge_recorder.h"
#include "simulation_core.h"
#include "sph/errors.h"
#include "sph/gpu_runtime.h"

namespace sph {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Removes what an earlier run into the same folder left, so old files never pass for new ones.
void clearPreviousOutput(const fs::path& out) {
  std::error_code ec;
  fs::remove(out / "run.json", ec);
  fs::remove(out / "excluded.csv", ec);
  fs::remove(out / "floating.csv", ec);
  const fs::path vtk = out / "vtk";
  if (!fs::is_directory(vtk, ec)) return;
  for (const auto& e : fs::directory_iterator(vtk, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("Part_", 0) == 0 && (e.path().extension() == ".vtk" || e.path().extension() == ".tmp"))
      fs::remove(e.path(), ec);
  }
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

}  // namespace

Device defaultDevice() { return gpu::available() ? Device::Gpu : Device::Cpu; }

Simulation::Simulation(const CaseDefinition& c, const RunOptions& o) {
  Device d = o.device.value_or(defaultDevice());
  if (d == Device::Gpu && !gpu::available())
    throw InputError(gpu::builtWithCuda() ? "--device gpu: no usable CUDA device was found"
                                          : "--device gpu: this build of sph has no CUDA support");
  impl_ = makeSimulationCore(c, o, d);
  impl_->gauges = c.gauges;
}
Simulation::~Simulation() = default;

void Simulation::step() { impl_->step(); }
bool Simulation::finished() const {
  if (impl_->opts.maxSteps && impl_->stepCount >= *impl_->opts.maxSteps) return true;
  return impl_->t >= impl_->timeMax;
}
double Simulation::time() const { return impl_->t; }
uint64_t Simulation::steps() const { return impl_->stepCount; }
double Simulation::lastDt() const { return impl_->dt; }
uint32_t Simulation::activeParticles() const {
  return impl_->nBoundInitial + impl_->nFluidInitial - impl_->excluded.total();
}
ParticleSnapshot Simulation::snapshot() const {
  ParticleSnapshot s;
  impl_->snapshotInto(s);
  return s;
}
const SimParameters& Simulation::parameters() const { return impl_->p; }
Device Simulation::device() const { return impl_->device; }
std::string Simulation::strategyName() const { return impl_->plugin.name; }

RunReport Simulation::run() {
  Impl& s = *impl_;
  const fs::path out = s.opts.outDir.empty() ? fs::path("out") / s.caseName : fs::path(s.opts.outDir);
  RunReport r;
  r.caseName = s.caseName;
  r.casePath = s.casePath;
  r.strategy = s.plugin.name;
  r.precision = precisionName(s.opts.precision);
  r.device = deviceName(s.device);
  r.deviceName = s.device == Device::Gpu ? gpu::deviceDescription() : "CPU (OpenMP)";
  r.nBound = s.nBoundInitial;
  r.nFluid = s.nFluidInitial;
  r.nTotal = s.nBoundInitial + s.nFluidInitial;
  if (s.opts.writeOutput) {
    std::error_code ec;
    fs::create_directories(out / "vtk", ec);
    if (ec) throw RunError(fmt::format("cannot create output folder {}: {}", (out / "vtk").string(), ec.message()));
    clearPreviousOutput(out);
  }
  GaugeRecorder gauges(s.gauges, s.p, s.opts.writeOutput ? out / "gauges" : fs::path());
  ParticleSnapshot frame;  // reused by every VTK part
  // Host time spent on output (files, gauges), by the steady clock so that the compute time
  // (wall time less this) means the same with or without phase timers.
  double outputSeconds = 0;
  struct OutputTime {
    double& total;
    Clock::time_point t0 = Clock::now();
    ~OutputTime() { total += secondsSince(t0); }
  };
  auto sampleGauges = [&]() {
    if (!gauges.due(s.t)) return;
    OutputTime clock{outputSeconds};
    ScopedPhase ph(s.timer.get(), "SU-Gauges", PhaseGroup::Other);
    gauges.sample(s.t, s.gaugeSource());
  };

  const bool tty = isatty(fileno(stderr));
  const auto t0 = Clock::now();
  auto lastProgress = t0;
  int part = 0;
  double nextOut = 0;
  // The whole file is rewritten (atomically) at every output time: it is small, and a run that
  // is stopped leaves a complete file up to its last output.
  std::string floatingRows;
  auto saveFloating = [&]() {
    if (!s.opts.writeOutput) return;
    const std::vector<FloatingBodyState> bodies = s.floatingStates();
    if (bodies.empty()) return;
    OutputTime clock{outputSeconds};
    ScopedPhase ph(s.timer.get(), "SU-SavePart", PhaseGroup::Other);
    appendFloatingRows(floatingRows, s.t, bodies);
    writeTextFileAtomic((out / "floating.csv").string(), kFloatingCsvHeader + floatingRows);
  };
  auto save = [&]() {
    saveFloating();
    if (!s.opts.writeOutput || !s.opts.writeVtk) return;
    OutputTime clock{outputSeconds};
    ScopedPhase ph(s.timer.get(), "SU-SavePart", PhaseGroup::Other);
    s.snapshotInto(frame);
    writeVtkParticles((out / "vtk" / fmt::format("Part_{:04d}.vtk", part)).string(), frame);
    ++part;
  };
  auto finish = [&](const std::string& status, const std::string& error) {
    r.status = status;
    r.error = error;
    r.wallSeconds = secondsSince(t0);
    r.steps = s.stepCount;
    r.simulatedTime = s.t;
    r.excluded = s.excluded.total();
    r.excludedOutOfDomain = s.excluded.outOfDomain;
    r.excludedDensity = s.excluded.density;
    try {
      for (const PhaseTotal& t : s.timer->totals())
        r.phases.push_back({t.name, phaseGroupName(t.group), t.seconds, t.calls});
      r.strategyStats = s.strategy->stats();
      r.peakDeviceBytes = s.engineDeviceBytes() + s.strategy->peakDeviceBytes();
    } catch (const std::exception& e) {
      if (r.error.empty()) r.error = e.what();
    }
    const double computeSeconds = r.wallSeconds - outputSeconds;
    r.nsPerParticleStep = s.particleSteps ? computeSeconds * 1e9 / double(s.particleSteps) : 0;
    r.extra["wall_seconds_excluding_output"] = fmt::format("{:.6f}", computeSeconds);
    r.extra["phase_timers"] = s.opts.phaseTimers ? "on" : "off";
    r.extra["step_graphs"] = s.stepGraphSummary();
    r.extra["dt_min_hits"] = fmt::format("{}", s.dtMinHits);
    r.extra["exclusion_compactions"] = fmt::format("{}", s.compactions);
    r.extra["output_parts"] = fmt::format("{}", part);
    r.extra["plugin_path"] = s.plugin.path;
    r.extra["step_algorithm"] = s.p.stepAlgorithm == 2 ? "symplectic" : "verlet";
    r.extra["kernel"] = s.p.kernel == KernelKind::Cubic ? "cubic" : "wendland";
    if (s.opts.writeOutput) {
      if (!s.excludedLog.empty()) writeExcludedCsv(out / "excluded.csv", s.excludedLog);
      writeRunReport((out / "run.json").string(), r);
    }
  };

  try {
    save();
    sampleGauges();
    nextOut = s.p.timeOut;
    while (!finished()) {
      step();
      sampleGauges();
      if (s.t >= nextOut - 1e-12 * s.p.timeOut) {
        save();
        gauges.flush();
        while (nextOut <= s.t) nextOut += s.p.timeOut;
      }
      if (s.opts.progress && secondsSince(lastProgress) >= 1.0) {
        lastProgress = Clock::now();
        const double el = secondsSince(t0);
        const double rate = s.stepCount / el;
        const double eta = s.t > 0 ? el * (s.timeMax - s.t) / s.t : 0;
        fmt::print(stderr, "{}t={:.4f}/{:.4f} s  step {}  dt {:.3e}  particles {}  {:.0f} steps/s  ETA {:.0f} s{}",
                   tty ? "\r" : "", s.t, s.timeMax, s.stepCount, s.dt, activeParticles(), rate, eta,
                   tty ? "   " : "\n");
        std::fflush(stderr);
      }
    }
    if (s.opts.progress && tty) fmt::print(stderr, "\n");
    gauges.finish();
  } catch (const std::exception& e) {
    if (s.opts.progress && tty) fmt::print(stderr, "\n");
    try {
      gauges.finish();  // what was measured before the failure stays valid
    } catch (...) {
    }
    try {
      finish("failed", e.what());
    } catch (...) {
    }
    throw;
  }
  finish("completed", "");
  return r;
}

}  // namespace sph
