// The file movements in the case loader: <mvfile> (and its other names <mvrectfile>, <mvpredef>)
// and <mvrotfile> with their data files beside the case, and the errors, which name the case
// file's line and element and, for a bad row, the data file and its line.
#include <gtest/gtest.h>

#include <filesystem>
#include <numbers>
#include <string>

#include "case/loader.h"
#include "model/case_model.h"
#include "sph/plugin/errors.h"
#include "test_motion_cases.h"
#include "test_support.h"

namespace sph {
namespace {

namespace fs = std::filesystem;

// The piston tank with `motion`, written as NAME_Def.xml in a fresh folder together with the
// data files `files` (name, text); returns the case file's path and, in xmlOut, its text.
std::string writeCase(const std::string& name, const std::string& motion,
                      const std::vector<std::pair<std::string, std::string>>& files, std::string* xmlOut = nullptr) {
  const fs::path dir = test::tempDir("case_motion_files_" + name);
  for (const auto& [file, text] : files) test::writeFile(dir / file, text);
  test::PistonTank t;
  t.motion = motion;
  const std::string xml = test::pistonTankXml(t);
  if (xmlOut) *xmlOut = xml;
  return test::writeFile(dir / (name + "_Def.xml"), xml);
}

std::string objreal(const std::string& movement) {
  return R"(<objreal ref="1"><begin mov="1" start="0" />)" + movement + "</objreal>";
}

TEST(CaseMotionFiles, ReadsPositionFilesUnderEachName) {
  const std::string data = "# t;unused;x;z\n1.5;7;0.1;0.2\n1.75;7;0.15;0.3\n2.0;7;0.05;-0.1\n";
  for (const char* name : {"mvfile", "mvrectfile", "mvpredef"}) {
    const std::string movement = fmt::format(R"(<{0} id="1" duration="2">
  <file name="piston.csv" fields="4" fieldtime="0" fieldx="2" fieldz="3" /></{0}>)",
                                             name);
    const CaseDefinition c = loadCase(writeCase(name, objreal(movement), {{"piston.csv", data}}));
    const Movement& m = c.motions.at(0).movements.at(0);
    EXPECT_EQ(m.type, MovementType::RectFile) << name;
    ASSERT_TRUE(m.table) << name;
    EXPECT_EQ(m.table->time, (std::vector<double>{1.5, 1.75, 2.0})) << name;
    ASSERT_EQ(m.table->pos.size(), 3u);
    EXPECT_EQ(m.table->pos[1].x, 0.15);
    EXPECT_EQ(m.table->pos[1].y, 0);  // no fieldy: y stays 0
    EXPECT_EQ(m.table->pos[2].z, -0.1);
    EXPECT_TRUE(m.table->angle.empty());
  }
}

TEST(CaseMotionFiles, ReadsRotationFilesInTheirAngleUnits) {
  const std::string data = "#Time;Degrees\n0\t0\n0.5\t30\n1\t-45\n";
  const std::string axis = R"(<axisp1 x="0" y="-1" z="0.1" /><axisp2 x="0" y="1" z="0.1" />)";
  const CaseDefinition deg =
      loadCase(writeCase("RotDegrees",
                         objreal(R"(<mvrotfile id="1" duration="100" anglesunits="degrees"><file name="flap.dat" />)" +
                                 axis + "</mvrotfile>"),
                         {{"flap.dat", data}}));
  const Movement& m = deg.motions.at(0).movements.at(0);
  EXPECT_EQ(m.type, MovementType::RotFile);
  EXPECT_EQ(m.axisP1.y, -1);
  ASSERT_EQ(m.table->angle.size(), 3u);
  EXPECT_DOUBLE_EQ(m.table->angle[1], 30 * std::numbers::pi / 180);
  EXPECT_DOUBLE_EQ(m.table->angle[2], -45 * std::numbers::pi / 180);
  const CaseDefinition rad =
      loadCase(writeCase("RotRadians",
                         objreal(R"(<mvrotfile id="1" duration="100" anglesunits="radians"><file name="flap.dat" />)" +
                                 axis + "</mvrotfile>"),
                         {{"flap.dat", data}}));
  EXPECT_EQ(rad.motions.at(0).movements.at(0).table->angle[1], 30);
}

// A relative name is looked for beside the case file, wherever the program runs; an absolute
// one is taken as it is.
TEST(CaseMotionFiles, FindsTheDataFileBesideTheCaseOrAtAnAbsolutePath) {
  const fs::path other = test::tempDir("case_motion_files_elsewhere") / "moves.dat";
  test::writeFile(other, "0 0\n1 0.5\n");
  const std::string movement =
      R"(<mvfile id="1" duration="2"><file name="sub/moves.dat" fields="2" fieldtime="0" fieldx="1" /></mvfile>)";
  const std::string path = writeCase("Relative", objreal(movement), {});
  fs::create_directories(fs::path(path).parent_path() / "sub");
  test::writeFile(fs::path(path).parent_path() / "sub" / "moves.dat", "0 0\n1 0.25\n");
  const fs::path cwd = fs::current_path();
  fs::current_path(fs::temp_directory_path());
  const CaseDefinition rel = loadCase(path);
  fs::current_path(cwd);
  EXPECT_EQ(rel.motions.at(0).movements.at(0).table->pos[1].x, 0.25);
  const std::string absolute = R"(<mvfile id="1" duration="2"><file name=")" + other.string() +
                               R"(" fields="2" fieldtime="0" fieldx="1" /></mvfile>)";
  const CaseDefinition abs = loadCase(writeCase("Absolute", objreal(absolute), {}));
  EXPECT_EQ(abs.motions.at(0).movements.at(0).table->pos[1].x, 0.5);
}

// DualSPHysics' CaseWaveRunup's piston file starts with two rows at time 0.
TEST(CaseMotionFiles, AcceptsATimeGivenTwice) {
  const std::string movement =
      R"(<mvpredef id="1" duration="15"><file name="Mov_piston.dat" fields="2" fieldtime="0" fieldx="1" /></mvpredef>)";
  const CaseDefinition c =
      loadCase(writeCase("TwiceTime", objreal(movement),
                         {{"Mov_piston.dat", " 0.0000\t  0.0000\n 0.0000\t  0.0000\n 0.0250\t  0.0010\n"}}));
  EXPECT_EQ(c.motions.at(0).movements.at(0).table->time, (std::vector<double>{0, 0, 0.025}));
}

struct BadFile {
  const char* name;
  const char* movement;  // inside <objreal>
  const char* data;      // the text of data.csv (nullptr: no such file)
  const char* lineOf;    // text of the case whose line the message must give
  const char* element;   // the element the message must name
  const char* words;     // part of the message (the data file's name and line, for a bad row)
};

class CaseMotionFileErrors : public ::testing::TestWithParam<BadFile> {};

TEST_P(CaseMotionFileErrors, NameFileLineAndElement) {
  const BadFile& b = GetParam();
  std::string xml;
  std::vector<std::pair<std::string, std::string>> files;
  if (b.data) files.emplace_back("data.csv", b.data);
  const std::string path = writeCase(b.name, objreal(b.movement), files, &xml);
  test::expectInputErrorAt(path, xml, b.lineOf, b.element, b.words);
}

constexpr const char* kMvfile = R"(<mvfile id="1" duration="1">
<file name="data.csv" fields="3" fieldtime="0" fieldx="1" fieldz="2" /></mvfile>)";
constexpr const char* kMvrotfile = R"(<mvrotfile id="1" duration="1">
<file name="data.csv" /><axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="1" z="0" /></mvrotfile>)";

const BadFile kBadFiles[] = {
    {"MissingFile", kMvfile, nullptr, "<file name", "<file>", "data.csv: cannot open the motion data file"},
    {"NotANumber", kMvfile, "0;0;0\n0.1;0.2;abc\n", "<file name", "<file>",
     "data.csv:2: value 3 \"abc\" is not a number"},
    {"HeaderWithoutHash", kMvfile, "time;x;z\n0;0;0\n0.1;0.2;0\n", "<file name", "<file>",
     "data.csv:1: value 1 \"time\" is not a number"},
    {"TooFewValues", kMvfile, "0;0;0\n\n0.1;0.2\n", "<file name", "<file>",
     "data.csv:3: 2 values on the row, the movement reads rows of 3"},
    {"TooManyValues", kMvrotfile, "0 0\n0.1 0.2 5\n", "<file name", "<file>",
     "data.csv:2: 3 values on the row, the movement reads rows of 2"},
    {"EmptyValue", kMvfile, "0;;0\n0.1;0.2;0\n", "<file name", "<file>", "data.csv:1: value 2 \"\" is not a number"},
    {"TimesGoBack", kMvfile, "0;0;0\n0.2;0;0\n0.1;0;0\n", "<file name", "<file>",
     "data.csv:3: time 0.1 comes before the previous row's 0.2: times must not decrease"},
    {"OneRow", kMvrotfile, "# only one\n0 5\n", "<file name", "<file>",
     "data.csv: 1 row of data, a movement needs at least two"},
    {"NoFileElement", R"(<mvfile id="1" duration="1"></mvfile>)", nullptr, "<mvfile", "<mvfile>",
     "missing element <file>"},
    {"NoName", R"(<mvfile id="1" duration="1"><file fields="2" fieldtime="0" fieldx="1" /></mvfile>)", nullptr,
     "<file fields", "<file>", "missing attribute name"},
    {"NoFields", R"(<mvfile id="1" duration="1"><file name="data.csv" fieldtime="0" fieldx="1" /></mvfile>)",
     "0 0\n1 1\n", "<file name", "<file>", "missing attribute fields"},
    {"NoFieldTime", R"(<mvfile id="1" duration="1"><file name="data.csv" fields="2" fieldx="1" /></mvfile>)",
     "0 0\n1 1\n", "<file name", "<file>", "fieldtime"},
    {"FieldBeyondRow",
     R"(<mvfile id="1" duration="1"><file name="data.csv" fields="2" fieldtime="0" fieldy="2" /></mvfile>)",
     "0 0\n1 1\n", "<file name", "<file>", "fieldy=\"2\" is not a column of rows of fields=\"2\""},
    {"NoPositionField", R"(<mvfile id="1" duration="1"><file name="data.csv" fields="2" fieldtime="0" /></mvfile>)",
     "0 0\n1 1\n", "<file name", "<file>", "no position column"},
    {"RotFileWithoutAxis", R"(<mvrotfile id="1" duration="1"><file name="data.csv" /></mvrotfile>)", "0 0\n1 1\n",
     "<mvrotfile", "<mvrotfile>", "missing element <axisp1>"},
    {"FileWithChild", R"(<mvfile id="1" duration="1"><file name="data.csv" fields="2" fieldtime="0" fieldx="1">
<x /></file></mvfile>)",
     "0 0\n1 1\n", "<x />", "<x>", "unknown element inside <file>"},
};

INSTANTIATE_TEST_SUITE_P(Motion, CaseMotionFileErrors, ::testing::ValuesIn(kBadFiles),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace sph
