// The conformance suite of the neighbour-search plugins: every plugin found in the build's
// plugin directory (cell, verlet, allpairs and any other), loaded as the engine loads it, on both
// devices and in both precisions, gives every particle what the all-pairs evaluation gives it:
// the force pass (open and periodic boxes, both kernels, 2D and 3D), the coded passes (floating
// bodies, shifting, the SPS model), mDBC's boundary correction and inlets' extrapolation; and a
// force pass split around a halo's refresh gives what the whole pass gives.
//
// The reference is the all-pairs sum of the physics (cell_test_reference.cpp, the brute force the
// allpairs plugin implements as a strategy), with a tolerance per particle that follows from two
// summation orders of its terms (forceMismatches): a missing or doubled neighbour is far outside
// it. A new plugin needs no test of its own to be checked: building it into the plugin directory
// adds it here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <random>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cell_test_support.h"
#include "neighbours/cell_mode.h"
#include "platform/gpu_runtime.h"
#include "platform/plugin_loader.h"
#include "sph/plugin/floating_pair_physics.h"
#include "sph/plugin/particle_code.h"

namespace celltest {
namespace {

enum class Check {
  Open3D,
  Open2D,
  Periodic3D,
  Periodic2D,
  Floating,
  Shifting,
  Sps,
  SpsShifting,
  Mdbc,
  MdbcSlip,
  MdbcPeriodic,
  InOut3D,
  InOut2D,
  SplitOpen3D,
  SplitOpen2D,
  SplitShifting,
  SplitMovedCopies
};

const char* checkName(Check k) {
  switch (k) {
    case Check::Open3D: return "open3D";
    case Check::Open2D: return "open2D";
    case Check::Periodic3D: return "periodicXY3D";
    case Check::Periodic2D: return "periodicX2D";
    case Check::Floating: return "floating";
    case Check::Shifting: return "shifting";
    case Check::Sps: return "sps";
    case Check::SpsShifting: return "spsShifting";
    case Check::Mdbc: return "mdbc";
    case Check::MdbcSlip: return "mdbc2";
    case Check::MdbcPeriodic: return "mdbcPeriodic";
    case Check::InOut3D: return "inout3D";
    case Check::InOut2D: return "inout2D";
    case Check::SplitOpen3D: return "splitOpen3D";
    case Check::SplitOpen2D: return "splitOpen2D";
    case Check::SplitShifting: return "splitShifting";
    case Check::SplitMovedCopies: return "splitMovedCopies";
  }
  return "?";
}

struct ConformanceCase {
  std::string plugin;
  Device device;
  Precision precision;
  Check check;
  std::map<std::string, std::string> options;  // StrategyContext::options beyond the defaults
};

std::string caseName(const ConformanceCase& c) {
  std::string name = fmt::format("{}_{}_{}_{}", c.plugin, sph::deviceName(c.device), sph::precisionName(c.precision),
                                 checkName(c.check));
  for (const auto& [key, value] : c.options) name += "_" + key + "_" + value;
  return name;
}

void PrintTo(const ConformanceCase& c, std::ostream* os) { *os << caseName(c); }

// Option sets each plugin is run with besides its defaults: those that change which candidates
// it visits.
std::vector<std::map<std::string, std::string>> optionSets(const std::string& plugin) {
  if (plugin == "cell") return {{}, {{"CellMode", "half"}}, {{"CellRows", "all"}}, {{"CellPairs", "twice"}}};
  if (plugin == "verlet")
    return {{},
            {{"VerletLayout", "bitmask"}},
            {{"VerletLayout", "clusters"}},
            {{"VerletPairs", "twice"}},
            {{"VerletPairs", "once"}},  // the CPU's half lists (the GPU's default)
            {{"VerletLayout", "clusters"}, {"VerletPairs", "once"}}};
  return {{}};
}

// The plugins of this build, as `sph plugins` finds them.
std::vector<std::string> pluginNames() {
  std::vector<std::string> names;
  for (const auto& p : sph::discoverPlugins()) names.push_back(p.name);
  std::sort(names.begin(), names.end());
  return names;
}

// Per-term slack in ulps (forceMismatches): the CPU computes every term as the brute force does;
// the GPU contracts products into FMAs, has its own sqrt/pow and, in single precision, fast
// math, and density diffusion subtracts nearly equal densities (a few ulps of rho become ~1e3
// ulps of the term).
double perTermUlps(Device d) { return d == Device::Gpu ? 1024 : 8; }

struct Setup {
  ForceCase fc;
  Domain domain;
  unsigned periodicMask = 0;
  int dim = 3;
};

Setup setupFor(Check k) {
  Setup s;
  s.dim = (k == Check::Open2D || k == Check::Periodic2D || k == Check::InOut2D) ? 2 : 3;
  if (k == Check::Periodic3D || k == Check::Periodic2D || k == Check::MdbcPeriodic) {
    s.periodicMask = s.dim == 3 ? 0b011 : 0b001;
    s.fc = makePeriodicForceCase(s.dim, s.periodicMask, 11, s.domain);
  } else {
    s.fc = makeForceCase(s.dim, k == Check::Mdbc || k == Check::MdbcSlip ? 13 : 7);
    s.domain = domainAround(s.fc.particles, s.fc.dp);
  }
  return s;
}

// A floating body for the coded pass: every seventh fluid particle belongs to body 0 (mk index
// 1), under the rigid rules (pairs of one body skipped); the table lives where the particles do.
template <typename T>
class FloatingTable {
 public:
  FloatingTable(Device device, const sph::PhysicsConstants<T>& c) : device_(device) {
    host_.resize(2);
    host_[1].body = 0;
    host_[1].pairMass = c.massFluid;
    host_[1].bodyMass = T(50) * c.massFluid;
    if (device == Device::Gpu) {
      device_table_ = static_cast<sph::SolidInfo<T>*>(
          sph::gpu::allocBytes(host_.size() * sizeof(host_[0]), "conformance floating table"));
      sph::gpu::copyToDevice(device_table_, host_.data(), host_.size() * sizeof(host_[0]), "conformance floating table");
    }
  }
  ~FloatingTable() {
    if (device_table_) sph::gpu::freeBytes(device_table_);
  }
  FloatingTable(const FloatingTable&) = delete;
  FloatingTable& operator=(const FloatingTable&) = delete;
  const sph::SolidInfo<T>* host() const { return host_.data(); }
  const sph::SolidInfo<T>* where() const { return device_ == Device::Gpu ? device_table_ : host_.data(); }

 private:
  Device device_;
  std::vector<sph::SolidInfo<T>> host_;
  sph::SolidInfo<T>* device_table_ = nullptr;
};

// One strategy, configured as the engine configures it (default options), after one prepare().
template <typename T>
class StrategyRun {
 public:
  StrategyRun(const ConformanceCase& cc, const Setup& s, const HostParticles<T>& p)
      : run_(cc.device, p), strategy_(sph::createStrategy(cc.plugin)) {
    sph::StrategyContext ctx = makeContext(cc.device, cc.precision, s.dim, 2 * s.fc.h, s.domain, CellMode::Full,
                                           run_.reorderer());
    ctx.options = cc.options;
    setPeriodic(ctx, s.periodicMask);
    strategy_->configure(ctx);
    strategy_->beginStep(1e-4);
    strategy_->prepare(run_.view(), sph::PrepareReason::Step);
  }
  Harness<T>& harness() { return run_; }
  sph::NeighbourStrategy& strategy() { return *strategy_; }

 private:
  Harness<T> run_;
  sph::StrategyPtr strategy_;
};

template <typename T>
void expectNoMismatches(const std::vector<std::string>& bad) {
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
}

template <typename T>
void checkForces(const ConformanceCase& cc) {
  const Setup s = setupFor(cc.check);
  const bool cubic = cc.check == Check::Open2D || cc.check == Check::Periodic2D;
  const sph::DensityDiffusion ddt = cc.check == Check::Open3D ? sph::DensityDiffusion::FourtakasFull
                                    : cubic                   ? sph::DensityDiffusion::Molteni
                                                              : sph::DensityDiffusion::Fourtakas;
  auto c = makeConstants<T>(s.dim, cubic ? KernelKind::Cubic : KernelKind::Wendland, s.fc.dp, s.fc.h, ddt);
  if (s.periodicMask) c.periodic = boxAs<T>(periodicBox(s.domain, s.periodicMask));
  HostParticles<T> p = s.fc.particles.as<T>();
  setPressure(p, c);
  std::unique_ptr<FloatingTable<T>> floating;
  if (cc.check == Check::Floating) {
    for (uint32_t i = p.nBound; i < p.size(); i += 7) p.code[i] = sph::code::makeFloating(1);
    floating = std::make_unique<FloatingTable<T>>(cc.device, c);
  }
  const bool shifting = cc.check == Check::Shifting || cc.check == Check::SpsShifting;
  const bool sps = cc.check == Check::Sps || cc.check == Check::SpsShifting;
  if (shifting) {
    c.shifting = sph::Shifting::NoFixed;
    markLeftWallsMoving(p);
  }
  if (sps) {
    c.viscosity = sph::Viscosity::LaminarSps;
    c.visco = c.viscoBound = T(1e-3);
    c.spsSmag = T(1e-6);
    c.spsBlin = T(1e-7);
  }
  StrategyRun<T> r(cc, s, p);
  Harness<T>& run = r.harness();
  p = run.particles();  // in the strategy's order
  const std::vector<sph::SymTensor<T>> tau = tauById(p);
  if (sps) run.setSpsTau(tau);
  sph::PhysicsConstants<T> passC = c;
  if (floating) passC.floating.solids = floating->where();
  r.strategy().interact(run.view(), passC, run.outputs(shifting, sps));
  p = run.particles();
  std::vector<Real4<T>> ace;
  std::vector<T> viscdt;
  run.outputsToHost(ace, viscdt);
  const double ulps = perTermUlps(cc.device);
  if (sps) {
    std::vector<sph::SymTensor<T>> strain;
    run.strainToHost(strain);
    expectNoMismatches<T>(spsMismatches(bruteForceSps(p, c, tauById(p)), ace, strain, ulps));
    if (shifting) {
      std::vector<Real4<T>> shift;
      run.shiftToHost(shift);
      expectShiftSums(p, c, shift, ulps);
    }
    return;
  }
  if (floating) {
    sph::PhysicsConstants<T> hostC = c;
    hostC.floating.solids = floating->host();
    expectNoMismatches<T>(forceMismatches(bruteForceCodedForces(p, hostC), ace, viscdt, ulps));
    return;
  }
  const ForceReference<T> ref = bruteForceForces(p, c);
  // Each pair once (VerletPairs once and CellPairs once, the GPU's defaults in single precision,
  // asked for on the CPU) gives each pair's v_ab.r_ab/(r^2+eta^2) to one of its two particles: only
  // the largest, which the time step takes, is defined.
  const auto stats = r.strategy().stats();
  const bool once = (stats.count("builds_pairs_once") && stats.at("builds_pairs_once") > 0) ||
                    (stats.count("passes_pairs_once") && stats.at("passes_pairs_once") > 0);
  const bool plain = cc.check == Check::Open3D || cc.check == Check::Open2D || cc.check == Check::Periodic3D ||
                     cc.check == Check::Periodic2D;
  // Once where it is asked for (by default on the GPU) and runs: a plain pass, cells or index or
  // cluster lists (bitmask lists hold candidates), the CPU or the GPU in single precision.
  auto option = [&](const char* key) {
    const auto it = cc.options.find(key);
    return it == cc.options.end() ? std::string() : it->second;
  };
  const std::string asked = option(cc.plugin == "verlet" ? "VerletPairs" : "CellPairs");
  const bool wanted = asked == "once" || (asked.empty() && cc.device == Device::Gpu);
  const bool halves = cc.plugin == "cell" || (cc.plugin == "verlet" && option("VerletLayout") != "bitmask");
  const bool runs = cc.device == Device::Cpu || cc.precision == Precision::Single;
  EXPECT_EQ(once, wanted && halves && plain && runs);
  if (once) {
    T found = 0, expected = 0;
    for (size_t i = 0; i < viscdt.size(); ++i) {
      found = std::max(found, viscdt[i]);
      expected = std::max(expected, ref.result[i].timeStepRate());
      viscdt[i] = ref.result[i].timeStepRate();
    }
    EXPECT_NEAR(double(found), double(expected), 1e-5 * double(expected));
  }
  expectNoMismatches<T>(forceMismatches(ref, ace, viscdt, ulps));
  if (shifting) {
    std::vector<Real4<T>> shift;
    run.shiftToHost(shift);
    expectShiftSums(p, c, shift, ulps);
  }
}

template <typename T>
void checkCorrection(const ConformanceCase& cc) {
  const Setup s = setupFor(cc.check);
  auto c = makeConstants<T>(s.dim, KernelKind::Wendland, s.fc.dp, s.fc.h, sph::DensityDiffusion::None);
  c.boundary = cc.check == Check::MdbcSlip ? sph::BoundaryModel::MdbcNoSlip : sph::BoundaryModel::MdbcVel0;
  c.dp = T(s.fc.dp);
  if (s.periodicMask) c.periodic = boxAs<T>(periodicBox(s.domain, s.periodicMask));
  HostParticles<T> p = s.fc.particles.as<T>();
  addFloorNormals(p, s.fc.dp, s.dim);
  setPressure(p, c);
  StrategyRun<T> r(cc, s, p);
  r.strategy().correctBoundaries(r.harness().view(), c);
  expectMdbcDensities(densitiesById(p), r.harness().particles(), c);
}

// Memory where the particles live, for the tables a pass reads (zones, lists).
template <typename V>
class WhereParticlesLive {
 public:
  WhereParticlesLive(Device d, const std::vector<V>& host) : device_(d), host_(host) {
    if (d == Device::Gpu && !host_.empty()) {
      dev_ = static_cast<V*>(sph::gpu::allocBytes(host_.size() * sizeof(V), "conformance table"));
      sph::gpu::copyToDevice(dev_, host_.data(), host_.size() * sizeof(V), "conformance table");
    }
  }
  ~WhereParticlesLive() {
    if (dev_) sph::gpu::freeBytes(dev_);
  }
  WhereParticlesLive(const WhereParticlesLive&) = delete;
  WhereParticlesLive& operator=(const WhereParticlesLive&) = delete;
  const V* data() const { return device_ == Device::Gpu ? dev_ : host_.data(); }

 private:
  Device device_;
  std::vector<V> host_;
  V* dev_ = nullptr;
};

// Inlets/outlets' extrapolation (inout_extrapolation.h): the fluid left of a plane across the box
// is one zone's buffer (the domain on +x), with velocities that vary; every buffer particle's
// extrapolated velocity and density against the sums over all fluid particles. The first-order
// estimate (determlimit ~0), which amplifies any difference in the sums the most.
template <typename T>
void checkInOut(const ConformanceCase& cc) {
  const Setup s = setupFor(cc.check);
  auto c = makeConstants<T>(s.dim, KernelKind::Wendland, s.fc.dp, s.fc.h, sph::DensityDiffusion::None);
  HostParticles<T> p = s.fc.particles.as<T>();
  double lo = 1e30, hi = -1e30;
  for (uint32_t i = p.nBound; i < p.size(); ++i) {
    lo = std::min(lo, double(p.pos[i].x));
    hi = std::max(hi, double(p.pos[i].x));
  }
  const double plane = lo + 0.3 * (hi - lo);
  for (uint32_t i = p.nBound; i < p.size(); ++i) {
    const Real4<T> x = p.pos[i];
    p.velrho[i] = {T(0.3 + 0.5 * x.z), T(s.dim == 2 ? 0 : 0.1 * x.x), T(-0.2 * x.x), T(1000 + 20 * x.z + 5 * x.x)};
    if (double(x.x) < plane) p.code[i] = sph::code::toInOut(p.code[i], 0);
  }
  setPressure(p, c);
  StrategyRun<T> r(cc, s, p);
  const HostParticles<T> before = r.harness().particles();  // in the strategy's order
  std::vector<uint32_t> which;
  for (uint32_t i = before.nBound; i < before.size(); ++i)
    if (sph::code::isInOut(before.code[i])) which.push_back(i);
  ASSERT_GT(which.size(), 10u);
  sph::InOutMirror m;
  m.plane[0] = plane;
  m.dir[0] = 1;
  m.density = m.velocity = 1;
  const WhereParticlesLive<sph::InOutMirror> zones(cc.device, {m});
  const WhereParticlesLive<uint32_t> list(cc.device, which);
  const double determLimit = 1e-30;
  r.strategy().extrapolateInOut(r.harness().view(), c, {zones.data(), list.data(), uint32_t(which.size()), determLimit});
  const HostParticles<T> after = r.harness().particles();
  // All pairs on the host, in index order.
  HostParticles<T> want = before;
  for (uint32_t i : which) {
    const Real4<T> g = sph::inOutGhostNode(before.pos[i], m);
    sph::InOutSums sums;
    for (uint32_t j = before.nBound; j < before.size(); ++j) {
      if (!sph::inOutSource(before.code[j])) continue;
      const T dx = g.x - before.pos[j].x, dy = g.y - before.pos[j].y, dz = g.z - before.pos[j].z;
      sph::inOutAddFluid<KernelKind::Wendland>(sums, dx, dy, dz, dx * dx + dy * dy + dz * dz, before.velrho[j], c);
    }
    sph::inOutStoreExtrapolated(i, sums, g, m, determLimit, want.pos.data(), want.velrho.data(), c);
  }
  const double tol = std::is_same_v<T, float> ? 2e-3 : 1e-8;  // of the values' size (~1 m/s, 1000 kg/m^3)
  std::vector<std::string> bad;
  for (uint32_t i = 0; i < after.size(); ++i) {
    const Real4<T> a = after.velrho[i], w = want.velrho[i];
    const bool ok = std::fabs(double(a.x - w.x)) <= tol && std::fabs(double(a.y - w.y)) <= tol &&
                    std::fabs(double(a.z - w.z)) <= tol && std::fabs(double(a.w - w.w)) <= 1000 * tol;
    if (!ok && bad.size() < 10)
      bad.push_back(fmt::format("particle id {}: ({}, {}, {}, {}) against all pairs' ({}, {}, {}, {})", after.id[i],
                                a.x, a.y, a.z, a.w, w.x, w.y, w.z, w.w));
  }
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
  // The first-order estimate is exact for linear fields: where the ghost node has fluid all
  // around (not at the edges of the box), the buffer takes the field's own values.
  size_t exact = 0;
  for (uint32_t i : which) {
    const Real4<T> x = after.pos[i];
    exact += std::fabs(double(after.velrho[i].w) - (1000 + 20 * double(x.z) + 5 * double(x.x))) < 1e-2 &&
             std::fabs(double(after.velrho[i].x) - (0.3 + 0.5 * double(x.z))) < 1e-4;
  }
  EXPECT_GT(exact, which.size() / 2);
}

// The particles of q beyond `plane` along x become another rank's copies (code::kHaloBit), and
// those within `reach` before it are marked code::kNearHaloBit, as a run over ranks marks them.
template <typename T>
void markHalo(HostParticles<T>& q, double plane, double reach) {
  size_t halo = 0, near = 0, interiorFluid = 0;
  for (uint32_t i = 0; i < q.size(); ++i) {
    const double x = double(q.pos[i].x);
    if (x >= plane) {
      q.code[i] |= sph::code::kHaloBit;
      ++halo;
    } else if (x >= plane - reach) {
      q.code[i] |= sph::code::kNearHaloBit;
      ++near;
    } else {
      interiorFluid += i >= q.nBound;
    }
  }
  ASSERT_GT(halo, 10u);
  ASSERT_GT(near, 10u);
  ASSERT_GT(interiorFluid, 50u);
}

// q as a split pass's Interior sees it while the halo is refreshed: the copies' velocities,
// densities and pressures NaN (read, they spoil every sum they enter).
template <typename T>
HostParticles<T> refreshing(const HostParticles<T>& q) {
  HostParticles<T> stale = q;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (uint32_t i = 0; i < q.size(); ++i)
    if (sph::code::isHalo(q.code[i])) {
      stale.velrho[i] = {nan, nan, nan, nan};
      stale.pos[i].w = nan;
    }
  return stale;
}

// One pass split around a halo's refresh: Interior over `before` as refreshing() leaves it, then
// Border over `after` (the copies refreshed); the outputs stay in the harness.
template <typename T>
void splitPass(StrategyRun<T>& r, const sph::PhysicsConstants<T>& c, const HostParticles<T>& before,
               const HostParticles<T>& after, bool shifting) {
  Harness<T>& run = r.harness();
  run.setParticles(refreshing(before));
  sph::ForceOutputs<T> out = run.outputs(shifting);
  out.part = sph::ForcePart::Interior;
  r.strategy().interact(run.view(), c, out);
  run.setParticles(after);
  out.part = sph::ForcePart::Border;
  r.strategy().interact(run.view(), c, out);
}

// A force pass split around the refresh of a halo (ForcePart, particle_view.h): the particles
// beyond a plane across the box are another rank's copies (code::kHaloBit), and those within
// the strategy's halo reach before it are marked code::kNearHaloBit, as a run over ranks marks
// them. The Interior call runs with the copies' velocities, densities and pressures NaN (their
// refresh under way), the Border call with them restored: every particle's outputs must be those
// of one call over all of them. Sums in another order differ by rounding (each pair once adds
// the terms of a particle in another order); a pair missed, doubled or read from a copy at
// Interior is far outside the tolerance, and a NaN never within it.
template <typename T>
void checkSplitOf(const ConformanceCase& cc) {
  // makeForceCase's tank 12 particles longer: fluid beyond the halo's reach of the plane.
  Setup s;
  s.dim = cc.check == Check::SplitOpen2D ? 2 : 3;
  s.fc = makeForceCase(s.dim, 7, 12);
  s.domain = domainAround(s.fc.particles, s.fc.dp);
  auto c = makeConstants<T>(s.dim, KernelKind::Wendland, s.fc.dp, s.fc.h, sph::DensityDiffusion::Fourtakas);
  HostParticles<T> p = s.fc.particles.as<T>();
  const bool shifting = cc.check == Check::SplitShifting;
  if (shifting) {
    c.shifting = sph::Shifting::NoFixed;
    markLeftWallsMoving(p);
  }
  setPressure(p, c);
  StrategyRun<T> r(cc, s, p);
  Harness<T>& run = r.harness();
  HostParticles<T> q = run.particles();  // in the strategy's order
  double lo = 1e30, hi = -1e30;
  for (uint32_t i = q.nBound; i < q.size(); ++i) {
    lo = std::min(lo, double(q.pos[i].x));
    hi = std::max(hi, double(q.pos[i].x));
  }
  markHalo(q, lo + 0.7 * (hi - lo), r.strategy().haloReach(2 * s.fc.h));
  run.setParticles(q);
  r.strategy().interact(run.view(), c, run.outputs(shifting));
  std::vector<Real4<T>> aceWhole, shiftWhole, ace, shift;
  std::vector<T> viscdtWhole, viscdt;
  run.outputsToHost(aceWhole, viscdtWhole);
  if (shifting) run.shiftToHost(shiftWhole);

  splitPass(r, c, q, q, shifting);
  run.outputsToHost(ace, viscdt);
  if (shifting) run.shiftToHost(shift);

  // Of the largest value of each output over the particles: single precision sums in another
  // order differ by a few ulps of their terms, which are at most that large.
  const double rel = std::is_same_v<T, float> ? 1e-4 : 1e-10;
  std::vector<std::string> bad;
  auto compare = [&](const char* what, const std::vector<Real4<T>>& want, const std::vector<Real4<T>>& got) {
    double scale[4] = {0, 0, 0, 0};
    for (const Real4<T>& v : want)
      for (int k = 0; k < 4; ++k) scale[k] = std::max(scale[k], std::fabs(double((&v.x)[k])));
    for (size_t i = 0; i < want.size(); ++i)
      for (int k = 0; k < 4; ++k) {
        const double w = double((&want[i].x)[k]), g = double((&got[i].x)[k]);
        if (!(std::fabs(w - g) <= rel * scale[k] + 1e-30) && bad.size() < 10)
          bad.push_back(fmt::format("{} of particle id {} ({}): {} split, {} whole", what, q.id[i], "xyzw"[k], g, w));
      }
  };
  compare("ace", aceWhole, ace);
  if (shifting) compare("shift", shiftWhole, shift);
  double visMax = 0;
  for (T v : viscdtWhole) visMax = std::max(visMax, double(v));
  for (size_t i = 0; i < viscdt.size(); ++i)
    if (!(std::fabs(double(viscdt[i]) - double(viscdtWhole[i])) <= rel * visMax + 1e-30) && bad.size() < 10)
      bad.push_back(fmt::format("viscdt of particle id {}: {} split, {} whole", q.id[i], viscdt[i], viscdtWhole[i]));
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
  const auto stats = r.strategy().stats();
  if (cc.options.count("VerletMemoryLimit")) {
    EXPECT_GT(stats.count("fallback_passes") ? stats.at("fallback_passes") : 0.0, 0.0) << "no pass without lists";
  }
}

// A split pass of the cell search, which sorts before the halo's refresh
// (NeighbourStrategy::preparesBeforeHaloRefresh): the copies move between the sort (and the
// Interior call) and the Border call, each by 0.1 to 0.24 of the support in a random direction
// (less than the skin of a quarter of the support, as between exchanges), many of them into
// other cells than the sort's. The outputs of this rank's particles must be those of a pass over
// the moved particles sorted afresh (compared by id: the orders differ). A copy missed because it
// left its cell lies near the edge of the support, where the kernel is small, but its terms are
// still far outside the double precision tolerance (about 1e-6 of the sums).
template <typename T>
void checkSplitMovedCopies(const ConformanceCase& cc) {
  Setup s;
  s.fc = makeForceCase(3, 7, 12);
  s.domain = domainAround(s.fc.particles, s.fc.dp);
  const auto c = makeConstants<T>(3, KernelKind::Wendland, s.fc.dp, s.fc.h, sph::DensityDiffusion::Fourtakas);
  HostParticles<T> p = s.fc.particles.as<T>();
  setPressure(p, c);
  StrategyRun<T> r(cc, s, p);
  Harness<T>& run = r.harness();
  HostParticles<T> q = run.particles();  // as sorted
  double lo = 1e30, hi = -1e30;
  for (uint32_t i = q.nBound; i < q.size(); ++i) {
    lo = std::min(lo, double(q.pos[i].x));
    hi = std::max(hi, double(q.pos[i].x));
  }
  const double support = 2 * s.fc.h;
  markHalo(q, lo + 0.7 * (hi - lo), r.strategy().haloReach(support));
  HostParticles<T> moved = q;
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0), len(0.1, 0.24);
  size_t movedCopies = 0;
  for (uint32_t i = 0; i < q.size(); ++i) {
    if (!sph::code::isHalo(q.code[i])) continue;
    double d[3], norm = 0;
    do {
      norm = 0;
      for (double& x : d) {
        x = u(rng);
        norm += x * x;
      }
    } while (norm > 1.0 || norm < 1e-4);
    const double scale = len(rng) * support / std::sqrt(norm);
    moved.pos[i].x += T(d[0] * scale);
    moved.pos[i].y += T(d[1] * scale);
    moved.pos[i].z += T(d[2] * scale);
    ++movedCopies;
  }
  // One copy was parked since (its particle excluded on its rank): far beyond the domain, nobody's
  // neighbour, and no measure of how far the others moved.
  for (uint32_t i = 0; i < q.size(); ++i)
    if (sph::code::isHalo(q.code[i]) && i >= q.nBound) {
      moved.pos[i].x = T(s.domain.max[0] + 10 * support);
      moved.code[i] |= sph::code::kParkedBit;
      break;
    }

  // The pass over the moved particles, sorted afresh.
  StrategyRun<T> fresh(cc, s, moved);
  fresh.strategy().interact(fresh.harness().view(), c, fresh.harness().outputs());
  std::vector<Real4<T>> aceFresh, ace;
  std::vector<T> viscdtFresh, viscdt;
  fresh.harness().outputsToHost(aceFresh, viscdtFresh);
  const HostParticles<T> freshOrder = fresh.harness().particles();
  std::map<uint32_t, size_t> at;
  for (size_t i = 0; i < freshOrder.size(); ++i) at[freshOrder.id[i]] = i;

  // The split pass: Interior with the copies where the sort put them (their refresh under way:
  // velocities, densities and pressures NaN), Border with them moved.
  splitPass(r, c, q, moved, false);
  run.outputsToHost(ace, viscdt);

  const double rel = std::is_same_v<T, float> ? 1e-4 : 1e-10;
  double scale[4] = {0, 0, 0, 0};
  for (const Real4<T>& v : aceFresh)
    for (int k = 0; k < 4; ++k) scale[k] = std::max(scale[k], std::fabs(double((&v.x)[k])));
  // Each pair once gives a pair's viscdt to the particle that comes first in the sorted order,
  // which the two orders decide differently: only the largest, which the time step takes (the
  // copies' included, time_step.h), is the same.
  double visMax = 0, visMaxSplit = 0;
  for (T v : viscdtFresh) visMax = std::max(visMax, double(v));
  for (T v : viscdt) visMaxSplit = std::max(visMaxSplit, double(v));
  EXPECT_NEAR(visMaxSplit, visMax, rel * visMax);
  std::vector<std::string> bad;
  size_t compared = 0;
  for (uint32_t i = 0; i < q.size(); ++i) {
    if (sph::code::isHalo(q.code[i])) continue;  // nobody reads a copy's sums
    const size_t f = at.at(q.id[i]);
    ++compared;
    for (int k = 0; k < 4; ++k) {
      const double w = double((&aceFresh[f].x)[k]), g = double((&ace[i].x)[k]);
      if (!(std::fabs(w - g) <= rel * scale[k] + 1e-30) && bad.size() < 10)
        bad.push_back(fmt::format("ace of particle id {} ({}): {} split, {} sorted afresh", q.id[i], "xyzw"[k], g, w));
    }
  }
  EXPECT_GT(movedCopies, 10u);
  EXPECT_GT(compared, 100u);
  // The Border call scanned as far as the farthest copy left its cell, less than it moved.
  const auto stats = r.strategy().stats();
  ASSERT_TRUE(stats.count("halo_drift_cells") && stats.count("cell_size"));
  EXPECT_GT(stats.at("halo_drift_cells"), 0.0);
  EXPECT_LE(stats.at("halo_drift_cells"), 0.24 * support / stats.at("cell_size") * (1 + 1e-4) + 1e-4);
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
}

// Also, for verlet, with lists that never fit (VerletMemoryLimit): passes on the cell search,
// whole at Border.
template <typename T>
void checkSplit(const ConformanceCase& cc) {
  checkSplitOf<T>(cc);
  if (cc.plugin != "verlet") return;
  ConformanceCase capped = cc;
  capped.options["VerletMemoryLimit"] = "1000";
  checkSplitOf<T>(capped);
}

class Conformance : public ::testing::TestWithParam<ConformanceCase> {};

TEST_P(Conformance, SameAsAllPairs) {
  const ConformanceCase& cc = GetParam();
  CELLTEST_SKIP_WITHOUT(cc.device);
  const bool correction = cc.check == Check::Mdbc || cc.check == Check::MdbcSlip || cc.check == Check::MdbcPeriodic;
  if (cc.check == Check::InOut3D || cc.check == Check::InOut2D) {
    cc.precision == Precision::Double ? checkInOut<double>(cc) : checkInOut<float>(cc);
    return;
  }
  if (cc.check == Check::SplitOpen3D || cc.check == Check::SplitOpen2D || cc.check == Check::SplitShifting) {
    cc.precision == Precision::Double ? checkSplit<double>(cc) : checkSplit<float>(cc);
    return;
  }
  if (cc.check == Check::SplitMovedCopies) {
    cc.precision == Precision::Double ? checkSplitMovedCopies<double>(cc) : checkSplitMovedCopies<float>(cc);
    return;
  }
  if (cc.precision == Precision::Double)
    correction ? checkCorrection<double>(cc) : checkForces<double>(cc);
  else
    correction ? checkCorrection<float>(cc) : checkForces<float>(cc);
}

std::vector<ConformanceCase> conformanceCases() {
  std::vector<ConformanceCase> out;
  for (const std::string& plugin : pluginNames())
    for (const auto& options : optionSets(plugin))
      for (Device dev : {Device::Cpu, Device::Gpu})
        for (Precision pr : {Precision::Single, Precision::Double})
          for (Check k :
               {Check::Open3D, Check::Open2D, Check::Periodic3D, Check::Periodic2D, Check::Floating, Check::Shifting,
                Check::Sps, Check::SpsShifting, Check::Mdbc, Check::MdbcSlip, Check::MdbcPeriodic, Check::InOut3D,
                Check::InOut2D, Check::SplitOpen3D, Check::SplitOpen2D, Check::SplitShifting})
            out.push_back({plugin, dev, pr, k, options});
  // The copies moved after the sort: the cell search's split passes.
  for (const auto& options : optionSets("cell"))
    for (Device dev : {Device::Cpu, Device::Gpu})
      for (Precision pr : {Precision::Single, Precision::Double})
        out.push_back({"cell", dev, pr, Check::SplitMovedCopies, options});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Plugins, Conformance, ::testing::ValuesIn(conformanceCases()),
                         [](const ::testing::TestParamInfo<ConformanceCase>& info) { return caseName(info.param); });

// The suite runs the plugins of the build: the three bundled ones must be among them.
TEST(Conformance, BundledPluginsAreFound) {
  const std::vector<std::string> names = pluginNames();
  const std::set<std::string> found(names.begin(), names.end());
  for (const char* name : {"allpairs", "cell", "verlet"})
    EXPECT_TRUE(found.count(name)) << "plugin " << name << " not found; found: " << fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace
}  // namespace celltest
