// Multi-layer pistons (<mlayerpistons>, motion/ml_piston_law.h) against DualSPHysics 5.4's own
// runs of the same cases (tests/data/dualsphysics/mlpistons/, made by
// tools/dualsphysics/ml_piston_fixtures.py): the piston particles' x and x velocity at its parts,
// stepping with its fixed time steps.
//  * MlT2: piston1d, 13 layers (dp 0.05) under data of 5 levels whose heights change from row to
//    row, incz -0.1, timedataini 0.4 (rows before it dropped), smooth 3;
//  * MlT3: data of 3 levels, which DualSPHysics applies to the whole piston (its "solid piston");
//  * MlY122: timedataini 0.5 with no row there (the first segment extended back, the piston
//    jumping in the first step);
//  * MlP5 (3D): piston2d with two columns of data at posy 0.05 and 0.45 (the second from 0.3 s of
//    its data), incz, smoothz and smoothy.
// Positions within 1e-9 m (DualSPHysics' own double positions; the same sums), velocities within
// 1e-6 m/s (DualSPHysics stores them in single precision).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <string>
#include <vector>

#include "case/loader.h"
#include "case/ml_pistons_reader.h"
#include "dualsphysics_fixture.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

const std::string kDir = std::string(SPH_SOURCE_DIR) + "/engine/tests/data/dualsphysics/mlpistons/";


void expectPistonFollowsDualSPHysics(const std::string& name, Device device, const std::string& neighbours) {
  const CaseDefinition c = loadCase(kDir + name + "_Def.xml");
  // time;id;x;y;z;vx
  const std::vector<std::vector<double>> rows = test::readFixtureRows(kDir + name + "_piston.csv", 6);
  ASSERT_GT(rows.size(), 20u);
  RunOptions o = test::silentRun(device, neighbours, Precision::Double);
  Simulation sim(c, o);
  double worstX = 0, worstV = 0, moved = 0;
  size_t checked = 0;
  std::map<uint32_t, size_t> index;
  double at = -1;
  ParticleSnapshot s;
  for (const std::vector<double>& r : rows) {
    if (r[0] != at) {
      at = r[0];
      while (sim.time() < at - 1e-9 && !sim.finished()) sim.step();
      ASSERT_NEAR(sim.time(), at, 1e-9) << name << ": the steps do not reach DualSPHysics' part time";
      s = sim.snapshot();
      index.clear();
      for (size_t i = 0; i < s.count(); ++i) index[s.id[i]] = i;
    }
    const auto it = index.find(uint32_t(r[1]));
    ASSERT_NE(it, index.end()) << name << ": no particle " << r[1];
    const size_t i = it->second;
    worstX = std::max(worstX, std::fabs(s.pos[3 * i] - r[2]));
    EXPECT_NEAR(s.pos[3 * i + 1], r[3], 1e-12);
    EXPECT_NEAR(s.pos[3 * i + 2], r[4], 1e-12);
    worstV = std::max(worstV, std::fabs(double(s.vel[3 * i]) - r[5]));
    moved = std::max(moved, std::fabs(r[5]));
    ++checked;
  }
  std::printf("%s: %zu samples, largest |vx| %.3g m/s, largest difference x %.2g m, vx %.2g m/s\n", name.c_str(),
              checked, moved, worstX, worstV);
  EXPECT_GT(moved, 0.01) << "the piston does not move: the test lost its point";
  EXPECT_LE(worstX, 1e-9);
  EXPECT_LE(worstV, 1e-6);
}

class MlPistons : public ::testing::TestWithParam<const char*> {};

TEST_P(MlPistons, FollowDualSPHysics) { expectPistonFollowsDualSPHysics(GetParam(), Device::Cpu, "cell"); }

INSTANTIATE_TEST_SUITE_P(DualSPHysics, MlPistons, ::testing::Values("MlT2", "MlT3", "MlY122", "MlP5"));

// The GPU moves the layers as the CPU does.
TEST(MlPistonsGpu, FollowDualSPHysics) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  for (const char* name : {"MlT2", "MlP5"})
    for (const char* neighbours : {"cell", "verlet"}) {
      SCOPED_TRACE(std::string(name) + " " + neighbours);
      expectPistonFollowsDualSPHysics(name, Device::Gpu, neighbours);
    }
}

// A velocity file as DualSPHysics reads it, and the errors of bad files and elements.
TEST(MlPistonReader, FileAndErrors) {
  const auto dir = test::tempDir("mlpiston_reader");
  const std::string path =
      test::writeFile(dir / "v.csv", "px:;1.5;py:;0.0\ntime;z0;z1;v0;v1\n0;-0.1;0.2;0.5;0.6\n0.5;-0.1;0.3;0.1;0.2\n");
  const MlPistonData d = readMlPistonData(path);
  EXPECT_EQ(d.levels, 2u);
  EXPECT_EQ(d.times, (std::vector<double>{0, 0.5}));
  EXPECT_EQ(d.z[3], 0.3);
  EXPECT_EQ(d.v[1], 0.6);
  const auto bad = [&](const std::string& name, const std::string& text, const std::string& what) {
    const std::string p = test::writeFile(dir / name, text);
    try {
      readMlPistonData(p);
      ADD_FAILURE() << name << " was read";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  bad("head.csv", "x;1\nt\n0;1;2\n1;1;2\n", ":1: the first line must be px:;POSX;py:;POSY");
  bad("even.csv", "px:;1;py:;0\nt\n0;1;2;3\n", ":3: 4 values");
  bad("levels.csv", "px:;1;py:;0\nt\n0;1;2\n1;1;2;3;4\n", ":4: 2 levels, the first row has 1");
  bad("order.csv", "px:;1;py:;0\nt\n1;1;2\n1;1;2\n", ":4: time 1 is not after");
  bad("short.csv", "px:;1;py:;0\nt\n1;1;2\n", "1 rows of data");
  std::string xml = test::readText(kDir + "MlP5_Def.xml");
  xml.replace(xml.find("<posy value=\"0.45\" />"), 21, "<posy value=\"0.2\" />");
  const std::string closer = test::writeFile(dir / "Closer_Def.xml", xml);
  std::filesystem::copy_file(kDir + "MlP5_v0.csv", dir / "MlP5_v0.csv");
  std::filesystem::copy_file(kDir + "MlP5_v1.csv", dir / "MlP5_v1.csv");
  try {
    loadCase(closer);
    ADD_FAILURE() << "columns closer than 2 dp were accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("closer than 2 dp"), std::string::npos) << e.what();
  }
  std::string missing = test::readText(kDir + "MlT3_Def.xml");
  missing.replace(missing.find("MlT3_vel.csv"), 12, "nothere.csv");
  test::expectInputErrorAt(test::writeFile(dir / "Missing_Def.xml", missing), missing, "<filevelx", "<filevelx>",
                           "nothere.csv");
}

}  // namespace
}  // namespace sph
