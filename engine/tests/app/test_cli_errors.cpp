// Bad input through the real binary: each error names the file, line and element (or the
// plugin directories searched), exits non-zero, and leaves no output that looks complete.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

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
  const std::string notNumber = std::string(kParams) + R"(<parameter key="NeighbourSearch" value="verlet" />
<parameter key="VerletListSteps" value="many" />)";
  expectRejected({"verletsteps2", test::caseXml(kDefinition, kTank, notNumber), {"VerletListSteps", "verlet"}});
}

// A plugin's options are the plugin's (NeighbourStrategy::options()): its flags reach it, checked
// against what it allows; a flag of another plugin is warned of and ignored, one of no plugin is
// an error; the case may set them as parameters, and run.json says where each came from.
TEST(PluginOptions, FlagsAndParametersReachThePluginChecked) {
  const auto dir = test::tempDir("cli_plugin_options");
  const std::string path = test::writeFile(dir / "tank_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  const std::string run = "run " + path + " --device cpu --quiet --overwrite --steps 2 --out " + (dir / "out").string();

  const auto bad = test::runSph(run + " --neighbours verlet --verlet-layout bogus");
  EXPECT_EQ(bad.exitCode, 2) << bad.output;
  EXPECT_NE(bad.output.find("--verlet-layout bogus: must be one of auto, indices, clusters, bitmask"), std::string::npos)
      << bad.output;
  const auto unknown = test::runSph(run + " --no-such-option 3");
  EXPECT_EQ(unknown.exitCode, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("unknown option '--no-such-option'"), std::string::npos) << unknown.output;
  EXPECT_NE(unknown.output.find("verlet"), std::string::npos) << "the plugins found are named:\n" << unknown.output;

  const auto other = test::runSph(run + " --neighbours cell --verlet-layout clusters");
  EXPECT_EQ(other.exitCode, 0) << other.output;
  EXPECT_NE(other.output.find("the cell neighbour plugin has no option VerletLayout: ignored"), std::string::npos)
      << other.output;

  const auto given = test::runSph(run + " --neighbours verlet --verlet-layout clusters --cell-mode half");
  ASSERT_EQ(given.exitCode, 0) << given.output;
  std::string json = test::fileText(dir / "out" / "run.json");
  EXPECT_NE(json.find(R"("VerletLayout": {"value": "clusters", "source": "command line"})"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("CellMode": {"value": "half", "source": "command line"})"), std::string::npos) << json;
  EXPECT_EQ(json.find(R"("builds_clusters_layout": 0,)"), std::string::npos) << "no cluster lists were built:\n" << json;

  // The same option as a parameter of the case; for another plugin it is warned of.
  const std::string params = std::string(kParams) + R"(<parameter key="VerletLayout" value="bitmask" />)";
  const std::string xml = test::caseXml(kDefinition, kTank, params);
  const std::string withParam = test::writeFile(dir / "param_Def.xml", xml);
  const std::string runParam = "run " + withParam + " --device cpu --quiet --overwrite --steps 2 --out " + (dir / "out").string();
  const auto fromCase = test::runSph(runParam + " --neighbours verlet");
  ASSERT_EQ(fromCase.exitCode, 0) << fromCase.output;
  json = test::fileText(dir / "out" / "run.json");
  EXPECT_NE(json.find(fmt::format(R"("VerletLayout": {{"value": "bitmask", "source": "xml:{}"}})",
                                  test::lineOf(xml, "VerletLayout"))),
            std::string::npos)
      << json;
  EXPECT_EQ(json.find(R"("builds_bitmask_layout": 0,)"), std::string::npos) << "no bitmask lists were built:\n" << json;
  const auto cell = test::runSph(runParam + " --neighbours cell");
  EXPECT_EQ(cell.exitCode, 0) << cell.output;
  EXPECT_NE(cell.output.find("VerletLayout\">: not a parameter this engine or its cell neighbour plugin knows"),
            std::string::npos)
      << cell.output;

  // `sph info` gives each plugin's memory as the plugin estimates it, its least need marked.
  const auto info = test::runSph("info " + path);
  EXPECT_EQ(info.exitCode, 0) << info.output;
  for (const char* s : {"single precision on the device, cell: ", "at least about", "with cell search (+ ",
                        "single precision on the device, verlet: ", "with cluster lists (+ "})
    EXPECT_NE(info.output.find(s), std::string::npos) << s << "\n" << info.output;

  // `sph plugins` lists each plugin's options with flag, key and default.
  const auto plugins = test::runSph("plugins");
  EXPECT_EQ(plugins.exitCode, 0) << plugins.output;
  for (const char* s : {"--verlet-layout auto|indices|clusters|bitmask (<parameter key=\"VerletLayout\">)",
                        "--cell-mode full|half (<parameter key=\"CellMode\">)", "(no flag) BYTES"})
    EXPECT_NE(plugins.output.find(s), std::string::npos) << s << "\n" << plugins.output;
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

TEST(CliErrors, ASecondRootElementIsRefused) {
  const std::string xml = test::caseXml(kDefinition, kTank, kParams) + "<case><casedef /></case>\n";
  expectRejected({"tworoots", xml, {"<case> after </case>", "one root element"}});
}

TEST(CliErrors, ASmoothingLengthFarOutsideDualSPHysicsRangeIsRefused) {
  // coefh 1000 would make every particle of the case a neighbour of every other.
  expectRejected({"coefh1000", test::caseXml(kDefinition, kTank, kParams, "<coefh value=\"1000\" />"),
                  {"<coefh>", "times dp", "thousands"}});
  expectRejected({"hdp01", test::caseXml(kDefinition, kTank, kParams, "<hdp value=\"0.1\" />"),
                  {"<hdp>", "no neighbour"}});
  // Inside the bounds but far from the usual values: a warning, and the run goes on.
  const auto dir = test::tempDir("cli_coefh_warning");
  const std::string path = test::writeFile(dir / "Wide_Def.xml", test::caseXml(kDefinition, kTank, kParams,
                                                                                 "<coefh value=\"2.5\" />"));
  const auto r = test::runSph("info " + path);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("warning: " + path), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("outside the usual"), std::string::npos) << r.output;
}

// Options whose value would silently do something else than asked.
TEST(CliErrors, OptionValuesThatWouldBeIgnoredAreErrors) {
  const auto dir = test::tempDir("cli_option_values");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  const std::string run = "run " + path + " --device cpu --quiet --out " + (dir / "out").string();
  struct Bad {
    std::string args, words;
  };
  for (const Bad& b : std::vector<Bad>{
           {run + " --steps 1e20", "--steps 1e20 is more than"},
           {run + " --steps 18446744073709551616", "is more than"},
           {"run " + path + " --device cpu --quiet --out ''", "--out: the value is empty"},
           {run + " --neighbours ''", "--neighbours: the value is empty"},
           {run + " --plugin-path /nonexistent/plugins", "--plugin-path /nonexistent/plugins: no such directory"},
           {"plugins --plugin-path /nonexistent/plugins", "--plugin-path /nonexistent/plugins: no such directory"},
       }) {
    const auto r = test::runSph(b.args);
    EXPECT_EQ(r.exitCode, 2) << b.args << "\n" << r.output;
    EXPECT_NE(r.output.find(b.words), std::string::npos) << b.args << "\n" << r.output;
    EXPECT_FALSE(fs::exists(dir / "out" / "run.json")) << b.args;
  }
}

// A libsph_cell.so in a --plugin-path directory is the cell plugin the user asked for: when it
// cannot be used the run stops and says why, instead of running the built-in one.
TEST(CliErrors, ABrokenPluginOnThePluginPathIsNotPassedOver) {
  const auto dir = test::tempDir("cli_broken_plugin");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  const fs::path plugins = dir / "plugins";
  fs::create_directories(plugins);
  const fs::path lib = plugins / "libsph_cell.so";
  const std::string run =
      "run " + path + " --device cpu --quiet --neighbours cell --plugin-path " + plugins.string() + " --out ";
  struct Broken {
    std::string name, words;
  };
  for (const Broken& b : std::vector<Broken>{{"empty", "cannot load"},
                                             {"text", "cannot load"},
                                             {"stale", "ABI tag"},
                                             {"world-writable", "writable by every user"}}) {
    fs::remove(lib);
    if (b.name == "empty") test::writeFile(lib, "");
    if (b.name == "text") test::writeFile(lib, "not an ELF file\n");
    if (b.name == "stale") fs::copy_file(std::string(SPH_TEST_PLUGIN_DIR) + "/libsph_stale.so", lib);
    if (b.name == "world-writable") {
      fs::copy_file(std::string(SPH_PLUGIN_BUILD_DIR) + "/libsph_cell.so", lib);
      fs::permissions(lib, fs::perms::others_write, fs::perm_options::add);
    }
    const auto r = test::runSph(run + (dir / ("out_" + b.name)).string());
    EXPECT_EQ(r.exitCode, 2) << b.name << "\n" << r.output;
    EXPECT_NE(r.output.find(lib.string()), std::string::npos) << b.name << "\n" << r.output;
    EXPECT_NE(r.output.find(b.words), std::string::npos) << b.name << "\n" << r.output;
    EXPECT_FALSE(fs::exists(dir / ("out_" + b.name) / "run.json")) << b.name;
  }
}

// Messages say what is wrong with the value, not something else.
TEST(CliErrors, MessagesNameWhatIsWrong) {
  const auto dir = test::tempDir("cli_messages");
  // A number too small for a double is not "not a number"; a count past an int is not "not an
  // integer".
  expectRejected({"denormal_dp",
                  test::caseXml(R"(<definition dp="1e-320"><pointmin x="-0.2" y="-0.2" z="-0.2" /><pointmax x="1" y="1" z="1" /></definition>)",
                                kTank, kParams),
                  {"dp=\"1e-320\" is too small for a double"}});
  expectRejected({"huge_lattice",
                  test::caseXml(kDefinition, kTank, kParams, R"(<lattice bound="2000000000" fluid="1" />)"),
                  {"bound=\"2000000000\" is out of range"}});
  expectRejected({"huge_parameter",
                  test::caseXml(kDefinition, kTank, std::string(kParams) + R"(<parameter key="VerletSteps" value="1e12" />)"),
                  {"VerletSteps", "an integer of at most 2147483647 in size"}});
  // GenCase's output with another --dp: the message names the dp its particles have.
  const fs::path data = fs::path(SPH_SOURCE_DIR) / "engine/tests/data/gencase";
  const auto other = test::runSph("info " + (data / "DamBreak2D.xml").string() + " --dp 0.1");
  EXPECT_EQ(other.exitCode, 2) << other.output;
  EXPECT_NE(other.output.find("holds the particles of dp 0.04; --dp 0.1 cannot change them"), std::string::npos)
      << other.output;
  // A damaged .bi4 whose name lengths no longer fit its names: "damaged", not a garbled name.
  fs::copy_file(data / "DamBreak2D.xml", dir / "DamBreak2D.xml");
  std::string bytes = test::fileText(data / "DamBreak2D.bi4");
  const size_t date = bytes.find(std::string("\x04\0\0\0Date", 8));
  ASSERT_NE(date, std::string::npos);
  bytes[date] = '\x05';
  test::writeFile(dir / "DamBreak2D.bi4", bytes);
  const auto damaged = test::runSph("info " + (dir / "DamBreak2D.xml").string());
  EXPECT_EQ(damaged.exitCode, 2) << damaged.output;
  EXPECT_NE(damaged.output.find("damaged at byte"), std::string::npos) << damaged.output;
  EXPECT_NE(damaged.output.find("not as GenCase wrote it"), std::string::npos) << damaged.output;
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
  const std::string run = "run " + path + " --device cpu --quiet --out " + out.string();
  fs::create_directories(out);
  const fs::path lock = out / ".sph-run.lock";
  // This test's process stands for a run in progress that has created its lock file and taken the
  // lock but not yet written its process id: the moment two simultaneous launches meet.
  const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0);
  const auto early = test::runSph(run);
  EXPECT_EQ(early.exitCode, 2) << early.output;
  EXPECT_NE(early.output.find("another run is writing"), std::string::npos) << early.output;
  EXPECT_FALSE(fs::exists(out / "run.json")) << "the refused run wrote into the held folder";
  // Once the holder has written its id, the message names it.
  test::writeFile(lock, std::to_string(getpid()) + "\n");
  const auto named = test::runSph(run);
  EXPECT_EQ(named.exitCode, 2) << named.output;
  EXPECT_NE(named.output.find(fmt::format("another run (process {})", getpid())), std::string::npos) << named.output;
  ::close(fd);
  // A lock file nobody holds was left by a run that was killed: taken over, whatever process id it
  // names (even a live one: ids are reused).
  const auto ok = test::runSph(run);
  EXPECT_EQ(ok.exitCode, 0) << ok.output;
  EXPECT_FALSE(fs::exists(lock)) << "the lock outlived the run";
  test::writeFile(lock, "2147483646\n");
  const auto again = test::runSph(run + " --overwrite");
  EXPECT_EQ(again.exitCode, 0) << again.output;
}

// Starts `sph run CASE --device cpu --quiet --threads 1 [extra...] --out OUT` in a child process,
// its output discarded; returns the child's process id.
pid_t startRun(const std::string& path, const fs::path& out, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {SPH_BINARY_PATH, "run", path, "--device", "cpu", "--quiet", "--threads", "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), {"--out", out.string()});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child == 0) {
    std::freopen("/dev/null", "w", stdout);
    std::freopen("/dev/null", "w", stderr);
    execv(SPH_BINARY_PATH, argv.data());
    _exit(127);
  }
  return child;
}

// Two runs started together into one folder: exactly one writes there, whichever the scheduler
// lets through first; the other is refused before it writes anything.
TEST(CliRun, TwoSimultaneousRunsOneFolderOneWins) {
  const auto dir = test::tempDir("cli_lock_race");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  for (int round = 0; round < 4; ++round) {
    const auto out = dir / fmt::format("out{}", round);
    std::vector<pid_t> children;
    for (int k = 0; k < 2; ++k) {
      children.push_back(startRun(path, out));
      ASSERT_GE(children.back(), 0);
    }
    int succeeded = 0, refused = 0;
    for (const pid_t child : children) {
      int status = 0;
      ASSERT_EQ(waitpid(child, &status, 0), child);
      ASSERT_TRUE(WIFEXITED(status));
      succeeded += WEXITSTATUS(status) == 0;
      refused += WEXITSTATUS(status) == 2;
    }
    EXPECT_EQ(succeeded, 1) << "round " << round;
    EXPECT_EQ(refused, 1) << "round " << round;
  }
}

// Starts `sph run CASE --device cpu --quiet --threads 1 --out OUT`, waits until it has written
// vtk/Part_0003.vtk (it is stepping), then sends `signal`; the run must stop by itself with
// 128 + signal, its run.json saying "interrupted" with the signal's name.
void interruptRun(const std::string& path, const fs::path& out, int signal, const char* signalName) {
  const pid_t child = startRun(path, out);
  ASSERT_GE(child, 0);
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

// A run killed outright (SIGKILL, as the OOM killer does) cannot write anything more: its folder
// still tells what happened (run.json "running" with its process id, its lock file held by no
// one, its last checkpoint), and --resume continues it to the results of a run without a stop.
TEST(CliRun, AKilledRunIsRecognisableAndResumes) {
  const auto dir = test::tempDir("cli_sigkill_resume");
  const std::string params = R"(<parameter key="TimeMax" value="10" /><parameter key="TimeOut" value="0.1" />)";
  const std::string path = test::writeFile(dir / "Long_Def.xml", test::caseXml(kDefinition, kTank, params));
  const auto out = dir / "out", straight = dir / "straight";
  const pid_t child = startRun(path, out, {"--checkpoint-every", "0.2"});
  ASSERT_GE(child, 0);
  const fs::path checkpoint = out / "checkpoint" / "checkpoint.bin";
  for (int i = 0; i < 600 && !(fs::exists(checkpoint) && fs::exists(out / "vtk" / "Part_0005.vtk")); ++i)
    usleep(100000);
  ASSERT_TRUE(fs::exists(checkpoint)) << "the run wrote no checkpoint";
  kill(child, SIGKILL);
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  const std::string json = test::fileText(out / "run.json");
  EXPECT_NE(json.find("\"status\": \"running\""), std::string::npos) << json;
  EXPECT_NE(json.find(fmt::format("\"process_id\": \"{}\"", child)), std::string::npos) << json;
  const fs::path lock = out / ".sph-run.lock";
  ASSERT_TRUE(fs::exists(lock)) << "a killed run leaves its lock file";
  const int fd = ::open(lock.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  EXPECT_EQ(::flock(fd, LOCK_EX | LOCK_NB), 0) << "nobody may hold the lock of a killed run";
  ::close(fd);

  const auto resumed = test::runSph("run " + path + " --device cpu --quiet --threads 1 --resume " + out.string());
  ASSERT_EQ(resumed.exitCode, 0) << resumed.output;
  const auto once = test::runSph("run " + path + " --device cpu --quiet --threads 1 --out " + straight.string());
  ASSERT_EQ(once.exitCode, 0) << once.output;
  test::expectSameResultFiles(straight, out);
  EXPECT_NE(test::fileText(out / "run.json").find("\"status\": \"completed\""), std::string::npos);
  EXPECT_FALSE(fs::exists(lock));
}

// A failure before the first step that is not the input's (out of memory, a device error) still
// leaves a run.json saying "failed" and why, where the run would have written it.
TEST(CliRun, AFailedSetUpLeavesAFailedReport) {
  const auto dir = test::tempDir("cli_failed_setup");
  const std::string path = test::writeFile(dir / "Small_Def.xml", test::caseXml(kDefinition, kTank, kParams));
  RunOptions o;
  o.outDir = (dir / "out").string();
  o.neighbours = "verlet";
  o.overwrite = false;  // as sph run without --overwrite
  const std::string report = reportFailedSetup(path, o, "out of host memory (std::bad_alloc) while setting up the case");
  EXPECT_EQ(report, (dir / "out" / "run.json").string());
  const std::string json = test::fileText(dir / "out" / "run.json");
  EXPECT_NE(json.find("\"status\": \"failed\""), std::string::npos) << json;
  EXPECT_NE(json.find("std::bad_alloc"), std::string::npos) << json;
  EXPECT_NE(json.find("\"case\": \"Small\""), std::string::npos) << json;
  // Not over the results of an earlier run without --overwrite (the folder now holds one), and
  // not with --no-output.
  EXPECT_EQ(reportFailedSetup(path, o, "again"), "");
  EXPECT_EQ(test::fileText(dir / "out" / "run.json"), json);
  o.overwrite = true;
  EXPECT_NE(reportFailedSetup(path, o, "again"), "");
  o.writeOutput = false;
  o.outDir = (dir / "none").string();
  EXPECT_EQ(reportFailedSetup(path, o, "again"), "");
  EXPECT_FALSE(fs::exists(dir / "none"));
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
