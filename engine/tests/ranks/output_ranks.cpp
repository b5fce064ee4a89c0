// Output that every rank writes its part of: a VTK part written by every rank into one file is
// the file one rank writes of the snapshots gathered in rank order, byte for byte.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "output/output.h"
#include "parallel/communicator.h"
#include "rank_test_support.h"
#include "run/rank_domain.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

using parallel::Communicator;

// Rank r's particles: 7 + 5 r of them, but none on rank 1 (a rank whose slab is empty).
ParticleSnapshot particlesOf(int rank) {
  ParticleSnapshot s;
  s.time = 0.125;
  const int n = rank == 1 ? 0 : 7 + 5 * rank;
  for (int i = 0; i < n; ++i) {
    const double x = rank + 0.01 * i;
    s.pos.insert(s.pos.end(), {x, -0.5 * x, 1.0 / (1 + i)});
    s.vel.insert(s.vel.end(), {float(i), float(-rank), 0.25f});
    s.rho.push_back(float(1000 + i));
    s.press.push_back(float(rank * 100 + i));
    s.type.push_back(uint8_t(i % 3));
    s.mk.push_back(rank * 10 + i % 2);
    s.id.push_back(uint32_t(1000 * rank + i));
  }
  return s;
}

std::string bytesOf(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

TEST(RanksVtk, EveryRanksPartOfOneFileIsTheGatheredFile) {
  const Communicator& world = Communicator::world();
  const std::filesystem::path dir = test::sharedTempDir("vtk");
  if (world.rank() == 0) std::filesystem::create_directories(dir);
  world.barrier();
  for (VtkPositionType type : {VtkPositionType::Float, VtkPositionType::Double}) {
    const ParticleSnapshot mine = particlesOf(world.rank());
    writeVtkOverRanks(world, (dir / "ranks.vtk").string(), mine, type);
    ParticleSnapshot gathered = mine;
    gatherSnapshot(world, gathered);
    if (world.rank() != 0) continue;
    writeVtkParticles((dir / "one.vtk").string(), gathered, type);
    const std::string a = bytesOf(dir / "ranks.vtk"), b = bytesOf(dir / "one.vtk");
    EXPECT_GT(gathered.count(), 6u);
    EXPECT_EQ(a.size(), b.size());
    EXPECT_TRUE(a == b) << "the files differ (" << world.size() << " ranks)";
    EXPECT_FALSE(std::filesystem::exists(dir / "ranks.vtk.tmp"));
  }
  world.barrier();
  if (world.rank() == 0) std::filesystem::remove_all(dir);
}

// A part that cannot be written (its folder is missing) fails on every rank, naming it, and
// leaves nothing.
TEST(RanksVtk, AFileThatCannotBeWrittenFailsOnEveryRank) {
  const Communicator& world = Communicator::world();
  const std::filesystem::path dir = test::sharedTempDir("vtk_missing");
  const std::string path = (dir / "missing" / "Part_0000.vtk").string();
  try {
    writeVtkOverRanks(world, path, particlesOf(world.rank()));
    FAIL() << "expected RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(path));
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

}  // namespace
}  // namespace sph
