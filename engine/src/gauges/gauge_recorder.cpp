#include "gauges/gauge_recorder.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {
namespace fs = std::filesystem;
namespace {

// Times within this fraction of dt of a multiple of dt count as that multiple, so rounding in
// the accumulated simulation time never skips or repeats a sample.
constexpr double kTimeTol = 1e-9;

// The first multiple of dt after t (dt > 0).
double nextMultiple(double t, double dt) { return (std::floor(t / dt + kTimeTol) + 1) * dt; }

bool inWindow(double t, double start, double end) {
  const double tol = kTimeTol * std::max(1.0, std::fabs(t));
  return t >= start - tol && t <= end + tol;
}

}  // namespace

ResolvedGauge resolveGauge(const GaugeSpec& g, const SimParameters& p) {
  // DualSPHysics' default window is the simulated time; an open end also keeps the sample at the
  // last step, which ends at or just after TimeMax.
  const double open = std::numeric_limits<double>::infinity();
  ResolvedGauge r;
  r.spec = g;
  const GaugeTiming& t = g.timing;
  r.computeDt = t.computeDt.value_or(p.timeOut);
  r.computeStart = t.computeStart.value_or(0);
  r.computeEnd = t.computeEnd.value_or(open);
  r.outputDt = t.outputDt.value_or(p.timeOut);
  r.outputStart = t.outputStart.value_or(0);
  r.outputEnd = t.outputEnd.value_or(open);
  r.pointDp = g.pointDpIsCoef ? g.pointDp * p.dp : g.pointDp;
  const double coef = g.massLimitCoef.value_or(defaultSwlMassLimitCoef(p.dim));
  r.massLimit = g.massLimit.value_or(coef * p.massFluid);
  r.massFluid = p.massFluid;
  using Unit = GaugeSpec::DistUnit;
  r.distLimit = g.distLimit * (g.distLimitUnit == Unit::Dp ? p.dp : g.distLimitUnit == Unit::H ? p.h : 1.0);
  r.floorZ = p.domainMin.z;
  r.massBound = p.massBound;
  if (g.kind == GaugeKind::Mesh) r.grid = meshGaugeGrid(g);
  if (g.kind == GaugeKind::Force && g.mkIndex < 0)
    throw InputError(fmt::format("gauge '{}' (line {}): the particles of its mkbound {} were not looked up in the case",
                                 g.name, g.line, g.mkBound));
  return r;
}

MaxZLine gaugeMaxZLine(const ResolvedGauge& g) { return {g.spec.point0, g.spec.height, g.distLimit}; }

ForceTarget gaugeForceTarget(const ResolvedGauge& g) { return {g.spec.mk, uint32_t(g.spec.mkIndex)}; }

std::string gaugeCsvHeader(GaugeKind kind) {
  switch (kind) {
    case GaugeKind::Swl:
      return "time [s];swlx [m];swly [m];swlz [m];pos0x [m];pos0y [m];pos0z [m];pos2x [m];pos2y [m];pos2z [m]\n";
    case GaugeKind::Velocity:
      return "time [s];velx [m/s];vely [m/s];velz [m/s];posx [m];posy [m];posz [m];shepard [-]\n";
    case GaugeKind::MaxZ: return "time [s];zmax [m];posx [m];posy [m];posz [m]\n";
    case GaugeKind::Force: return "time [s];force [N];forcex [N];forcey [N];forcez [N]\n";
    default: return "time [s];press [Pa];posx [m];posy [m];posz [m];shepard [-]\n";
  }
}

namespace {
// A recorder's gauges have at most this many points in all (and so one gauge).
constexpr size_t kMaxPointsInAll = 10000000;
}  // namespace

size_t gaugePointCount(const ResolvedGauge& g) {
  const GaugeSpec& s = g.spec;
  if (s.kind == GaugeKind::MaxZ || s.kind == GaugeKind::Force) return 0;
  if (s.kind == GaugeKind::Mesh) {
    const MeshGrid& m = g.grid;
    // The product of three counts of up to 2^64 each: test them one by one.
    const double points = double(m.n[0]) * double(m.n[1]) * double(m.n[2]);
    if (points > double(kMaxPointsInAll))
      throw InputError(
          fmt::format("gauge '{}' (line {}): its mesh would have {} x {} x {} points, more than {}; give "
                      "larger distpt values",
                      s.name, s.line, m.n[0], m.n[1], m.n[2], kMaxPointsInAll));
    return size_t(m.count());
  }
  if (s.kind != GaugeKind::Swl) return 1;
  const int pieces = swlPieces(s.point0, s.point2, g.pointDp);
  // Every point of the line is evaluated at each sample (on the GPU, all at once).
  constexpr int kMaxPieces = 1000000;
  if (pieces > kMaxPieces)
    throw InputError(
        fmt::format("gauge '{}' (line {}): its swl line would be cut into {} pieces of {} m, more than "
                    "{}; give a larger <pointdp>",
                    s.name, s.line, pieces, g.pointDp, kMaxPieces));
  return size_t(pieces) + 1;
}

std::vector<GaugePoint> gaugePoints(const ResolvedGauge& g) {
  gaugePointCount(g);  // refuses a line of too many points
  const GaugeSpec& s = g.spec;
  if (s.kind == GaugeKind::MaxZ || s.kind == GaugeKind::Force) return {};
  if (s.kind == GaugeKind::Mesh) return meshGridPoints(g.grid);
  if (s.kind != GaugeKind::Swl) return {s.point};
  return swlPoints(s.point0, s.point2, g.pointDp);
}

std::string gaugeCsvRow(const ResolvedGauge& g, const GaugeResults& r, size_t first, double time) {
  const GaugeSpec& s = g.spec;
  if (s.kind == GaugeKind::MaxZ) {
    // DualSPHysics' CPU gauge writes the domain's floor when no fluid is near (its GPU gauge
    // writes -FLT_MAX); the floor also keeps a column of finite numbers.
    const double z = std::max(r.maxZ[first], g.floorZ);
    return fmt::format("{:.9g};{:.7g};{:.7g};{:.7g};{:.7g}\n", time, z, s.point0.x, s.point0.y, s.point0.z);
  }
  if (s.kind == GaugeKind::Force) {
    const std::array<double, 3>& a = r.ace[first];
    const double f[3] = {g.massBound * a[0], g.massBound * a[1], g.massBound * a[2]};
    return fmt::format("{:.9g};{:.7g};{:.7g};{:.7g};{:.7g}\n", time, std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]),
                       f[0], f[1], f[2]);
  }
  const PointSample* samples = r.points.data() + first;
  if (s.kind == GaugeKind::Swl) {
    const int pieces = swlPieces(s.point0, s.point2, g.pointDp);
    // kernelMass = the Shepard sum times m (gauges/gauge_sampler.h).
    const GaugePoint w =
        swlCrossing(s.point0, s.point2, pieces, g.massLimit, [&](int k) { return samples[k].shepard * g.massFluid; });
    return fmt::format("{:.9g};{:.7g};{:.7g};{:.7g};{:.7g};{:.7g};{:.7g};{:.7g};{:.7g};{:.7g}\n", time, w.x, w.y, w.z,
                       s.point0.x, s.point0.y, s.point0.z, s.point2.x, s.point2.y, s.point2.z);
  }
  const PointSample& p = samples[0];
  if (s.kind == GaugeKind::Velocity)
    return fmt::format("{:.9g};{:.7g};{:.7g};{:.7g};{:.7g};{:.7g};{:.7g};{:.6f}\n", time, p.vel[0], p.vel[1], p.vel[2],
                       s.point.x, s.point.y, s.point.z, p.shepard);
  return fmt::format("{:.9g};{:.7g};{:.7g};{:.7g};{:.7g};{:.6f}\n", time, p.press, s.point.x, s.point.y, s.point.z,
                     p.shepard);
}

std::vector<std::string> gaugeFileNames(const GaugeSpec& g) {
  if (g.kind != GaugeKind::Mesh) return {g.name + ".csv"};
  std::vector<std::string> out;
  if (g.mesh.csv)
    for (const std::string& o : meshGaugeOutputs(g)) out.push_back(g.name + "_" + o + ".csv");
  if (g.mesh.bin) out.push_back(g.name + ".mbi4");
  return out;
}

std::vector<std::string> gaugeFileNames(const CaseGauges& gauges) {
  std::vector<std::string> out;
  for (const GaugeSpec& g : gauges.items)
    for (std::string& name : gaugeFileNames(g)) out.push_back(std::move(name));
  return out;
}

std::vector<std::string> gaugeFileHeaders(const ResolvedGauge& g) {
  if (g.spec.kind != GaugeKind::Mesh) return {gaugeCsvHeader(g.spec.kind)};
  std::vector<std::string> out;
  if (g.spec.mesh.csv)
    for (const std::string& o : meshGaugeOutputs(g.spec)) out.push_back(meshGaugeCsvHeader(g.spec, g.grid, o));
  if (g.spec.mesh.bin) out.push_back(meshGaugeBinHeader(g.spec, g.grid));
  return out;
}

std::vector<std::string> gaugeFileRows(const ResolvedGauge& g, const GaugeResults& r, size_t first, double time,
                                       uint32_t sample) {
  if (g.spec.kind != GaugeKind::Mesh) return {gaugeCsvRow(g, r, first, time)};
  const MeshGaugeValues v = meshGaugeValues(g.spec, g.grid, r.points.data() + first, g.massFluid, g.massLimit);
  std::vector<std::string> out;
  if (g.spec.mesh.csv)
    for (const std::string& o : meshGaugeOutputs(g.spec)) out.push_back(meshGaugeCsvRow(v, o, time));
  if (g.spec.mesh.bin) out.push_back(meshGaugeBinItem(g.spec, v, sample, time));
  return out;
}

GaugeRecorder::GaugeRecorder(const CaseGauges& gauges, const SimParameters& p, fs::path dir, bool follower)
    : kernel_{kGaugeKernel, p.dim, p.h, p.massFluid}, dir_(std::move(dir)), follower_(follower) {
  if (dir_.empty()) return;
  for (const GaugeSpec& g : gauges.items) {
    if (!g.timing.output.value_or(false)) continue;
    Item it;
    it.g = resolveGauge(g, p);
    for (const std::string& name : gaugeFileNames(g)) it.files.push_back({name, {}, {}, false});
    items_.push_back(std::move(it));
  }
  if (items_.empty()) return;
  // All gauges due at once are evaluated in one call (on the GPU, one warp per point).
  size_t points = 0;
  for (const Item& it : items_) points += gaugePointCount(it.g);
  if (points > kMaxPointsInAll)
    throw InputError(
        fmt::format("the case's gauges have {} points in all (swl lines cut into pieces of pointdp), "
                    "more than {}; give larger <pointdp> values",
                    points, kMaxPointsInAll));
  for (Item& it : items_) {
    it.points = gaugePoints(it.g);
    const std::vector<std::string> headers = gaugeFileHeaders(it.g);
    for (size_t f = 0; f < it.files.size(); ++f) it.files[f].header = headers[f];
  }
  if (follower_) return;
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) throw InputError(fmt::format("cannot create the gauge folder {}: {}", dir_.string(), ec.message()));
}

bool GaugeRecorder::writesAt(const Item& it, double t) const {
  const ResolvedGauge& g = it.g;
  return t >= it.nextOutput - kTimeTol * std::max(g.outputDt, 1e-300) && inWindow(t, g.outputStart, g.outputEnd);
}

bool GaugeRecorder::computeDue(const Item& it, double t) const {
  const ResolvedGauge& g = it.g;
  return t >= it.nextCompute - kTimeTol * std::max(g.computeDt, 1e-300) && inWindow(t, g.computeStart, g.computeEnd);
}

bool GaugeRecorder::due(double t) const {
  for (const Item& it : items_)
    if (computeDue(it, t)) return true;
  return false;
}

bool GaugeRecorder::forcesDue(double t) const {
  for (const Item& it : items_)
    if (it.g.spec.kind == GaugeKind::Force && computeDue(it, t) && writesAt(it, t)) return true;
  return false;
}

void GaugeRecorder::sample(double t, GaugeSource& source) {
  // The gauges to write now, with where their points start in points_.
  struct Due {
    Item* item;
    size_t first;
  };
  std::vector<Due> due;
  request_.points.clear();
  request_.lines.clear();
  request_.targets.clear();
  for (Item& it : items_) {
    if (!computeDue(it, t)) continue;
    const ResolvedGauge& g = it.g;
    it.nextCompute = g.computeDt > 0 ? nextMultiple(t, g.computeDt) : t;
    if (!writesAt(it, t)) continue;
    it.nextOutput = g.outputDt > 0 ? nextMultiple(t, g.outputDt) : t;
    if (g.spec.kind == GaugeKind::MaxZ) {
      due.push_back({&it, request_.lines.size()});
      request_.lines.push_back(gaugeMaxZLine(g));
    } else if (g.spec.kind == GaugeKind::Force) {
      due.push_back({&it, request_.targets.size()});
      request_.targets.push_back(gaugeForceTarget(g));
    } else {
      due.push_back({&it, request_.points.size()});
      request_.points.insert(request_.points.end(), it.points.begin(), it.points.end());
    }
  }
  if (due.empty()) return;
  source.sample(request_, results_);
  if (follower_) return;
  for (const Due& d : due) {
    const std::vector<std::string> rows = gaugeFileRows(d.item->g, results_, d.first, t, d.item->samples++);
    for (size_t f = 0; f < rows.size(); ++f) d.item->files[f].rows += rows[f];
  }
}

void GaugeRecorder::sample(const ParticleSnapshot& s) {
  SnapshotGaugeSource source([&]() -> const ParticleSnapshot& { return s; }, kernel_);
  sample(s.time, source);
}

void GaugeRecorder::flush() {
  if (finished_ || follower_) return;
  for (Item& it : items_)
    for (File& file : it.files) {
      if (file.started && file.rows.empty()) continue;
      const fs::path part = dir_ / (file.name + ".part");
      std::FILE* f = std::fopen(part.c_str(), file.started ? "ab" : "wb");
      if (!f) throw RunError(fmt::format("cannot write file '{}': {}", part.string(), std::strerror(errno)));
      const std::string text = file.started ? file.rows : file.header + file.rows;
      const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
      const int err = errno;
      if (std::fclose(f) != 0 || !ok)
        throw RunError(fmt::format("cannot write file '{}': {}", part.string(), std::strerror(ok ? errno : err)));
      file.started = true;
      file.rows.clear();
    }
}

namespace {
// One file of a gauge in a checkpoint (a gauge's files share its schedule).
struct GaugeCheckpoint {
  double nextCompute, nextOutput;
  uint64_t fileBytes;  // of its .part file, flushed
  uint8_t started;
};

// A file's key in a checkpoint: "gauge.<name>" without ".csv" (as before binary files existed).
std::string checkpointKey(const std::string& file) {
  const bool csv = file.size() > 4 && file.compare(file.size() - 4, 4, ".csv") == 0;
  return "gauge." + (csv ? file.substr(0, file.size() - 4) : file);
}
}  // namespace

void GaugeRecorder::save(CheckpointWriter& w) {
  flush();
  for (const Item& it : items_)
    for (const File& file : it.files) {
      const fs::path part = dir_ / (file.name + ".part");
      const uint64_t bytes = file.started ? uint64_t(fs::file_size(part)) : 0;
      w.putValue(checkpointKey(file.name), GaugeCheckpoint{it.nextCompute, it.nextOutput, bytes, file.started});
    }
  for (const Item& it : items_)
    if (it.g.spec.kind == GaugeKind::Mesh && it.g.spec.mesh.bin) w.putValue("gauge." + it.g.spec.name + ".samples", it.samples);
}

void GaugeRecorder::checkResumable(const CheckpointReader& r) const {
  for (const Item& it : items_)
    for (const File& f : it.files) {
      const auto g = r.value<GaugeCheckpoint>(checkpointKey(f.name));
      if (g.started == 0) continue;
      // A .part is newer than a .csv beside it: the .csv was ended by an earlier stop.
      const fs::path part = dir_ / (f.name + ".part"), done = dir_ / f.name;
      std::error_code ec;
      const fs::path& file = fs::exists(part, ec) || !fs::exists(done, ec) ? part : done;
      const uint64_t have = fs::is_regular_file(file, ec) ? uint64_t(fs::file_size(file, ec)) : 0;
      if (have < g.fileBytes)
        throw InputError(
            fmt::format("{}: the gauge's file holds {} bytes, fewer than the {} it had at the checkpoint "
                        "({}); the run cannot be resumed into this folder",
                        file.string(), have, g.fileBytes, r.path().string()));
    }
}

void GaugeRecorder::resume(const CheckpointReader& r) {
  if (!follower_) checkResumable(r);
  for (Item& it : items_) {
    if (it.g.spec.kind == GaugeKind::Mesh && it.g.spec.mesh.bin)
      it.samples = r.value<uint32_t>("gauge." + it.g.spec.name + ".samples");
    for (File& f : it.files) {
      const auto g = r.value<GaugeCheckpoint>(checkpointKey(f.name));
      it.nextCompute = g.nextCompute;
      it.nextOutput = g.nextOutput;
      if (follower_) continue;  // rank 0's files
      f.started = g.started != 0;
      const fs::path part = dir_ / (f.name + ".part"), done = dir_ / f.name;
      std::error_code ec;
      if (f.started && !fs::exists(part, ec) && fs::exists(done, ec)) fs::rename(done, part, ec);
      if (ec) throw RunError(fmt::format("cannot rename '{}': {}", done.string(), ec.message()));
      fs::remove(done, ec);
      if (!f.started) {
        fs::remove(part, ec);  // begun after the checkpoint
        continue;
      }
      fs::resize_file(part, g.fileBytes, ec);  // rows written after the checkpoint go
      if (ec) throw RunError(fmt::format("cannot shorten '{}': {}", part.string(), ec.message()));
    }
  }
}

void GaugeRecorder::finish() {
  flush();
  if (finished_ || follower_) return;
  finished_ = true;
  for (const Item& it : items_)
    for (const File& f : it.files) {
      const fs::path part = dir_ / (f.name + ".part");
      std::error_code ec;
      fs::rename(part, dir_ / f.name, ec);
      if (ec) throw RunError(fmt::format("cannot rename '{}': {}", part.string(), ec.message()));
    }
}

}  // namespace sph
