// Excluded particles are parked far outside the domain and dropped from the arrays in batches
// (run/simulation_core.cpp, physics/integrator_physics.h parkParticle), so a list strategy is not forced to
// rebuild at every step with an exclusion. A 2D tank without a right wall: the water runs off
// the end of the floor and leaves the domain steadily. Each exclusion is logged once, at its
// time; no snapshot shows an excluded particle; the batches are few (both strategies).
// Measured: 711 excluded at 687 step ends, in 2 compactions (cell; verlet 710 at 684, 2).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

std::string spillwayCase() { return test::spillwayCase(R"(<parameter key="StepAlgorithm" value="2" />)", 1.0); }

struct Spill {
  RunReport report;
  ParticleSnapshot last;
  std::set<uint32_t> excludedIds;
  std::set<double> exclusionTimes;
  size_t logRows = 0;
};

Spill runSpill(const std::string& neighbours) {
  const auto dir = test::tempDir("spill_" + neighbours);
  Spill s;
  s.report = test::runCpuCase(dir, spillwayCase(), neighbours, &s.last);
  std::ifstream in(dir / "out" / "excluded.csv");
  std::string line;
  std::getline(in, line);  // header
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string time, id;
    std::getline(ss, time, ';');
    std::getline(ss, id, ';');
    s.exclusionTimes.insert(std::stod(time));
    s.excludedIds.insert(uint32_t(std::stoul(id)));
    ++s.logRows;
  }
  return s;
}

class ExclusionParking : public ::testing::TestWithParam<const char*> {};

TEST_P(ExclusionParking, ExcludedParticlesAreLoggedOnceAndNeverSeenAgain) {
  const Spill s = runSpill(GetParam());
  ASSERT_EQ(s.report.status, "completed") << s.report.error;
  const uint64_t excluded = s.report.excluded;
  std::printf("%s: %llu excluded at %zu step ends, %s compactions, %s rebuilds\n", GetParam(),
              static_cast<unsigned long long>(excluded), s.exclusionTimes.size(),
              s.report.extra.at("exclusion_compactions").c_str(),
              s.report.strategyStats.count("rebuilds") ? std::to_string(s.report.strategyStats.at("rebuilds")).c_str()
                                                       : "no");
  EXPECT_GT(excluded, 300u) << "the water must run off";
  EXPECT_GT(s.exclusionTimes.size(), 20u) << "over many steps";
  EXPECT_EQ(s.logRows, excluded);
  EXPECT_EQ(s.excludedIds.size(), excluded) << "each particle is excluded once";
  // Batches of at least 256 (the engine's threshold for a run this small).
  EXPECT_LE(std::stoull(s.report.extra.at("exclusion_compactions")), excluded / 256);
  // The state holds the rest and none of them, and every one of them is where it should be.
  EXPECT_EQ(s.last.count(), s.report.nBound + s.report.nFluid - excluded);
  for (size_t i = 0; i < s.last.count(); ++i) {
    EXPECT_EQ(s.excludedIds.count(s.last.id[i]), 0u) << "excluded particle " << s.last.id[i] << " is back";
    EXPECT_LT(s.last.pos[3 * i], 0.4 + 0.01) << "particle " << s.last.id[i] << " is outside the domain";
  }
}

INSTANTIATE_TEST_SUITE_P(Strategies, ExclusionParking, ::testing::Values("cell", "verlet"));

}  // namespace
}  // namespace sph
