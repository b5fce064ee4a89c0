// The `sph` command line: run a case, describe a case, list plugins.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "case/loader.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "output/output.h"
#include "parallel/communicator.h"
#include "platform/gpu_runtime.h"
#include "platform/plugin_loader.h"
#include "platform/stop_request.h"
#include "run/float_positions.h"
#include "run/memory_estimate.h"
#include "run/neighbour_plugin.h"
#include "run/rank_domain.h"
#include "run/simulation.h"
#include "sph/plugin/errors.h"

namespace {

constexpr const char* kUsage = R"(usage:
  sph run CASE.xml [options]   run a DualSPHysics case: a _Def.xml, or GenCase's output
                               (CASE.xml with CASE.bi4 beside it)
  sph info CASE.xml [--dp DP]  particle counts, dp, h, c0, dt, domain, cell grid, memory estimate
           [--ranks N]         and the slabs N ranks would take, each rank's particles, halo and
                               device memory (with the run options given: plugin, precision)
  sph plugins [--plugin-path DIR]  list the neighbour-search strategies found, with their paths
                               and options
  sph --help                   this text

run options (default in brackets):
  --neighbours NAME     neighbour search: cell | verlet | allpairs (any plugin `sph plugins` lists)
                                                         [XML parameter NeighbourSearch, else cell]
  --plugin-path DIR     search DIR first for the plugin (repeatable); the only way to
                        replace a built-in plugin (cell, verlet, allpairs)
  --device gpu|cpu      where to run                     [gpu when a usable GPU exists, else cpu]
  --precision single|double                              [single]
  --out DIR             output folder                    [out/<case name>]
  --time-max T          simulated seconds                [XML parameter TimeMax]
  --time-out T          seconds between VTK outputs      [XML parameter TimeOut]
  --steps N             stop after N steps               [no limit]
  --threads N           CPU threads                      [all cores]
  --OPTION VALUE        an option of the neighbour plugin, over the case's <parameter> of
                        the same key: `sph plugins` lists each plugin's options
  --dp DP               override the particle spacing    [XML definition dp]
  --no-vtk              skip the VTK files (run.json and the table are still written)
  --no-output           write no files at all
  --overwrite           replace the results of an earlier run in the output folder (they
                        stay until this run has written its first output; other files stay)
  --checkpoint-every T  wall-clock seconds between checkpoints (OUT/checkpoint/checkpoint.bin,
                        replaced atomically; one more when SIGINT/SIGTERM stops the run,
                        and, when this option is given, when --steps stops it before
                        TimeMax); 0: none                [900]
  --resume OUT          continue the run whose checkpoint is in OUT, into OUT: the results
                        there are kept (those written after the checkpoint are cut off) and
                        extended; give the case and options the run started with (--time-max
                        and --steps may grow); not with --out, --overwrite or --no-output
  --no-timers           no per-phase timing (DualSPHysics' -svtimers:0): the report
                        gives the wall time only; small GPU cases run faster (no CUDA
                        events between the kernels)
  --no-graphs           GPU: launch every kernel of every step instead of replaying
                        recorded steady Verlet-integrator steps as CUDA graphs
                        (for comparison)
  --rank-exchange host|nccl  several GPU ranks: the particles that go between ranks travel
                        through page-locked host memory and MPI (host), or from GPU to GPU by
                        NCCL (nccl: libnccl.so.2 on the library path or named by
                        SPH_NCCL_LIBRARY; one rank a GPU)                 [host]
  --rank-overlap on|off  several ranks, between exchanges: the particles out of the
                        halo's reach interact while the halo's refresh travels (on), or
                        after it (off)                                        [on]
  --rank-rebalance F|off  several ranks: every 50 force passes the slabs move by whole layers
                        towards an even cost when the busiest rank's force passes took more
                        than F (a fraction) over the mean; off: they keep their first bounds [0.1]
  --quiet               no progress line

Output: OUT/vtk/Part_NNNN.vtk every TimeOut, OUT/run.json and a phase table at the end,
OUT/excluded.csv when particles were excluded, OUT/checkpoint/checkpoint.bin to resume from.
Plugins are searched in the --plugin-path directories (which must exist), then <bin>/../lib/sph/plugins
(the built-in plugins, in the build tree and in an install alike), then $SPH_PLUGIN_PATH
(colon-separated). A run loads only the first libsph_NAME.so found for its plugin, and stops with the
reason when that file cannot be used (built from other engine headers, not a library, writable by
every user); `sph plugins` lists every libsph_*.so found and says why any is skipped.
Exit code 0 only on success; 2 for bad input, 1 when the run failed (OUT/run.json says why).
Several ranks: `mpirun -np N sph run CASE.xml [options]` runs one case on N ranks, each owning a
slab of the domain along its longest axis (as `sph info --ranks N` shows) with the copies of its
neighbours' particles within reach, on the GPU of its rank on the machine (several ranks may share
one) or on CPU cores; the time step is the run's. Rank 0 writes the output, whole, as one rank
would (gauges too); the others print nothing unless they fail. Each rank writes its checkpoint
(OUT/checkpoint/checkpoint.bin is rank 0's), and --resume continues on as many ranks. Floating
bodies, gauges, wave absorption and inlets/outlets combine their sums and new particles over the
ranks; Verlet lists live between rebuilds, the halo refreshed in place (docs/usage.md).
)";

struct Args {
  std::string command, casePath;
  std::string resume;  // --resume OUT
  uint32_t ranks = 0;  // sph info --ranks N (0: not asked)
  sph::RunOptions run;
  sph::LoadOptions load;
  std::vector<std::pair<std::string, std::string>> pluginFlags;  // options no command of sph has
};

// A message for the terminal: control bytes that came from the input (a case file's attribute, a
// file name) are shown as \xNN instead of being sent to the terminal; line breaks stay.
std::string printable(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char ch : text) {
    const unsigned char u = static_cast<unsigned char>(ch);
    if ((u < 0x20 && ch != '\n') || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += ch;
  }
  return out;
}

constexpr double kMostSteps = 9007199254740992.0;

[[noreturn]] void usageError(const std::string& msg) {
  throw sph::InputError(msg + "\n(see sph --help)");
}

double parseNumber(const std::string& opt, const std::string& v) {
  try {
    size_t pos = 0;
    const double d = std::stod(v, &pos);
    if (pos == v.size() && std::isfinite(d)) return d;
  } catch (...) {
  }
  usageError(fmt::format("{}: '{}' is not a number", opt, v));
}

// One option of sph run or sph info (and --plugin-path of sph plugins); false when it is none of
// theirs. `value(o)` takes the option's value from the command line.
bool parseRunOption(Args& a, const std::string& o, const std::function<std::string(const std::string&)>& value) {
  if (o == "--neighbours") {
    a.run.neighbours = value(o);
  } else if (o == "--overwrite") {
    a.run.overwrite = true;
  } else if (o == "--checkpoint-every") {
    const double t = parseNumber(o, value(o));
    if (!(t >= 0)) usageError("--checkpoint-every must be 0 (no checkpoints) or positive seconds");
    a.run.checkpointEvery = t;
    a.run.checkpointAtStepLimit = true;
  } else if (o == "--resume") {
    a.resume = value(o);
  } else if (o == "--plugin-path") {
    a.run.pluginDirs.push_back(value(o));
  } else if (o == "--device") {
    const std::string d = value(o);
    if (d != "gpu" && d != "cpu") usageError("--device must be gpu or cpu");
    a.run.device = d == "gpu" ? sph::Device::Gpu : sph::Device::Cpu;
  } else if (o == "--precision") {
    const std::string p = value(o);
    if (p != "single" && p != "double") usageError("--precision must be single or double");
    a.run.precision = p == "double" ? sph::Precision::Double : sph::Precision::Single;
  } else if (o == "--out") {
    a.run.outDir = value(o);
  } else if (o == "--time-max") {
    const double t = parseNumber(o, value(o));
    if (!(t > 0)) usageError("--time-max must be positive");
    a.run.timeMax = t;
  } else if (o == "--time-out") {
    const double t = parseNumber(o, value(o));
    if (!(t > 0)) usageError("--time-out must be positive");
    a.run.timeOut = t;
  } else if (o == "--steps") {
    const std::string text = value(o);
    const double n = parseNumber(o, text);
    if (!(n >= 1) || n != std::floor(n)) usageError("--steps must be a positive integer");
    // Past 2^53 a double no longer holds every integer (and past 2^64 no step count fits).
    if (n > kMostSteps) usageError(fmt::format("--steps {} is more than {} (2^53)", text, kMostSteps));
    a.run.maxSteps = uint64_t(n);
  } else if (o == "--threads") {
    const double n = parseNumber(o, value(o));
    if (!(n >= 1) || n != std::floor(n)) usageError("--threads must be a positive integer");
    // More threads than a few per core only queue on the cores (and enough of them make the
    // OpenMP runtime fail to start the team).
    const double most = 8.0 * std::max(1u, std::thread::hardware_concurrency());
    if (n > most)
      usageError(fmt::format("--threads {} is more than 8 per core of this machine (at most {})", n, most));
    a.run.threads = int(n);
  } else if (o == "--dp") {
    const double dp = parseNumber(o, value(o));
    if (!(dp > 0)) usageError("--dp must be positive");
    a.load.dpOverride = dp;
  } else if (o == "--no-vtk") {
    a.run.writeVtk = false;
  } else if (o == "--no-output") {
    a.run.writeOutput = false;
  } else if (o == "--no-timers") {
    a.run.phaseTimers = false;
  } else if (o == "--no-graphs") {
    a.run.stepGraphs = false;
  } else if (o == "--rank-exchange") {
    const std::string how = value(o);
    if (how != "host" && how != "nccl") usageError(fmt::format("--rank-exchange must be host or nccl, not '{}'", how));
    a.run.rankLink = how == "nccl" ? sph::RunOptions::RankLink::Nccl : sph::RunOptions::RankLink::Host;
  } else if (o == "--rank-overlap") {
    const std::string how = value(o);
    if (how != "on" && how != "off") usageError(fmt::format("--rank-overlap must be on or off, not '{}'", how));
    a.run.rankOverlap = how == "on";
  } else if (o == "--rank-rebalance") {
    const std::string text = value(o);
    if (text == "off") {
      a.run.rankRebalance = -1;
    } else {
      const double f = parseNumber(o, text);
      if (!(f >= 0)) usageError("--rank-rebalance must be a fraction of at least 0, or off");
      a.run.rankRebalance = f;
    }
  } else if (o == "--quiet") {
    a.run.progress = false;
  } else {
    return false;
  }
  return true;
}

Args parseArgs(int argc, char** argv) {
  Args a;
  a.run.overwrite = false;  // a user's earlier results are replaced only when asked (--overwrite)
  std::vector<std::string> v(argv + 1, argv + argc);
  if (v.empty()) usageError("no command given");
  a.command = v[0];
  size_t i = 1;
  auto value = [&](const std::string& opt) -> std::string {
    if (i + 1 >= v.size()) usageError(fmt::format("{} needs a value", opt));
    if (v[i + 1].empty()) usageError(fmt::format("{}: the value is empty", opt));
    return v[++i];
  };
  for (; i < v.size(); ++i) {
    const std::string& o = v[i];
    if (o.empty() || o[0] != '-') {
      if (!a.casePath.empty()) usageError(fmt::format("unexpected argument '{}'", o));
      a.casePath = o;
    } else if (o == "--ranks") {
      if (a.command != "info") usageError("--ranks is an option of sph info; a run takes its ranks from mpirun -np N");
      const double n = parseNumber(o, value(o));
      if (!(n >= 1) || n != std::floor(n) || n > 1e6) usageError("--ranks must be a positive integer (at most 10^6)");
      a.ranks = uint32_t(n);
    } else if (parseRunOption(a, o, value)) {
    } else if (o.size() > 2 && o.compare(0, 2, "--") == 0 && i + 1 < v.size() && !v[i + 1].empty() &&
               v[i + 1][0] != '-') {
      // Perhaps a plugin's option: resolvePluginFlags() decides once the plugins are found.
      a.pluginFlags.emplace_back(o, value(o));
    } else {
      usageError(fmt::format("unknown option '{}'", o));
    }
  }
  if (!a.resume.empty()) {
    // The folder resumed is the output folder: another --out, or replacing it, contradicts it.
    if (!a.run.outDir.empty()) usageError("--resume OUT writes into OUT: it cannot go with --out");
    if (a.run.overwrite) usageError("--resume keeps the results in its folder: it cannot go with --overwrite");
    if (!a.run.writeOutput) usageError("--resume continues the results in its folder: it cannot go with --no-output");
    a.run.outDir = a.resume;
    a.run.resume = true;
  }
  return a;
}

// The options given that no command of sph has are the plugins' (NeighbourStrategy::options()):
// each goes to RunOptions::strategyOptions under its key, and the run's plugin checks it; one that
// no plugin found has is a usage error.
void resolvePluginFlags(Args& a) {
  if (a.pluginFlags.empty()) return;
  std::map<std::string, std::string> keyOfFlag;
  std::string names;
  for (const sph::PluginOptions& p : sph::discoverPluginOptions(a.run.pluginDirs)) {
    names += (names.empty() ? "" : ", ") + p.plugin;
    for (const sph::StrategyOption& o : p.options)
      if (!o.flag.empty()) keyOfFlag.emplace(o.flag, o.key);
  }
  for (const auto& [flag, value] : a.pluginFlags) {
    const auto it = keyOfFlag.find(flag);
    if (it == keyOfFlag.end())
      usageError(fmt::format("unknown option '{}' (neither sph {}'s nor one of the neighbour plugins found: {})", flag,
                             a.command, names.empty() ? "none" : names));
    a.run.strategyOptions[it->second] = value;
  }
}

int cmdPlugins(const Args& a) {
  std::vector<std::string> problems;
  const auto plugins = sph::discoverPlugins(&problems, a.run.pluginDirs);
  fmt::print("neighbour-search plugins:\n");
  for (const auto& p : plugins) {
    fmt::print("  {:<8} {}\n           {}\n", p.name, p.description, p.path);
    for (const sph::StrategyOption& o : sph::createStrategy(p.name, nullptr, a.run.pluginDirs)->options())
      fmt::print("           {} {} (<parameter key=\"{}\">): {}\n", o.flag.empty() ? "(no flag)" : o.flag, o.value,
                 o.key, o.help);
  }
  if (plugins.empty()) fmt::print("  none\n");
  fmt::print("searched:\n");
  for (const auto& d : sph::pluginSearchDirs(a.run.pluginDirs)) fmt::print("  {}\n", d);
  for (const auto& w : problems) fmt::print("skipped: {}\n", w);
  fmt::print("plugin ABI tag of this sph: {}\n", sph::pluginAbiTag());
  return plugins.empty() ? 1 : 0;
}

std::string bytesText(double b) {
  return b > 1 << 30 ? fmt::format("{:.2f} GiB", b / (1 << 30)) : fmt::format("{:.1f} MiB", b / (1 << 20));
}

// The grids of a cell search with cells of 2h and of h.
// `sph info`: each inlet/outlet zone as the run will use it.
void printInOutZones(const sph::CaseDefinition& c) {
  using namespace sph;
  for (size_t k = 0; k < c.inout.zones.size(); ++k) {
    const InOutZoneDef& z = c.inout.zones[k];
    const Vec3d& d = z.unitDirection;
    const double v0 = z.velocity.empty() ? 0 : z.velocity.front().v[0];
    const char* profile = z.profile == InOutProfile::Uniform ? "uniform" : z.profile == InOutProfile::Linear ? "linear" : "parabolic";
    const std::string velocity = z.velocityMode == InOutVelocityMode::Fixed
                                     ? fmt::format("fixed {} ({:.6g} m/s at the first point)", profile, v0)
                                     : fmt::format("variable {}, {} rows{}", profile, z.velocity.size(),
                                                   z.velocityFile.empty() ? "" : " from " + z.velocityFile);
    const std::string zsurf = z.zsurfMode == InOutZsurfMode::Undefined ? "none"
                              : z.zsurfMode == InOutZsurfMode::Fixed   ? fmt::format("{:.6g} m", z.zsurf.front().zsurf)
                                                                       : fmt::format("variable, {} rows", z.zsurf.size());
    fmt::print("inout {:<5} line {}: {} points x {} layers, direction ({:.4g}, {:.4g}, {:.4g}), plane at ({:.4g}, {:.4g}, "
               "{:.4g}); {} buffer particles at the start; velocity {}; density {}; zsurf {}{}; refilling {}; input {}\n",
               k, z.line, z.points.size(), z.layers, d.x, d.y, d.z, z.planePoint.x, z.planePoint.y, z.planePoint.z,
               z.initialParticles, velocity,
               z.densityMode == InOutDensityMode::Hydrostatic ? "hydrostatic" : "rho0", zsurf,
               z.removeAboveZsurf ? " (removes above it)" : "", int(z.refilling), int(z.input));
  }
}

void printCellGrids(const sph::SimParameters& p) {
  for (const double cell : {p.support, p.h}) {
    // A periodic axis has the most cells of at least `cell` that divide the period.
    auto cells = [&](double lo, double hi, bool periodic) {
      return std::max<long>(1, long(periodic ? std::floor((hi - lo) / cell) : std::ceil((hi - lo) / cell)));
    };
    const long nx = cells(p.domainMin.x, p.domainMax.x, p.periodic[0]),
               ny = p.dim == 2 ? 1 : cells(p.domainMin.y, p.domainMax.y, p.periodic[1]),
               nz = cells(p.domainMin.z, p.domainMax.z, p.periodic[2]);
    fmt::print("cell grid   {} x {} x {} = {} cells of {:.4g} m ({})\n", nx, ny, nz, nx * ny * nz, cell,
               cell == p.support ? "full, 2h" : "half, h");
  }
}

// Per plugin, before anything is allocated (run/memory_estimate.h): what `sph run` checks too.
void printMemoryEstimates(const Args& a, const sph::CaseDefinition& c, const sph::SimParameters& p,
                          const sph::NeighbourPlugin& neighbours) {
  std::vector<std::pair<std::string, sph::StrategyPtr>> plugins;
  for (const sph::PluginInfo& info : sph::discoverPlugins(nullptr, a.run.pluginDirs))
    plugins.emplace_back(info.name, sph::createStrategy(info.name, nullptr, a.run.pluginDirs));
  for (const sph::Precision precision : {sph::Precision::Single, sph::Precision::Double}) {
    for (const auto& [name, strategy] : plugins) {
      const sph::DeviceMemoryEstimate e = sph::estimateDeviceMemory(p, c.positions.size(), precision, *strategy);
      std::string needs;
      for (const sph::MemoryNeed& m : e.strategy)
        needs += fmt::format("{}{}about {} with {} (+ {}{}{})", needs.empty() ? "" : ", ", m.minimum ? "at least " : "",
                             bytesText(e.engine + m.bytes), m.what, bytesText(m.bytes), m.detail.empty() ? "" : ": ",
                             m.detail);
      fmt::print("memory      {} precision on the device, {}: {} engine arrays; {}\n", sph::precisionName(precision),
                 name, bytesText(e.engine), needs.empty() ? "nothing more" : needs);
    }
    const sph::HostMemoryEstimate cpu =
        sph::estimateHostMemory(c, p, sph::Device::Cpu, precision, *neighbours.strategy);
    const sph::HostMemoryEstimate gpu =
        sph::estimateHostMemory(c, p, sph::Device::Gpu, precision, *neighbours.strategy);
    fmt::print("host        {} precision, {}: a run needs about {} of host memory on the CPU, {} with the GPU (the "
               "case {}, the particle generator's peak {}); {} available to it\n",
               sph::precisionName(precision), neighbours.info.name, bytesText(cpu.peak()), bytesText(gpu.peak()),
               bytesText(cpu.caseData), bytesText(cpu.generatorPeak),
               bytesText(sph::availableHostBytes() + cpu.caseData));
  }
  fmt::print("checked     before a run: the host memory above, and on the device the engine arrays with the "
             "plugin's least need (\"at least\"), 6% for what the estimate leaves out and 48 MiB that do not grow "
             "with the particles\n");
}

// `sph info --ranks N`: the slabs N ranks would take (run/rank_domain.h) and each rank's device
// memory for its own particles and its halo, with the run's plugin and precision.
void printRankPlan(const Args& a, const sph::CaseDefinition& c, const sph::SimParameters& p,
                   const sph::NeighbourPlugin& neighbours) {
  // The layout `mpirun -np N sph run` takes (run/rank_domain.h: mDBC's ghost nodes and the ghost
  // nodes of inlets that extrapolate add to the reach).
  const sph::RankLayout layout = sph::planRanks(c, p, neighbours.strategy->haloReach(p.support), a.ranks, 0);
  const sph::parallel::SlabPlan& plan = layout.plan;
  const int axis = plan.axis;
  const double reach = layout.reach;
  fmt::print(
      "ranks       {}: slabs along {} of whole layers of {:.4g} m ({} layers; the halo reach of '{}' is {:.4g} m), "
      "balanced by particles{}\n",
      a.ranks, "xyz"[axis], plan.layer, plan.layerParticles.size(), neighbours.info.name, reach,
      plan.periodic ? "; the axis is periodic" : "");
  double most = 0;
  for (uint32_t r = 0; r < plan.ranks(); ++r) {
    const uint64_t n = plan.owned[r] + plan.halo[r];
    const sph::DeviceMemoryEstimate e =
        sph::estimateDeviceMemory(p, n, a.run.precision, *neighbours.strategy, sph::Device::Gpu, a.ranks);
    most = std::max(most, e.run());
    fmt::print(
        "  rank {:<4} {} from {:.4g} to {:.4g} m: {} particles and {} in its halo; at least {} of device memory\n", r,
        "xyz"[axis], plan.origin + plan.layer * plan.begin[r], plan.origin + plan.layer * plan.begin[r + 1],
        plan.owned[r], plan.halo[r], bytesText(e.run()));
  }
  fmt::print(
      "  the busiest rank needs at least {} ({} precision, '{}': the engine arrays and the plugin's least need, "
      "as `sph run` checks on one rank)\n",
      bytesText(most), sph::precisionName(a.run.precision), neighbours.info.name);
}

int cmdInfo(const Args& a) {
  const sph::CaseDefinition c = sph::loadCase(a.casePath, a.load);
  const sph::NeighbourPlugin neighbours = sph::loadNeighbourPlugin(c, a.run);
  const sph::SimParameters p = sph::runParameters(c, a.run, neighbours.options());
  for (const std::string& w : p.warnings) fmt::print(stderr, "sph: warning: {}\n", printable(w));
  fmt::print("case        {} ({})\n", c.name, c.path);
  fmt::print("dimensions  {}D\n", p.dim);
  fmt::print("particles   {} total: {} boundary, {} fluid{}\n", c.positions.size(), c.nBound, c.nFluid,
             c.particleFile.empty() ? " (generated from the geometry commands)"
                                    : fmt::format(" (GenCase's, from {})", c.particleFile));
  for (const auto& m : c.mks) fmt::print("  mk {:<4} {:<8} {:>10}\n", m.mk, m.bound ? "boundary" : "fluid", m.count);
  for (const auto& f : c.floatings) {
    std::string mks;
    for (int mk : f.mkBound) mks += fmt::format("{}{}", mks.empty() ? "" : ",", mk);
    const std::string weight = f.relativeWeight ? fmt::format("relative weight {}", *f.relativeWeight)
                               : f.massBody     ? fmt::format("mass {} kg", *f.massBody)
                                                : fmt::format("density {} kg/m^3", *f.rhopBody);
    fmt::print("floating    mkbound {} ({}{})\n", mks, weight,
               f.property.empty() ? std::string() : ", property " + f.property);
  }
  for (const auto& in : c.accInputs) {
    std::string mks;
    for (int mk : in.mks) mks += fmt::format("{}{}", mks.empty() ? "" : ",", mk);
    fmt::print("accinput    {} {}: {} rows from t={:.6g} s to {:.6g} s{}, applied for {:.6g} <= t <= {:.6g} s, centre "
               "({:.6g}, {:.6g}, {:.6g}) m, global gravity {}\n",
               in.bound ? "mkbound" : "mkfluid", mks, in.time.size(), in.time.front(), in.time.back(),
               in.file.empty() ? std::string() : " (" + in.file + ")", in.start, in.end, in.centre.x, in.centre.y,
               in.centre.z, in.globalGravity ? "on" : "off");
  }
  fmt::print("dp          {} m\nh           {:.6g} m (support 2h = {:.6g} m)\n", p.dp, p.h, p.support);
  fmt::print("c0          {:.6g} m/s (hswl {:.4g} m)\nrho0        {} kg/m^3, B = {:.6g} Pa\n", p.c0, p.hswl, p.rho0, p.cteB);
  if (p.massBound == p.massFluid) fmt::print("mass        {:.6g} kg per particle\n", p.massFluid);
  else fmt::print("mass        {:.6g} kg per fluid particle, {:.6g} kg per boundary one\n", p.massFluid, p.massBound);
  fmt::print("dt          initial {:.6g} s, minimum {:.6g} s{}\n", p.dtIni, p.dtMin,
             p.dtFixed > 0 ? fmt::format(", fixed {:.6g} s", p.dtFixed) : std::string());
  fmt::print("integrator  {}, kernel {}, TimeMax {} s, TimeOut {} s\n",
             p.stepAlgorithm == 2 ? "symplectic" : fmt::format("verlet (Euler every {} steps)", p.verletSteps),
             p.kernel == sph::KernelKind::Cubic ? "cubic spline" : "Wendland", p.timeMax, p.timeOut);
  fmt::print("domain      ({:.4g}, {:.4g}, {:.4g}) to ({:.4g}, {:.4g}, {:.4g}) m\n", p.domainMin.x, p.domainMin.y,
             p.domainMin.z, p.domainMax.x, p.domainMax.y, p.domainMax.z);
  for (int a = 0; a < 3; ++a)
    if (p.periodic[a]) fmt::print("periodic    {}, period {:.6g} m\n", "xyz"[a], p.period(a));
  printInOutZones(c);
  {
    const sph::FloatPositionLimit l = sph::floatPositionLimit(p);
    fmt::print("positions   single precision moves them in double (a float and its remainder); the pair kernels "
               "read the float, {:.3g} m apart at |x| = {:.4g} m ({:.3g}% of dp; warned above {:.3g}%)\n",
               l.spacing, l.farthest, 100 * l.ratio(), 100 * sph::kFloatPositionWarnRatio);
  }
  printCellGrids(p);
  printMemoryEstimates(a, c, p, neighbours);
  if (a.ranks > 0) printRankPlan(a, c, p, neighbours);
  return 0;
}

// SIGINT and SIGTERM: the run stops at the end of its step and reports "interrupted" (a second
// signal of the same kind kills it at once, as usual).
void onStopSignal(int signal) {
  sph::requestStop(signal);
  std::signal(signal, SIG_DFL);
}

int cmdRun(const Args& a) {
  std::signal(SIGINT, onStopSignal);
  std::signal(SIGTERM, onStopSignal);
  const auto t0 = std::chrono::steady_clock::now();
  // The generator's memory check then counts the run's share too (run/memory_estimate.h).
  sph::LoadOptions loadOptions = a.load;
  loadOptions.runHostBytesPerParticle =
      sph::runHostBytesPerParticle(a.run.device.value_or(sph::defaultDevice()), a.run.precision);
  std::optional<sph::CaseDefinition> loaded;
  std::unique_ptr<sph::Simulation> simulation;
  auto t1 = t0;
  try {
    loaded.emplace(sph::loadCase(a.casePath, loadOptions));
    t1 = std::chrono::steady_clock::now();
    simulation = std::make_unique<sph::Simulation>(*loaded, a.run);
  } catch (const sph::InputError&) {
    throw;
  } catch (const std::exception& e) {
    // Out of memory or a device error before the first step: the run failed, and its folder says so.
    const std::string what = dynamic_cast<const std::bad_alloc*>(&e)
                                 ? fmt::format("out of host memory ({}) while {} the case", e.what(),
                                               loaded ? "setting up" : "loading")
                                 : std::string(e.what());
    // Rank 0 reports for a run over several ranks.
    const std::string report =
        sph::parallel::Communicator::world().rank() == 0 ? sph::reportFailedSetup(a.casePath, a.run, what) : "";
    throw sph::RunError(report.empty() ? what : fmt::format("{} (reported in {})", what, report));
  }
  const sph::CaseDefinition& c = *loaded;
  sph::Simulation& sim = *simulation;
  const auto t2 = std::chrono::steady_clock::now();
  const auto& p = sim.parameters();
  // Over several ranks rank 0 speaks for the run.
  const sph::parallel::Communicator& world = sph::parallel::Communicator::world();
  if (world.rank() != 0) {
    sim.run();
    return 0;
  }
  for (const std::string& w : p.warnings) fmt::print(stderr, "sph: warning: {}\n", printable(w));
  fmt::print("sph: {} ({}D, {} particles: {} boundary, {} fluid) on the {} ({}), {} precision, neighbours '{}'{}\n",
             c.name, p.dim, c.positions.size(), c.nBound, c.nFluid, sph::deviceName(sim.device()),
             sim.device() == sph::Device::Gpu ? sph::gpu::deviceDescription() : "OpenMP",
             sph::precisionName(a.run.precision), sim.strategyName(),
             world.single() ? "" : fmt::format(", {} ranks", world.size()));
  const double load = std::chrono::duration<double>(t1 - t0).count();
  const double setup = std::chrono::duration<double>(t2 - t1).count();
  fmt::print("setup: {:.2f} s to load the case, {:.2f} s to prepare the run ({:.1f} M particles/s in all)\n", load,
             setup, double(c.positions.size()) / std::max(load + setup, 1e-9) * 1e-6);
  fmt::print("setup parts: {}\n", sim.setupPhaseText());
  if (a.run.resume) fmt::print("resuming {} at step {}, t={:.6g} s\n", a.resume, sim.steps(), sim.time());
  const sph::RunReport r = sim.run();
  fmt::print("\n{}\n{}", sph::phaseTable(r), sph::strategyStatsText(r));
  fmt::print("done: {} steps, {:.4f} s simulated in {:.2f} s wall ({:.2f} ns per particle-step), "
             "{} particles excluded, peak device memory {}\n",
             r.steps, r.simulatedTime, r.wallSeconds, r.nsPerParticleStep, r.excluded, bytesText(double(r.peakDeviceBytes)));
  if (r.extra.count("inout_created"))
    fmt::print("inlets/outlets: {} buffer particles at the start, {} created; {} became fluid, {} fluid became buffer, "
               "{} removed; {} particles at the end\n",
               r.extra.at("inout_initial"), r.extra.at("inout_created"), r.extra.at("inout_inflow"),
               r.extra.at("inout_outflow"), r.extra.at("inout_removed"), r.extra.at("particles_final"));
  if (a.run.writeOutput)
    fmt::print("output: {}\n", a.run.outDir.empty() ? "out/" + c.name : a.run.outDir);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help" || std::string(argv[i]) == "-h") {
      fmt::print("{}", kUsage);
      return 0;
    }
  // MPI for the process's lifetime when a launcher started it (parallel/communicator.h).
  std::unique_ptr<sph::parallel::MpiSession> mpi;
  const sph::parallel::Communicator& world = sph::parallel::Communicator::world();
  // A failure on any rank of several ends them all (the others may wait for it in a collective),
  // with the message of the rank that failed.
  const auto fail = [&](int code, const std::string& text) {
    fmt::print(stderr, "sph: {}{}\n", world.single() ? "" : fmt::format("rank {}: ", world.rank()), printable(text));
    if (mpi && !world.single()) {
      std::fflush(stderr);
      mpi->abort(code);
    }
    return code;
  };
  try {
    mpi = std::make_unique<sph::parallel::MpiSession>();
    Args a = parseArgs(argc, argv);
    if (a.command == "plugins") return cmdPlugins(a);
    // Each rank its GPU, before anything of CUDA runs (parallel/communicator.h, localRank).
    if (!world.single()) sph::gpu::useDeviceOfLocalRank(world.localRank());
    if (a.command != "run" && a.command != "info") usageError(fmt::format("unknown command '{}'", a.command));
    if (a.casePath.empty()) usageError(fmt::format("sph {}: no case file given", a.command));
    resolvePluginFlags(a);
    return a.command == "info" ? cmdInfo(a) : cmdRun(a);
  } catch (const sph::InputError& e) {
    return fail(2, fmt::format("error: {}", e.what()));
  } catch (const sph::InterruptedError& e) {
    return fail(128 + e.signal(), e.what());  // as a shell reports a process ended by that signal
  } catch (const std::exception& e) {
    return fail(1, fmt::format("run failed: {}", e.what()));
  }
}
