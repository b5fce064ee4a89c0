// The halo and the migration of a slab decomposition on 1 to 4 ranks (sph_rank_tests), by the
// rules of parallel/halo_exchange.h applied to host records: every rank makes the same 3,000
// random particles and owns those of its slab of [0, 1) along x. With its
// halo, each rank must find every owned particle's neighbours within the reach, as brute force
// over all particles finds them (with the minimum image across a periodic seam); after the
// particles move less than a slab, migration must leave each one on the rank of its slab, once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <set>
#include <span>
#include <vector>

#include "parallel/communicator.h"
#include "parallel/halo_exchange.h"
#include "sph/plugin/errors.h"

namespace sph::parallel {
namespace {

struct Particle {
  double x, y, z;
  uint32_t id, pad;
};
constexpr double kReach = 0.1;

std::vector<Particle> everyParticle() {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<Particle> p(3000);
  for (uint32_t i = 0; i < p.size(); ++i) p[i] = {u(rng), u(rng), u(rng), i, 0};
  return p;
}

Slab slabOf(const Communicator& c, bool periodic) {
  return Slab{double(c.rank()) / c.size(), double(c.rank() + 1) / c.size(), 0.0, 1.0, periodic};
}

std::span<const uint8_t> bytesOf(const std::vector<Particle>& p) {
  return {reinterpret_cast<const uint8_t*>(p.data()), p.size() * sizeof(Particle)};
}

// Sends what `sides` says (moved as it says) to the ranks beside this one; returns what came.
std::vector<Particle> swapBy(const Communicator& c, const Slab& slab, const Sides& sides,
                             const std::vector<Particle>& mine) {
  std::vector<Particle> down, up;
  for (const Particle& p : mine) {
    if (sides.toLower(p.x)) down.push_back({p.x + sides.lowerShift, p.y, p.z, p.id, 0});
    if (sides.toUpper(p.x)) up.push_back({p.x + sides.upperShift, p.y, p.z, p.id, 0});
  }
  std::vector<uint8_t> room;
  const Arrived got = swapWithNeighbours(c, slab, bytesOf(down), bytesOf(up), [&room](size_t b) {
    room.resize(b);
    return room.data();
  });
  EXPECT_EQ(got.total(), room.size());
  EXPECT_EQ(got.total() % sizeof(Particle), 0u);
  std::vector<Particle> came(got.total() / sizeof(Particle));
  if (!came.empty()) std::memcpy(came.data(), room.data(), came.size() * sizeof(Particle));
  return came;
}

std::vector<Particle> owned(const std::vector<Particle>& all, const Slab& s) {
  std::vector<Particle> mine;
  for (const Particle& q : all)
    if (q.x >= s.lo && q.x < s.hi) mine.push_back(q);
  return mine;
}

double distance2(const Particle& a, const Particle& b, bool periodicX) {
  double dx = std::fabs(a.x - b.x);
  if (periodicX) dx = std::min(dx, 1.0 - dx);
  return dx * dx + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z);
}

class HaloRanks : public ::testing::TestWithParam<bool> {};

TEST_P(HaloRanks, OwnedParticlesFindEveryNeighbourAmongOwnAndHalo) {
  const bool periodic = GetParam();
  const Communicator& c = Communicator::world();
  const std::vector<Particle> all = everyParticle();
  const Slab slab = slabOf(c, periodic);
  const std::vector<Particle> mine = owned(all, slab);
  const std::vector<Particle> halo = swapBy(c, slab, haloSides(c, slab, kReach), mine);
  std::vector<Particle> seen = mine;
  seen.insert(seen.end(), halo.begin(), halo.end());
  if (c.single()) {
    EXPECT_EQ(halo.size(), 0u);
  } else {
    EXPECT_GT(halo.size(), 0u);
  }
  size_t checked = 0;
  for (const Particle& a : mine) {
    std::set<uint32_t> expected, found;
    for (const Particle& b : all)
      if (b.id != a.id && distance2(a, b, periodic) < kReach * kReach) expected.insert(b.id);
    // On one rank the seam's images are the neighbour search's: compare with the minimum image.
    for (const Particle& b : seen)
      if (b.id != a.id && distance2(a, b, periodic && c.single()) < kReach * kReach) found.insert(b.id);
    ASSERT_EQ(found, expected) << "particle " << a.id << " at x = " << a.x << " on rank " << c.rank();
    ++checked;
  }
  EXPECT_EQ(c.sum(uint64_t(checked)), all.size());
}

TEST_P(HaloRanks, MigrationLeavesEachParticleOnceOnTheRankOfItsSlab) {
  const bool periodic = GetParam();
  const Communicator& c = Communicator::world();
  std::vector<Particle> all = everyParticle();
  const Slab slab = slabOf(c, periodic);
  const std::vector<Particle> mine = owned(all, slab);
  // Moves of up to 0.2 along x, less than a slab of 4 ranks: some cross the seam or leave [0, 1).
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  std::vector<double> move(all.size());
  for (double& m : move) m = u(rng);
  std::vector<Particle> moved = mine;
  for (Particle& q : moved) q.x += move[q.id];
  const Sides sides = migrationSides(c, slab);
  const std::vector<Particle> came = swapBy(c, slab, sides, moved);
  checkArrivals(c, slab, reinterpret_cast<const uint8_t*>(came.data()), came.size(), sizeof(Particle));
  std::vector<Particle> after;
  for (const Particle& q : moved)
    if (!sides.toLower(q.x) && !sides.toUpper(q.x)) after.push_back(q);
  after.insert(after.end(), came.begin(), came.end());
  std::vector<double> ids;
  for (const Particle& q : after) {
    ids.push_back(q.id);
    // On one rank nothing travels (the engine wraps its particles across the seam).
    if (c.single()) continue;
    double x = all[q.id].x + move[q.id];
    if (periodic) x -= std::floor(x);
    EXPECT_DOUBLE_EQ(q.x, x) << q.id;
    const bool firstOpen = c.rank() == 0 && !periodic, lastOpen = c.rank() == c.size() - 1 && !periodic;
    EXPECT_TRUE((q.x >= slab.lo || firstOpen) && (q.x < slab.hi || lastOpen))
        << "particle " << q.id << " at " << q.x << " on rank " << c.rank();
  }
  std::vector<double> every = c.gatherv(ids);
  std::sort(every.begin(), every.end());
  ASSERT_EQ(every.size(), all.size());
  for (size_t i = 0; i < every.size(); ++i) ASSERT_EQ(every[i], double(i));
}

// A particle that moved past the slab beside its own is an error of the rank it reached, not a
// silent loss.
TEST(HaloRanks, AMoveOfMoreThanASlabIsAnError) {
  const Communicator& c = Communicator::world();
  if (c.size() < 3) GTEST_SKIP() << "needs 3 ranks";
  const Slab slab = slabOf(c, false);
  std::vector<Particle> mine;
  if (c.rank() == 0) mine.push_back({0.1 + 2.0 / c.size(), 0.5, 0.5, 0, 0});  // two slabs up
  const std::vector<Particle> came = swapBy(c, slab, migrationSides(c, slab), mine);
  const uint8_t* records = reinterpret_cast<const uint8_t*>(came.data());
  if (c.rank() == 1) {
    EXPECT_THROW(checkArrivals(c, slab, records, came.size(), sizeof(Particle)), RunError);
  } else {
    EXPECT_NO_THROW(checkArrivals(c, slab, records, came.size(), sizeof(Particle)));
  }
}

INSTANTIATE_TEST_SUITE_P(Slabs, HaloRanks, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "periodic" : "open"; });

}  // namespace
}  // namespace sph::parallel
