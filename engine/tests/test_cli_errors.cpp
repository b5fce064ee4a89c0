// Bad input through the real binary: each error names the file, line and element (or the
// plugin directories searched), exits non-zero, and leaves no output that looks complete.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "test_resume_runs.h"
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

TEST(CliRun, ADemCaseWithoutFluidRunsAndItsBlockFalls) {
  // DualSPHysics' DEM examples (CaseBowling) have no fluid: a block dropped on a floor, the depth
  // for the speed of sound given (there is no water to measure it from).
  const std::string block = R"(<setmkbound mk="0" />
<drawbox><boxfill>bottom</boxfill><point x="0" y="0" z="0" /><size x="0.4" y="0.2" z="0.3" /></drawbox>
<setmkbound mk="1" />
<drawbox><boxfill>solid</boxfill><point x="0.15" y="0.05" z="0.1" /><size x="0.1" y="0.1" z="0.1" /></drawbox>)";
  std::string xml = test::caseXml(kDefinition, block,
                                  R"(<parameter key="RigidAlgorithm" value="2" /><parameter key="TimeMax" value="0.05" />
<parameter key="TimeOut" value="0.01" />)",
                                  R"(<hswl value="0.3" auto="false" />)");
  xml.insert(xml.find("  </casedef>"),
             R"(<floatings><floating mkbound="1" relativeweight="2" property="wood" /></floatings>
<properties><property name="wood" Young_Modulus="1.23e10" PoissonRatio="0.369" Restitution_Coefficient="0.5" Kfric="0.3" />
<links><link mkbound="0" property="wood" /></links></properties>
)");
  const auto dir = test::tempDir("cli_dem_nofluid");
  const std::string path = test::writeFile(dir / "Drop_Def.xml", xml);
  const auto r = test::runSph("run " + path + " --device cpu --quiet --no-vtk --out " + (dir / "out").string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  const auto rows = test::readFloatingCsv(dir / "out" / "floating.csv");
  ASSERT_GE(rows.size(), 2u);
  EXPECT_LT(rows.back().c[2], rows.front().c[2]) << "the block did not fall";
  // Without the depth there is nothing to base the speed of sound on.
  std::string autoDepth = xml;
  autoDepth.replace(autoDepth.find(R"(<hswl value="0.3" auto="false" />)"), 34, "");
  expectRejected({"dem_autodepth", autoDepth, {"hswl", "no fluid"}});
}

TEST(CliErrors, ImpossibleVerletListSteps) {
  const std::string params = std::string(kParams) + R"(<parameter key="NeighbourSearch" value="verlet" />
<parameter key="VerletListSteps" value="-4" />)";
  expectRejected({"verletsteps", test::caseXml(kDefinition, kTank, params), {"VerletListSteps", "positive", ":"}});
  const std::string notNumber = std::string(kParams) + R"(<parameter key="VerletListSteps" value="many" />)";
  expectRejected({"verletsteps2", test::caseXml(kDefinition, kTank, notNumber), {"VerletListSteps"}});
}

TEST(CliErrors, ConstantsThatCannotWork) {
  // The later element of a kind is the one read: these replace caseXml's gamma 7 and CFL 0.2.
  expectRejected({"gamma0", test::caseXml(kDefinition, kTank, kParams, "<gamma value=\"0\" />"), {"<gamma>", "positive"}});
  expectRejected({"cfl50", test::caseXml(kDefinition, kTank, kParams, "<cflnumber value=\"50\" />"), {"<cflnumber>", "(0, 1]"}});
  expectRejected({"partsout", test::caseXml(kDefinition, kTank, std::string(kParams) + R"(<parameter key="PartsOutMax" value="2" />)"),
                  {"PartsOutMax", "fraction"}});
}

TEST(CliErrors, AbsurdThreadCountIsAUsageError) {
  const auto dir = test::tempDir("cli_threads");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  const auto r = test::runSph("run " + path + " --device cpu --quiet --threads 100000 --out " + (dir / "out").string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("--threads 100000"), std::string::npos) << r.output;
}

TEST(CliErrors, ControlBytesOfTheInputAreEscaped) {
  // An escape sequence in a file name would recolour (or worse) the user's terminal.
  const auto r = test::runSph("info '/nonexistent/a\x1b[31mb_Def.xml'");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_EQ(r.output.find('\x1b'), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("a\\x1b[31mb_Def.xml"), std::string::npos) << r.output;
}

TEST(CliErrors, ADpTooSmallForThisMachineNamesTheDpThatFits) {
  // DamBreak at dp 7e-5 is a lattice of about 1e12 nodes: terabytes.
  const auto r = test::runSph("info " + std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak.xml --dp 7e-5");
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("dp 7e-05"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("a dp of about"), std::string::npos) << r.output;
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

TEST(CliRun, AnEarlierRunIsReplacedOnlyWhenAskedAndNothingElseGoes) {
  const auto dir = test::tempDir("cli_overwrite");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  const auto out = dir / "out";
  const std::string run = "run " + path + " --device cpu --quiet --out " + out.string();
  ASSERT_EQ(test::runSph(run).exitCode, 0);
  auto readAll = [](const fs::path& file) {
    std::ifstream f(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  };
  const std::string firstReport = readAll(out / "run.json");
  // The user's own files, and a part the new run will not write.
  fs::create_directories(out / "gauges");
  test::writeFile(out / "notes.txt", "mine\n");
  test::writeFile(out / "gauges" / "mine.csv", "1;2\n");
  test::writeFile(out / "vtk" / "Part_0042.vtk", "old\n");

  const auto refused = test::runSph(run);
  EXPECT_EQ(refused.exitCode, 2) << refused.output;
  EXPECT_NE(refused.output.find("--overwrite"), std::string::npos) << refused.output;
  EXPECT_EQ(readAll(out / "run.json"), firstReport) << "the refused run changed the earlier results";

  const auto replaced = test::runSph(run + " --overwrite");
  EXPECT_EQ(replaced.exitCode, 0) << replaced.output;
  EXPECT_TRUE(fs::exists(out / "notes.txt"));
  EXPECT_TRUE(fs::exists(out / "gauges" / "mine.csv"));
  EXPECT_FALSE(fs::exists(out / "vtk" / "Part_0042.vtk")) << "the earlier run's part outlived the new run";
  EXPECT_TRUE(fs::exists(out / "vtk" / "Part_0002.vtk"));
  EXPECT_FALSE(fs::exists(out / ".sph-run.lock")) << "the lock outlived the run";
}

TEST(CliRun, ALiveRunsLockKeepsOthersOut) {
  const auto dir = test::tempDir("cli_lock");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  const auto out = dir / "out";
  // This test's own process stands for a run in progress.
  fs::create_directories(out);
  test::writeFile(out / ".sph-run.lock", std::to_string(getpid()) + "\n");
  const auto r = test::runSph("run " + path + " --device cpu --quiet --out " + out.string());
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find("another run"), std::string::npos) << r.output;
  // A lock left by a process that is gone is taken over.
  test::writeFile(out / ".sph-run.lock", "2147483646\n");
  const auto ok = test::runSph("run " + path + " --device cpu --quiet --out " + out.string());
  EXPECT_EQ(ok.exitCode, 0) << ok.output;
}

// Starts `sph run CASE --device cpu --quiet --threads 1 --out OUT`, waits until it has written
// vtk/Part_0003.vtk (it is stepping), then sends `signal`; the run must stop by itself with
// 128 + signal, its run.json saying "interrupted" with the signal's name.
void interruptRun(const std::string& path, const fs::path& out, int signal, const char* signalName) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    execl(SPH_BINARY_PATH, SPH_BINARY_PATH, "run", path.c_str(), "--device", "cpu", "--quiet", "--threads", "1",
          "--out", out.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  for (int i = 0; i < 600 && !fs::exists(out / "vtk" / "Part_0003.vtk"); ++i) usleep(100000);
  ASSERT_TRUE(fs::exists(out / "vtk" / "Part_0003.vtk")) << "the run did not start";
  kill(child, signal);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by the signal instead of stopping";
  EXPECT_EQ(WEXITSTATUS(status), 128 + signal);
  const std::string json = test::fileText(out / "run.json");
  EXPECT_NE(json.find("\"status\": \"interrupted\""), std::string::npos) << json;
  EXPECT_NE(json.find(signalName), std::string::npos) << json;
  EXPECT_FALSE(fs::exists(out / ".sph-run.lock"));
}

TEST(CliRun, SigintEndsTheStepAndReportsInterrupted) {
  const auto dir = test::tempDir("cli_sigint");
  // Long enough that it is still running when the signal comes; a part every 1 ms to see it run.
  const std::string params = R"(<parameter key="TimeMax" value="100" /><parameter key="TimeOut" value="0.001" />)";
  const std::string path = test::writeFile(dir / "Long_Def.xml", test::caseXml(kDefinition, kTank, params));
  const auto out = dir / "out";
  interruptRun(path, out, SIGINT, "SIGINT");
  // The step it stopped at is checkpointed, and the report says how to go on.
  EXPECT_TRUE(fs::exists(out / "checkpoint" / "checkpoint.bin"));
  const std::string json = test::fileText(out / "run.json");
  EXPECT_NE(json.find("--resume " + out.string()), std::string::npos) << json;
}

// A run stopped by SIGTERM and resumed with --resume gives, part for part, the files of the run
// made without a stop (one thread: the CPU run is then bit-identical).
TEST(CliRun, SigtermThenResumeGivesTheResultsOfARunWithoutStop) {
  const auto dir = test::tempDir("cli_sigterm_resume");
  // About 15,000 steps: a few seconds, still running when the signal comes.
  const std::string params = R"(<parameter key="TimeMax" value="10" /><parameter key="TimeOut" value="0.1" />)";
  const std::string path = test::writeFile(dir / "Long_Def.xml", test::caseXml(kDefinition, kTank, params));
  const auto out = dir / "out", straight = dir / "straight";
  interruptRun(path, out, SIGTERM, "SIGTERM");
  ASSERT_TRUE(fs::exists(out / "checkpoint" / "checkpoint.bin"));
  const auto resumed = test::runSph("run " + path + " --device cpu --quiet --threads 1 --resume " + out.string());
  EXPECT_EQ(resumed.exitCode, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("resuming " + out.string() + " at step"), std::string::npos) << resumed.output;
  const auto once = test::runSph("run " + path + " --device cpu --quiet --threads 1 --out " + straight.string());
  ASSERT_EQ(once.exitCode, 0) << once.output;
  test::expectSameResultFiles(straight, out);
  EXPECT_TRUE(fs::exists(out / "vtk" / "Part_0100.vtk"));
  const std::string json = test::fileText(out / "run.json");
  EXPECT_NE(json.find("\"status\": \"completed\""), std::string::npos) << json;
  EXPECT_NE(json.find("resumed_at_step"), std::string::npos) << json;
}

TEST(CliErrors, ResumeWithoutACheckpointOrWithContradictingOptions) {
  const auto dir = test::tempDir("cli_resume_errors");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  const auto out = dir / "out";
  const auto nothing = test::runSph("run " + path + " --device cpu --quiet --resume " + out.string());
  EXPECT_EQ(nothing.exitCode, 2) << nothing.output;
  EXPECT_NE(nothing.output.find(out.string()), std::string::npos) << nothing.output;
  ASSERT_EQ(test::runSph("run " + path + " --device cpu --quiet --out " + out.string()).exitCode, 0);
  const auto none = test::runSph("run " + path + " --device cpu --quiet --resume " + out.string());
  EXPECT_EQ(none.exitCode, 2) << none.output;
  EXPECT_NE(none.output.find((out / "checkpoint" / "checkpoint.bin").string()), std::string::npos) << none.output;
  EXPECT_NE(none.output.find("no checkpoint"), std::string::npos) << none.output;
  const std::string contradicting[] = {" --overwrite", " --no-output", " --out " + out.string()};
  for (const std::string& extra : contradicting) {
    const auto r = test::runSph("run " + path + " --device cpu --quiet --resume " + out.string() + extra);
    EXPECT_EQ(r.exitCode, 2) << extra << ": " << r.output;
    EXPECT_NE(r.output.find("--resume"), std::string::npos) << r.output;
  }
  // A stop by --steps leaves a checkpoint when --checkpoint-every is given; resuming it in the
  // other precision is refused.
  const auto stopped = test::runSph("run " + path + " --device cpu --quiet --steps 3 --checkpoint-every 900 --overwrite --out " +
                                    out.string());
  ASSERT_EQ(stopped.exitCode, 0) << stopped.output;
  const auto precision =
      test::runSph("run " + path + " --device cpu --quiet --precision double --resume " + out.string());
  EXPECT_EQ(precision.exitCode, 2) << precision.output;
  EXPECT_NE(precision.output.find("--precision single"), std::string::npos) << precision.output;
}

// Water with no floor falls out of the domain.
const char* kNoFloor = R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0.3" /><size x="0.2" y="0.2" z="0.2" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>left | right</boxfill><point x="0" y="0" z="0" /><size x="0.2" y="0.2" z="0.6" /></drawbox>)";

TEST(CliRun, LosingHalfTheFluidFailsUnlessTheCaseAllowsIt) {
  const auto dir = test::tempDir("cli_out_default");
  const std::string params = R"(<parameter key="TimeMax" value="2" /><parameter key="TimeOut" value="0.5" />)";
  const std::string path = test::writeFile(dir / "Fall_Def.xml", test::caseXml(kDefinition, kNoFloor, params));
  const auto r = test::runSph("run " + path + " --device cpu --quiet --no-vtk --out " + (dir / "out").string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("PartsOutMax=0.5"), std::string::npos) << r.output;
  // PartsOutMax 1, as DualSPHysics' examples set it: the run may lose everything.
  const std::string allowed = test::writeFile(
      dir / "FallAllowed_Def.xml",
      test::caseXml(kDefinition, kNoFloor, params + R"(<parameter key="PartsOutMax" value="1" />)"));
  const auto ok = test::runSph("run " + allowed + " --device cpu --quiet --no-vtk --out " + (dir / "out2").string());
  EXPECT_EQ(ok.exitCode, 0) << ok.output;
}

TEST(CliRun, TinyTimeOutStillStopsAtTheStepLimit) {
  // A TimeOut that the time dwarfs: a part at every step, and the run still ends.
  const auto dir = test::tempDir("cli_tiny_timeout");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  const auto r = test::runSph("run " + path + " --device cpu --quiet --steps 3 --time-out 1e-300 --out " +
                              (dir / "out").string());
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_TRUE(fs::exists(dir / "out" / "vtk" / "Part_0003.vtk"));
  EXPECT_FALSE(fs::exists(dir / "out" / "vtk" / "Part_0004.vtk"));
}

TEST(CliRun, DivergedRunFailsAndLeavesItsLastState) {
  // A fixed step a hundred times the stable one, no viscosity: the water blows apart within a few
  // steps, faster than sound and then to infinities.
  const auto dir = test::tempDir("cli_diverged");
  const std::string params = R"(<parameter key="TimeMax" value="1" /><parameter key="TimeOut" value="0.5" />
<parameter key="DtFixed" value="0.02" /><parameter key="Visco" value="0" /><parameter key="PartsOutMax" value="1" />)";
  const std::string path = test::writeFile(dir / "Blow_Def.xml", test::caseXml(kDefinition, kTank, params));
  const auto out = dir / "out";
  const auto r = test::runSph("run " + path + " --device cpu --quiet --out " + out.string());
  EXPECT_EQ(r.exitCode, 1) << r.output;
  EXPECT_NE(r.output.find("diverged"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("id "), std::string::npos) << "the first bad particles are named:\n" << r.output;
  ASSERT_TRUE(fs::exists(out / "run.json"));
  std::ifstream f(out / "run.json");
  const std::string json((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(json.find("\"failed\""), std::string::npos) << json;
  EXPECT_NE(json.find("last state written to"), std::string::npos) << json;
  // The first part at t=0, then the state it diverged in.
  EXPECT_TRUE(fs::exists(out / "vtk" / "Part_0001.vtk"));
}

}  // namespace
}  // namespace sph
