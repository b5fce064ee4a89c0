// The pair set the cell search's iteration visits equals brute force, for both devices, both
// precisions, 2D and 3D, both cell modes, on clustered random particles (some outside the
// domain) and on a lattice; with rows trimmed to the support (default) and, for a subset, the
// full rows of DualSPHysics.
#include <gtest/gtest.h>

#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "neighbours/cell_search.h"
#include "cell_test_support.h"
#include "sph/plugin/particle_code.h"

namespace celltest {
namespace {

struct PairCase {
  Device device;
  Precision precision;
  int dim;
  CellMode mode;
  bool lattice;
  bool allRows = false;
};

std::string caseName(const ::testing::TestParamInfo<PairCase>& info) {
  const PairCase& c = info.param;
  return fmt::format("{}_{}_{}D_{}_{}{}", sph::deviceName(c.device), sph::precisionName(c.precision), c.dim,
                     sph::cell::cellModeName(c.mode), c.lattice ? "lattice" : "random", c.allRows ? "_allrows" : "");
}

// Edge band for the GPU: it may contract r^2 into FMAs, which moves r^2 by a few ulps, so
// pairs this close to the support may flip. The CPU evaluates r^2 exactly like the brute force.
template <typename T>
double edgeBand(Device d) {
  return d == Device::Gpu ? 64 * double(std::numeric_limits<T>::epsilon()) : 0.0;
}

template <typename T>
void checkPairSets(const PairCase& pc) {
  HostParticles<double> base;
  Domain domain;
  double radius;
  if (pc.lattice) {
    const double dp = 0.05, origin[3] = {0.011, 0.007, 0.013};
    radius = 2.6 * dp;  // between lattice distances sqrt(6) dp and sqrt(7) dp: no ties
    const int n3 = 14;
    base = pc.dim == 3 ? latticeParticles(3, n3, n3, n3, dp, origin, 2) : latticeParticles(2, 50, 1, 40, dp, origin, 2);
    domain.max[0] = origin[0] + (pc.dim == 3 ? n3 : 50) * dp;
    domain.max[1] = origin[1] + (pc.dim == 3 ? n3 : 1) * dp;
    domain.max[2] = origin[2] + (pc.dim == 3 ? n3 : 40) * dp;
  } else {
    radius = 0.1;
    const uint32_t n = pc.dim == 3 ? 3000 : 2000;
    base = randomParticles(pc.dim, n, n * 3 / 10, domain, 12345);
  }
  HostParticles<T> particles = base.as<T>();
  Harness<T> run(pc.device, particles);
  sph::cell::CellSearch cell;
  cell.configure(makeContext(pc.device, pc.precision, pc.dim, radius, domain, pc.mode, run.reorderer(), !pc.allRows));

  std::mt19937 rng(99);
  std::uniform_real_distribution<double> jitter(-0.3 * radius, 0.3 * radius);
  for (int round = 0; round < 2; ++round) {  // the second round sorts already sorted, moved particles
    cell.prepare(run.view(), sph::PrepareReason::Step);
    const auto pairs = cell.pairsWithin(run.view(), radius);
    const HostParticles<T> now = run.particles();
    for (uint32_t i = 0; i < now.size(); ++i)
      ASSERT_EQ(sph::code::isBound(now.code[i]), i < now.nBound) << "boundary particles left [0, nBound) at " << i;
    const auto found = pairsById(pairs, now.id);
    const auto expected = bruteForcePairs(now, radius);
    EXPECT_GT(expected.size(), now.size());
    if (edgeBand<T>(pc.device) == 0.0) {
      EXPECT_EQ(found, expected) << "round " << round;
    }
    const auto bad = pairSetMismatches(now, expected, found, radius, edgeBand<T>(pc.device));
    EXPECT_TRUE(bad.empty()) << "round " << round << ": " << fmt::format("{}", fmt::join(bad, "\n"));

    HostParticles<T> moved = now;
    for (uint32_t i = 0; i < moved.size(); ++i) {
      moved.pos[i].x += T(jitter(rng));
      moved.pos[i].z += T(jitter(rng));
      if (pc.dim == 3) moved.pos[i].y += T(jitter(rng));
    }
    run.setParticles(moved);
  }
}

class CellPairSet : public ::testing::TestWithParam<PairCase> {};

TEST_P(CellPairSet, EqualsBruteForce) {
  const PairCase& pc = GetParam();
  CELLTEST_SKIP_WITHOUT(pc.device);
  if (pc.precision == Precision::Double)
    checkPairSets<double>(pc);
  else
    checkPairSets<float>(pc);
}

std::vector<PairCase> allPairCases() {
  std::vector<PairCase> out;
  for (Device dev : {Device::Cpu, Device::Gpu})
    for (bool lattice : {false, true})
      for (int dim : {3, 2})
        for (CellMode mode : {CellMode::Full, CellMode::Half})
          for (Precision prec : {Precision::Single, Precision::Double}) out.push_back({dev, prec, dim, mode, lattice});
  for (Device dev : {Device::Cpu, Device::Gpu})
    for (int dim : {3, 2})
      for (CellMode mode : {CellMode::Full, CellMode::Half})
        out.push_back({dev, Precision::Single, dim, mode, false, true});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cell, CellPairSet, ::testing::ValuesIn(allPairCases()), caseName);

// 61^3 unit lattice, r < 3.1 (the support), self pairs included: 26,382,775 ordered pairs.
class CellLatticeCount : public ::testing::TestWithParam<std::tuple<Device, CellMode>> {};

TEST_P(CellLatticeCount, UnitLattice61) {
  const auto [device, mode] = GetParam();
  CELLTEST_SKIP_WITHOUT(device);
  const double origin[3] = {0, 0, 0};
  const HostParticles<float> particles = latticeParticles(3, 61, 61, 61, 1.0, origin, 0).as<float>();
  Domain domain;
  for (int k = 0; k < 3; ++k) domain.max[k] = 60;
  Harness<float> run(device, particles);
  sph::cell::CellSearch cell;
  cell.configure(makeContext(device, Precision::Single, 3, 3.1, domain, mode, run.reorderer()));
  cell.prepare(run.view(), sph::PrepareReason::Step);
  EXPECT_EQ(cell.countPairsWithin(run.view(), 3.1), 26382775u);
}

INSTANTIATE_TEST_SUITE_P(Cell, CellLatticeCount,
                         ::testing::Combine(::testing::Values(Device::Cpu, Device::Gpu),
                                            ::testing::Values(CellMode::Full, CellMode::Half)),
                         [](const auto& info) {
                           return fmt::format("{}_{}", sph::deviceName(std::get<0>(info.param)),
                                              sph::cell::cellModeName(std::get<1>(info.param)));
                         });

}  // namespace
}  // namespace celltest
