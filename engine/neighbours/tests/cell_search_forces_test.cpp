// The cell search's GPU pass equals its CPU pass on the same particles, in both cell modes and
// with each pair computed once or twice (the conformance suite, conformance_test.cpp, checks both
// against the all-pairs evaluation).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "neighbours/cell_search.h"
#include "cell_test_support.h"
#include "sph/plugin/particle_code.h"

namespace celltest {
namespace {

using sph::DensityDiffusion;

struct ForceCaseParams {
  Device device;
  Precision precision;
  KernelKind kernel;
  int dim;
  CellMode mode;
  DensityDiffusion ddt;
  bool pairsOnce = false;  // CellPairs
  int threads = 0;         // the CPU's threads (0: every core)
};

// Per-term slack in ulps (see forceMismatches): the CPU computes every term exactly like the
// brute force; the GPU contracts products into FMAs and has its own sqrt/pow, and the density
// diffusion term subtracts nearly equal densities, which turns a few ulps of rho into ~1e3 ulps
// of the term.
double perTermUlps(Device d) { return d == Device::Gpu ? 1024 : 8; }

// Runs prepare + interact; returns the reordered particles and the outputs.
template <typename T>
void runForces(const ForceCaseParams& fp, const ForceCase& fc, const sph::PhysicsConstants<T>& c,
               HostParticles<T>& particles, std::vector<Real4<T>>& ace, std::vector<T>& viscdt,
               sph::StrategyStats* stats = nullptr) {
  Harness<T> run(fp.device, particles);
  sph::cell::CellSearch cell;
  sph::StrategyContext ctx = makeContext(fp.device, fp.precision, fp.dim, 2 * fc.h, domainAround(fc.particles, fc.dp),
                                         fp.mode, run.reorderer());
  ctx.options["CellPairs"] = fp.pairsOnce ? "once" : "twice";
  ctx.threads = fp.threads;
  cell.configure(ctx);
  cell.prepare(run.view(), sph::PrepareReason::Step);
  cell.interact(run.view(), c, run.outputs());
  particles = run.particles();
  run.outputsToHost(ace, viscdt);
  if (stats) *stats = cell.stats();
}

// The GPU pass against the CPU pass on the same particles, matched by particle id. A GPU pass that
// computes each pair once gives a pair's v_ab.r_ab/(r^2+eta^2) to one of its particles: only the
// largest over all particles (the time step's) is compared then.
template <typename T>
void checkGpuAgainstCpu(KernelKind kernel, int dim, CellMode mode, bool pairsOnce) {
  const ForceCase fc = makeForceCase(dim, 11);
  const auto c = makeConstants<T>(dim, kernel, fc.dp, fc.h, DensityDiffusion::Fourtakas);
  const Precision prec = sizeof(T) == sizeof(double) ? Precision::Double : Precision::Single;
  HostParticles<T> start = fc.particles.as<T>();
  setPressure(start, c);
  HostParticles<T> cpu = start, gpu = start;
  std::vector<Real4<T>> aceCpu, aceGpu;
  std::vector<T> viscCpu, viscGpu;
  sph::StrategyStats statsCpu, statsGpu;
  runForces<T>({Device::Cpu, prec, kernel, dim, mode, c.ddt}, fc, c, cpu, aceCpu, viscCpu, &statsCpu);
  runForces<T>({Device::Gpu, prec, kernel, dim, mode, c.ddt, pairsOnce}, fc, c, gpu, aceGpu, viscGpu, &statsGpu);
  const bool once = pairsOnce && prec == Precision::Single;
  EXPECT_EQ(statsGpu.at("passes_pairs_once"), once ? 1.0 : 0.0);
  EXPECT_EQ(statsCpu.at("passes_pairs_once"), 0.0);
  ASSERT_EQ(cpu.size(), gpu.size());

  // Reorder the GPU outputs into the CPU's particle order, then reuse the brute-force scales.
  std::unordered_map<uint32_t, uint32_t> gpuIndex;
  for (uint32_t i = 0; i < gpu.size(); ++i) gpuIndex[gpu.id[i]] = i;
  std::vector<Real4<T>> aceMatched(cpu.size());
  std::vector<T> viscMatched(cpu.size());
  for (uint32_t i = 0; i < cpu.size(); ++i) {
    aceMatched[i] = aceGpu[gpuIndex.at(cpu.id[i])];
    viscMatched[i] = viscGpu[gpuIndex.at(cpu.id[i])];
  }
  if (once) {
    const T found = *std::max_element(viscMatched.begin(), viscMatched.end());
    const T expected = *std::max_element(viscCpu.begin(), viscCpu.end());
    EXPECT_NEAR(double(found), double(expected), 1e-5 * double(expected));
    viscMatched = viscCpu;
  }
  ForceReference<T> ref = bruteForceForces(cpu, c);
  for (uint32_t i = 0; i < cpu.size(); ++i) {
    sph::PairAccum<T>& r = ref.result[i];
    r = {};
    r.ax = aceCpu[i].x;
    r.ay = aceCpu[i].y;
    r.az = aceCpu[i].z;
    r.arho = aceCpu[i].w;
    r.viscdt = viscCpu[i];
  }
  const auto bad = forceMismatches(ref, aceMatched, viscMatched, 2 * perTermUlps(Device::Gpu));
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));

  // Same keys, same stable sort, same iteration: the candidates agree exactly; the in-range
  // decision may flip for a pair at the support edge (FMA in r^2).
  EXPECT_EQ(statsCpu.at("candidates_per_particle"), statsGpu.at("candidates_per_particle"));
  EXPECT_NEAR(statsCpu.at("in_range_ratio"), statsGpu.at("in_range_ratio"), 1e-3);
}

// The CPU's pass that computes each pair once (pair_once_cpu.h) repeats bit for bit on the same
// threads, agrees with every pair twice to rounding on any number of threads (its parts follow
// the threads), and counts the candidates a pass over every pair visits.
template <typename T>
void checkCpuOnce(int dim, DensityDiffusion ddt) {
  const ForceCase fc = makeForceCase(dim, 11);
  const auto c = makeConstants<T>(dim, KernelKind::Wendland, fc.dp, fc.h, ddt);
  const Precision prec = sizeof(T) == sizeof(double) ? Precision::Double : Precision::Single;
  HostParticles<T> start = fc.particles.as<T>();
  setPressure(start, c);
  HostParticles<T> twice = start;
  std::vector<Real4<T>> aceTwice;
  std::vector<T> viscTwice;
  sph::StrategyStats statsTwice;
  runForces<T>({Device::Cpu, prec, KernelKind::Wendland, dim, CellMode::Half, ddt, false, 2}, fc, c, twice, aceTwice,
               viscTwice, &statsTwice);
  EXPECT_EQ(statsTwice.at("passes_pairs_once"), 0.0);
  for (int threads : {1, 2, 3}) {
    HostParticles<T> first = start, again = start;
    std::vector<Real4<T>> ace, aceAgain;
    std::vector<T> visc, viscAgain;
    sph::StrategyStats stats;
    const ForceCaseParams fp{Device::Cpu, prec, KernelKind::Wendland, dim, CellMode::Half, ddt, true, threads};
    runForces<T>(fp, fc, c, first, ace, visc, &stats);
    runForces<T>(fp, fc, c, again, aceAgain, viscAgain);
    EXPECT_EQ(stats.at("passes_pairs_once"), 1.0);
    EXPECT_EQ(stats.at("candidates_per_particle"), statsTwice.at("candidates_per_particle"));
    ASSERT_EQ(first.id, twice.id);  // the same sort
    for (size_t i = 0; i < ace.size(); ++i) {
      ASSERT_EQ(std::memcmp(&ace[i], &aceAgain[i], sizeof(ace[i])), 0) << "particle " << i << ", " << threads;
      ASSERT_EQ(visc[i], viscAgain[i]);
    }
    // A pair's v_ab.r_ab/(r^2+eta^2) goes to one of its particles: only the largest is defined.
    EXPECT_EQ(*std::max_element(visc.begin(), visc.end()), *std::max_element(viscTwice.begin(), viscTwice.end()));
    ForceReference<T> ref = bruteForceForces(first, c);
    const auto bad = forceMismatches(ref, ace, std::vector<T>(viscTwice), perTermUlps(Device::Cpu));
    EXPECT_TRUE(bad.empty()) << threads << " threads:\n" << fmt::format("{}", fmt::join(bad, "\n"));
  }
}

TEST(CellCpuPairsOnce, RepeatsAndAgreesWithEveryPairTwice) {
  checkCpuOnce<float>(3, DensityDiffusion::Fourtakas);
  checkCpuOnce<double>(3, DensityDiffusion::Molteni);
  checkCpuOnce<float>(2, DensityDiffusion::None);
}

class CellGpuVsCpu : public ::testing::TestWithParam<std::tuple<Precision, KernelKind, int, CellMode, bool>> {};

TEST_P(CellGpuVsCpu, SameOutputs) {
  CELLTEST_SKIP_WITHOUT(Device::Gpu);
  const auto [prec, kernel, dim, mode, once] = GetParam();
  if (prec == Precision::Double)
    checkGpuAgainstCpu<double>(kernel, dim, mode, once);
  else
    checkGpuAgainstCpu<float>(kernel, dim, mode, once);
}

INSTANTIATE_TEST_SUITE_P(
    Cell, CellGpuVsCpu,
    ::testing::Values(std::make_tuple(Precision::Single, KernelKind::Wendland, 3, CellMode::Full, false),
                      std::make_tuple(Precision::Single, KernelKind::Wendland, 3, CellMode::Full, true),
                      std::make_tuple(Precision::Single, KernelKind::Wendland, 3, CellMode::Half, true),
                      std::make_tuple(Precision::Double, KernelKind::Cubic, 3, CellMode::Half, true),
                      std::make_tuple(Precision::Single, KernelKind::Cubic, 2, CellMode::Half, false),
                      std::make_tuple(Precision::Single, KernelKind::Cubic, 2, CellMode::Half, true),
                      std::make_tuple(Precision::Double, KernelKind::Wendland, 2, CellMode::Full, false)),
    [](const auto& info) {
      return fmt::format("{}_{}_{}D_{}_{}", sph::precisionName(std::get<0>(info.param)),
                         std::get<1>(info.param) == KernelKind::Cubic ? "cubic" : "wendland", std::get<2>(info.param),
                         sph::cell::cellModeName(std::get<3>(info.param)), std::get<4>(info.param) ? "once" : "twice");
    });

}  // namespace
}  // namespace celltest
