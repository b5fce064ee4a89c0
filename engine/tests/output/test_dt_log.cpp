// <special><savedt> (output/dt_log.h): the groups of DtInfo.csv as DualSPHysics' JDsSaveDt makes
// them, a run's DtAllInfo.csv (every step's time step, which sum to the simulated time with the
// Verlet integrator), and the reader's errors.
#include <gtest/gtest.h>

#include <cfloat>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "case/loader.h"
#include "output/dt_log.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

std::vector<std::vector<std::string>> csvRows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::stringstream in(text);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ';');) f.push_back(cell);
    rows.push_back(f);
  }
  return rows;
}

TEST(DtLog, GroupsStepsByIntervalFromStart) {
  DtLogSettings s;
  s.active = true;
  s.start = 0.1;
  s.finish = 0.35;
  s.interval = 0.1;
  s.fullInfo = true;
  DtLog log(s, 1.0);
  const double times[] = {0.05, 0.1, 0.15, 0.2, 0.25, 0.31, 0.4};
  for (double t : times) log.add(t, t / 100, 1, 2, DBL_MAX, 3 * t, 4, 5);
  const auto rows = csvRows(log.infoRows());
  ASSERT_EQ(rows.size(), 3u);  // [0.1, 0.2), [0.2, 0.3), [0.3, 0.35]: 0.05 and 0.4 are outside
  ASSERT_EQ(rows[0].size(), 2u + 4 * 3 + 4 * 3);
  EXPECT_DOUBLE_EQ(std::stod(rows[0][0]), 0.1);
  EXPECT_EQ(rows[0][1], "2");
  EXPECT_NEAR(std::stod(rows[0][2]), 0.00125, 1e-15);  // mean of 0.001 and 0.0015
  EXPECT_NEAR(std::stod(rows[0][3]), 0.001, 1e-15);
  EXPECT_NEAR(std::stod(rows[0][4]), 0.0015, 1e-15);
  EXPECT_EQ(rows[2][1], "1");
  EXPECT_NEAR(std::stod(rows[1][14]), 0.675, 1e-12);  // AceMax mean of 0.6 and 0.75
}

std::string tankWith(const std::string& special) {
  return test::smallTankWithSpecial(special, R"(<parameter key="StepAlgorithm" value="1" /><parameter key="TimeMax" value="0.03" />
<parameter key="TimeOut" value="0.01" />)");
}

TEST(DtLog, RunWritesEveryStepAndTheGroups) {
  const auto dir = test::tempDir("savedt_run");
  const CaseDefinition c = loadCase(test::writeFile(
      dir / "case.xml", tankWith(R"(<savedt><interval value="0.01" /><fullinfo value="1" /><alldt value="1" /></savedt>)")));
  ASSERT_TRUE(c.dtLog.active);
  RunOptions o;
  o.device = Device::Cpu;
  o.outDir = (dir / "out").string();
  o.progress = false;
  o.writeVtk = false;
  Simulation sim(c, o);
  const RunReport r = sim.run();
  std::ifstream all(dir / "out" / "DtAllInfo.csv");
  std::stringstream text;
  text << all.rdbuf();
  const auto rows = csvRows(text.str());
  ASSERT_EQ(rows.size(), r.steps + 1);  // the header, then a row a step
  EXPECT_EQ(rows[0][0], "Time [s]");
  double sum = 0;
  for (size_t k = 1; k < rows.size(); ++k) sum += std::stod(rows[k][1]);
  EXPECT_NEAR(sum, r.simulatedTime, 1e-9);  // the Verlet integrator steps by its pass's dt
  std::ifstream info(dir / "out" / "DtInfo.csv");
  std::stringstream itext;
  itext << info.rdbuf();
  const auto groups = csvRows(itext.str());
  ASSERT_EQ(groups.size(), 1u + 3u);  // 0-0.01, 0.01-0.02, 0.02-0.03
  uint64_t steps = 0;
  for (size_t k = 1; k < groups.size(); ++k) steps += std::stoull(groups[k][1]);
  EXPECT_EQ(steps, r.steps);
  EXPECT_EQ(groups[0][2], "Dtf_mean [s]");
  EXPECT_EQ(groups[0].back(), "VelMax_max [m/s]");
}

TEST(DtLog, ReaderErrors) {
  test::expectLoadError("savedt_interval", tankWith(R"(<savedt><interval value="0" /></savedt>)"), "<interval",
                        "<interval>", "must be positive");
  test::expectLoadError("savedt_child", tankWith(R"(<savedt><intervall value="1" /></savedt>)"), "<intervall",
                        "<intervall>", "unknown element");
  const auto dir = test::tempDir("savedt_resume");
  const CaseDefinition c = loadCase(test::writeFile(dir / "case.xml", tankWith("<savedt />")));
  RunOptions o;
  o.device = Device::Cpu;
  o.resume = true;
  o.outDir = (dir / "out").string();
  try {
    Simulation sim(c, o);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot be resumed"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sph
