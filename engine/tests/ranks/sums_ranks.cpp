// What the ranks measure together (run/rank_sums.h): sums over each rank's own particles, added
// over the ranks, are the sums over every particle, with the same bits on every rank; the highest
// particle near a line is the highest of every rank's; a force gauge sums each rank's walls with
// the fluid of its halo.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "parallel/communicator.h"
#include "physics/gauge_physics.h"
#include "run/rank_sums.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

using parallel::Communicator;

// 2D fluid particles on a jittered lattice of dp 0.01 with varied velocities and densities.
ParticleSnapshot fluidBlock() {
  ParticleSnapshot s;
  const double dp = 0.01;
  for (int i = 0; i < 40; ++i)
    for (int k = 0; k < 20; ++k) {
      const double x = i * dp + 0.2 * dp * std::sin(1.7 * i + 0.3 * k), z = k * dp + 0.2 * dp * std::cos(0.9 * i * k);
      s.pos.insert(s.pos.end(), {x, 0.0, z});
      s.vel.insert(s.vel.end(), {float(std::sin(x * 50)), 0.0f, float(std::cos(z * 70))});
      s.rho.push_back(float(1000 + 5 * std::sin(x * z * 1e4)));
      s.press.push_back(float(100 * k));
      s.type.push_back(1);
      s.mk.push_back(1);
      s.id.push_back(uint32_t(s.id.size()));
    }
  return s;
}

// Appends particle i of `from` to `to`.
void copyParticle(const ParticleSnapshot& from, size_t i, ParticleSnapshot& to) {
  to.pos.insert(to.pos.end(), from.pos.begin() + 3 * i, from.pos.begin() + 3 * i + 3);
  to.vel.insert(to.vel.end(), from.vel.begin() + 3 * i, from.vel.begin() + 3 * i + 3);
  to.rho.push_back(from.rho[i]);
  to.press.push_back(from.press[i]);
  to.type.push_back(from.type[i]);
  to.mk.push_back(from.mk[i]);
  to.id.push_back(from.id[i]);
}

// The particles i of s with i % ranks == rank.
ParticleSnapshot share(const ParticleSnapshot& s, int rank, int ranks) {
  ParticleSnapshot out;
  for (size_t i = size_t(rank); i < s.count(); i += size_t(ranks)) copyParticle(s, i, out);
  return out;
}

TEST(RankGauges, EveryRanksOwnParticlesGiveTheWholeSampleOnEveryRank) {
  const Communicator& world = Communicator::world();
  const ParticleSnapshot all = fluidBlock();
  const ParticleSnapshot mine = share(all, world.rank(), world.size());
  const GaugeKernel k{kGaugeKernel, 2, 0.013, 0.1};
  SnapshotGaugeSource whole([&]() -> const ParticleSnapshot& { return all; }, k);
  SnapshotGaugeSource local([&]() -> const ParticleSnapshot& { return mine; }, k);
  RankGauges ranks(world, local, local);
  std::vector<GaugePoint> points;
  for (int j = 0; j < 12; ++j) points.push_back({0.035 * j, 0.0, 0.004 + 0.017 * j});  // the last ones above the fluid
  std::vector<PointSample> a, b;
  ranks.samplePoints(points, a);
  whole.samplePoints(points, b);
  ASSERT_EQ(a.size(), points.size());
  int sampled = 0;
  std::vector<double> mineBits;
  for (size_t j = 0; j < points.size(); ++j) {
    const auto near = [](double x, double y) { return std::abs(x - y) <= 1e-12 * std::max(1.0, std::abs(y)); };
    EXPECT_TRUE(near(a[j].shepard, b[j].shepard)) << "point " << j << ": " << a[j].shepard << " vs " << b[j].shepard;
    EXPECT_TRUE(near(a[j].rho, b[j].rho)) << "point " << j;
    EXPECT_TRUE(near(a[j].press, b[j].press)) << "point " << j;
    for (int c = 0; c < 3; ++c) EXPECT_TRUE(near(a[j].vel[c], b[j].vel[c])) << "point " << j;
    if (b[j].shepard > 0.5) ++sampled;
    mineBits.insert(mineBits.end(), {a[j].shepard, a[j].rho, a[j].vel[0], a[j].vel[2]});
  }
  EXPECT_GE(sampled, 6);  // most points lie in the fluid
  // maxz lines: the highest particle of every rank's (the last line meets no fluid).
  GaugeRequest req;
  req.points = points;
  for (int j = 0; j < 5; ++j) req.lines.push_back({{0.09 * j, 0.0, 0.0}, 0.5, 0.02});
  req.lines.push_back({{2.0, 0.0, 0.0}, 0.5, 0.02});
  GaugeResults ra, rb;
  ranks.sample(req, ra);
  whole.sample(req, rb);
  EXPECT_EQ(ra.maxZ, rb.maxZ);
  EXPECT_EQ(ra.maxZ.back(), kNoMaxZ);
  EXPECT_GT(ra.maxZ.front(), 0.15);
  ASSERT_EQ(ra.points.size(), points.size());
  EXPECT_EQ(ra.points[3].shepard, a[3].shepard);
  const std::vector<double> every = world.gatherv(mineBits);
  for (int r = 1; r < world.size(); ++r)
    for (size_t i = 0; i < mineBits.size(); ++i)
      ASSERT_EQ(every[i], every[size_t(r) * mineBits.size() + i]) << "rank " << r << " differs from rank 0 at " << i;
}

// A force gauge on the floor under the fluid block, over slabs along x: each rank sums the
// forces on its own wall particles from their fluid neighbours, its own and its halo's (the fluid
// within 3 cm of its slab, more than the support 2h = 2.6 cm, up to date as
// OutputSource::beforeForceGauges leaves it); the ranks' sums add up to the whole floor's, with
// the same bits on every rank.
TEST(RankGauges, ForceGaugesAddEveryRanksWallsWithTheirHalosFluid) {
  const Communicator& world = Communicator::world();
  ParticleSnapshot all = fluidBlock();
  for (int i = -5; i < 45; ++i) {  // the floor, mk 0, a row under the block and beyond its ends
    all.pos.insert(all.pos.end(), {0.01 * i, 0.0, -0.01});
    all.vel.insert(all.vel.end(), {0.0f, 0.0f, 0.0f});
    all.rho.push_back(1000.0f);
    all.press.push_back(float(50 + i));
    all.type.push_back(0);
    all.mk.push_back(0);
    all.id.push_back(uint32_t(all.id.size()));
  }
  const double width = 0.4 / world.size(), reach = 0.03;
  const double lo = world.rank() == 0 ? -HUGE_VAL : width * world.rank();
  const double hi = world.rank() + 1 == world.size() ? HUGE_VAL : width * (world.rank() + 1);
  ParticleSnapshot mine, walls;
  for (size_t i = 0; i < all.count(); ++i) {
    const double x = all.pos[3 * i];
    if (x >= lo && x < hi) {
      copyParticle(all, i, mine);
      copyParticle(all, i, walls);
    } else if (all.type[i] == 1 && x >= lo - reach && x < hi + reach) {
      copyParticle(all, i, walls);
    }
  }
  const GaugeKernel k{kGaugeKernel, 2, 0.013, 0.1};
  SnapshotGaugeSource whole([&]() -> const ParticleSnapshot& { return all; }, k);
  SnapshotGaugeSource local([&]() -> const ParticleSnapshot& { return mine; }, k);
  SnapshotGaugeSource wallSource([&]() -> const ParticleSnapshot& { return walls; }, k);
  RankGauges ranks(world, local, wallSource);
  GaugeRequest req;
  req.targets.push_back({0, 0});
  GaugeResults ra, rb;
  ranks.sample(req, ra);
  whole.sample(req, rb);
  ASSERT_EQ(ra.ace.size(), 1u);
  EXPECT_LT(rb.ace[0][2], 0.0);  // the water pushes the floor down
  for (int c = 0; c < 3; ++c)
    EXPECT_NEAR(ra.ace[0][size_t(c)], rb.ace[0][size_t(c)], 1e-12 * std::abs(rb.ace[0][2])) << "component " << c;
  const std::vector<double> mineBits{ra.ace[0][0], ra.ace[0][1], ra.ace[0][2]};
  const std::vector<double> every = world.gatherv(mineBits);
  for (int r = 1; r < world.size(); ++r)
    for (size_t i = 0; i < 3; ++i) ASSERT_EQ(every[i], every[size_t(r) * 3 + i]) << "rank " << r;
}

// Communicator::sumInRankOrder adds rank 0's values first, then rank 1's, ...: values that round
// differently in another order give the rank-order bits on every rank.
TEST(RankGauges, SumsAddInRankOrder) {
  const Communicator& world = Communicator::world();
  std::vector<double> v{world.rank() == 0 ? 1.0 : 1e-16 * (world.rank() + 1), double(world.rank())};
  world.sumInRankOrder(v);
  double expected = 1.0, count = 0;
  for (int r = 1; r < world.size(); ++r) {
    expected += 1e-16 * (r + 1);
    count += r;
  }
  EXPECT_EQ(v[0], expected);
  EXPECT_EQ(v[1], count);
}

}  // namespace
}  // namespace sph
