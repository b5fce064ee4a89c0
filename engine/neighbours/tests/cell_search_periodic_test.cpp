// Periodic boundaries in the cell search: the pair set equals brute force under the minimum
// image, for both devices and precisions, 2D and 3D, both cell modes, one and two (and three)
// periodic axes, on random particles crowding the periodic faces and on lattices that continue
// across them; the narrow axis of each set has the fewest cells allowed (3 of 2h, 5 of h), so
// the wrapped block covers the whole axis; too short a period is a clear error. (Forces under the
// minimum image: the conformance suite, conformance_test.cpp.)
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "neighbours/cell_search.h"
#include "cell_test_support.h"
#include "sph/plugin/errors.h"

namespace celltest {
namespace {

struct PeriodicCase {
  Device device;
  Precision precision;
  int dim;
  CellMode mode;
  bool lattice;
  unsigned mask;  // bit d: axis d is periodic
  int narrow;     // the periodic axis with the fewest cells
};

std::string maskName(unsigned mask) {
  std::string s;
  for (int k = 0; k < 3; ++k)
    if (mask >> k & 1u) s += "xyz"[k];
  return s;
}

std::string periodicCaseName(const ::testing::TestParamInfo<PeriodicCase>& info) {
  const PeriodicCase& c = info.param;
  return fmt::format("{}_{}_{}D_{}_{}_periodic_{}", sph::deviceName(c.device), sph::precisionName(c.precision), c.dim,
                     sph::cell::cellModeName(c.mode), c.lattice ? "lattice" : "random", maskName(c.mask));
}

// As in cell_pairs_test.cpp: the GPU may contract r^2 into FMAs, so pairs this close to the
// radius may flip there; the CPU evaluates r^2 exactly as the brute force does.
template <typename T>
double edgeBand(Device d) {
  return d == Device::Gpu ? 64 * double(std::numeric_limits<T>::epsilon()) : 0.0;
}

template <typename T>
void checkPeriodicPairs(const PeriodicCase& pc) {
  HostParticles<double> base;
  Domain domain;
  double radius;
  if (pc.lattice) {
    // Spacing dp from min + dp/2, period n dp: the lattice continues across the boundary. The
    // narrow axis holds 8 (full) or 7 (half) spacings: 3 cells of 2.6 dp, or 5 of 1.3 dp.
    const double dp = 0.05;
    radius = 2.6 * dp;  // between lattice distances sqrt(6) dp and sqrt(7) dp: no ties
    int n[3] = {pc.dim == 3 ? 14 : 40, pc.dim == 3 ? 13 : 1, pc.dim == 3 ? 12 : 30};
    n[pc.narrow] = pc.mode == CellMode::Full ? 8 : 7;
    const double origin[3] = {0.011, 0.007, 0.013};
    base = latticeParticles(pc.dim, n[0], n[1], n[2], dp, origin, 2);
    for (int k = 0; k < 3; ++k) {
      domain.min[k] = origin[k] - 0.5 * dp;
      domain.max[k] = domain.min[k] + n[k] * dp;
    }
  } else {
    radius = 0.1;
    for (int k = 0; k < 3; ++k) domain.max[k] = 0.6;
    domain.max[pc.narrow] = pc.mode == CellMode::Full ? 0.31 : 0.26;  // 3 cells of 2h, 5 of h
    const uint32_t n = pc.dim == 3 ? 2500 : 1500;
    base = periodicRandomParticles(pc.dim, n, n * 3 / 10, domain, pc.mask, radius, 4242);
  }
  const sph::PeriodicBox<double> box = periodicBox(domain, pc.mask);
  const sph::PeriodicBox<T> boxT = boxAs<T>(box);
  HostParticles<T> particles = base.as<T>();
  Harness<T> run(pc.device, particles);
  sph::cell::CellSearch cell;
  sph::StrategyContext ctx = makeContext(pc.device, pc.precision, pc.dim, radius, domain, pc.mode, run.reorderer());
  setPeriodic(ctx, pc.mask);
  cell.configure(ctx);
  const auto& g = cell.grid();
  const int cells[3] = {g.ncx, g.ncy, g.ncz};
  EXPECT_EQ(cells[pc.narrow], pc.mode == CellMode::Full ? 3 : 5) << "the narrow axis should have the fewest cells";

  std::mt19937 rng(7);
  std::uniform_real_distribution<double> jitter(-0.3 * radius, 0.3 * radius);
  for (int round = 0; round < 2; ++round) {  // the second round: moved particles, many across the wrap
    cell.prepare(run.view(), sph::PrepareReason::Step);
    const auto pairs = cell.pairsWithin(run.view(), radius);
    const HostParticles<T> now = run.particles();
    const auto found = pairsById(pairs, now.id);
    const auto expected = bruteForcePairs(now, radius, boxT);
    const auto open = bruteForcePairs(now, radius);
    EXPECT_GT(expected.size(), open.size()) << "pairs should straddle the periodic boundaries";
    if (edgeBand<T>(pc.device) == 0.0) {
      EXPECT_EQ(found, expected) << "round " << round;
    }
    const auto bad = pairSetMismatches(now, expected, found, radius, edgeBand<T>(pc.device), boxT);
    EXPECT_TRUE(bad.empty()) << "round " << round << ": " << fmt::format("{}", fmt::join(bad, "\n"));

    HostParticles<T> moved = now;
    for (auto& q : moved.pos) {
      q.x += T(jitter(rng));
      q.z += T(jitter(rng));
      if (pc.dim == 3) q.y += T(jitter(rng));
    }
    wrapPositions(moved, box);
    run.setParticles(moved);
  }
}

class CellPeriodicPairs : public ::testing::TestWithParam<PeriodicCase> {};

TEST_P(CellPeriodicPairs, EqualBruteForceWithMinimumImage) {
  const PeriodicCase& pc = GetParam();
  CELLTEST_SKIP_WITHOUT(pc.device);
  if (pc.precision == Precision::Double)
    checkPeriodicPairs<double>(pc);
  else
    checkPeriodicPairs<float>(pc);
}

std::vector<PeriodicCase> periodicCases() {
  // (dim, mask, narrow axis): one and two periodic axes in 3D and 2D, and all three in 3D.
  struct Axes {
    int dim;
    unsigned mask;
    int narrow;
  };
  const Axes axes[] = {{3, 0b010, 1}, {3, 0b101, 0}, {3, 0b111, 2}, {2, 0b001, 0}, {2, 0b101, 2}};
  std::vector<PeriodicCase> out;
  for (Device dev : {Device::Cpu, Device::Gpu})
    for (bool lattice : {false, true})
      for (const Axes& a : axes)
        for (CellMode mode : {CellMode::Full, CellMode::Half})
          for (Precision prec : {Precision::Single, Precision::Double})
            out.push_back({dev, prec, a.dim, mode, lattice, a.mask, a.narrow});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cell, CellPeriodicPairs, ::testing::ValuesIn(periodicCases()), periodicCaseName);

// A fully periodic unit lattice is the infinite lattice: every particle has exactly as many
// neighbours within r as there are integer vectors v != 0 with |v| < r.
class CellPeriodicLattice : public ::testing::TestWithParam<std::tuple<Device, CellMode>> {};

TEST_P(CellPeriodicLattice, EveryParticleSeesTheInfiniteLattice) {
  const auto [device, mode] = GetParam();
  CELLTEST_SKIP_WITHOUT(device);
  const double r = 2.9;  // squared norms 8 < r^2 = 8.41 < 9: no ties
  int expected = 0;
  for (int i = -3; i <= 3; ++i)
    for (int j = -3; j <= 3; ++j)
      for (int k = -3; k <= 3; ++k) expected += (i * i + j * j + k * k) < r * r ? 1 : 0;  // self included
  const double origin[3] = {0.5, 0.5, 0.5};
  // z has the fewest cells allowed: 9 / 2.9 -> 3 cells of 2h, 8 / 1.45 -> 5 cells of h.
  const int n[2] = {11, 9};
  const int nz = mode == CellMode::Full ? 9 : 8;
  const HostParticles<float> particles = latticeParticles(3, n[0], n[1], nz, 1.0, origin, 0).as<float>();
  Domain domain;
  domain.max[0] = n[0];
  domain.max[1] = n[1];
  domain.max[2] = nz;
  Harness<float> run(device, particles);
  sph::cell::CellSearch cell;
  sph::StrategyContext ctx = makeContext(device, Precision::Single, 3, r, domain, mode, run.reorderer());
  setPeriodic(ctx, 0b111);
  cell.configure(ctx);
  cell.prepare(run.view(), sph::PrepareReason::Step);
  const auto pairs = cell.pairsWithin(run.view(), r);
  std::vector<int> count(particles.size(), 0);
  for (const auto& q : pairs) ++count[q.a];
  for (uint32_t a = 0; a < particles.size(); ++a) ASSERT_EQ(count[a], expected) << "particle " << a;
}

INSTANTIATE_TEST_SUITE_P(Cell, CellPeriodicLattice,
                         ::testing::Combine(::testing::Values(Device::Cpu, Device::Gpu),
                                            ::testing::Values(CellMode::Full, CellMode::Half)),
                         [](const auto& info) {
                           return fmt::format("{}_{}", sph::deviceName(std::get<0>(info.param)),
                                              sph::cell::cellModeName(std::get<1>(info.param)));
                         });

// A period that cannot hold the 2 reach + 1 distinct cells a particle scans is refused.
TEST(CellPeriodicGrid, TooShortPeriodIsAnInputError) {
  Domain domain;
  domain.max[1] = 0.29;  // 2.9 cells of the support 0.1: fine for cells of h (5 of 0.05), not of 2h
  sph::StrategyContext ctx = makeContext(Device::Cpu, Precision::Single, 3, 0.1, domain, CellMode::Full, nullptr);
  setPeriodic(ctx, 0b010);
  try {
    (void)sph::cell::makeCellGrid(ctx, CellMode::Full);
    FAIL() << "expected an InputError";
  } catch (const sph::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("periodic axis y"), std::string::npos) << e.what();
  }
  const sph::cell::CellGrid half = sph::cell::makeCellGrid(ctx, CellMode::Half);
  EXPECT_EQ(half.ncy, 5);
  EXPECT_NEAR(half.period[1], 0.29, 1e-15);
  EXPECT_GE(0.29 / half.ncy, half.cellSize) << "cells never smaller than the support needs";
  domain.max[1] = 0.24;  // 4.8 cells of h: too few even for half
  sph::StrategyContext shorter = makeContext(Device::Cpu, Precision::Single, 3, 0.1, domain, CellMode::Half, nullptr);
  setPeriodic(shorter, 0b010);
  EXPECT_THROW((void)sph::cell::makeCellGrid(shorter, CellMode::Half), sph::InputError);
}

// A halo copy sorted into a cell at one end of a periodic axis that has since crossed the seam
// (a split pass's Border, cell_iteration.h's CellLookup::drift): it lies just outside its
// cell's nearest image, not a period away, and the widened scan of a particle beside its new
// place still reaches the cell it was sorted into.
TEST(CellPeriodicGrid, CopyAcrossTheSeamIsNearItsCell) {
  Domain domain;
  domain.max[0] = 1.001;  // 10 cells of the support 0.1 along the periodic x
  sph::StrategyContext ctx = makeContext(Device::Cpu, Precision::Double, 3, 0.1, domain, CellMode::Full, nullptr);
  setPeriodic(ctx, 0b001);
  const sph::cell::CellGrid g = sph::cell::makeCellGrid(ctx, CellMode::Full);
  ASSERT_EQ(g.ncx, 10);
  const Real4<double> moved{0.99, 0.05, 0.05, 0};  // sorted into cell 0 at x = 0.002
  const uint32_t key0 = sph::cell::cellKey(g, 0.002, 0.05, 0.05, false);
  const sph::cell::CellLookup still = sph::cell::makeLookup(g, nullptr, nullptr);
  const float out = sph::cell::cellOutside(still, key0, moved);
  EXPECT_NEAR(out, (g.period[0] - 0.99) / g.cellSize, 1e-4);  // to the seam, in the support's cells
  EXPECT_EQ(sph::cell::cellOutside(still, key0, Real4<double>{0.05, 0.05, 0.05, 0}), 0.0f);
  // With the drift the block widens by a cell on each side and the trim by the drift: the copy's
  // own scan from cell 0 reaches cells 8 and 9 beside its new place, not the far side.
  const sph::cell::CellLookup drifted = sph::cell::makeLookup(g, nullptr, nullptr, out);
  EXPECT_EQ(drifted.blockExtra, 1);
  auto cellsScanned = [&](const sph::cell::CellLookup& l, uint32_t key, const Real4<double>& at) {
    std::set<int> xs;
    std::vector<uint32_t> start(size_t(g.keyCount()) + 1);
    for (size_t k = 0; k < start.size(); ++k) start[k] = uint32_t(k);  // one particle a key
    sph::cell::CellLookup m = l;
    m.start = start.data();
    sph::cell::forEachCandidateRow(m, key, at, true, [&](uint32_t fBegin, uint32_t fEnd, uint32_t, uint32_t) {
      for (uint32_t j = fBegin; j < fEnd; ++j) xs.insert(int((j - g.ncells) % uint32_t(g.ncx)));
    });
    return xs;
  };
  const std::set<int> fromCopy = cellsScanned(drifted, key0, moved);
  EXPECT_TRUE(fromCopy.count(9)) << "the copy's scan misses the cell beside its new place";
  EXPECT_TRUE(fromCopy.count(0));
  EXPECT_FALSE(fromCopy.count(5)) << "trimmed to the support and the drift";
}

}  // namespace
}  // namespace celltest
