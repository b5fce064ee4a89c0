// Periodic boundaries in the Verlet plugin: lists equal brute force under the minimum image
// (random particles crowding the periodic faces and lattices continuing across them, 2D and 3D,
// one and two periodic axes, both precisions, CPU and GPU, each list layout); a period too short
// for the usual skin caps Rc and the lists stay exact; a shear flow across the periodic faces
// keeps every pair within the support listed between rebuilds while particles wrap; a period too
// short for any list radius is an InputError. (Forces: plugins/tests/conformance_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "neighbours/cell_mode.h"
#include "cell_test_support.h"
#include "sph/plugin/errors.h"
#include "verlet_layout.h"
#include "verlet_strategy.h"
#include "verlet_test_lists.h"

namespace celltest {
namespace {

using sph::verlet::VerletStrategy;

struct PeriodicListCase {
  Device device;
  Precision precision;
  int dim;
  bool lattice;
  unsigned mask;  // bit d: axis d is periodic
  int narrow;     // the shortest periodic axis
  bool capped;    // that axis is short enough to cap Rc below its usual 1.2 x support
  sph::verlet::ListLayout layout;
};

std::string maskName(unsigned mask) {
  std::string s;
  for (int k = 0; k < 3; ++k)
    if (mask >> k & 1u) s += "xyz"[k];
  return s;
}

template <typename T>
double edgeBand(Device d) {
  return d == Device::Gpu ? 64 * double(std::numeric_limits<T>::epsilon()) : 0.0;
}

template <typename T>
void checkPeriodicLists(const PeriodicListCase& lc) {
  Domain domain;
  double support = 0.1;
  HostParticles<double> base;
  if (lc.lattice) {
    const double dp = 0.05, origin[3] = {0.011, 0.007, 0.013};
    support = 2.4 * dp;
    int n[3] = {lc.dim == 3 ? 13 : 40, lc.dim == 3 ? 14 : 1, lc.dim == 3 ? 15 : 31};
    n[lc.narrow] = lc.capped ? 7 : 8;  // Rc <= 0.4 L: 0.14 m for 7 spacings (capped), 0.16 m for 8
    base = latticeParticles(lc.dim, n[0], n[1], n[2], dp, origin, 2);
    for (int k = 0; k < 3; ++k) {
      domain.min[k] = origin[k] - 0.5 * dp;
      domain.max[k] = domain.min[k] + n[k] * dp;
    }
  } else {
    for (int k = 0; k < 3; ++k) domain.max[k] = 0.6;
    domain.max[lc.narrow] = lc.capped ? 0.26 : 0.31;  // Rc <= 0.104 m (capped) or 0.124 m
    const uint32_t n = lc.dim == 3 ? 2501 : 1501;
    base = periodicRandomParticles(lc.dim, n, 401, domain, lc.mask, 0.15, 99);
  }
  const sph::PeriodicBox<double> box = periodicBox(domain, lc.mask);
  // Velocities up to 1 m/s and a dt that makes the skin 20% of the support at the default C.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.57, 0.57);
  for (auto& v : base.velrho) v = {u(rng), lc.dim == 3 ? u(rng) : 0.0, u(rng), 1000.0};
  HostParticles<T> particles = base.as<T>();
  Harness<T> run(lc.device, particles);
  VerletStrategy v;
  sph::StrategyContext ctx = makeContext(lc.device, lc.precision, lc.dim, support, domain, CellMode::Half, run.reorderer());
  setPeriodic(ctx, lc.mask);
  ctx.options["VerletLayout"] = sph::verlet::layoutName(lc.layout);
  v.configure(ctx);
  double vmax = 0;
  for (const auto& q : particles.velrho) vmax = std::max(vmax, std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z));
  v.beginStep(0.2 * support / (2 * vmax * sph::verlet::defaultListSteps(lc.dim)));
  v.prepare(run.view(), sph::PrepareReason::Step);
  v.buildPendingLists(run.view());
  ASSERT_TRUE(v.listsInUse());
  const double narrowPeriod = domain.max[lc.narrow] - domain.min[lc.narrow];
  if (lc.capped) {
    EXPECT_LT(v.listRadius(), 1.2 * support * (1 - 1e-6)) << "the period should cap the list radius";
    EXPECT_GT(v.listRadius(), support);
  } else {
    EXPECT_NEAR(v.listRadius(), 1.2 * support, 1e-9 * support);
  }
  EXPECT_LE(v.listRadius(), 0.4 * narrowPeriod) << "5 cells of Rc/2 across the period";
  const HostParticles<T> now = run.particles();
  const auto found = listPairs(v.lists(), now);
  const sph::PeriodicBox<T> boxT = boxAs<T>(box);
  // Half lists (VerletPairs once, the default: the GPU's index and cluster lists in single
  // precision) hold each pair once.
  const bool half =
      lc.device == Device::Gpu && lc.precision == Precision::Single && lc.layout != sph::verlet::ListLayout::Bitmask;
  EXPECT_EQ(v.halfLists(), half);
  const auto all = expectedListPairs(now, v.listRadius(), boxT);
  const auto expected = half ? halfListPairs(now, all) : all;
  EXPECT_GT(all.size(), expectedListPairs(now, v.listRadius()).size()) << "lists should cross the boundaries";
  if (edgeBand<T>(lc.device) == 0.0) {
    EXPECT_EQ(found, expected);
  }
  const auto bad = pairSetMismatches(now, expected, found, v.listRadius(), edgeBand<T>(lc.device), boxT);
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
}

class VerletPeriodicLists : public ::testing::TestWithParam<PeriodicListCase> {};

TEST_P(VerletPeriodicLists, EqualBruteForceWithMinimumImage) {
  const PeriodicListCase& lc = GetParam();
  CELLTEST_SKIP_WITHOUT(lc.device);
  if (lc.precision == Precision::Double)
    checkPeriodicLists<double>(lc);
  else
    checkPeriodicLists<float>(lc);
}

std::vector<PeriodicListCase> periodicListCases() {
  struct Axes {
    int dim;
    unsigned mask;
    int narrow;
  };
  const Axes axes[] = {{3, 0b001, 0}, {3, 0b110, 1}, {2, 0b100, 2}, {2, 0b101, 0}};
  std::vector<PeriodicListCase> out;
  for (Device d : {Device::Cpu, Device::Gpu})
    for (Precision p : {Precision::Single, Precision::Double})
      for (bool lattice : {false, true})
        for (auto layout : {sph::verlet::ListLayout::Indices, sph::verlet::ListLayout::Clusters,
                            sph::verlet::ListLayout::Bitmask}) {
          for (const Axes& a : axes) out.push_back({d, p, a.dim, lattice, a.mask, a.narrow, false, layout});
          out.push_back({d, p, 3, lattice, 0b011, 1, true, layout});
        }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Verlet, VerletPeriodicLists, ::testing::ValuesIn(periodicListCases()), [](const auto& info) {
  const PeriodicListCase& c = info.param;
  return fmt::format("{}_{}_{}D_{}_periodic_{}{}_{}", sph::deviceName(c.device), sph::precisionName(c.precision), c.dim,
                     c.lattice ? "lattice" : "random", maskName(c.mask), c.capped ? "_capped" : "",
                     sph::verlet::layoutName(c.layout));
});

// A shear flow along the periodic x and y axes, moved and wrapped by hand: the lists are
// rebuilt exactly when the largest minimum-image displacement since the build first exceeds
// dh/2 (a particle that wrapped around has not moved a period), and every pair within the
// support under the minimum image is listed at every step.
class VerletPeriodicRebuild : public ::testing::TestWithParam<Device> {};

TEST_P(VerletPeriodicRebuild, WrappingParticlesStayListed) {
  const Device device = GetParam();
  CELLTEST_SKIP_WITHOUT(device);
  const double dp = 0.02, support = 2.4 * dp, origin[3] = {0.1, 0.1, 0.1};
  HostParticles<double> base = latticeParticles(3, 12, 10, 12, dp, origin, 2);
  for (uint32_t i = 0; i < base.size(); ++i) {
    const double z = base.pos[i].z;
    const bool bound = i < base.nBound;
    base.velrho[i] = {bound ? 0.0 : 0.8 * std::sin(20 * z), bound ? 0.0 : 0.4 * std::cos(20 * z),
                      bound ? 0.0 : 0.1 * std::cos(30 * z), 1000.0};
  }
  Domain domain;  // x and y: the lattice's period (12 and 10 spacings); z open over [0, 1]
  for (int k = 0; k < 2; ++k) domain.min[k] = origin[k] - 0.5 * dp;
  domain.max[0] = domain.min[0] + 12 * dp;
  domain.max[1] = domain.min[1] + 10 * dp;
  const sph::PeriodicBox<double> box = periodicBox(domain, 0b011);
  const sph::PeriodicBox<float> boxF = boxAs<float>(box);
  HostParticles<float> p = base.as<float>();
  Harness<float> run(device, p);
  VerletStrategy v;
  sph::StrategyContext ctx = makeContext(device, Precision::Single, 3, support, domain, CellMode::Half, run.reorderer());
  setPeriodic(ctx, 0b011);
  v.configure(ctx);
  const double dt = 2e-4;
  std::map<uint32_t, Real4<float>> ref;  // positions at the last build, by id
  uint64_t rebuildsSeen = 0;
  double dh = 0;
  int rebuildSteps = 0, wraps = 0;
  for (int step = 0; step < 200; ++step) {
    HostParticles<float> now = run.particles();
    bool expectRebuild = step == 0;
    if (step > 0) {
      double d2 = 0;
      for (uint32_t i = 0; i < now.size(); ++i) {
        const Real4<float>& b = ref.at(now.id[i]);
        const Real4<double> a{now.pos[i].x, now.pos[i].y, now.pos[i].z, 0.0};
        double dx, dy, dz;
        sph::pairDelta(a, Real4<double>{b.x, b.y, b.z, 0.0}, box, dx, dy, dz);
        d2 = std::max(d2, dx * dx + dy * dy + dz * dz);
      }
      expectRebuild = 4 * d2 > dh * dh;
    }
    v.beginStep(dt);
    v.prepare(run.view(), sph::PrepareReason::Step);
    v.buildPendingLists(run.view());
    const bool rebuilt = v.rebuilds() > rebuildsSeen;
    rebuildsSeen = v.rebuilds();
    ASSERT_EQ(rebuilt, expectRebuild) << "step " << step;
    now = run.particles();
    if (rebuilt) {
      ++rebuildSteps;
      dh = v.listRadius() - support;
      for (uint32_t i = 0; i < now.size(); ++i) ref[now.id[i]] = now.pos[i];
    }
    const auto listed = listPairs(v.lists(), now);
    ASSERT_EQ(v.halfLists(), device == Device::Gpu);  // the default, once, is the GPU's
    const auto needed = v.halfLists() ? halfListPairs(now, expectedListPairs(now, support, boxF))
                                      : expectedListPairs(now, support, boxF);
    std::vector<uint64_t> missing;
    std::set_difference(needed.begin(), needed.end(), listed.begin(), listed.end(), std::back_inserter(missing));
    ASSERT_TRUE(missing.empty()) << missing.size() << " pairs within the support missing at step " << step;
    for (uint32_t i = 0; i < now.size(); ++i) {
      Real4<float>& q = now.pos[i];
      const Real4<float> before = q;
      q.x += float(now.velrho[i].x * dt);
      q.y += float(now.velrho[i].y * dt);
      q.z += float(now.velrho[i].z * dt);
      sph::wrapPosition(q, boxF);
      wraps += (std::abs(q.x - before.x) > 0.5f * boxF.length[0] || std::abs(q.y - before.y) > 0.5f * boxF.length[1]);
    }
    run.setParticles(now);
    if (step % 2 == 0) v.endStep(run.view());  // both displacement-check paths, as VerletRebuild
  }
  std::printf("%d rebuilds, %d wraps in 200 steps\n", rebuildSteps, wraps);
  EXPECT_GT(wraps, 20) << "particles should cross the periodic faces";
  EXPECT_GT(rebuildSteps, 3);
  EXPECT_LT(rebuildSteps, 100) << "wrapping must not force a rebuild by itself";
}

INSTANTIATE_TEST_SUITE_P(Verlet, VerletPeriodicRebuild, ::testing::Values(Device::Cpu, Device::Gpu),
                         [](const auto& info) { return std::string(sph::deviceName(info.param)); });

// 5 cells of Rc/2 must fit across a periodic axis, so Rc <= 0.4 L; when even Rc = 2h does not
// fit, configure() refuses the period and names the axis.
TEST(VerletPeriodicConfigure, PeriodTooShortForAnyListIsAnInputError) {
  Domain domain;
  domain.max[2] = 0.24;  // 0.4 L = 0.096 m < 2h = 0.1 m
  sph::StrategyContext ctx = makeContext(Device::Cpu, Precision::Single, 3, 0.1, domain, CellMode::Half, nullptr);
  HostParticles<float> none;
  HostReorderer<float> reorderer(none);
  ctx.reorderer = &reorderer;
  setPeriodic(ctx, 0b100);
  VerletStrategy v;
  try {
    v.configure(ctx);
    FAIL() << "expected an InputError";
  } catch (const sph::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("periodic axis z"), std::string::npos) << e.what();
  }
  domain.max[2] = 0.26;  // 0.4 L = 0.104 m: lists with a skin of at most 4% of 2h
  sph::StrategyContext longer = makeContext(Device::Cpu, Precision::Single, 3, 0.1, domain, CellMode::Half, &reorderer);
  setPeriodic(longer, 0b100);
  EXPECT_NO_THROW(v.configure(longer));
}

}  // namespace
}  // namespace celltest
