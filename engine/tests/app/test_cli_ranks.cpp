// `sph info --ranks N` (the slabs a domain decomposition over N ranks would take, each rank's
// particles, halo and memory) and the command line's answers about ranks: --ranks only for info,
// and `sph run` under an MPI launcher on two ranks: one run written by rank 0, or a refusal.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <regex>
#include <string>

#include "case/loader.h"
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
  // The case's domain (up to its pointmax) is longest along z.
  EXPECT_NE(r.output.find("ranks       3: slabs along z"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the halo reach of 'cell' is"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the busiest rank needs at least"), std::string::npos) << r.output;

  // Verlet lists reach 3h, the cell search 2.5h: thicker layers, larger halos.
  const auto v = test::runSph("info " + kCase + " --dp 0.01 --ranks 3 --neighbours verlet");
  ASSERT_EQ(v.exitCode, 0) << v.output;
  const std::vector<RankLine> lists = rankLines(v.output);
  ASSERT_EQ(lists.size(), 3u) << v.output;
  EXPECT_GT(lists[1].halo, ranks[1].halo) << r.output << v.output;
}

// An outlet that extrapolates from the fluid around its ghost nodes (mirrored up to twice its 4
// layers, 8 cm, into the domain, along the slab axis): the halo reaches them too.
TEST(CliRanks, ThePlanReachesTheGhostNodesOfExtrapolatingZones) {
  const std::string data = std::string(SPH_SOURCE_DIR) + "/engine/tests/data/inout/";
  const std::regex reach(R"(the halo reach of 'cell' is (\S+) m)");
  std::smatch m;
  const auto imposed = test::runSph("info " + data + "Channel2D_Def.xml --ranks 2");
  ASSERT_EQ(imposed.exitCode, 0) << imposed.output;
  ASSERT_TRUE(std::regex_search(imposed.output, m, reach)) << imposed.output;
  const double plain = std::stod(m[1]);
  const auto mirrored = test::runSph("info " + data + "Channel2DExtrap_Def.xml --ranks 2");
  ASSERT_EQ(mirrored.exitCode, 0) << mirrored.output;
  ASSERT_TRUE(std::regex_search(mirrored.output, m, reach)) << mirrored.output;
  // The same particles and support (the cell plugin's reach is 2h and a skin of a quarter of it,
  // written to 4 digits): 2 x 0.04 m more, and the support.
  const double support = plain / 1.25;
  EXPECT_NEAR(std::stod(m[1]), plain + 0.08 + support, 1e-4) << imposed.output << mirrored.output;
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
  const auto link = test::runSph("run " + kCase + " --rank-exchange fast --out " + (dir / "out").string());
  EXPECT_EQ(link.exitCode, 2) << link.output;
  EXPECT_NE(link.output.find("--rank-exchange must be host or nccl, not 'fast'"), std::string::npos) << link.output;
  const auto overlap = test::runSph("run " + kCase + " --rank-overlap sometimes --out " + (dir / "out").string());
  EXPECT_EQ(overlap.exitCode, 2) << overlap.output;
  EXPECT_NE(overlap.output.find("--rank-overlap must be on or off, not 'sometimes'"), std::string::npos)
      << overlap.output;
  const auto run = test::runSph("run " + kCase + " --ranks 2 --out " + (dir / "out").string());
  EXPECT_EQ(run.exitCode, 2) << run.output;
  EXPECT_NE(run.output.find("--ranks is an option of sph info"), std::string::npos) << run.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "out"));
}

// The same `;`-separated table to round-off: the same rows and words, numbers within 1e-6 relative
// (runs on one rank and on two sum in another order, which may flip the 7th digit written).
void expectSameTable(const std::string& a, const std::string& b, const std::string& what) {
  std::istringstream ia(a), ib(b);
  std::string la, lb;
  int rows = 0;
  while (std::getline(ia, la)) {
    ASSERT_TRUE(std::getline(ib, lb)) << what << ": fewer rows";
    ++rows;
    std::istringstream fa(la), fb(lb);
    std::string x, y;
    while (std::getline(fa, x, ';')) {
      ASSERT_TRUE(std::getline(fb, y, ';')) << what << ": row " << rows;
      char* end = nullptr;
      const double u = std::strtod(x.c_str(), &end);
      if (end == x.c_str() || *end) {
        EXPECT_EQ(x, y) << what << ": row " << rows;
        continue;
      }
      const double v = std::strtod(y.c_str(), nullptr);
      EXPECT_NEAR(u, v, 1e-6 * std::max(1.0, std::abs(u))) << what << ": row " << rows;
    }
  }
  EXPECT_FALSE(std::getline(ib, lb)) << what << ": more rows";
  EXPECT_GT(rows, 3) << what;
}

// The inlets' and outlets' totals in run.json ("inout_created": "52", ...).
std::string inOutTotals(const std::string& report) {
  std::string out;
  const std::regex re(R"re("inout_\w+": "\d+")re");
  for (auto it = std::sregex_iterator(report.begin(), report.end(), re); it != std::sregex_iterator(); ++it)
    out += it->str() + "\n";
  return out;
}

// `mpirun -np 2 sph run`: one run over both ranks, printed and written by rank 0 alone (the gauges,
// the floating bodies' table and the inlets' totals too); what cannot work is refused by name,
// nothing written.
TEST(CliRanks, RunOnTwoRanksWritesOneRunOrRefusesByName) {
  if (!parallel::builtWithMpi()) GTEST_SKIP() << "built without MPI";
  if (std::system("command -v mpiexec > /dev/null 2>&1") != 0) GTEST_SKIP() << "no mpiexec here";
  const auto dir = test::tempDir("cli_ranks_mpi");
  const std::string mpi = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpiexec -n 2 --oversubscribe " +
                          std::string(SPH_BINARY_PATH);
  // A channel whose inlet takes its velocity from a grid file: the same particles made and
  // removed, and the same velocities at its gauges, on two ranks as on one (in double precision:
  // in single, sums in another order soon differ in the 6th digit of velocities of 1 mm/s).
  const std::string inlets = std::string(SPH_SOURCE_DIR) + "/engine/tests/data/inout/Channel2DGrid_Def.xml";
  const std::string inletOptions =
      " --device cpu --precision double --threads 1 --steps 300 --time-out 0.005 --quiet --no-vtk --out ";
  const auto inletsTwo = test::runCommand(mpi + " run " + inlets + inletOptions + (dir / "inlets2").string());
  ASSERT_EQ(inletsTwo.exitCode, 0) << inletsTwo.output;
  const auto inletsOne = test::runSph("run " + inlets + inletOptions + (dir / "inlets1").string());
  ASSERT_EQ(inletsOne.exitCode, 0) << inletsOne.output;
  const std::string totals = inOutTotals(test::readText((dir / "inlets1" / "run.json").string()));
  EXPECT_NE(totals.find("\"inout_created\": \""), std::string::npos) << totals;
  EXPECT_EQ(inOutTotals(test::readText((dir / "inlets2" / "run.json").string())), totals);
  for (const char* g : {"gauges/VelMid.csv", "gauges/VelOut.csv"})
    expectSameTable(test::readText((dir / "inlets2" / g).string()), test::readText((dir / "inlets1" / g).string()), g);
  // Solids' four bodies, each split by the slabs: every rank moves them alike, and rank 0 writes
  // what one rank writes.
  const std::string solids = std::string(SPH_SOURCE_DIR) + "/testcases/Solids.xml";
  const std::string solidsOptions =
      " --dp 0.04 --device cpu --threads 1 --steps 40 --time-out 0.002 --quiet --no-vtk --out ";
  const auto solidsTwo = test::runCommand(mpi + " run " + solids + solidsOptions + (dir / "solids2").string());
  ASSERT_EQ(solidsTwo.exitCode, 0) << solidsTwo.output;
  const auto solidsOne = test::runSph("run " + solids + solidsOptions + (dir / "solids1").string());
  ASSERT_EQ(solidsOne.exitCode, 0) << solidsOne.output;
  expectSameTable(test::readText((dir / "solids2" / "floating.csv").string()),
                  test::readText((dir / "solids1" / "floating.csv").string()), "floating.csv");
  // NCCL joins GPUs: CPU ranks that ask for it are refused, before anything is written.
  const auto nccl =
      test::runCommand(mpi + " run " + kCase + " --dp 0.02 --device cpu --steps 2 --rank-exchange nccl --out " +
                       (dir / "nccl").string());
  EXPECT_EQ(nccl.exitCode, 2) << nccl.output;
  EXPECT_NE(nccl.output.find("--rank-exchange nccl: NCCL joins GPUs; this run is on the CPU"), std::string::npos)
      << nccl.output;
  EXPECT_FALSE(std::filesystem::exists(dir / "nccl" / "vtk"));
  // DamBreak2D's gauges as on one rank: the surface from every rank's sums, the force on the
  // tank, whose walls both slabs hold, from each rank's walls and its halo's fluid.
  const std::string forced = std::string(SPH_SOURCE_DIR) + "/engine/tests/data/DamBreak2DForce_Def.xml";
  const std::string options =
      " --dp 0.02 --device cpu --precision double --threads 1 --time-max 0.03 --quiet --no-vtk --out ";
  const auto gauged = test::runCommand(mpi + " run " + forced + options + (dir / "gauged").string());
  ASSERT_EQ(gauged.exitCode, 0) << gauged.output;
  const auto single = test::runSph("run " + forced + options + (dir / "single").string());
  ASSERT_EQ(single.exitCode, 0) << single.output;
  for (const char* g : {"gauges/Swl_x02.csv", "gauges/Swl_z003.csv", "gauges/Tank.csv"})
    expectSameTable(test::readText((dir / "gauged" / g).string()), test::readText((dir / "single" / g).string()), g);
  const std::string dam = std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak.xml";
  const auto two = test::runCommand(mpi + " run " + dam +
                                    " --dp 0.05 --device cpu --threads 1 --steps 20 --time-out 0.001 "
                                    "--quiet --out " +
                                    (dir / "two").string());
  ASSERT_EQ(two.exitCode, 0) << two.output;
  const std::string head = "sph: DamBreak (3D, ";
  ASSERT_NE(two.output.find(head), std::string::npos) << two.output;
  EXPECT_EQ(two.output.find(head), two.output.rfind(head)) << "printed by one rank only:\n" << two.output;
  EXPECT_NE(two.output.find(", 2 ranks"), std::string::npos) << two.output;
  const std::string report = test::readText((dir / "two" / "run.json").string());
  EXPECT_NE(report.find("\"ranks\": \"2\""), std::string::npos) << report;
  EXPECT_NE(report.find("\"status\": \"completed\""), std::string::npos) << report;
  // Every part holds every particle, gathered from both ranks.
  ASSERT_TRUE(std::filesystem::exists(dir / "two" / "vtk" / "Part_0001.vtk"));
  LoadOptions load;
  load.dpOverride = 0.05;
  const CaseDefinition c = loadCase(dam, load);
  EXPECT_EQ(test::vtkPointCount(dir / "two" / "vtk" / "Part_0000.vtk"), c.positions.size());
  EXPECT_EQ(test::vtkPointCount(dir / "two" / "vtk" / "Part_0001.vtk"), c.positions.size());
  // Verlet lists: the passes between rebuilds refresh the halo while the interior interacts,
  // unless --rank-overlap off.
  for (const char* overlap : {"on", "off"}) {
    const std::string out = (dir / (std::string("verlet-") + overlap)).string();
    const auto lists = test::runCommand(mpi + " run " + dam +
                                        " --dp 0.05 --device cpu --threads 1 --steps 30 --neighbours verlet --no-vtk "
                                        "--quiet --rank-overlap " +
                                        overlap + " --out " + out);
    ASSERT_EQ(lists.exitCode, 0) << lists.output;
    const std::string json = test::readText(out + "/run.json");
    std::smatch m;
    ASSERT_TRUE(std::regex_search(json, m, std::regex("\"rank0_halo_refreshes\": \"(\\d+)\""))) << json;
    const int refreshes = std::stoi(m[1]);
    ASSERT_TRUE(std::regex_search(json, m, std::regex("\"rank0_overlapped_refreshes\": \"(\\d+)\""))) << json;
    EXPECT_GT(refreshes, 10) << json;
    EXPECT_EQ(std::stoi(m[1]), std::string(overlap) == "on" ? refreshes : 0) << json;
  }
  // One rank under the launcher runs as without it.
  const auto one = test::runCommand(
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 mpiexec -n 1 " + std::string(SPH_BINARY_PATH) +
      " run " + kCase + " --dp 0.02 --device cpu --steps 2 --no-vtk --quiet --out " + (dir / "one").string());
  EXPECT_EQ(one.exitCode, 0) << one.output;
  EXPECT_TRUE(std::filesystem::exists(dir / "one" / "run.json"));
}

}  // namespace
}  // namespace sph
