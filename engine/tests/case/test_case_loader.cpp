// The DualSPHysics case loader: the bundled testcases, constants, parameters, the simulation
// domain, geometry commands, and bad input (every error names file, line and element).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "case/loader.h"
#include "model/case_model.h"
#include "platform/gpu_runtime.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using sph::CaseDefinition;
using sph::InputError;
using sph::Vec3d;

// Node coordinates are origin + i*dp in double precision: a few ulps of the coordinate.
constexpr double kPosTol = 1e-12;

std::string testcase(const char* name) {
  return std::string(SPH_SOURCE_DIR) + "/testcases/" + name;
}

// Writes `xml` to a fresh file in this process's temporary folder, removed at exit.
std::string writeCase(const std::string& fileName, const std::string& xml) {
  struct TempDir {
    fs::path path = fs::temp_directory_path() / ("sph_loader_test_" + std::to_string(getpid()));
    ~TempDir() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  };
  static TempDir dir;
  static std::atomic<int> serial{0};
  const fs::path sub = dir.path / std::to_string(serial++);
  fs::create_directories(sub);
  const fs::path file = sub / fileName;
  std::ofstream(file) << xml;
  return file.string();
}

using sph::test::lineOf;

// The default <definition> of caseXml: dp 0.1 over [-1, 2] on every axis.
const char* kDefinition3 =
    "<definition dp=\"0.1\">\n"
    "  <pointmin x=\"-1\" y=\"-1\" z=\"-1\" />\n"
    "  <pointmax x=\"2\" y=\"2\" z=\"2\" />\n"
    "</definition>\n";

// A small valid case; the geometry commands and execution block are spliced in.
std::string caseXml(const std::string& commands, const std::string& execution = "",
                    const std::string& definition = kDefinition3, const std::string& constants = "") {
  return "<?xml version=\"1.0\" ?>\n<case>\n<casedef>\n<constantsdef>\n" + constants +
         "</constantsdef>\n<mkconfig boundcount=\"240\" fluidcount=\"9\" />\n<geometry>\n" +
         definition + "<commands>\n<mainlist>\n<setdrawmode mode=\"full\" />\n" + commands +
         "</mainlist>\n</commands>\n</geometry>\n</casedef>\n<execution>\n" + execution +
         "</execution>\n</case>\n";
}

const char* kFluidCube =
    "<setmkfluid mk=\"0\" />\n"
    "<drawbox>\n<boxfill>solid</boxfill>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
    "<size x=\"1\" y=\"1\" z=\"1\" />\n</drawbox>\n";

// Spans [0, 1] on every axis with dp 0.1.
const char* kUnitDefinition =
    "<definition dp=\"0.1\">\n"
    "<pointmin x=\"0\" y=\"0\" z=\"0\" />\n"
    "<pointmax x=\"1\" y=\"1\" z=\"1\" />\n"
    "</definition>\n";

void expectVec(const Vec3d& v, Vec3d e) {
  EXPECT_NEAR(v.x, e.x, kPosTol);
  EXPECT_NEAR(v.y, e.y, kPosTol);
  EXPECT_NEAR(v.z, e.z, kPosTol);
}

void bbox(const CaseDefinition& c, size_t begin, size_t end, Vec3d& lo, Vec3d& hi) {
  lo = hi = c.positions[begin];
  for (size_t n = begin; n < end; ++n) {
    const Vec3d& p = c.positions[n];
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
}

TEST(CaseLoader, DamBreakMatchesDualSphysicsCount) {
  const CaseDefinition c = sph::loadCase(testcase("DamBreak.xml"));
  // Takada et al. (2017), "Acceleration of SPH-based fluid simulation on GPU", report 171,496
  // particles for DualSPHysics' DamBreak.
  EXPECT_EQ(c.nBound, 43186u);
  EXPECT_EQ(c.nFluid, 128310u);
  EXPECT_EQ(c.positions.size(), 171496u);
  EXPECT_FALSE(c.twoD);
  EXPECT_EQ(c.name, "DamBreak");
  EXPECT_DOUBLE_EQ(c.dp, 0.0085);
  ASSERT_EQ(c.mks.size(), 4u);
  // mkfluid 0 -> mk 1; mkbound 0, 1, 10 -> mk 10, 11, 20 (fluidcount 9).
  EXPECT_TRUE(c.mks[0].bound);
  EXPECT_EQ(c.mks[0].mk, 10);
  EXPECT_EQ(c.mks[0].count, 39993u);
  EXPECT_EQ(c.mks[1].mk, 11);
  EXPECT_EQ(c.mks[1].count, 2383u);
  EXPECT_EQ(c.mks[2].mk, 20);
  EXPECT_EQ(c.mks[2].count, 810u);
  EXPECT_FALSE(c.mks[3].bound);
  EXPECT_EQ(c.mks[3].mk, 1);
  EXPECT_EQ(c.mks[3].count, 128310u);

  // Lattice origin is pointmin (-0.05): nodes at 0.001 + i*0.0085 near the tank.
  Vec3d lo, hi;
  bbox(c, 0, c.nBound, lo, hi);
  expectVec(lo, {0.001, 0.001, 0.001});
  expectVec(hi, {0.001 + 188 * 0.0085, 0.001 + 79 * 0.0085, 0.001 + 53 * 0.0085});
  bbox(c, c.nBound, c.positions.size(), lo, hi);
  expectVec(lo, {0.001 + 0.0085, 0.001 + 0.0085, 0.001 + 0.0085});
  expectVec(hi, {0.001 + 47 * 0.0085, 0.001 + 78 * 0.0085, 0.001 + 35 * 0.0085});
  // Domain: the particles' box, 50% higher.
  expectVec(c.resolvedDomainMin, {0.001, 0.001, 0.001});
  expectVec(c.resolvedDomainMax, {0.001 + 188 * 0.0085, 0.001 + 79 * 0.0085,
                                  0.001 + 53 * 0.0085 * 1.5});
}

TEST(CaseLoader, DamBreak2DMatchesDualSphysicsCount) {
  const CaseDefinition c = sph::loadCase(testcase("DamBreak2D.xml"));
  EXPECT_TRUE(c.twoD);
  EXPECT_EQ(c.nBound, 1001u);   // floor 401 + two walls of 300
  EXPECT_EQ(c.nFluid, 20000u);  // 100 x 200 inside the walls
  EXPECT_EQ(c.positions.size(), 21001u);
  Vec3d lo, hi;
  bbox(c, 0, c.nBound, lo, hi);
  expectVec(lo, {0, 0, 0});
  expectVec(hi, {4, 0, 3});
  bbox(c, c.nBound, c.positions.size(), lo, hi);
  expectVec(lo, {0.01, 0, 0.01});
  expectVec(hi, {1, 0, 2});
  expectVec(c.resolvedDomainMin, {0, 0, 0});
  expectVec(c.resolvedDomainMax, {4, 0, 4.5});
  EXPECT_EQ(sph::parameterDouble(c, "TimeMax", 0), 2.0);
  EXPECT_EQ(sph::parameterInt(c, "Kernel", 0), 2);
}

TEST(CaseLoader, DpOverrideReplacesDp) {
  sph::LoadOptions opts;
  opts.dpOverride = 0.02;
  const CaseDefinition c = sph::loadCase(testcase("DamBreak2D.xml"), opts);
  EXPECT_EQ(c.dp, 0.02);
  EXPECT_EQ(c.nBound, 201u + 150u + 150u);
  EXPECT_EQ(c.nFluid, 50u * 100u);
}

TEST(CaseLoader, ReadsConstantsAndSkipsUnderscoreElements) {
  const CaseDefinition c = sph::loadCase(testcase("DamBreak.xml"));
  const auto& k = c.constants;
  EXPECT_EQ(k.gravity.z, -9.81);
  EXPECT_EQ(k.rhop0, 1000);
  EXPECT_EQ(k.rhopGradient, 2);
  EXPECT_TRUE(k.hswl.isAuto);
  EXPECT_TRUE(k.speedSystem.isAuto);
  EXPECT_TRUE(k.speedSound.isAuto);
  EXPECT_EQ(k.coefSound, 20);
  EXPECT_EQ(k.coefH, 1.0);
  EXPECT_FALSE(k.hdp.has_value());  // <_hdp> is commented out
  EXPECT_EQ(k.cflNumber, 0.2);

  const std::string xml = caseXml(kFluidCube, "", kUnitDefinition,
                                  "<hswl value=\"0.7\" auto=\"false\" />\n<hdp value=\"1.3\" />\n"
                                  "<speedsound value=\"30\" />\n<gamma value=\"7.5\" />\n");
  const CaseDefinition d = sph::loadCase(writeCase("Const_Def.xml", xml));
  EXPECT_EQ(d.name, "Const");
  EXPECT_FALSE(d.constants.hswl.isAuto);
  EXPECT_EQ(d.constants.hswl.value, 0.7);
  ASSERT_TRUE(d.constants.hdp.has_value());
  EXPECT_EQ(*d.constants.hdp, 1.3);
  EXPECT_FALSE(d.constants.speedSound.isAuto);
  EXPECT_EQ(d.constants.speedSound.value, 30);
  EXPECT_EQ(d.constants.gamma, 7.5);
}

TEST(CaseLoader, ParametersKeepValuesAndLines) {
  const std::string exec =
      "<parameters>\n"
      "<parameter key=\"TimeMax\" value=\"1.5\" comment=\"x\" />\n"
      "<parameter key=\"Kernel\" value=\"2\" />\n"
      "<parameter key=\"DtFixedFile\" value=\"NONE\" />\n"
      "<parameter key=\"Visco\" value=\"abc\" />\n"
      "<parameter key=\"Steps\" value=\"2.5\" />\n"
      "</parameters>\n";
  const std::string xml = caseXml(kFluidCube, exec);
  const std::string path = writeCase("params.xml", xml);
  const CaseDefinition c = sph::loadCase(path);
  ASSERT_EQ(c.parameters.size(), 5u);
  EXPECT_EQ(c.parameters.at("TimeMax").value, "1.5");
  EXPECT_EQ(c.parameters.at("TimeMax").line, lineOf(xml, "TimeMax"));
  EXPECT_EQ(sph::parameterDouble(c, "TimeMax", 0), 1.5);
  EXPECT_EQ(sph::parameterInt(c, "Kernel", 0), 2);
  EXPECT_EQ(sph::parameterString(c, "DtFixedFile", ""), "NONE");
  EXPECT_EQ(sph::parameterDouble(c, "Missing", 4.25), 4.25);
  EXPECT_EQ(sph::parameterInt(c, "Missing", 7), 7);
  EXPECT_EQ(sph::parameterString(c, "Missing", "x"), "x");
  try {
    sph::parameterDouble(c, "Visco", 0);
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(path + ":" + std::to_string(lineOf(xml, "Visco"))), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("Visco"), std::string::npos) << msg;
  }
  EXPECT_THROW(sph::parameterInt(c, "Steps", 0), InputError);
}

TEST(CaseLoader, SimulationDomainForms) {
  const std::string exec =
      "<special><gauges><swl name=\"a\"><pointdp coefdp=\"1\" /><point0 x=\"0\" y=\"0\" z=\"0\" />"
      "<point2 x=\"0\" y=\"0\" z=\"1\" /></swl></gauges>"
      "</special>\n<parameters>\n<simulationdomain>\n"
      "<posmin x=\"-3\" y=\"default - 0.5\" z=\"default - 10%\" />\n"
      "<posmax x=\"default + 0.25\" y=\"default\" z=\"default + 50%\" />\n"
      "</simulationdomain>\n</parameters>\n";
  const CaseDefinition c = sph::loadCase(writeCase("dom.xml", caseXml(kFluidCube, exec)));
  // Particles span [0, 1] on every axis.
  expectVec(c.resolvedDomainMin, {-3, -0.5, -0.1});
  expectVec(c.resolvedDomainMax, {1.25, 1, 1.5});
}

TEST(CaseLoader, MoveOffsetsLaterShapesUntilReset) {
  const std::string cmds = std::string(kFluidCube) +
                           "<move x=\"0\" y=\"0\" z=\"0.5\" />\n"
                           "<move x=\"0.5\" y=\"0\" z=\"0\" />\n"
                           "<setmkbound mk=\"3\" />\n<drawbox>\n<boxfill>bottom</boxfill>\n"
                           "<point x=\"0\" y=\"0\" z=\"0\" />\n<size x=\"1\" y=\"1\" z=\"1\" />\n"
                           "</drawbox>\n<matrixreset />\n<setmkbound mk=\"4\" />\n<drawbox>\n"
                           "<boxfill>top</boxfill>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
                           "<size x=\"1\" y=\"1\" z=\"1\" />\n</drawbox>\n"
                           "<shapeout file=\"x\" />\n";
  const CaseDefinition c = sph::loadCase(writeCase("move.xml", caseXml(cmds)));
  ASSERT_EQ(c.mks.size(), 3u);
  EXPECT_EQ(c.mks[0].mk, 3 + 10);
  EXPECT_EQ(c.mks[0].count, 11u * 11u);  // plane z = 0.5, x from 0.5 to 1.5
  EXPECT_EQ(c.mks[1].mk, 4 + 10);
  EXPECT_EQ(c.mks[1].count, 11u * 11u);  // plane z = 1, back at the origin
  EXPECT_EQ(c.nFluid, 1331u - 6u * 11u - 121u);
  for (uint32_t n = 0; n < c.nBound; ++n) {
    const Vec3d& p = c.positions[n];
    if (c.mks[c.mkIndex[n]].mk == 13) {
      EXPECT_NEAR(p.z, 0.5, kPosTol);
      EXPECT_GE(p.x, 0.5 - kPosTol);
    } else {
      EXPECT_NEAR(p.z, 1.0, kPosTol);
    }
  }
}

// <layers vdp="0,1">: each layer moves the drawn faces v dp outwards, growing along an axis where
// the face on that side is drawn too, so the layers' faces meet (GenCase's rule).
TEST(CaseLoader, LayersOfParticles) {
  const std::string walls = std::string(kFluidCube) +
                            "<setmkbound mk=\"0\" />\n<drawbox>\n<boxfill>bottom | left</boxfill>\n"
                            "<point x=\"0\" y=\"0\" z=\"0\" />\n<size x=\"1\" y=\"1\" z=\"1\" />\n"
                            "<layers vdp=\"0,1*\" />\n</drawbox>\n";
  const CaseDefinition c = sph::loadCase(writeCase("layers.xml", caseXml(walls)));
  // Layer 0: bottom and left planes of 11 x 11 sharing an edge of 11 (231). Layer 1: the bottom
  // at z = -dp, reaching x = -dp (the left face is drawn), 12 x 11; the left at x = -dp, from
  // z = -dp, 12 x 11; sharing their edge of 11 (253).
  EXPECT_EQ(c.nBound, 231u + 253u);
  Vec3d lo, hi;
  bbox(c, 0, c.nBound, lo, hi);
  expectVec(lo, {-0.1, 0, -0.1});
}

// GenCase 5.0 draws in solid mode (insides only for a solid box; faces still drawn) until a
// <setdrawmode>, and again after <resetdraw>: a 2D water box of 0.5 m at dp 0.05 on a floor
// gives 81 fluid and 21 boundary particles there (GenCase's counts for this case), 110 fluid in
// full mode.
TEST(CaseLoader, DrawModeIsSolidUntilSetAndAfterResetdraw) {
  const auto load = [](const std::string& name, const std::string& first) {
    const std::string xml = R"(<?xml version="1.0" ?>
<case><casedef><constantsdef /><mkconfig boundcount="240" fluidcount="9" /><geometry>
<definition dp="0.05"><pointmin x="-1" y="0" z="-1" /><pointmax x="2" y="0" z="2" /></definition>
<commands><mainlist>)" + first + R"(
<setmkfluid mk="0" /><drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="0.5" y="2" z="0.5" /></drawbox>
<setmkbound mk="0" /><drawbox><boxfill>bottom</boxfill><point x="0" y="-1" z="0" /><size x="1" y="2" z="1" /></drawbox>
</mainlist></commands></geometry></casedef><execution /></case>
)";
    return sph::loadCase(writeCase(name, xml));
  };
  for (const char* first : {"", "<setdrawmode mode=\"solid\" />", "<setdrawmode mode=\"full\" /><resetdraw />"}) {
    SCOPED_TRACE(first);
    const CaseDefinition c = load("drawmode.xml", first);
    EXPECT_EQ(c.nFluid, 81u);
    EXPECT_EQ(c.nBound, 21u);
  }
  EXPECT_EQ(load("drawmode_full.xml", "<setdrawmode mode=\"full\" />").nFluid, 110u);
}

TEST(CaseLoader, FaceDrawModeMakesSolidsHollow) {
  const std::string cmds = "<setdrawmode mode=\"face\" />\n" + std::string(kFluidCube);
  const CaseDefinition c = sph::loadCase(writeCase("face.xml", caseXml(cmds)));
  EXPECT_EQ(c.nFluid, 1331u - 729u);
}

// ---- Bad input: the message names the file, the line and the element. ----

void expectInputError(const std::string& path, const std::string& xml, const std::string& marker,
                      const std::string& element, const std::string& text = "") {
  sph::test::expectInputErrorAt(path, xml, marker, element, text);
}

void expectBadCase(const std::string& xml, const std::string& marker, const std::string& element,
                   const std::string& text = "") {
  expectInputError(writeCase("bad.xml", xml), xml, marker, element, text);
}

TEST(CaseLoaderErrors, BadShapesOfTrianglesPointsAndLines) {
  const struct {
    std::string commands;
    const char* marker;
    const char* element;
    const char* text;
  } bad[] = {
      {"<setmkbound mk=\"0\" />\n<drawtriangle><point x=\"0\" y=\"0\" z=\"0\" /><point x=\"1\" y=\"0\" z=\"0\" "
       "/></drawtriangle>\n",
       "<drawtriangle", "<drawtriangle>", "needs 3 points"},
      {"<setmkbound mk=\"0\" />\n<drawtriangles><points><point x=\"0\" y=\"0\" z=\"0\" /></points><triangles>\n"
       "<triangle x=\"0\" y=\"1\" z=\"2\" /></triangles></drawtriangles>\n",
       "<triangle ", "<triangle>", "not one of the 1 points"},
      {"<setmkbound mk=\"0\" />\n<drawlineto x=\"1\" y=\"1\" z=\"1\" />\n", "<drawlineto", "<drawlineto>",
       "no line to continue"},
      {"<mkload />\n", "<mkload", "<mkload>", "no <mksave>"},
      {"<setboxlimitmode mode=\"outer\" />\n", "<setboxlimitmode", "<setboxlimitmode>", "inner or full"},
      {"<scale x=\"0\" y=\"1\" z=\"1\" />\n", "<scale", "<scale>", "positive"},
      {"<setmkbound mk=\"0\" />\n<drawpyramid><point x=\"0\" y=\"0\" z=\"1\" /><point x=\"0\" y=\"0\" z=\"0\" "
       "/></drawpyramid>\n",
       "<drawpyramid", "<drawpyramid>", "needs 4 or 5 points"},
      {"<varsload />\n", "<varsload", "<varsload>", "no <varssave>"},
      {"<setmkbound mk=\"0\" />\n<drawellipsoid radius=\"1\"><point x=\"0\" y=\"0\" z=\"0\" /></drawellipsoid>\n",
       "<drawellipsoid", "<drawellipsoid>", "needs 2 points"},
      {"<setmkbound mk=\"0\" />\n<fillpoint x=\"0\" y=\"0\" z=\"0\">\n<modefill>void | water</modefill></fillpoint>\n",
       "<modefill", "<modefill>", "not void, fluid, bound or border"},
      {"<setmkbound mk=\"0\" />\n<redraw mkfluid=\"0\" mkbound=\"1\" />\n", "<redraw ", "<redraw>", "not both"},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE(b.commands);
    expectBadCase(caseXml(b.commands + kFluidCube), b.marker, b.element, b.text);
  }
}

TEST(CaseLoaderErrors, MalformedXml) {
  const std::string xml = "<case>\n<casedef>\n<geometry>\n</casedef>\n</case>\n";
  const std::string path = writeCase("broken.xml", xml);
  try {
    sph::loadCase(path);
    FAIL();
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(path + ":", 0), 0u) << msg;
    EXPECT_NE(msg.find("malformed XML"), std::string::npos) << msg;
    // TinyXML2 blames the element left open: <geometry>, line 3.
    EXPECT_NE(msg.find(":3:"), std::string::npos) << msg;
    EXPECT_NE(msg.find("geometry"), std::string::npos) << msg;
  }
}

TEST(CaseLoaderErrors, MissingFile) {
  const std::string path = (fs::temp_directory_path() / "no_such_case_Def.xml").string();
  try {
    sph::loadCase(path);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
}

TEST(CaseLoaderErrors, UnknownGeometryCommand) {
  const std::string xml = caseXml(std::string(kFluidCube) + "<drawtorus radius=\"1\" />\n");
  expectBadCase(xml, "<drawtorus", "<drawtorus>", "unknown geometry command");
  // A command that is known but given wrong names what is missing.
  expectBadCase(caseXml(std::string(kFluidCube) + "<drawsphere radius=\"1\" />\n"), "<drawsphere", "<drawsphere>",
                "missing element <point>");
}

TEST(CaseLoaderErrors, DrawBoxWithoutSize) {
  const std::string xml = caseXml(
      "<setmkfluid mk=\"0\" />\n<drawbox>\n<boxfill>solid</boxfill>\n"
      "<point x=\"0\" y=\"0\" z=\"0\" />\n</drawbox>\n");
  expectBadCase(xml, "<drawbox>", "<drawbox>", "needs one of <size> and <endpoint>");
}

TEST(CaseLoaderErrors, DefinitionWithoutDp) {
  const std::string xml = caseXml(kFluidCube, "",
                                  "<definition>\n<pointmin x=\"0\" y=\"0\" z=\"0\" />\n"
                                  "<pointmax x=\"1\" y=\"1\" z=\"1\" />\n</definition>\n");
  expectBadCase(xml, "<definition>", "<definition>", "missing attribute dp");
}

TEST(CaseLoaderErrors, NonNumericValue) {
  const std::string xml = caseXml(
      "<setmkfluid mk=\"0\" />\n<drawbox>\n<point x=\"0\" y=\"zero\" z=\"0\" />\n"
      "<size x=\"1\" y=\"1\" z=\"1\" />\n</drawbox>\n");
  expectBadCase(xml, "y=\"zero\"", "<point>", "y=\"zero\" is not a number");
}

TEST(CaseLoaderErrors, NegativeAndZeroDp) {
  for (const char* dp : {"-0.01", "0"}) {
    const std::string xml = caseXml(kFluidCube, "",
                                    std::string("<definition dp=\"") + dp +
                                        "\">\n<pointmin x=\"0\" y=\"0\" z=\"0\" />\n"
                                        "<pointmax x=\"1\" y=\"1\" z=\"1\" />\n</definition>\n");
    expectBadCase(xml, "<definition", "<definition>", "dp must be positive");
  }
  sph::LoadOptions opts;
  opts.dpOverride = -1;
  EXPECT_THROW(sph::loadCase(testcase("DamBreak2D.xml"), opts), InputError);
}

TEST(CaseLoaderErrors, DpTooFineForTheDomain) {
  const std::string xml = caseXml(kFluidCube, "",
                                  "<definition dp=\"1e-300\">\n<pointmin x=\"0\" y=\"0\" "
                                  "z=\"0\" />\n<pointmax x=\"1\" y=\"1\" z=\"1\" />\n"
                                  "</definition>\n");
  expectBadCase(xml, "<definition", "<definition>", "too far");
}

TEST(CaseLoaderErrors, PointMaxBelowPointMin) {
  const std::string xml = caseXml(kFluidCube, "",
                                  "<definition dp=\"0.1\">\n<pointmin x=\"0\" y=\"0\" z=\"0\" />\n"
                                  "<pointmax x=\"1\" y=\"-1\" z=\"1\" />\n</definition>\n");
  expectBadCase(xml, "<pointmax", "<pointmax>", "below pointmin");
}

TEST(CaseLoaderErrors, NoFluidParticles) {
  const std::string xml = caseXml(
      "<setmkbound mk=\"0\" />\n<drawbox>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
      "<size x=\"1\" y=\"1\" z=\"1\" />\n</drawbox>\n");
  expectBadCase(xml, "<mainlist>", "<mainlist>", "no fluid particles");
}

// DualSPHysics' motion examples move boundaries with no fluid at all: a moving box alone, written
// to a file of its own.
std::string movingBoxOnlyCase(const std::string& fileName) {
  std::string xml = caseXml(
      "<setmkbound mk=\"1\" />\n<drawbox>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
      "<size x=\"0.5\" y=\"0.5\" z=\"0.5\" />\n</drawbox>\n",
      "<parameters>\n<parameter key=\"DtFixed\" value=\"0.001\" />\n<parameter key=\"TimeMax\" value=\"0.02\" />\n"
      "<parameter key=\"TimeOut\" value=\"0.01\" />\n</parameters>\n",
      kDefinition3, "<hswl value=\"0.5\" auto=\"false\" />\n");
  xml.replace(xml.find("</casedef>"), 10,
              "<motion>\n<objreal ref=\"1\">\n<begin mov=\"1\" start=\"0\" />\n<mvrect id=\"1\" duration=\"1\">\n"
              "<vel x=\"0.5\" y=\"0\" z=\"0\" />\n</mvrect>\n</objreal>\n</motion>\n</casedef>");
  return writeCase(fileName, xml);
}

// They load and run (the speed of sound from the given depth, as DualSPHysics needs too), on
// the CPU and, where there is one, the GPU.
TEST(CaseLoader, MovingBoundariesWithoutFluidRun) {
  const std::string path = movingBoxOnlyCase("motion_only.xml");
  const CaseDefinition c = sph::loadCase(path);
  EXPECT_EQ(c.nFluid, 0u);
  EXPECT_GT(c.nBound, 0u);
  const std::string out = (fs::path(path).parent_path() / "out").string();
  const sph::test::CommandResult r = sph::test::runSph("run " + path + " --device cpu --no-vtk --quiet --out " + out);
  EXPECT_EQ(r.exitCode, 0) << r.output;
  EXPECT_NE(r.output.find("done: 20 steps"), std::string::npos) << r.output;
}

TEST(CaseLoader, MovingBoundariesWithoutFluidRunOnGpu) {
  if (!sph::gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  const std::string path = movingBoxOnlyCase("motion_only_gpu.xml");
  for (const char* strategy : {"cell", "verlet"}) {
    SCOPED_TRACE(strategy);
    const std::string out = (fs::path(path).parent_path() / (std::string("out_") + strategy)).string();
    const sph::test::CommandResult r = sph::test::runSph("run " + path + " --device gpu --neighbours " + strategy +
                                                         " --no-vtk --quiet --out " + out);
    EXPECT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.output.find("done: 20 steps"), std::string::npos) << r.output;
  }
}

TEST(CaseLoaderErrors, FluidCarvedAwayIsNoFluid) {
  const std::string xml = caseXml(std::string(kFluidCube) +
                                  "<setmkvoid />\n<drawbox>\n<point x=\"-1\" y=\"-1\" z=\"-1\" />\n"
                                  "<size x=\"3\" y=\"3\" z=\"3\" />\n</drawbox>\n");
  expectBadCase(xml, "<mainlist>", "<mainlist>", "no fluid particles");
}

TEST(CaseLoaderErrors, UnknownElements) {
  expectBadCase(caseXml(kFluidCube, "", "<definition dp=\"0.1\">\n<pointmin x=\"0\" y=\"0\" "
                                        "z=\"0\" />\n<pointmax x=\"1\" y=\"1\" z=\"1\" />\n"
                                        "<pointmid x=\"0\" y=\"0\" z=\"0\" />\n</definition>\n"),
                "<pointmid", "<pointmid>", "unknown element");
  expectBadCase(caseXml(kFluidCube, "", kUnitDefinition, "<coefhh value=\"1\" />\n"),
                "<coefhh", "<coefhh>", "unknown element");
  expectBadCase(caseXml(kFluidCube, "<gauges />\n"), "<gauges", "<gauges>", "unknown element");
  expectBadCase(caseXml(kFluidCube, "<parameters>\n<param key=\"a\" value=\"1\" />\n"
                                    "</parameters>\n"),
                "<param ", "<param>", "unknown element");
}

TEST(CaseLoaderErrors, BadCommandValues) {
  expectBadCase(caseXml("<setmkfluid mk=\"9\" />\n"), "<setmkfluid", "<setmkfluid>",
                "outside 0..8");
  expectBadCase(caseXml("<setmkbound mk=\"1.5\" />\n"), "<setmkbound", "<setmkbound>",
                "not an integer");
  expectBadCase(caseXml("<setdrawmode mode=\"wire\" />\n"), "<setdrawmode mode=\"wire\"", "<setdrawmode>",
                "wire");
  expectBadCase(caseXml("<setshapemode>dp | boundd</setshapemode>\n"), "<setshapemode",
                "<setshapemode>", "boundd");
  expectBadCase(caseXml("<setmkfluid mk=\"0\" />\n<drawbox>\n<boxfill>solid | middle</boxfill>\n"
                        "<point x=\"0\" y=\"0\" z=\"0\" />\n<size x=\"1\" y=\"1\" z=\"1\" />\n"
                        "</drawbox>\n"),
                "<boxfill", "<boxfill>", "middle");
  expectBadCase(caseXml("<drawbox>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
                        "<size x=\"1\" y=\"1\" z=\"1\" />\n</drawbox>\n"),
                "<drawbox", "<drawbox>", "no mk selected");
  expectBadCase(caseXml(kFluidCube, "<parameters>\n<simulationdomain>\n"
                                    "<posmax x=\"default * 2\" />\n</simulationdomain>\n"
                                    "</parameters>\n"),
                "<posmax", "<posmax>", "default * 2");
  expectBadCase(caseXml(kFluidCube, "<parameters>\n<parameter key=\"A\" value=\"1\" />\n"
                                    "<parameter key=\"A\" value=\"2\" />\n</parameters>\n"),
                "<parameter key=\"A\" value=\"2\"", "<parameter>", "already set");
}

// WaveMake and Solids: the geometry of DualSPHysics' CaseWavemaker and CaseSolids.
TEST(CaseLoader, WaveMakeFlumeFromPrisms) {
  const CaseDefinition c = sph::loadCase(testcase("WaveMake.xml"));
  // GenCase 5.0's counts for this geometry (CaseWavemaker at dp 0.02): the prism's vertices snap
  // upwards (1.10 to 1.11), so the beach lies where GenCase puts it, and the box tops at z = 1.5
  // (half-way between nodes) round up into the lattice. (The version of the case in Takada et
  // al. (2017) had 518,744 particles, from an older GenCase.) Every position is checked against
  // GenCase's in test_gencase_parity.
  EXPECT_EQ(c.positions.size(), 463200u);
  EXPECT_EQ(c.nFluid, 401600u);
  ASSERT_EQ(c.mks.size(), 3u);
  EXPECT_EQ(c.mks[0].mk, 10);  // flume (mkbound 0): floor, beach, far wall
  EXPECT_EQ(c.mks[0].count, 31600u);
  EXPECT_EQ(c.mks[1].mk, 20);  // piston (mkbound 10)
  EXPECT_EQ(c.mks[1].count, 30000u);
}

TEST(CaseLoader, SolidsMatchesDualSphysicsCount) {
  const CaseDefinition c = sph::loadCase(testcase("Solids.xml"));
  // Takada et al. (2017) report 115,016 particles for CaseSolids.
  EXPECT_EQ(c.positions.size(), 115016u);
  EXPECT_EQ(c.nFluid, 79200u);  // 41 x 68 x ... the water column, 79,200 nodes
  ASSERT_EQ(c.mks.size(), 20u);  // tank, 18 blocks, fluid
  EXPECT_EQ(c.mks[0].mk, 10);
  for (size_t b = 1; b <= 18; ++b) EXPECT_EQ(c.mks[b].mk, int(50 + b + 10)) << b;
}

// DualSPHysics' example 03_MovingSquare, unchanged: its water is a <fillbox> from a seed point
// around the square; GenCase gives 1,500 fixed, 2,601 moving and 121,650 fluid particles (the sums
// of the fluid's coordinates, from GenCase's output, pin the node set: one node more or less
// changes them by at least dp = 0.02).
TEST(CaseLoader, MovingSquareFillMatchesGenCase) {
  const CaseDefinition c = sph::loadCase(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/CaseMovingSquare_Def.xml");
  EXPECT_EQ(c.nBound, 1500u + 2601u);
  EXPECT_EQ(c.nFluid, 121650u);
  double sx = 0, sz = 0;
  Vec3d lo{1e30, 1e30, 1e30}, hi{-1e30, -1e30, -1e30};
  for (size_t i = c.nBound; i < c.positions.size(); ++i) {
    const Vec3d& p = c.positions[i];
    sx += p.x;
    sz += p.z;
    lo = {std::min(lo.x, p.x), 0, std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), 0, std::max(hi.z, p.z)};
  }
  EXPECT_NEAR(sx, 617353.5, 1e-3);
  EXPECT_NEAR(sz, 304125.0, 1e-3);
  EXPECT_NEAR(lo.x, 0.02, kPosTol);
  EXPECT_NEAR(hi.x, 9.98, kPosTol);
  EXPECT_NEAR(lo.z, 0.02, kPosTol);
  EXPECT_NEAR(hi.z, 4.98, kPosTol);
}

// GenCase's <normals> (boundary normals for mDBC) are accepted and have no effect: the particles
// are the same as without them.
TEST(CaseLoader, NormalsForMdbcAreIgnored) {
  const std::string plain = caseXml(kFluidCube);
  std::string xml = plain;
  xml.insert(xml.find("</casedef>"),
             "<normals active=\"false\">\n<distanceh value=\"2.0\" />\n</normals>\n");
  const CaseDefinition a = sph::loadCase(writeCase("plain_Def.xml", plain));
  const CaseDefinition b = sph::loadCase(writeCase("normals_Def.xml", xml));
  EXPECT_EQ(a.positions.size(), b.positions.size());
  EXPECT_EQ(a.nFluid, b.nFluid);
}

TEST(CaseLoaderErrors, BadFillBox) {
  const std::string walls =
      "<setmkbound mk=\"0\" />\n<drawbox>\n<boxfill>all</boxfill>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
      "<size x=\"1\" y=\"1\" z=\"1\" />\n</drawbox>\n<setmkfluid mk=\"0\" />\n";
  expectBadCase(caseXml(walls + "<fillbox x=\"0.5\" y=\"0.5\" z=\"0.5\">\n<modefill>water</modefill>\n"
                                "<point x=\"0\" y=\"0\" z=\"0\" />\n<size x=\"1\" y=\"1\" z=\"1\" />\n</fillbox>\n"),
                "<modefill", "<modefill>", "must be void, bound or fluid");
  expectBadCase(caseXml(walls + "<fillbox x=\"0.5\" y=\"0.5\" z=\"0.5\">\n<modefill>void</modefill>\n"
                                "<point x=\"0\" y=\"0\" z=\"0\" />\n</fillbox>\n"),
                "<fillbox", "<fillbox>", "needs one of <size> and <endpoint>");
}

// <fillbox>, <redrawbox> and <redrawnearbox> take the box's far corner (<endpoint>, moved by <move>
// as the point is) as well as its size: the same particles either way (no limit near a node,
// where the two sums' last bits could differ).
TEST(CaseLoader, BoxesGivenByTheirEndPoint) {
  const std::string walls =
      "<move x=\"0.1\" y=\"0\" z=\"0.2\" />\n<setmkbound mk=\"0\" />\n<drawbox>\n<boxfill>all^top</boxfill>\n"
      "<point x=\"0\" y=\"0\" z=\"0\" />\n<size x=\"1\" y=\"1\" z=\"1\" />\n</drawbox>\n<setmkfluid mk=\"0\" />\n";
  // The tank's box (a little larger than the walls) and a box inside it.
  auto box = [](const char* name, const std::string& attributes, const std::string& inner, bool inside, bool endpoint) {
    const std::string point =
        inside ? "<point x=\"0.22\" y=\"0.12\" z=\"0.13\" />\n" : "<point x=\"-0.03\" y=\"-0.03\" z=\"-0.03\" />\n";
    const std::string far = inside ? (endpoint ? "<endpoint x=\"0.78\" y=\"0.67\" z=\"0.57\" />\n"
                                               : "<size x=\"0.56\" y=\"0.55\" z=\"0.44\" />\n")
                                   : (endpoint ? "<endpoint x=\"1.03\" y=\"1.03\" z=\"1.03\" />\n"
                                               : "<size x=\"1.06\" y=\"1.06\" z=\"1.06\" />\n");
    return std::string("<") + name + attributes + ">\n" + inner + point + far + "</" + name + ">\n";
  };
  // The tank filled, the inner box redrawn, the water near the walls redrawn.
  auto particles = [&](bool endpoint) {
    const std::string commands =
        walls + box("fillbox", " x=\"0.5\" y=\"0.5\" z=\"0.3\"", "<modefill>void</modefill>\n", false, endpoint) +
        "<setmkfluid mk=\"1\" />\n" + box("redrawbox", " mkfluid=\"0\"", "", true, endpoint) +
        "<setmkfluid mk=\"2\" />\n" +
        box("redrawnearbox", " targettp=\"fluid\" targetmk=\"0\" bordertp=\"bound\"", "", false, endpoint);
    return sph::loadCase(writeCase(endpoint ? "endpoint_Def.xml" : "size_Def.xml", caseXml(commands)));
  };
  const CaseDefinition bySize = particles(false), byEnd = particles(true);
  ASSERT_GT(bySize.nFluid, 0u);
  EXPECT_EQ(bySize.positions.size(), byEnd.positions.size());
  EXPECT_EQ(bySize.nFluid, byEnd.nFluid);
  EXPECT_EQ(bySize.mks.size(), 4u);  // the walls and the three fluid mks
  EXPECT_EQ(bySize.mks.size(), byEnd.mks.size());
  ASSERT_EQ(bySize.positions.size(), byEnd.positions.size());
  for (size_t i = 0; i < bySize.positions.size(); ++i) {
    EXPECT_EQ(bySize.mks[bySize.mkIndex[i]].mk, byEnd.mks[byEnd.mkIndex[i]].mk);
    EXPECT_EQ(bySize.positions[i].x, byEnd.positions[i].x);
    EXPECT_EQ(bySize.positions[i].y, byEnd.positions[i].y);
    EXPECT_EQ(bySize.positions[i].z, byEnd.positions[i].z);
  }
}

TEST(CaseLoader, DrawPrismWithMaskAndMove) {
  // The unit cube as a prism, moved by (0.5, 0, 0); faces 1 (bottom, z = 0) and 6 (x min)
  // are left out: the other four faces of an 11 x 11 x 11 node block remain. Face 7 does not
  // exist: GenCase accepts it and leaves nothing more out (DualSPHysics' CasePistonBeach_REG).
  const std::string prism =
      "<setmkbound mk=\"0\" />\n<move x=\"0.5\" y=\"0\" z=\"0\" />\n<drawprism mask=\"1 | 6 | 7\">\n"
      "<point x=\"0\" y=\"0\" z=\"0\" />\n<point x=\"1\" y=\"0\" z=\"0\" />\n"
      "<point x=\"1\" y=\"1\" z=\"0\" />\n<point x=\"0\" y=\"1\" z=\"0\" />\n"
      "<point x=\"0\" y=\"0\" z=\"1\" />\n<point x=\"1\" y=\"0\" z=\"1\" />\n"
      "<point x=\"1\" y=\"1\" z=\"1\" />\n<point x=\"0\" y=\"1\" z=\"1\" />\n</drawprism>\n"
      "<matrixreset />\n";
  const CaseDefinition c = sph::loadCase(writeCase("prism.xml", caseXml(std::string(kFluidCube) + prism)));
  // Top 121, right (x = 1.5) 121 - 11 shared with top, front/back 121 - 11 (top) - 11 (right)
  // + 1 (their shared corner counted twice) each; the fluid cube keeps what the faces leave.
  const uint32_t top = 121, right = 110, frontBack = 2 * (121 - 11 - 10);
  EXPECT_EQ(c.nBound, top + right + frontBack);
  Vec3d lo, hi;
  bbox(c, 0, c.nBound, lo, hi);
  expectVec(lo, {0.5, 0, 0});
  expectVec(hi, {1.5, 1, 1});
}

TEST(CaseLoaderErrors, BadPrisms) {
  const std::string pts =
      "<point x=\"0\" y=\"0\" z=\"0\" />\n<point x=\"1\" y=\"0\" z=\"0\" />\n"
      "<point x=\"0\" y=\"1\" z=\"0\" />\n<point x=\"0\" y=\"0\" z=\"1\" />\n"
      "<point x=\"1\" y=\"0\" z=\"1\" />\n<point x=\"0\" y=\"1\" z=\"1\" />\n";
  expectBadCase(caseXml(std::string(kFluidCube) + "<drawprism mask=\"1 | 65\">\n" + pts + "</drawprism>\n"),
                "<drawprism", "<drawprism>", "mask entry \"65\" is not a face number 1..5");
  expectBadCase(caseXml(std::string(kFluidCube) + "<drawprism mask=\"top\">\n" + pts + "</drawprism>\n"),
                "<drawprism", "<drawprism>", "mask \"top\" is neither a bit mask nor a list of faces");
  expectBadCase(caseXml(std::string(kFluidCube) + "<drawprism>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
                        "</drawprism>\n"),
                "<drawprism", "<drawprism>", "2n points");
  expectBadCase(caseXml(std::string(kFluidCube) + "<drawprism>\n" + pts + "<size x=\"1\" y=\"1\" z=\"1\" />\n"
                        "</drawprism>\n"),
                "<size x=\"1\" y=\"1\" z=\"1\" />\n</drawprism>", "<size>",
                "unknown element inside <drawprism>");
  expectBadCase(caseXml("<drawprism>\n" + pts + "</drawprism>\n"), "<drawprism", "<drawprism>",
                "no mk selected");
}

TEST(CaseLoaderErrors, BadCylinders) {
  const std::string one = "<point x=\"0\" y=\"0\" z=\"0\" />\n";
  expectBadCase(caseXml(std::string(kFluidCube) + "<drawcylinder radius=\"0.1\">\n" + one + "</drawcylinder>\n"),
                "<drawcylinder", "<drawcylinder>", "needs 2 points (the ends of the axis), got 1");
  expectBadCase(caseXml(std::string(kFluidCube) + "<drawcylinder radius=\"-1\">\n" + one + one + "</drawcylinder>\n"),
                "<drawcylinder", "<drawcylinder>", "radius must be positive");
  expectBadCase(caseXml(std::string(kFluidCube) + "<drawcylinder radius=\"0.1\" mask=\"1 | 4.5\">\n" + one + one +
                        "</drawcylinder>\n"),
                "<drawcylinder", "<drawcylinder>", "mask entry \"4.5\" is not a face number 1..3");
}

TEST(CaseLoaderErrors, BadMkOrient) {
  std::string xml = caseXml(kFluidCube);
  const std::string plain = "<mkconfig boundcount=\"240\" fluidcount=\"9\" />";
  xml.replace(xml.find(plain), plain.size(),
              "<mkconfig boundcount=\"240\" fluidcount=\"9\">\n<mkorientfluid mk=\"0\" orient=\"Xyy\" />\n"
              "</mkconfig>");
  expectBadCase(xml, "<mkorientfluid", "<mkorientfluid>", "not an order of the axes");
  auto withOrient = [&](const std::string& orients) {
    std::string x = caseXml(kFluidCube);
    x.replace(x.find(plain), plain.size(),
              "<mkconfig boundcount=\"240\" fluidcount=\"9\">\n" + orients + "</mkconfig>");
    return x;
  };
  expectBadCase(withOrient("<mkorientbound mk=\"240\" orient=\"YxZ\" />\n"), "<mkorientbound", "<mkorientbound>",
                "mk 240 is outside 0..239");
  expectBadCase(withOrient("<mkorientfluid mk=\"-1\" orient=\"xyz\" />\n"), "<mkorientfluid", "<mkorientfluid>",
                "outside 0..8");
  // Valid orders are accepted and change no particle.
  const CaseDefinition oriented = sph::loadCase(
      writeCase("orient_Def.xml",
                withOrient("<mkorientbound mk=\"0\" orient=\"YxZ\" />\n<mkorientfluid mk=\"0\" orient=\"zyx\" />\n")));
  EXPECT_EQ(oriented.positions.size(),
            sph::loadCase(writeCase("plain_orient_Def.xml", caseXml(kFluidCube))).positions.size());
}

}  // namespace
