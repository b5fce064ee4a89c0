// The Verlet plugin's lists against brute force (members, interleaved layout, region offsets),
// its rebuild rule on a synthetic flow, and the order it adds the lanes' parts in; CPU (emulated
// warps) and GPU (skipped without one), both precisions. (Forces against the all-pairs
// evaluation: the conformance suite, plugins/tests/conformance_test.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "neighbours/cell_mode.h"
#include "cell_test_support.h"
#include "verlet_test_lists.h"
#include "verlet_layout.h"
#include "verlet_particle_ops.h"
#include "verlet_stats.h"
#include "verlet_strategy.h"

namespace celltest {
namespace {

using sph::verlet::HostLists;
using sph::verlet::kWarp;
using sph::verlet::VerletStrategy;

enum class SetKind { Random, Lattice, HotSpot };

struct ListCase {
  Device device;
  Precision precision;
  int dim;
  SetKind kind;
  sph::verlet::ListLayout layout;
  bool once = false;  // VerletPairs once: half lists where the backend has them (the GPU in single precision)
};

std::string listCaseName(const ::testing::TestParamInfo<ListCase>& info) {
  const ListCase& c = info.param;
  const char* kind = c.kind == SetKind::Random ? "random" : c.kind == SetKind::Lattice ? "lattice" : "hotspot";
  return fmt::format("{}_{}_{}D_{}_{}{}", sph::deviceName(c.device), sph::precisionName(c.precision), c.dim, kind,
                     sph::verlet::layoutName(c.layout), c.once ? "_once" : "");
}

template <typename T>
double edgeBand(Device d) {
  return d == Device::Gpu ? 64 * double(std::numeric_limits<T>::epsilon()) : 0.0;
}

HostParticles<double> hotSpot(int dim, const Domain& d) {
  // 2000 sparse particles and 400 packed in a ball of radius 0.03 around one point: one warp
  // gets a very long list next to 31 short ones.
  HostParticles<double> p = randomParticles(dim, 2000, 300, d, 5);
  std::mt19937 rng(17);
  std::normal_distribution<double> g(0.0, 0.015);
  for (int i = 0; i < 400; ++i) p.add(0.4 + g(rng), dim == 3 ? 0.5 + g(rng) : 0.5, 0.5 + g(rng), false);
  return p;
}

template <typename T>
void checkLists(const ListCase& lc) {
  Domain domain;
  double support = 0.1;
  HostParticles<double> base;
  if (lc.kind == SetKind::Lattice) {
    const double dp = 0.05, origin[3] = {0.011, 0.007, 0.013};
    support = 2.4 * dp;
    base = lc.dim == 3 ? latticeParticles(3, 13, 14, 15, dp, origin, 2) : latticeParticles(2, 50, 1, 41, dp, origin, 2);
    for (int k = 0; k < 3; ++k) domain.max[k] = 1;
  } else if (lc.kind == SetKind::Random) {
    base = randomParticles(lc.dim, lc.dim == 3 ? 3001 : 2001, 401, domain, 12345);
  } else {
    base = hotSpot(lc.dim, domain);
  }
  // Velocities up to 1 m/s and a dt that makes the skin 20% of the support at the default C.
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.57, 0.57);
  for (auto& v : base.velrho) v = {u(rng), lc.dim == 3 ? u(rng) : 0.0, u(rng), 1000.0};
  HostParticles<T> particles = base.as<T>();
  Harness<T> run(lc.device, particles);
  VerletStrategy v;
  sph::StrategyContext ctx = makeContext(lc.device, lc.precision, lc.dim, support, domain, CellMode::Half, run.reorderer());
  ctx.options["VerletLayout"] = sph::verlet::layoutName(lc.layout);
  ctx.options["VerletPairs"] = lc.once ? "once" : "twice";
  v.configure(ctx);
  double vmax = 0;
  for (const auto& q : particles.velrho) vmax = std::max(vmax, std::sqrt(double(q.x) * q.x + double(q.y) * q.y + double(q.z) * q.z));
  v.beginStep(0.2 * support / (2 * vmax * sph::verlet::defaultListSteps(lc.dim)));
  v.prepare(run.view(), sph::PrepareReason::Step);
  v.buildPendingLists(run.view());
  ASSERT_TRUE(v.listsInUse());
  EXPECT_NEAR(v.listRadius(), 1.2 * support, 1e-9 * support);
  const HostParticles<T> now = run.particles();
  const HostLists l = v.lists();
  const auto found = listPairs(l, now);
  // Bitmask lists hold candidates, not members: never half.
  const bool half =
      lc.once && sph::cell::pairsOnceRuns(lc.device, lc.precision) && lc.layout != sph::verlet::ListLayout::Bitmask;
  EXPECT_EQ(v.halfLists(), half);
  const auto expected =
      half ? halfListPairs(now, expectedListPairs(now, v.listRadius())) : expectedListPairs(now, v.listRadius());
  EXPECT_GT(expected.size(), now.size() / 2);
  if (edgeBand<T>(lc.device) == 0.0) {
    EXPECT_EQ(found, expected);
  }
  const auto bad = pairSetMismatches(now, expected, found, v.listRadius(), edgeBand<T>(lc.device));
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
  // The statistics the backend sums where the lists are (on the GPU, without copying them)
  // equal the host's walk over a copy: exact counts, so the same ratios.
  // A mask's lanes take its members by bit index, which the decoded lists do not keep: its idle
  // ratio is only checked to lie in (0, 1), the rest here.
  const sph::verlet::ListStats host = sph::verlet::listStats(l, now.pos.data(), support, sph::PeriodicBox<double>{});
  const auto st = v.stats();
  EXPECT_EQ(st.at("longest_list_last"), double(host.longest));
  EXPECT_EQ(st.at("mean_list_length_last"), host.meanLength);
  if (lc.layout != sph::verlet::ListLayout::Bitmask) {
    EXPECT_EQ(st.at("idle_ratio_last_lists"), host.idleRatio);
  }
  EXPECT_EQ(st.at("in_support_ratio_last_lists"), host.inSupportRatio);
  EXPECT_GT(st.at("idle_ratio_last_lists"), 0.0);
  EXPECT_LT(st.at("idle_ratio_last_lists"), 1.0);
  EXPECT_LT(host.inSupportRatio, 1.0);
  EXPECT_EQ(st.at(fmt::format("builds_{}_layout", sph::verlet::layoutName(lc.layout))), 1.0);
  // A second build of the same particles gives the same lists (for cluster lists on the GPU, the
  // one-pass build into the first build's storage, clusters placed by an atomic cursor).
  const uint64_t builds = v.rebuilds();
  v.prepare(run.view(), sph::PrepareReason::ParticlesChanged);
  v.buildPendingLists(run.view());
  ASSERT_EQ(v.rebuilds(), builds + 1);
  const HostLists again = v.lists();
  EXPECT_EQ(again.length, l.length);
  EXPECT_EQ(again.entries, l.entries);
  if (lc.kind == SetKind::HotSpot) {
    uint32_t longest = 0, shortest = ~0u;
    for (uint32_t x : l.length) longest = std::max(longest, x), shortest = std::min(shortest, x);
    EXPECT_GT(longest, 10 * std::max(shortest, 1u)) << "the hot spot should make one list much longer";
  }
}

class VerletLists : public ::testing::TestWithParam<ListCase> {};

TEST_P(VerletLists, EqualBruteForceInTheInterleavedLayout) {
  const ListCase& lc = GetParam();
  CELLTEST_SKIP_WITHOUT(lc.device);
  if (lc.precision == Precision::Double)
    checkLists<double>(lc);
  else
    checkLists<float>(lc);
}

std::vector<ListCase> allListCases() {
  std::vector<ListCase> out;
  for (Device d : {Device::Cpu, Device::Gpu})
    for (Precision p : {Precision::Single, Precision::Double})
      for (int dim : {3, 2})
        for (SetKind k : {SetKind::Random, SetKind::Lattice, SetKind::HotSpot})
          for (auto layout : {sph::verlet::ListLayout::Indices, sph::verlet::ListLayout::Bitmask,
                              sph::verlet::ListLayout::Clusters})
            out.push_back({d, p, dim, k, layout});
  // Half lists, index and cluster layouts: where the GPU builds them (single precision), the GPU
  // in double precision, which builds full lists whatever VerletPairs asks, and the CPU, which
  // builds them in both; bitmask lists stay whole.
  for (Device d : {Device::Cpu, Device::Gpu})
    for (Precision p : {Precision::Single, Precision::Double})
      for (int dim : {3, 2})
        for (SetKind k : {SetKind::Random, SetKind::Lattice, SetKind::HotSpot})
          for (auto layout : {sph::verlet::ListLayout::Indices, sph::verlet::ListLayout::Clusters})
            if (d == Device::Gpu || k == SetKind::Random) out.push_back({d, p, dim, k, layout, true});
  for (Device d : {Device::Cpu, Device::Gpu})
    out.push_back({d, Precision::Single, 3, SetKind::Random, sph::verlet::ListLayout::Bitmask, true});
  return out;
}

INSTANTIATE_TEST_SUITE_P(Verlet, VerletLists, ::testing::ValuesIn(allListCases()), listCaseName);

// A blob of 6,000 particles all within Rc of each other gives each of its clusters ~750
// j-clusters, more than a GPU build's table holds (gpu/cluster_build.cuh). Under a cap that the
// index lists exceed, auto's next layout, cluster lists, is built on the CPU (no table there); on
// the GPU the cluster build fails on the table and the bitmask lists after it are built.
class VerletClusterTable : public ::testing::TestWithParam<Device> {};

TEST_P(VerletClusterTable, AClusterReachingMoreJClustersThanATableHoldsMovesOnToBitmasks) {
  const Device d = GetParam();
  CELLTEST_SKIP_WITHOUT(d);
  Domain domain;
  HostParticles<double> base = randomParticles(3, 200, 50, domain, 7);
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> u(-0.02, 0.02);
  for (int i = 0; i < 6000; ++i) base.add(0.5 + u(rng), 0.5 + u(rng), 0.5 + u(rng), false);
  for (auto& q : base.velrho) q = {0.1, 0.0, 0.0, 1000.0};
  HostParticles<float> particles = base.as<float>();
  Harness<float> run(d, particles);
  VerletStrategy v;
  sph::StrategyContext ctx = makeContext(d, Precision::Single, 3, 0.1, domain, CellMode::Half, run.reorderer());
  ctx.options["VerletMemoryLimit"] = "50000000";  // index lists: 6,000^2 members of 4 bytes
  v.configure(ctx);
  v.beginStep(1e-3);
  v.prepare(run.view(), sph::PrepareReason::Step);
  v.buildPendingLists(run.view());
  ASSERT_TRUE(v.listsInUse());
  const auto st = v.stats();
  EXPECT_EQ(st.at("builds_indices_layout"), 0.0);
  EXPECT_EQ(st.at("builds_clusters_layout"), d == Device::Cpu ? 1.0 : 0.0);
  EXPECT_EQ(st.at("builds_bitmask_layout"), d == Device::Gpu ? 1.0 : 0.0);
  EXPECT_GT(st.at("mean_list_length_last"), 5000.0);
}

INSTANTIATE_TEST_SUITE_P(Verlet, VerletClusterTable, ::testing::Values(Device::Cpu, Device::Gpu),
                         [](const auto& info) { return std::string(sph::deviceName(info.param)); });

// A shear flow moved by hand: the lists are rebuilt exactly on the step where the largest
// displacement since the last build first exceeds dh/2 (and rebuildDue() says so before), and
// every pair within the support is in the lists at every step in between.
class VerletRebuild : public ::testing::TestWithParam<Device> {};

TEST_P(VerletRebuild, RebuildsExactlyWhenHalfTheSkinIsUsedAndMissesNoPair) {
  const Device device = GetParam();
  CELLTEST_SKIP_WITHOUT(device);
  const double dp = 0.02, support = 2.4 * dp, origin[3] = {0.1, 0.1, 0.1};
  HostParticles<double> base = latticeParticles(3, 12, 10, 12, dp, origin, 2);
  for (uint32_t i = 0; i < base.size(); ++i) {
    const double z = base.pos[i].z;
    const bool bound = i < base.nBound;
    base.velrho[i] = {bound ? 0.0 : 0.8 * std::sin(20 * z), 0.0, bound ? 0.0 : 0.1 * std::cos(30 * z), 1000.0};
  }
  HostParticles<float> p = base.as<float>();
  Harness<float> run(device, p);
  Domain domain;
  VerletStrategy v;
  v.configure(makeContext(device, Precision::Single, 3, support, domain, CellMode::Half, run.reorderer()));
  const double dt = 2e-4;
  std::map<uint32_t, Real4<float>> ref;  // positions at the last build, by id
  uint64_t rebuildsSeen = 0;
  double dh = 0;
  int rebuildSteps = 0;
  for (int step = 0; step < 200; ++step) {
    HostParticles<float> now = run.particles();
    bool expectRebuild = step == 0;
    if (step > 0) {
      double d2 = 0;
      for (uint32_t i = 0; i < now.size(); ++i) {
        const Real4<float>& a = now.pos[i];
        const Real4<float>& b = ref.at(now.id[i]);
        const double dx = double(a.x) - b.x, dy = double(a.y) - b.y, dz = double(a.z) - b.z;
        d2 = std::max(d2, dx * dx + dy * dy + dz * dz);
      }
      expectRebuild = 4 * d2 > dh * dh;
    }
    v.beginStep(dt);
    // A run over ranks asks first whether the pass will rebuild (NeighbourStrategy::rebuildDue):
    // the same answer, which the pass then follows.
    if (step % 3 == 1) {
      ASSERT_EQ(v.rebuildDue(run.view()), expectRebuild) << "step " << step;
    }
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
    // Every pair within the support is listed (once in half lists, the default on the GPU in
    // single precision).
    const auto listed = listPairs(v.lists(), now);
    ASSERT_EQ(v.halfLists(), device == Device::Gpu);
    const auto needed =
        v.halfLists() ? halfListPairs(now, expectedListPairs(now, support)) : expectedListPairs(now, support);
    std::vector<uint64_t> missing;
    std::set_difference(needed.begin(), needed.end(), listed.begin(), listed.end(), std::back_inserter(missing));
    ASSERT_TRUE(missing.empty()) << missing.size() << " pairs within the support missing at step " << step;
    // Move the particles (the velocity field is steady).
    for (uint32_t i = 0; i < now.size(); ++i) {
      now.pos[i].x += float(now.velrho[i].x * dt);
      now.pos[i].z += float(now.velrho[i].z * dt);
    }
    run.setParticles(now);
    // Half of the steps end as the engine ends them (the check queued for the next prepare()),
    // the others leave prepare() to check synchronously: both paths obey the rule.
    if (step % 2 == 0) v.endStep(run.view());
  }
  const auto st = v.stats();
  EXPECT_GT(st.at("displacement_checks_queued"), 50.0);
  EXPECT_GT(st.at("displacement_checks_waited"), 50.0);
  std::printf("%d rebuilds in 200 steps\n", rebuildSteps);
  EXPECT_GT(rebuildSteps, 3) << "the flow should need several rebuilds";
  EXPECT_LT(rebuildSteps, 100) << "the lists should outlive several steps";
}

INSTANTIATE_TEST_SUITE_P(Verlet, VerletRebuild, ::testing::Values(Device::Cpu, Device::Gpu),
                         [](const auto& info) { return std::string(sph::deviceName(info.param)); });

// The CPU adds the lanes' parts of a list in the order of the GPU's butterfly: lane 0 ends with
// ((p0 + p1) + (p2 + p3)) + ((p4 + p5) + (p6 + p7)), not with a left-to-right sum. Float values
// chosen so that the two orders give different sums.
TEST(VerletParts, AddsLanePartsInTheGpuButterflyOrder) {
  const float v[8] = {1.0f, 1e8f, -1e8f, 1.0f, 3.0f, -2e8f, 2e8f, 0.5f};
  auto part = [&](uint32_t q) {
    sph::PairAccum<float> a;
    a.ax = v[q];
    a.arho = -v[q];
    a.viscdt = float(q);
    a.contacts = q;
    return a;
  };
  const sph::PairAccum<float> four = sph::verlet::addParts<4>(part);
  EXPECT_EQ(four.ax, (v[0] + v[1]) + (v[2] + v[3]));
  EXPECT_NE(four.ax, ((v[0] + v[1]) + v[2]) + v[3]);  // the order matters for these values
  EXPECT_EQ(four.viscdt, 3.0f);
  EXPECT_EQ(four.contacts, 0u + 1 + 2 + 3);
  const sph::PairAccum<float> eight = sph::verlet::addParts<8>(part);
  EXPECT_EQ(eight.ax, ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7])));
  EXPECT_EQ(eight.arho, -(((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]))));
  EXPECT_EQ(sph::verlet::addParts<1>(part).ax, v[0]);
}

}  // namespace
}  // namespace celltest
