// One force pass of the cell plugin equals a brute-force O(N^2) evaluation of interactPair(),
// on both devices, and the GPU equals the CPU on the same particles.
#include <gtest/gtest.h>

#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cell_test_support.h"
#include "sph/particle_code.h"

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
  sph::cell::CellStrategy cell;
  cell.configure(makeContext(fp.device, fp.precision, fp.dim, 2 * fc.h, domainAround(fc.particles, fc.dp), fp.mode,
                             run.reorderer()));
  cell.prepare(run.view(), sph::PrepareReason::Step);
  cell.interact(run.view(), c, run.outputs());
  particles = run.particles();
  run.outputsToHost(ace, viscdt);
  if (stats) *stats = cell.stats();
}

template <typename T>
void checkAgainstBruteForce(const ForceCaseParams& fp) {
  const ForceCase fc = makeForceCase(fp.dim, 7);
  const auto c = makeConstants<T>(fp.dim, fp.kernel, fc.dp, fc.h, fp.ddt);
  HostParticles<T> p = fc.particles.as<T>();
  setPressure(p, c);
  std::vector<Real4<T>> ace;
  std::vector<T> viscdt;
  runForces(fp, fc, c, p, ace, viscdt);
  const ForceReference<T> ref = bruteForceForces(p, c);
  uint64_t terms = 0;
  for (uint32_t t : ref.terms) terms += t;
  EXPECT_GT(terms, (fp.dim == 3 ? 30u : 12u) * p.size()) << "the case should give particles many neighbours";
  const auto bad = forceMismatches(ref, ace, viscdt, perTermUlps(fp.device));
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
}

class CellForces : public ::testing::TestWithParam<ForceCaseParams> {};

TEST_P(CellForces, EqualBruteForce) {
  const ForceCaseParams& fp = GetParam();
  CELLTEST_SKIP_WITHOUT(fp.device);
  if (fp.precision == Precision::Double)
    checkAgainstBruteForce<double>(fp);
  else
    checkAgainstBruteForce<float>(fp);
}

std::vector<ForceCaseParams> forceCases() {
  using K = KernelKind;
  using D = DensityDiffusion;
  std::vector<ForceCaseParams> out;
  for (Device dev : {Device::Cpu, Device::Gpu}) {
    out.push_back({dev, Precision::Single, K::Wendland, 3, CellMode::Full, D::Fourtakas});
    out.push_back({dev, Precision::Single, K::Cubic, 3, CellMode::Half, D::Molteni});
    out.push_back({dev, Precision::Double, K::Wendland, 3, CellMode::Half, D::FourtakasFull});
    out.push_back({dev, Precision::Double, K::Cubic, 2, CellMode::Full, D::Fourtakas});
    out.push_back({dev, Precision::Single, K::Cubic, 2, CellMode::Half, D::None});
    out.push_back({dev, Precision::Double, K::Wendland, 2, CellMode::Full, D::Molteni});
  }
  return out;
}

std::string forceName(const ::testing::TestParamInfo<ForceCaseParams>& info) {
  const auto& f = info.param;
  return fmt::format("{}_{}_{}_{}D_{}_ddt{}", sph::deviceName(f.device), sph::precisionName(f.precision),
                     f.kernel == KernelKind::Cubic ? "cubic" : "wendland", f.dim, sph::cell::cellModeName(f.mode),
                     int(f.ddt));
}

INSTANTIATE_TEST_SUITE_P(Cell, CellForces, ::testing::ValuesIn(forceCases()), forceName);

// A force pass that also sums the shifting terms (the symplectic corrector's and every Verlet
// step's): the sums equal the brute force for each Shifting mode, with the boundary particles
// of the left half marked as moving (the mode NoFixed lets those count), and the forces are
// those of the plain pass.
struct ShiftCaseParams {
  Device device;
  Precision precision;
  KernelKind kernel;
  int dim;
  CellMode mode;
  sph::Shifting shifting;
};

template <typename T>
void checkShiftAgainstBruteForce(const ShiftCaseParams& sp) {
  const ForceCase fc = makeForceCase(sp.dim, 5);
  auto c = makeConstants<T>(sp.dim, sp.kernel, fc.dp, fc.h, DensityDiffusion::Fourtakas);
  c.shifting = sp.shifting;
  HostParticles<T> p = fc.particles.as<T>();
  setPressure(p, c);
  markLeftWallsMoving(p);

  Harness<T> run(sp.device, p);
  sph::cell::CellStrategy cell;
  cell.configure(makeContext(sp.device, sp.precision, sp.dim, 2 * fc.h, domainAround(fc.particles, fc.dp), sp.mode,
                             run.reorderer()));
  cell.prepare(run.view(), sph::PrepareReason::Step);
  cell.interact(run.view(), c, run.outputs(true));
  p = run.particles();
  std::vector<Real4<T>> ace, shift;
  std::vector<T> viscdt;
  run.outputsToHost(ace, viscdt);
  run.shiftToHost(shift);

  const auto bad = forceMismatches(bruteForceForces(p, c), ace, viscdt, perTermUlps(sp.device));
  EXPECT_TRUE(bad.empty()) << "forces of the shifting pass:\n" << fmt::format("{}", fmt::join(bad, "\n"));
  expectShiftSums(p, c, shift, perTermUlps(sp.device));
}

class CellShifting : public ::testing::TestWithParam<ShiftCaseParams> {};

TEST_P(CellShifting, SumsEqualBruteForce) {
  const ShiftCaseParams& sp = GetParam();
  CELLTEST_SKIP_WITHOUT(sp.device);
  if (sp.precision == Precision::Double)
    checkShiftAgainstBruteForce<double>(sp);
  else
    checkShiftAgainstBruteForce<float>(sp);
}

std::vector<ShiftCaseParams> shiftCases() {
  using K = KernelKind;
  using S = sph::Shifting;
  std::vector<ShiftCaseParams> out;
  for (Device dev : {Device::Cpu, Device::Gpu}) {
    out.push_back({dev, Precision::Single, K::Wendland, 3, CellMode::Full, S::NoBound});
    out.push_back({dev, Precision::Double, K::Cubic, 3, CellMode::Half, S::NoFixed});
    out.push_back({dev, Precision::Single, K::Cubic, 2, CellMode::Half, S::Full});
    out.push_back({dev, Precision::Double, K::Wendland, 2, CellMode::Full, S::NoFixed});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cell, CellShifting, ::testing::ValuesIn(shiftCases()),
                         [](const ::testing::TestParamInfo<ShiftCaseParams>& info) {
                           const auto& f = info.param;
                           return fmt::format("{}_{}_{}_{}D_{}_shifting{}", sph::deviceName(f.device),
                                              sph::precisionName(f.precision),
                                              f.kernel == KernelKind::Cubic ? "cubic" : "wendland", f.dim,
                                              sph::cell::cellModeName(f.mode), int(f.shifting));
                         });

// A force pass of the SPS model (ViscoTreatment 2), alone and with the shifting sums: the
// accelerations (with the stresses tau/rho the pass is handed) and the 2S it sums equal the
// brute force.
template <typename T>
void checkSpsAgainstBruteForce(const ShiftCaseParams& sp) {
  const ForceCase fc = makeForceCase(sp.dim, 9);
  auto c = makeConstants<T>(sp.dim, sp.kernel, fc.dp, fc.h, DensityDiffusion::Fourtakas);
  c.viscosity = sph::Viscosity::LaminarSps;
  c.visco = c.viscoBound = T(1e-3);
  c.spsSmag = T(1e-6);
  c.spsBlin = T(1e-7);
  c.shifting = sp.shifting;
  const bool shift = sp.shifting != sph::Shifting::None;
  HostParticles<T> p = fc.particles.as<T>();
  setPressure(p, c);

  Harness<T> run(sp.device, p);
  sph::cell::CellStrategy cell;
  cell.configure(makeContext(sp.device, sp.precision, sp.dim, 2 * fc.h, domainAround(fc.particles, fc.dp), sp.mode,
                             run.reorderer()));
  cell.prepare(run.view(), sph::PrepareReason::Step);
  p = run.particles();
  const std::vector<sph::SymTensor<T>> tau = tauById(p);
  run.setSpsTau(tau);
  cell.interact(run.view(), c, run.outputs(shift, true));
  std::vector<Real4<T>> ace, shiftSums;
  std::vector<T> viscdt;
  std::vector<sph::SymTensor<T>> strain;
  run.outputsToHost(ace, viscdt);
  run.strainToHost(strain);
  const auto bad = spsMismatches(bruteForceSps(p, c, tau), ace, strain, perTermUlps(sp.device));
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
  if (shift) {
    run.shiftToHost(shiftSums);
    expectShiftSums(p, c, shiftSums, perTermUlps(sp.device));
  }
}

class CellSps : public ::testing::TestWithParam<ShiftCaseParams> {};

TEST_P(CellSps, StressesAndStrainEqualBruteForce) {
  const ShiftCaseParams& sp = GetParam();
  CELLTEST_SKIP_WITHOUT(sp.device);
  if (sp.precision == Precision::Double)
    checkSpsAgainstBruteForce<double>(sp);
  else
    checkSpsAgainstBruteForce<float>(sp);
}

std::vector<ShiftCaseParams> spsCases() {
  using K = KernelKind;
  using S = sph::Shifting;
  std::vector<ShiftCaseParams> out;
  for (Device dev : {Device::Cpu, Device::Gpu}) {
    out.push_back({dev, Precision::Single, K::Wendland, 3, CellMode::Full, S::None});
    out.push_back({dev, Precision::Double, K::Cubic, 2, CellMode::Half, S::NoBound});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cell, CellSps, ::testing::ValuesIn(spsCases()),
                         [](const ::testing::TestParamInfo<ShiftCaseParams>& info) {
                           const auto& f = info.param;
                           return fmt::format("{}_{}_{}_{}D_{}_shifting{}", sph::deviceName(f.device),
                                              sph::precisionName(f.precision),
                                              f.kernel == KernelKind::Cubic ? "cubic" : "wendland", f.dim,
                                              sph::cell::cellModeName(f.mode), int(f.shifting));
                         });

// The GPU pass against the CPU pass on the same particles, matched by particle id.
template <typename T>
void checkGpuAgainstCpu(KernelKind kernel, int dim, CellMode mode) {
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
  runForces<T>({Device::Gpu, prec, kernel, dim, mode, c.ddt}, fc, c, gpu, aceGpu, viscGpu, &statsGpu);
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

class CellGpuVsCpu : public ::testing::TestWithParam<std::tuple<Precision, KernelKind, int, CellMode>> {};

TEST_P(CellGpuVsCpu, SameOutputs) {
  CELLTEST_SKIP_WITHOUT(Device::Gpu);
  const auto [prec, kernel, dim, mode] = GetParam();
  if (prec == Precision::Double)
    checkGpuAgainstCpu<double>(kernel, dim, mode);
  else
    checkGpuAgainstCpu<float>(kernel, dim, mode);
}

INSTANTIATE_TEST_SUITE_P(
    Cell, CellGpuVsCpu,
    ::testing::Values(std::make_tuple(Precision::Single, KernelKind::Wendland, 3, CellMode::Full),
                      std::make_tuple(Precision::Double, KernelKind::Cubic, 3, CellMode::Half),
                      std::make_tuple(Precision::Single, KernelKind::Cubic, 2, CellMode::Half),
                      std::make_tuple(Precision::Double, KernelKind::Wendland, 2, CellMode::Full)),
    [](const auto& info) {
      return fmt::format("{}_{}_{}D_{}", sph::precisionName(std::get<0>(info.param)),
                         std::get<1>(info.param) == KernelKind::Cubic ? "cubic" : "wendland", std::get<2>(info.param),
                         sph::cell::cellModeName(std::get<3>(info.param)));
    });

}  // namespace
}  // namespace celltest
