// `sph info --ranks N` (the slabs a domain decomposition over N ranks would take, each rank's
// particles, halo and memory) and the command line's answers about ranks: --ranks only for info,
// and `sph run` under an MPI launcher on more than one rank refused before it writes anything.
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <string>

#include "parallel/communicator.h"
#include "test_support.h"

namespace sph {
namespace {

const std::string kCase = std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml";

// Each rank's line of `sph info --ranks`: its particles and its halo's.
struct RankLine {
  unsigned long long owned, halo;
};
std::vector<RankLine> rankLines(const std::string& out) {
  std::vector<RankLine> lines;
  const std::regex re(R"(rank \d+ +[xyz] from \S+ to \S+ m: (\d+) particles and (\d+) in its halo)");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), re); it != std::sregex_iterator(); ++it)
    lines.push_back({std::stoull((*it)[1]), std::stoull((*it)[2])});
  return lines;
}

TEST(CliRanks, InfoSplitsTheCaseIntoSlabsWithTheirHalos) {
  const auto r = test::runSph("info " + kCase + " --dp 0.01 --ranks 3");
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::smatch total;
  ASSERT_TRUE(std::regex_search(r.output, total, std::regex(R"(particles +(\d+) total)"))) << r.output;
  const std::vector<RankLine> ranks = rankLines(r.output);
  ASSERT_EQ(ranks.size(), 3u) << r.output;
  unsigned long long owned = 0;
  for (const RankLine& l : ranks) {
    owned += l.owned;
    EXPECT_GT(l.owned, 0u);
    EXPECT_GT(l.halo, 0u);       // every slab has a neighbour
    EXPECT_LT(l.halo, l.owned);  // a layer or two beside a third of the case
  }
  EXPECT_EQ(owned, std::stoull(total[1])) << "every particle on exactly one rank";
  // The case's domain (up to its pointmax) is longest along z; the cell search's reach is 2h.
  EXPECT_NE(r.output.find("ranks       3: slabs along z"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the halo reach of 'cell' is"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the busiest rank needs at least"), std::string::npos) << r.output;

  // Verlet lists reach 3h: thicker layers, larger halos.
  const auto v = test::runSph("info " + kCase + " --dp 0.01 --ranks 3 --neighbours verlet");
  ASSERT_EQ(v.exitCode, 0) << v.output;
  const std::vector<RankLine> lists = rankLines(v.output);
  ASSERT_EQ(lists.size(), 3u) << v.output;
  EXPECT_GT(lists[1].halo, ranks[1].halo) << r.output << v.output;
}

TEST(CliRanks, RankCountsThatCannotWorkAreUsageErrors) {
  const auto many = test::runSph("info " + kCase + " --ranks 5000");
  EXPECT_EQ(many.exitCode, 2) << many.output;
  EXPECT_NE(many.output.find("5000 ranks need at least 5000 cell layers"), std::string::npos) << many.output;
  for (const char* bad : {"0", "2.5", "-1", "x"}) {
    const auto r = test::runSph("info " + kCase + " --ranks " + bad);
    EXPECT_EQ(r.exitCode, 2) << bad << "\n" << r.output;
  }
  const auto dir = test::tempDir("cli_ranks_run");
  const auto run = test::runSph("run " + kCase + " --ranks 2 --out " + (dir / "out").string());
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find("--ranks is an option of sph info"), std::string::npos) << run.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

// Two ranks of one `sph run` would each run the whole case into the same folder: refused on every
// rank, nothing written.
TEST(CliRanks, RunOnTwoRanksIsRefusedBeforeItWritesAnything) {
  if (!parallel::builtWithMpi()) GTEST_SKIP() << "built without MPI";
  if (std::system("command -v mpiexec > /dev/null 2>&1") != 0) GTEST_SKIP() << "no mpiexec here";
  const auto dir = test::tempDir("cli_ranks_mpi");
  const auto r =
      test::runCommand("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpiexec -n 2 --oversubscribe " +
                       std::string(SPH_BINARY_PATH) + " run " + kCase + " --dp 0.02 --device cpu --steps 2 --out " +
                       (dir / "out").string());
  EXPECT_NE(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("2 ranks: this version runs a case on one rank only"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
  // One rank under the launcher runs as without it.
  const auto one = test::runCommand(
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpiexec -n 1 " + std::string(SPH_BINARY_PATH) +
      " run " + kCase + " --dp 0.02 --device cpu --steps 2 --no-vtk --quiet --out " + (dir / "one").string());
  EXPECT_EQ(one.exitCode, 0) << one.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "one" / "run.json"));
}

}  // namespace
}  // namespace sph
