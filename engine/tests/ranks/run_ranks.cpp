// One case over all the ranks of the launch gives what it gives on one rank: every particle
// within 1e-5 dp of its place after 1000 steps in double precision, the same particles left
// (none lost, none excluded by one run alone), the same time reached. Only the order of each
// particle's neighbour sums differs between the two runs (the ranks hold their particles in
// another order), so the states differ by round-off grown over the steps (about 1e-12 dp here);
// 1e-5 dp is the issue's bound. A particle that misses a neighbour near a slab's boundary, or a
// rank stepping by its own dt, soon makes a difference of that size.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "case/loader.h"
#include "inout/inout_zones.h"
#include "rank_test_support.h"
#include "parallel/communicator.h"
#include "output/checkpoint.h"
#include "platform/gpu_runtime.h"
#include "run/rank_domain.h"
#include "run/simulation.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

constexpr int kSteps = 1000;

// A case of the comparison, small enough that 1000 steps take seconds on one core.
struct RankCase {
  const char* label;
  const char* path;  // under the source tree
  double dp;         // 0: the case's
  const char* neighbours;
  // An <execution> parameter set over the case's, "Key=value" (null: none).
  const char* parameter = nullptr;
  void (*adjust)(CaseDefinition&) = nullptr;  // any other change to the loaded case
  int steps = kSteps;
  // The slabs' inner boundaries on n ranks (RunOptions::rankSlabBounds; null: balanced by the
  // particles), rebalancing off: a boundary where a test needs one.
  std::vector<double> (*slabs)(int n) = nullptr;
  bool overlap = true;  // RunOptions::rankOverlap
};

// A failing case says its label.
void PrintTo(const RankCase& k, std::ostream* os) { *os << k.label; }

// AwasTank2D's absorbing piston measures the surface 4.5 m ahead of it instead of 4h: where 2 and
// 4 ranks split the 9 m tank, and inside the middle slab of 3. The piston's rank then moves it by
// sums from the others' particles. (4h ahead, the gauge and the piston lie on the first rank.)
void gaugeAcrossTheSlabs(CaseDefinition& c) {
  for (MotionObject& m : c.motions)
    if (m.paddle && m.paddle->awas) m.paddle->awas->gaugeX = CaseLength{CaseLength::Unit::Metres, 4.5};
}

// Channel2DReverse's inlet reverses its flow at 0.6 s: ten times sooner, within the 1000 steps
// (about 0.1 s), so that its advanced refilling follows a reversing flow.
void reverseSooner(CaseDefinition& c) {
  for (InOutZoneDef& z : c.inout.zones)
    for (InOutVelocityRow& row : z.velocity) row.time *= 0.1;
}

// n - 1 boundaries evenly from `first` to `last` (`first` alone on 2 ranks).
std::vector<double> boundsFrom(double first, double last, int n) {
  std::vector<double> b{first};
  for (int k = 1; k < n - 1; ++k) b.push_back(first + (last - first) * k / (n - 2));
  return b;
}
// Channel2D's inlet buffer lies from x = -0.045 to -0.005 m: a boundary through it, so that the
// particles crossing into the domain (on the upper rank) leave new ones behind on the lower
// rank; on 3 and 4 ranks one at the outlet's plane (x = 1.005 m) too.
std::vector<double> throughTheBuffers(int n) { return boundsFrom(-0.025, 1.0, n); }
// The last boundary just before the outlet's plane: its buffer on the last rank, the fluid around
// its ghost nodes (up to 8 cm inside) on the rank below.
std::vector<double> beforeTheOutlet(int n) {
  std::vector<double> b = boundsFrom(1.0, 0.3, n);
  std::reverse(b.begin(), b.end());
  return b;
}

const RankCase kCases[] = {
    // 3D, the Verlet integrator, DBC walls, slabs across the falling column: 1,800 particles.
    {"DamBreakCells", "testcases/DamBreak.xml", 0.05, "cell"},
    {"DamBreakVerletLists", "testcases/DamBreak.xml", 0.05, "verlet"},
    // The same with each halo refreshed before its pass, not while the interior interacts.
    {"DamBreakVerletListsRefreshFirst", "testcases/DamBreak.xml", 0.05, "verlet", nullptr, nullptr, kSteps, nullptr,
     false},
    // 2D, periodic along the slab axis: the first and last ranks are neighbours across the seam.
    {"PoiseuillePeriodicAcrossRanks", "engine/tests/data/dualsphysics/Poiseuille_Def.xml", 0, "cell"},
    // The same with Verlet lists: between rebuilds the halo across the seam is refreshed, shifted
    // by the period as the exchange shifts it.
    {"PoiseuillePeriodicVerletLists", "engine/tests/data/dualsphysics/Poiseuille_Def.xml", 0, "verlet"},
    // 2D, the symplectic integrator (two exchanges a step), mDBC walls (the halo reaches the ghost
    // nodes' fluid too).
    {"TiltedTankMdbcSymplectic", "engine/tests/data/MdbcTiltedTank2D_Def.xml", 0, "verlet"},
    // 2D, two floating bodies split by the slabs (their sums over every rank's particles), DEM
    // contacts with the floor, the symplectic integrator; then the rigid rules of FloatingMotion
    // (the arms from the centre as it is now, the inertia summed over the particles every step).
    {"FloatingBodiesDem", "engine/tests/data/FloatingAcrossRanks2D_Def.xml", 0, "cell"},
    {"FloatingBodiesRigidRules", "engine/tests/data/FloatingAcrossRanks2D_Def.xml", 0, "verlet",
     "FloatingMotion=rigid"},
    // 2D, a piston absorbing waves (AWAS) from the surface it measures every step from 0.25 s (the
    // last 40% of the steps): every rank moves the piston by the same sums of all.
    {"WaveAbsorptionAwas", "engine/tests/data/dualsphysics/AwasTank2D_Def.xml", 0.06, "cell", nullptr,
     gaugeAcrossTheSlabs},
    // 2D channels between an inlet and an outlet (the slabs cut the channel across its flow):
    // every rank learns every new buffer particle and numbers it as one rank would, by the id of
    // the particle that crossed; the rank whose slab it lands in creates it. Then an outlet
    // extrapolating its velocity and density from the fluid around its ghost nodes (the halo
    // reaches them), one following the surface it measures over the ranks, an inlet reversing its
    // flow with advanced refilling (the ranks' reaches combined), and Poiseuille's parabola with
    // laminar viscosity.
    {"InletOutletChannel", "engine/tests/data/inout/Channel2D_Def.xml", 0, "cell"},
    {"InletOutletChannelVerletLists", "engine/tests/data/inout/Channel2D_Def.xml", 0, "verlet"},
    {"InletOutletSlabsThroughTheBuffers", "engine/tests/data/inout/Channel2D_Def.xml", 0, "cell", nullptr, nullptr,
     kSteps, throughTheBuffers},
    {"OutletExtrapolating", "engine/tests/data/inout/Channel2DExtrap_Def.xml", 0, "cell", nullptr, nullptr, kSteps,
     beforeTheOutlet},
    {"OutletMeasuringItsSurface", "engine/tests/data/inout/Channel2DZsurf_Def.xml", 0, "cell"},
    {"InletReversingRefilled", "engine/tests/data/inout/Channel2DReverse_Def.xml", 0, "cell", nullptr, reverseSooner},
    {"PoiseuilleInletOutlet", "engine/tests/data/inout/PoiseuilleInOut_Def.xml", 0, "cell"},
    // 3D, a jet pouring down from a circle in the middle of the tank: its buffer lies across the
    // slabs, so the particles one rank's crossing leaves behind land on another's.
    {"JetAcrossTheSlabs", "engine/tests/data/inout/Jet3D_Def.xml", 0, "cell", nullptr, nullptr, 300},
};

// CPU ranks, or with SPH_RANK_TESTS_DEVICE=gpu each rank on its GPU (several may share one).
Device testDevice() {
  const char* d = std::getenv("SPH_RANK_TESTS_DEVICE");
  return d && std::string(d) == "gpu" ? Device::Gpu : Device::Cpu;
}

struct RunResult {
  ParticleSnapshot state;  // rank 0's is the whole run's
  double time = 0;
  uint64_t steps = 0, particles = 0;
  std::optional<InOutTotals> inOut;
  uint64_t exchanges = 0, refreshes = 0, overlapped = 0;  // this rank's (none on one rank)
  uint64_t timedTransfers = 0;                            // refreshes over NCCL timed on their stream
  double transferSeconds = 0, transferExposedSeconds = 0;
  bool mdbc = false, symplectic = false;
};

// GPU ranks' records through the host, or with SPH_RANK_TESTS_EXCHANGE=nccl from GPU to GPU.
RunOptions::RankLink testLink() {
  const char* e = std::getenv("SPH_RANK_TESTS_EXCHANGE");
  return e && std::string(e) == "nccl" ? RunOptions::RankLink::Nccl : RunOptions::RankLink::Host;
}

RunResult runOn(const CaseDefinition& c, RunOptions o, const parallel::Communicator& comm) {
  o.device = testDevice();
  o.rankLink = testLink();
  o.threads = 1;
  o.precision = Precision::Double;
  if (!o.maxSteps) o.maxSteps = kSteps;
  o.writeOutput = false;
  o.progress = false;
  Simulation sim(c, o, comm);
  while (!sim.finished()) sim.step();
  RunResult r{sim.snapshot(), sim.time(), sim.steps(), sim.activeParticles(), std::nullopt};
  if (const InOutTotals* t = sim.inOutTotals()) r.inOut = *t;
  if (const RankExchangeTotals* x = sim.rankExchangeTotals()) {
    r.exchanges = x->exchanges;
    r.refreshes = x->refreshes;
    r.overlapped = x->splitPasses;
    r.timedTransfers = x->timedTransfers;
    r.transferSeconds = x->transferSeconds;
    r.transferExposedSeconds = x->transferExposedSeconds;
  }
  r.mdbc = sim.parameters().mdbc();
  r.symplectic = sim.parameters().stepAlgorithm == 2;
  return r;
}

// The one-rank runs the comparisons are made against, made once for all the rank counts CTest
// starts: RankTests.OneRank runs each case and writes it into SPH_RANK_TESTS_REFERENCES (a folder
// of the build tree), and the tests mpiexec starts read it from there. While rank 0 ran the one-
// rank run itself the other ranks waited, holding a core each. Without the variable (a launch by
// hand) rank 0 runs its own. A reference left by an older build can only fail a comparison, and
// RankTests.OneRank, which every rank count's test requires (a CTest fixture), writes them anew.
std::optional<std::filesystem::path> referenceFile(const char* label) {
  const char* dir = std::getenv("SPH_RANK_TESTS_REFERENCES");
  if (!dir || !*dir) return std::nullopt;
  return std::filesystem::path(dir) / fmt::format("{}-{}.ref", label, deviceName(testDevice()));
}

// What the comparison reads of a run: its counts, time, inlet totals, and each particle's id and
// place, in this machine's byte order (the file never leaves the build tree).
constexpr uint64_t kReferenceFormat = 1;

template <class T>
void writeValues(std::ofstream& out, const T* v, size_t n) {
  out.write(reinterpret_cast<const char*>(v), std::streamsize(n * sizeof(T)));
}
template <class T>
bool readValues(std::ifstream& in, T* v, size_t n) {
  return bool(in.read(reinterpret_cast<char*>(v), std::streamsize(n * sizeof(T))));
}

// Written beside, then renamed over the file, so that a reader never sees half of one.
void writeReference(const std::filesystem::path& file, const RunResult& r) {
  std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path part = file.string() + ".part";
  {
    std::ofstream out(part, std::ios::binary | std::ios::trunc);
    const uint64_t n = r.state.count();
    const uint64_t head[4] = {kReferenceFormat, r.steps, r.particles, n};
    writeValues(out, head, 4);
    writeValues(out, &r.time, 1);
    const uint64_t inOut[6] = {
        r.inOut.has_value(),           r.inOut ? r.inOut->initial : 0, r.inOut ? r.inOut->created : 0,
        r.inOut ? r.inOut->inflow : 0, r.inOut ? r.inOut->outflow : 0, r.inOut ? r.inOut->removed : 0};
    writeValues(out, inOut, 6);
    writeValues(out, r.state.id.data(), n);
    writeValues(out, r.state.pos.data(), 3 * n);
    if (!out.flush()) throw std::runtime_error(fmt::format("cannot write {}", part.string()));
  }
  std::filesystem::rename(part, file);
}

// The run written by writeReference; nothing when there is no such file or it is not one.
std::optional<RunResult> readReference(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  uint64_t head[4], inOut[6];
  RunResult r;
  if (!in || !readValues(in, head, 4) || head[0] != kReferenceFormat || !readValues(in, &r.time, 1) ||
      !readValues(in, inOut, 6))
    return std::nullopt;
  r.steps = head[1];
  r.particles = head[2];
  if (inOut[0]) r.inOut = InOutTotals{inOut[1], inOut[2], inOut[3], inOut[4], inOut[5], 0};
  const size_t n = head[3];
  r.state.id.resize(n);
  r.state.pos.resize(3 * n);
  r.state.rho.resize(n);  // count() reads it
  if (!readValues(in, r.state.id.data(), n) || !readValues(in, r.state.pos.data(), 3 * n)) return std::nullopt;
  return r;
}

// The largest difference of a coordinate between the same particles (by id) of two runs; a
// particle of `a` missing from `b` is a failure (and infinity).
double largestDifference(const ParticleSnapshot& a, const ParticleSnapshot& b) {
  std::map<uint32_t, size_t> byId;
  for (size_t i = 0; i < b.count(); ++i) byId[b.id[i]] = i;
  double worst = 0;
  for (size_t i = 0; i < a.count(); ++i) {
    const auto it = byId.find(a.id[i]);
    if (it == byId.end()) {
      ADD_FAILURE() << "particle " << a.id[i] << " is not in the one-rank run";
      return HUGE_VAL;
    }
    for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(a.pos[3 * i + k] - b.pos[3 * it->second + k]));
  }
  return worst;
}

// DamBreak at dp 0.05 (1830 particles), the coarse case of the checkpoint and rebalancing tests.
CaseDefinition coarseDamBreak() {
  LoadOptions load;
  load.dpOverride = 0.05;
  return loadCase(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak.xml", load);
}

class RanksRun : public ::testing::TestWithParam<RankCase> {};

TEST_P(RanksRun, MatchesOneRank) {
  const RankCase& k = GetParam();
  const parallel::Communicator& world = parallel::Communicator::world();
  const std::optional<std::filesystem::path> reference = referenceFile(k.label);
  if (world.single() && !reference) GTEST_SKIP() << "one rank: nothing to compare (CTest starts this test on several)";
  if (testDevice() == Device::Gpu && !gpu::available()) GTEST_SKIP() << "no usable GPU";
  LoadOptions load;
  if (k.dp > 0) load.dpOverride = k.dp;
  CaseDefinition c = loadCase(std::string(SPH_SOURCE_DIR) + "/" + k.path, load);
  if (k.parameter) {
    const std::string kv = k.parameter;
    c.parameters[kv.substr(0, kv.find('='))].value = kv.substr(kv.find('=') + 1);
  }
  if (k.adjust) k.adjust(c);
  RunOptions o;
  o.neighbours = k.neighbours;
  o.maxSteps = k.steps;
  o.rankOverlap = k.overlap;
  if (world.single()) {
    writeReference(*reference, runOn(c, o, world));
    return;
  }
  if (k.slabs) {
    o.rankSlabBounds = k.slabs(world.size());
    o.rankRebalance = -1;
  }
  const RunResult all = runOn(c, o, world);
  if (world.rank() != 0) return;  // rank 0 holds the whole state and checks it
  o.rankSlabBounds.clear();
  std::optional<RunResult> written;
  if (reference) written = readReference(*reference);
  const RunResult one = written ? std::move(*written) : runOn(c, o, parallel::Communicator::self());
  EXPECT_EQ(all.steps, uint64_t(k.steps));
  EXPECT_EQ(all.steps, one.steps);
  // The time steps come from maxima of sums in another order: the same to round-off.
  EXPECT_NEAR(all.time, one.time, 1e-9 * one.time);
  EXPECT_EQ(all.particles, one.particles);
  ASSERT_EQ(all.inOut.has_value(), one.inOut.has_value());
  if (one.inOut) {
    const InOutTotals &a = *all.inOut, &b = *one.inOut;
    EXPECT_EQ(a.initial, b.initial);
    EXPECT_EQ(a.created, b.created);
    EXPECT_EQ(a.inflow, b.inflow);
    EXPECT_EQ(a.outflow, b.outflow);
    EXPECT_EQ(a.removed, b.removed);
    // A case that creates nothing would leave the numbering untested.
    EXPECT_GT(b.created, 0u) << "no inlet particle made in " << k.steps << " steps";
  }
  ASSERT_EQ(all.state.count(), one.state.count());
  const double worst = largestDifference(all.state, one.state);
  const double dp = c.dp;
  EXPECT_LT(worst, 1e-5 * dp) << world.size() << " ranks";
  // The halo keeps its particles until one has moved half its skin (Verlet lists: until they are
  // rebuilt): most passes only refresh it.
  EXPECT_GT(all.refreshes, all.exchanges);
  // Refreshed passes interact while their halo travels (the cell search sorting with the copies
  // where they were before it), unless asked not to, or mDBC's correction reads the halo before
  // the interaction: every pass of the symplectic predictor, not the corrector's under SlipMode 1,
  // which corrects nothing; or an outlet extrapolates from the fluid around its ghost nodes,
  // before the first pass of every step (every pass with the Verlet integrator).
  bool extrapolates = false;
  for (const InOutZoneDef& z : c.inout.zones)
    extrapolates = extrapolates || z.velocityMode == InOutVelocityMode::Extrapolated ||
                   z.densityMode == InOutDensityMode::Extrapolated;
  if (!k.overlap) {
    EXPECT_EQ(all.overlapped, 0u);
  } else if (all.mdbc || extrapolates) {
    EXPECT_LT(all.overlapped, all.refreshes);
    if (all.symplectic) {
      EXPECT_GT(all.overlapped, 0u);
    }
  } else {
    EXPECT_EQ(all.overlapped, all.refreshes);
  }
  // Refreshes over NCCL are timed on their own stream, when done by the next one (not waited for).
  if (testDevice() != Device::Gpu || testLink() != RunOptions::RankLink::Nccl) {
    EXPECT_EQ(all.timedTransfers, 0u);
  } else if (all.refreshes > 1) {
    EXPECT_GT(all.timedTransfers, 0u);
    EXPECT_LE(all.timedTransfers, all.refreshes);
    EXPECT_GT(all.transferSeconds, 0.0);
    EXPECT_GE(all.transferExposedSeconds, 0.0);
  }
  std::printf(
      "[          ] %s on %d ranks (%s%s): %zu particles, largest difference %.3g dp after %d steps (%llu "
      "exchanges, %llu halo refreshes, %llu overlapped)\n",
      k.label, world.size(), deviceName(testDevice()), testLink() == RunOptions::RankLink::Nccl ? ", NCCL" : "",
      all.state.count(), worst / dp, k.steps, static_cast<unsigned long long>(all.exchanges),
      static_cast<unsigned long long>(all.refreshes), static_cast<unsigned long long>(all.overlapped));
}

INSTANTIATE_TEST_SUITE_P(Cases, RanksRun, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<RankCase>& i) { return std::string(i.param.label); });

}  // namespace
}  // namespace sph

namespace sph {
namespace {

// The run.json that rank 0 wrote in `outDir`.
std::string reportOf(const std::string& outDir) {
  std::ifstream file(std::filesystem::path(outDir) / "run.json");
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

// The largest difference of `ranks` (a whole run's snapshot) from the same run, from its start, on
// this rank alone (infinity, and a failure, when their particles differ).
double differenceFromOneRank(const CaseDefinition& c, RunOptions o, const ParticleSnapshot& ranks) {
  o.resume = false;
  o.writeOutput = false;
  Simulation alone(c, o, parallel::Communicator::self());
  alone.run();
  const ParticleSnapshot b = alone.snapshot();
  if (ranks.count() != b.count()) {
    ADD_FAILURE() << ranks.count() << " particles over the ranks, " << b.count() << " on one";
    return HUGE_VAL;
  }
  return largestDifference(ranks, b);
}

// CPU ranks in double precision, stopped by maxSteps with a checkpoint in a folder every rank shares.
RunOptions checkpointedRun(const std::string& name) {
  RunOptions o;
  o.device = Device::Cpu;
  o.threads = 1;
  o.precision = Precision::Double;
  o.progress = false;
  o.writeVtk = false;
  o.outDir = test::sharedTempDir(name);
  o.checkpointEvery = 1e9;
  o.checkpointAtStepLimit = true;
  return o;
}

// A run over the ranks stopped by --steps with a checkpoint goes on from it on as many ranks to
// the state the same run reaches without stopping, bit for bit (each rank's file holds its
// particles and halo in their order, the halo's index lists and the places the cell search's
// skin is measured from, so that the resumed run refreshes and exchanges where the other does);
// on another number of ranks it is refused by name.
TEST(RanksCheckpoint, ResumesOnAsManyRanksToTheUninterruptedState) {
  const parallel::Communicator& world = parallel::Communicator::world();
  if (world.single()) GTEST_SKIP() << "one rank: the engine tests resume runs on one rank";
  const CaseDefinition c = coarseDamBreak();
  RunOptions o = checkpointedRun("checkpoint");
  o.rankRebalance = -1;  // slabs moved by measured times would not repeat bit for bit
  o.maxSteps = 150;
  {
    Simulation first(c, o);
    first.run();
  }
  o.maxSteps = 300;
  o.resume = true;
  o.overwrite = false;
  Simulation resumed(c, o);
  EXPECT_EQ(resumed.steps(), 150u);
  resumed.run();
  const ParticleSnapshot a = resumed.snapshot();
  RunOptions whole = o;
  whole.resume = false;
  whole.writeOutput = false;
  Simulation straight(c, whole);
  straight.run();
  const ParticleSnapshot b = straight.snapshot();
  if (world.rank() != 0) return;
  ASSERT_EQ(a.count(), b.count());
  EXPECT_EQ(largestDifference(a, b), 0.0) << "bit for bit";
  // One rank cannot take over the ranks' checkpoint.
  try {
    Simulation alone(c, o, parallel::Communicator::self());
    ADD_FAILURE() << "a checkpoint of " << world.size() << " ranks resumed on one";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("written by a run over {} rank(s)", world.size())),
              std::string::npos)
        << e.what();
  }
  std::filesystem::remove_all(o.outDir);
}

// Slabs that move while the run goes (checked every 5 force passes, moved at any imbalance: on
// CPU ranks DamBreak's water makes the first slabs the busiest) leave the result the one-rank
// run's: each move migrates the particles to the ranks of their new slabs. The checks come on
// time, whether the passes exchange or refresh the halo.
class RanksRebalance : public ::testing::TestWithParam<const char*> {};

TEST_P(RanksRebalance, SlabsMovingDuringTheRunLeaveTheOneRankResult) {
  const parallel::Communicator& world = parallel::Communicator::world();
  if (world.single()) GTEST_SKIP() << "one rank: nothing to rebalance";
  if (testDevice() == Device::Gpu && !gpu::available()) GTEST_SKIP() << "no usable GPU";
  const CaseDefinition c = coarseDamBreak();
  RunOptions o;
  o.neighbours = GetParam();
  o.device = testDevice();
  o.rankLink = testLink();
  o.threads = 1;
  o.precision = Precision::Double;
  o.progress = false;
  o.writeVtk = false;
  o.checkpointEvery = 0;
  o.outDir = test::sharedTempDir(std::string("rebalance_") + GetParam());
  o.maxSteps = 400;
  o.rankRebalance = 0;
  o.rankRebalanceEvery = 5;
  Simulation sim(c, o);
  sim.run();
  const ParticleSnapshot a = sim.snapshot();
  if (world.rank() != 0) return;
  const std::string report = reportOf(o.outDir);
  std::smatch moved;
  ASSERT_TRUE(std::regex_search(report, moved, std::regex(R"re("rank_rebalances": "(\d+)")re"))) << report;
  // On GPUs so small a case takes the same time on every rank (its kernels wait for their launches).
  if (testDevice() == Device::Cpu) {
    EXPECT_GT(std::stoull(moved[1]), 0u) << report;
  }
  std::smatch checks;
  ASSERT_TRUE(std::regex_search(report, checks, std::regex(R"re("rank_rebalance_checks": "(\d+)")re"))) << report;
  EXPECT_EQ(std::stoull(checks[1]), *o.maxSteps / o.rankRebalanceEvery) << report;  // a pass a step
  const double worst = differenceFromOneRank(c, o, a);
  EXPECT_LT(worst, 1e-5 * c.dp);
  std::printf("[          ] %s: %s slabs moved on %d ranks: largest difference %.3g dp after %llu steps\n", GetParam(),
              moved[1].str().c_str(), world.size(), worst / c.dp, static_cast<unsigned long long>(*o.maxSteps));
  std::filesystem::remove_all(o.outDir);
}

INSTANTIATE_TEST_SUITE_P(Plugins, RanksRebalance, ::testing::Values("cell", "verlet"));

// A run whose slabs moved stops with a checkpoint that keeps them; the run resumed on as many
// ranks (rebalancing off) goes on from those slabs, keeps them to its own checkpoint, and reaches
// the one-rank run's result.
TEST(RanksCheckpoint, ResumesOnTheSlabsRebalancingLeft) {
  const parallel::Communicator& world = parallel::Communicator::world();
  if (world.single()) GTEST_SKIP() << "one rank: nothing to rebalance";
  const CaseDefinition c = coarseDamBreak();
  RunOptions o = checkpointedRun("rebalanced_checkpoint");
  o.maxSteps = 300;  // the water spreads over the slabs of 2 ranks after some 200 steps
  o.rankRebalance = 0;
  o.rankRebalanceEvery = 5;
  {
    Simulation first(c, o);
    first.run();
  }
  world.barrier();  // rank 0 has written its report
  // The slabs move when the ranks' force passes take different times: on a 2-core machine running
  // 2 to 4 ranks they do; ranks with a core each may balance to within a layer, and then there is
  // nothing to resume from.
  const bool moved = world.rank() != 0 || reportOf(o.outDir).find("\"rank_rebalances\": \"0\"") == std::string::npos;
  if (!world.all(moved)) {
    world.barrier();  // every rank is done with the folder; one removes it
    if (world.rank() == 0) std::filesystem::remove_all(o.outDir);
    GTEST_SKIP() << "no slab moved in 300 steps: the ranks' force passes took the same time on this machine";
  }
  const std::vector<uint32_t> left =
      CheckpointReader(checkpointPath(o.outDir, world.rank())).vector<uint32_t>("rank_slabs");
  o.maxSteps = 450;
  o.resume = true;
  o.overwrite = false;
  o.rankRebalance = -1;
  Simulation resumed(c, o);
  resumed.run();
  const ParticleSnapshot a = resumed.snapshot();
  EXPECT_EQ(CheckpointReader(checkpointPath(o.outDir, world.rank())).vector<uint32_t>("rank_slabs"), left);
  world.barrier();
  if (world.rank() != 0) return;
  EXPECT_LT(differenceFromOneRank(c, o, a), 1e-5 * c.dp);
  std::filesystem::remove_all(o.outDir);
}

}  // namespace
}  // namespace sph
