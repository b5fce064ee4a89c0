// Bad input through the real binary: each error names the file, line and element (or the
// plugin directories searched), exits non-zero, and leaves no output that looks complete.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_support.h"

namespace sph {
namespace {

namespace fs = std::filesystem;

const char* kDefinition =
    R"(<definition dp="0.05"><pointmin x="-0.2" y="-0.2" z="-0.2" /><pointmax x="1" y="1" z="1" /></definition>)";
const char* kTank = R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="0.2" y="0.2" z="0.2" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right | front | back</boxfill><point x="0" y="0" z="0" /><size x="0.4" y="0.2" z="0.3" /></drawbox>)";
const char* kParams = R"(<parameter key="TimeMax" value="0.01" /><parameter key="TimeOut" value="0.005" />)";

struct BadCase {
  std::string name, xml;
  std::vector<std::string> expected;  // substrings of the error message
};

void expectRejected(const BadCase& b) {
  const auto dir = test::tempDir("cli_" + b.name);
  const std::string path = test::writeFile(dir / (b.name + "_Def.xml"), b.xml);
  const auto out = dir / "out";
  const auto r = test::runSph("run " + path + " --device cpu --quiet --out " + out.string());
  EXPECT_NE(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find(path), std::string::npos) << "the message must name the file:\n" << r.output;
  for (const auto& e : b.expected) EXPECT_NE(r.output.find(e), std::string::npos) << "missing '" << e << "' in:\n" << r.output;
  EXPECT_FALSE(fs::exists(out / "run.json")) << "a failed input must not leave a run report";
}

TEST(CliErrors, MalformedXml) {
  std::string xml = test::caseXml(kDefinition, kTank, kParams);
  xml.replace(xml.find("</mainlist>"), 11, "</mainlst>");
  expectRejected({"malformed", xml, {":"}});
}

TEST(CliErrors, UnknownGeometryCommand) {
  expectRejected({"unknown", test::caseXml(kDefinition, std::string(kTank) + "\n<drawsphere radius=\"1\" />", kParams),
                  {"drawsphere"}});
}

TEST(CliErrors, MissingAttribute) {
  expectRejected({"missingattr", test::caseXml(R"(<definition><pointmin x="0" y="0" z="0" /><pointmax x="1" y="1" z="1" /></definition>)", kTank, kParams),
                  {"definition", "dp"}});
}

TEST(CliErrors, NegativeDp) {
  expectRejected({"negdp", test::caseXml(R"(<definition dp="-0.05"><pointmin x="-0.2" y="-0.2" z="-0.2" /><pointmax x="1" y="1" z="1" /></definition>)", kTank, kParams),
                  {"dp"}});
}

TEST(CliErrors, NoFluid) {
  const std::string walls = R"(<setmkbound mk="0" />
<drawbox><boxfill>bottom</boxfill><point x="0" y="0" z="0" /><size x="0.4" y="0.2" z="0.3" /></drawbox>)";
  expectRejected({"nofluid", test::caseXml(kDefinition, walls, kParams), {"fluid"}});
}

TEST(CliErrors, ImpossibleVerletListSteps) {
  const std::string params = std::string(kParams) + R"(<parameter key="NeighbourSearch" value="verlet" />
<parameter key="VerletListSteps" value="-4" />)";
  expectRejected({"verletsteps", test::caseXml(kDefinition, kTank, params), {"VerletListSteps", "positive", ":"}});
  const std::string notNumber = std::string(kParams) + R"(<parameter key="VerletListSteps" value="many" />)";
  expectRejected({"verletsteps2", test::caseXml(kDefinition, kTank, notNumber), {"VerletListSteps"}});
}

TEST(CliErrors, MissingCaseFile) {
  const auto r = test::runSph("run /nonexistent/dir/NoCase_Def.xml --device cpu --quiet");
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("/nonexistent/dir/NoCase_Def.xml"), std::string::npos) << r.output;
}

TEST(CliErrors, MissingPluginListsSearchedDirectories) {
  const auto dir = test::tempDir("cli_plugin");
  const std::string path = test::writeFile(dir / "Ok_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  const auto r = test::runSph("run " + path + " --neighbours nosuch --device cpu --quiet --out " + (dir / "out").string());
  EXPECT_NE(r.exitCode, 0);
  EXPECT_NE(r.output.find("nosuch"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("searched"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cell"), std::string::npos) << "the plugins found must be listed:\n" << r.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "run.json"));
}

TEST(CliErrors, UnknownOptionAndHelp) {
  const auto bad = test::runSph("run x.xml --frobnicate");
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.output.find("--frobnicate"), std::string::npos);
  const auto help = test::runSph("--help");
  EXPECT_EQ(help.exitCode, 0);
  for (const char* opt : {"--neighbours", "--device", "--precision", "--out", "--time-max", "--steps", "--threads"})
    EXPECT_NE(help.output.find(opt), std::string::npos) << opt;
}

TEST(CliRun, SmallCaseCompletesWithReportAndVtk) {
  const auto dir = test::tempDir("cli_run");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  const auto out = dir / "out";
  const auto r = test::runSph("run " + path + " --device cpu --quiet --out " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  ASSERT_TRUE(fs::exists(out / "run.json"));
  std::ifstream f(out / "run.json");
  const std::string json((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  for (const char* key : {"\"phases\"", "\"completed\"", "\"CF-Forces\"", "\"peak_device_bytes\"", "\"strategy\": \"cell\""})
    EXPECT_NE(json.find(key), std::string::npos) << key << " in " << json;
  EXPECT_TRUE(fs::exists(out / "vtk" / "Part_0000.vtk"));
  EXPECT_TRUE(fs::exists(out / "vtk" / "Part_0002.vtk"));
  EXPECT_NE(r.output.find("interaction"), std::string::npos) << "the phase table is printed:\n" << r.output;
}

// --no-timers drops the phase table, not a bit of the results: the same steps, the same VTK files.
TEST(CliRun, NoTimersKeepsTheResultsAndDropsThePhaseTable) {
  const auto dir = test::tempDir("cli_no_timers");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  auto readAll = [](const fs::path& file) {
    std::ifstream f(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  const auto timed = test::runSph("run " + path + " --device cpu --quiet --steps 40 --time-out 0.001 --out " +
                                  (dir / "timed").string());
  const auto untimed = test::runSph("run " + path + " --device cpu --quiet --steps 40 --time-out 0.001 --no-timers --out " +
                                    (dir / "untimed").string());
  ASSERT_EQ(timed.exitCode, 0) << timed.output;
  ASSERT_EQ(untimed.exitCode, 0) << untimed.output;
  const std::string json = readAll(dir / "untimed" / "run.json");
  EXPECT_NE(json.find("\"phases\": []"), std::string::npos) << json;
  EXPECT_NE(json.find("\"phase_timers\": \"off\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"step_graphs\": \"off (cpu)\""), std::string::npos) << json;
  EXPECT_NE(json.find("\"wall_seconds_excluding_output\""), std::string::npos) << json;
  EXPECT_NE(untimed.output.find("phase timers off"), std::string::npos) << untimed.output;
  EXPECT_EQ(untimed.output.find("CF-Forces"), std::string::npos) << untimed.output;
  int parts = 0;
  for (const auto& e : fs::directory_iterator(dir / "timed" / "vtk")) {
    const fs::path other = dir / "untimed" / "vtk" / e.path().filename();
    ASSERT_TRUE(fs::exists(other)) << other;
    EXPECT_EQ(readAll(e.path()), readAll(other)) << e.path().filename();
    ++parts;
  }
  EXPECT_GE(parts, 2);
}

TEST(CliRun, TooManyExcludedParticlesFailsWithFailedReport) {
  // Water with no floor falls out of the domain: PartsOutMax=0.05 stops the run.
  const std::string noFloor = R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0.3" /><size x="0.2" y="0.2" z="0.2" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>left | right</boxfill><point x="0" y="0" z="0" /><size x="0.2" y="0.2" z="0.6" /></drawbox>)";
  const auto dir = test::tempDir("cli_out");
  const std::string params = R"(<parameter key="TimeMax" value="2" /><parameter key="TimeOut" value="0.5" /><parameter key="PartsOutMax" value="0.05" />)";
  const std::string path = test::writeFile(dir / "Fall_Def.xml", test::caseXml(kDefinition, noFloor, params));
  const auto out = dir / "out";
  const auto r = test::runSph("run " + path + " --device cpu --quiet --out " + out.string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("PartsOutMax"), std::string::npos) << r.output;
  ASSERT_TRUE(fs::exists(out / "run.json"));
  std::ifstream f(out / "run.json");
  const std::string json((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(json.find("\"failed\""), std::string::npos) << json;
  EXPECT_TRUE(fs::exists(out / "excluded.csv"));
}

}  // namespace
}  // namespace sph
