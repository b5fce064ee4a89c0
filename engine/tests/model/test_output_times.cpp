// <special><timeout> (model/output_times.h): output intervals that change at given times, as
// DualSPHysics 5.4's JDsOutputTime::GetNextTime gives them; the reader's errors; and a run whose
// VTK parts come at those times.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "case/loader.h"
#include "model/output_times.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

// _FmtXML_TimeOut.xml's example: every 0.01 s, from 0.1 s every 0.5 s (cut at 0.2 s), from 0.2 s
// every 0.001 s, from 0.3 s every 0.01 s.
const std::vector<OutputInterval> kRows{{0, 0.01}, {0.1, 0.5}, {0.2, 0.001}, {0.3, 0.01}};

TEST(OutputTimes, FollowDualSPHysicsRows) {
  EXPECT_DOUBLE_EQ(nextOutputTime(kRows, 99, 0), 0.01);
  EXPECT_DOUBLE_EQ(nextOutputTime(kRows, 99, 0.0153), 0.02);
  EXPECT_DOUBLE_EQ(nextOutputTime(kRows, 99, 0.095), 0.1);
  EXPECT_DOUBLE_EQ(nextOutputTime(kRows, 99, 0.1), 0.2);  // 0.6 cut at the next row's time
  EXPECT_DOUBLE_EQ(nextOutputTime(kRows, 99, 0.2), 0.201);
  EXPECT_NEAR(nextOutputTime(kRows, 99, 0.2505), 0.251, 1e-12);
  EXPECT_NEAR(nextOutputTime(kRows, 99, 0.2999999), 0.3, 1e-12);
  EXPECT_NEAR(nextOutputTime(kRows, 99, 0.3), 0.31, 1e-12);
  EXPECT_NEAR(nextOutputTime(kRows, 99, 7.004), 7.01, 1e-12);
  // A first row after 0: nothing before it but the start.
  EXPECT_DOUBLE_EQ(nextOutputTime({{0.5, 0.1}}, 99, 0), 0.5);
  // Without rows, multiples of TimeOut; a time a hair before a multiple was that multiple.
  EXPECT_DOUBLE_EQ(nextOutputTime({}, 0.1, 0.05), 0.1);
  EXPECT_NEAR(nextOutputTime({}, 0.1, 0.1 - 1e-15), 0.2, 1e-12);
}

std::string tankWith(const std::string& special) {
  return test::smallTankWithSpecial(special, R"(<parameter key="TimeMax" value="0.05" /><parameter key="TimeOut" value="1" />)");
}

RunOptions cpuRunInto(const std::filesystem::path& dir) {
  RunOptions o;
  o.device = Device::Cpu;
  o.outDir = (dir / "out").string();
  o.progress = false;
  return o;
}

TEST(OutputTimes, RunWritesItsPartsAtTheRowsTimes) {
  const auto dir = test::tempDir("timeout_run");
  const CaseDefinition c = loadCase(test::writeFile(
      dir / "case.xml", tankWith(R"(<timeout><tout time="0" timeout="0.02" /><tout time="0.03" timeout="0.005" /></timeout>)")));
  ASSERT_EQ(c.outputTimes.size(), 2u);
  const RunOptions o = cpuRunInto(dir);
  Simulation sim(c, o);
  sim.run();
  // 0, 0.02, 0.03, 0.035, 0.04, 0.045, 0.05: seven parts (TimeOut 1 would give one).
  int parts = 0;
  while (std::filesystem::exists(dir / "out" / "vtk" / ("Part_000" + std::to_string(parts) + ".vtk"))) ++parts;
  EXPECT_EQ(parts, 7);
}

// 25 steps of DtFixed 2e-4 sum to 0.004999999999999999 s, a round-off short of TimeMax 0.005 s: the
// run ends there, where it writes its last part (0.001 s apart: the sixth), not a step later with
// its last state unwritten.
TEST(OutputTimes, RunLandingOnTimeMaxToRoundOffEndsWithItsLastPart) {
  const auto dir = test::tempDir("timeout_round_off");
  const CaseDefinition c = loadCase(test::writeFile(
      dir / "case.xml", test::smallTankWithSpecial("", R"(<parameter key="DtFixed" value="0.0002" />)"
                                                       R"(<parameter key="TimeMax" value="0.005" />)"
                                                       R"(<parameter key="TimeOut" value="0.001" />)")));
  const RunOptions o = cpuRunInto(dir);
  Simulation sim(c, o);
  sim.run();
  EXPECT_EQ(sim.steps(), 25u);
  EXPECT_LT(sim.time(), 0.005);
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "vtk" / "Part_0005.vtk"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "vtk" / "Part_0006.vtk"));
}

// A TimeOut far beyond TimeMax (only the first part wanted) does not widen the end's tolerance:
// the same 25 steps, not none.
TEST(OutputTimes, HugeTimeOutDoesNotEndTheRunEarly) {
  const auto dir = test::tempDir("timeout_huge");
  const CaseDefinition c = loadCase(
      test::writeFile(dir / "case.xml", test::smallTankWithSpecial("", R"(<parameter key="DtFixed" value="0.0002" />)"
                                                                       R"(<parameter key="TimeMax" value="0.005" />)"
                                                                       R"(<parameter key="TimeOut" value="1e12" />)")));
  Simulation sim(c, cpuRunInto(dir));
  sim.run();
  EXPECT_EQ(sim.steps(), 25u);
  EXPECT_TRUE(std::filesystem::exists(dir / "out" / "vtk" / "Part_0000.vtk"));
  EXPECT_FALSE(std::filesystem::exists(dir / "out" / "vtk" / "Part_0001.vtk"));
}

TEST(OutputTimes, ReaderErrors) {
  test::expectLoadError("timeout_order", tankWith(R"(<timeout><tout time="0.1" timeout="0.01" />
<tout time="0.1" timeout="0.02" /></timeout>)"),
                        "<tout time=\"0.1\" timeout=\"0.02\"", "<tout>", "not after the previous row's");
  test::expectLoadError("timeout_zero", tankWith(R"(<timeout><tout time="0" timeout="0" /></timeout>)"), "<tout",
                        "<tout>", "must be positive");
  test::expectLoadError("timeout_child", tankWith(R"(<timeout><tuot time="0" timeout="1" /></timeout>)"), "<tuot",
                        "<tuot>", "unknown element");
  const auto dir = test::tempDir("timeout_off");
  const CaseDefinition off = loadCase(
      test::writeFile(dir / "case.xml", tankWith(R"(<timeout active="false"><tout time="0" timeout="0.02" /></timeout>)")));
  EXPECT_TRUE(off.outputTimes.empty());
}

}  // namespace
}  // namespace sph
