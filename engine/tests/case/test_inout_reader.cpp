// Reading <special><inout> (case/inout_reader.h) and the start-up DualSPHysics 5.4 does with it:
// the zones' points by its rules (JSphInOutPoints), the plane dp/2 ahead of them, the initial
// buffer appended as a new fluid mk, fluid too close to it removed, and the errors (file, line,
// element) for what is wrong or not supported.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "case/loader.h"
#include "case/mesh_data_file.h"
#include "geometry/inout_points.h"
#include "test_support.h"

namespace sph {
namespace {

const std::string kChannel = std::string(SPH_SOURCE_DIR) + "/engine/tests/data/inout/Channel2D_Def.xml";

// A 2D tank 1 m long with 0.1 m of water and one zone `zone` (the <inoutzone> body), dp 0.01.
std::string tankWith(const std::string& zone, const std::string& inoutExtra = "") {
  std::string xml = test::caseXml(
      R"(<definition dp="0.01"><pointmin x="-1" y="0" z="-1" /><pointmax x="2" y="0" z="1" /></definition>)",
      R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0.01" /><size x="1" y="2" z="0.095" /></drawbox>
<setmkbound mk="0" />
<drawline><point x="-0.2" y="0" z="0" /><point x="1.2" y="0" z="0" /></drawline>
<drawline><point x="-0.2" y="0" z="-0.01" /><point x="1.2" y="0" z="-0.01" /></drawline>)",
      R"(<parameter key="TimeMax" value="0.1" /><parameter key="TimeOut" value="0.1" />)");
  const std::string special = "<special><inout>" + inoutExtra + "<inoutzone>" + zone + "</inoutzone></inout></special>\n";
  xml.insert(xml.find("    <parameters>"), special);
  return xml;
}

const std::string kInletLine = R"(<refilling value="0" /><inputtreatment value="0" /><layers value="3" />
<zone2d><line><point x="-0.01" z="0.01" /><point2 x="-0.01" z="0.1" /><direction x="1" z="0" /></line></zone2d>
<imposevelocity mode="0"><velocity v="0.5" /></imposevelocity>)";

CaseDefinition loadText(const std::string& folder, const std::string& xml) {
  return loadCase(test::writeFile(test::tempDir(folder) / "case_Def.xml", xml));
}

size_t buffersOf(const CaseDefinition& c, int zone) {
  return size_t(std::count(c.inOutZone.begin(), c.inOutZone.end(), uint8_t(zone)));
}

TEST(InOutReader, ChannelZonesPointsPlaneAndInitialBuffer) {
  const CaseDefinition c = loadCase(kChannel);
  ASSERT_TRUE(c.inout.active);
  ASSERT_EQ(c.inout.zones.size(), 2u);
  const InOutZoneDef& in = c.inout.zones[0];
  EXPECT_EQ(in.points.size(), 10u);  // z 0.01 .. 0.1 at dp
  EXPECT_DOUBLE_EQ(in.points.front().x, -0.01);
  EXPECT_NEAR(in.points.back().z, 0.1, 1e-12);
  EXPECT_EQ(in.unitDirection.x, 1);
  EXPECT_NEAR(in.planePoint.x, -0.005, 1e-12);  // dp/2 ahead of the first layer
  EXPECT_NEAR(in.boxMin.x, -0.005 - 4.5 * 0.01, 1e-12);  // the buffer's (layers + 1/2) dp
  EXPECT_EQ(in.densityMode, InOutDensityMode::Hydrostatic);
  EXPECT_EQ(c.inout.zones[1].unitDirection.x, -1);
  EXPECT_EQ(in.initialParticles, 40u);
  EXPECT_EQ(buffersOf(c, 0), 40u);
  EXPECT_EQ(buffersOf(c, 1), 40u);
  EXPECT_EQ(c.inout.memoryResize0, 1);
  // The buffer is its own fluid mk after the case's, at the end of the particles.
  const MkEntry& fresh = c.mks.back();
  EXPECT_FALSE(fresh.bound);
  EXPECT_EQ(fresh.count, 80u);
  EXPECT_EQ(c.mkIndex.back(), c.mks.size() - 1);
  EXPECT_EQ(c.inOutZone.size(), c.positions.size());
  EXPECT_EQ(c.inOutZone.front(), CaseDefinition::kNoInOutZone);
  EXPECT_EQ(c.nBound + c.nFluid, c.positions.size());
}

TEST(InOutReader, LineWithoutDirectionTurnsItsVectorAndRotations) {
  // A line drawn upwards: the direction is it turned +90 degrees in x-z, (-1, 0) (DualSPHysics).
  std::string zone = kInletLine;
  zone.replace(zone.find("<direction"), std::string(R"(<direction x="1" z="0" />)").size(), "");
  zone.replace(zone.find("x=\"-0.01\" z=\"0.01\""), 18, "x=\"1.04\" z=\"0.01\"");
  zone.replace(zone.find("x=\"-0.01\" z=\"0.1\""), 17, "x=\"1.04\" z=\"0.1\"");
  zone.replace(zone.find("v=\"0.5\""), 7, "v=\"-0.5\"");
  zone.replace(zone.find("<inputtreatment value=\"0\""), 25, "<inputtreatment value=\"1\"");
  const CaseDefinition c = loadText("inout_nodir", tankWith(zone));
  EXPECT_NEAR(c.inout.zones[0].unitDirection.x, -1, 1e-15);
  EXPECT_NEAR(c.inout.zones[0].unitDirection.z, 0, 1e-15);

  // <rotate angle="90"> about the first point turns the vertical line to horizontal, and its
  // direction (1, 0) to (0, 1) (+x towards +z).
  gen::InOutGeometry g;
  InOutShapeDef s;
  s.given = true;
  s.shape = InOutShape::Line;
  s.point = {0, 0, 0};
  s.point2 = {0, 0, 0.1};
  s.direction = {1, 0, 0};
  s.directionGiven = true;
  s.rotated = true;
  s.rotation = {0, 0, -1, 0, 1, 0, 1, 0, 0};  // about -y by 90 degrees, as <rotate angle="90">
  g = gen::inOutGeometry(s, 2, 0.01, true, 0, {}, "here");
  EXPECT_NEAR(g.direction.z, 1, 1e-12);
  EXPECT_NEAR(g.points.back().x, -0.1, 1e-12);
  EXPECT_NEAR(g.points.back().z, 0, 1e-12);
}

TEST(InOutReader, SideCountsBoxesAndCircles) {
  double h = 0;
  EXPECT_EQ(gen::inOutSideCount(0.09, 0.01, &h), 10u);
  EXPECT_EQ(h, 0.01);
  EXPECT_EQ(gen::inOutSideCount(0.0996, 0.01, &h), 11u);  // 0.96 dp left over: one more, spacing shrunk
  EXPECT_NEAR(h, 0.0996 / 10, 1e-15);
  EXPECT_EQ(gen::inOutSideCount(0.0994, 0.01, &h), 10u);  // 0.94 dp left over: stops short
  EXPECT_EQ(gen::inOutSideCount(0, 0.01, &h), 1u);

  InOutShapeDef box;
  box.given = true;
  box.shape = InOutShape::Box;
  box.point = {0.3, 2.8, 0.5};
  box.size = {0.5, 0, 0.4};
  box.direction = {0, -1, 0};
  box.directionGiven = true;
  const gen::InOutGeometry b = gen::inOutGeometry(box, 3, 0.1, false, 0, {}, "here");
  EXPECT_EQ(b.points.size(), 6u * 5u);
  EXPECT_NEAR(b.planePoint.y, 2.75, 1e-12);
  EXPECT_NEAR(b.boxMin.y, 2.75, 1e-9);  // the buffer lies behind the plane, against the direction
  EXPECT_NEAR(b.boxMax.y, 2.75 + 3.5 * 0.1, 1e-9);
  EXPECT_NEAR(b.boxMin.x, 0.25, 1e-9);
  EXPECT_NEAR(b.boxMax.z, 0.95, 1e-9);

  InOutShapeDef circle;
  circle.given = true;
  circle.shape = InOutShape::Circle;
  circle.point = {0, 0, 0};
  circle.radius = 0.2;
  circle.direction = {0, 0, 1};
  circle.directionGiven = true;
  const gen::InOutGeometry ci = gen::inOutGeometry(circle, 2, 0.1, false, 0, {}, "here");
  // Rings 0, 0.1, 0.2 with 1, floor((2 pi 0.1 + 0.05)/0.1) = 6 and floor((2 pi 0.2 + 0.05)/0.1) = 13 points.
  EXPECT_EQ(ci.points.size(), 1u + 6u + 13u);
  for (const Vec3d& p : ci.points) EXPECT_LE(std::hypot(p.x, p.y), 0.2 + 1e-12);
}

TEST(InOutReader, ParticlesFormTakesTheMkAndVelocityTablesAndFiles) {
  // The zone's points are the particles of mkfluid 1, which the buffer replaces.
  std::string xml = tankWith(R"(<refilling value="0" /><inputtreatment value="0" /><layers value="2" />
<zone2d><particles mkfluid="1" direction="right" /></zone2d>
<imposevelocity mode="1"><velocitytimes><timevalue time="0" v="0" /><timevalue time="1" v="2" /></velocitytimes></imposevelocity>)");
  xml.insert(xml.find("<setmkbound"), R"(<setmkfluid mk="1" />
<drawline><point x="-0.05" y="0" z="0.02" /><point x="-0.05" y="0" z="0.05" /></drawline>
)");
  const CaseDefinition c = loadText("inout_particles", xml);
  const InOutZoneDef& z = c.inout.zones[0];
  EXPECT_EQ(z.points.size(), 4u);
  EXPECT_EQ(buffersOf(c, 0), 8u);
  EXPECT_EQ(c.mks[mkIndexOf(c, false, 1)].count, 0u);  // its particles are the buffer now
  ASSERT_EQ(z.velocity.size(), 2u);
  EXPECT_EQ(z.velocity[1].v[0], 2);

  const auto dir = test::tempDir("inout_file");
  test::writeFile(dir / "vel.csv", "# time;v\n0;1\n2;3\n");
  std::string withFile = tankWith(R"(<refilling value="0" /><inputtreatment value="0" /><layers value="3" />
<zone2d><line><point x="-0.01" z="0.01" /><point2 x="-0.01" z="0.1" /><direction x="1" z="0" /></line></zone2d>
<imposevelocity mode="1"><velocityfile file="vel.csv" /></imposevelocity>)");
  const CaseDefinition f = loadCase(test::writeFile(dir / "case_Def.xml", withFile));
  ASSERT_EQ(f.inout.zones[0].velocity.size(), 2u);
  EXPECT_EQ(f.inout.zones[0].velocity[1].time, 2);
  EXPECT_EQ(f.inout.zones[0].velocity[1].v[0], 3);
}

TEST(InOutReader, FluidTooCloseToTheBufferIsRemoved) {
  // The water starts at x = 0; a buffer whose first layer is at x = 0.005 overlaps it.
  std::string zone = kInletLine;
  zone.replace(zone.find("x=\"-0.01\" z=\"0.01\""), 18, "x=\"0.005\" z=\"0.01\"");
  zone.replace(zone.find("x=\"-0.01\" z=\"0.1\""), 17, "x=\"0.005\" z=\"0.1\"");
  const CaseDefinition c = loadText("inout_close", tankWith(zone));
  const CaseDefinition ref = loadText("inout_far", tankWith(kInletLine));
  EXPECT_LT(c.mks[mkIndexOf(c, false, 0)].count, ref.mks[mkIndexOf(ref, false, 0)].count);
  EXPECT_TRUE(std::any_of(c.warnings.begin(), c.warnings.end(),
                          [](const std::string& w) { return w.find("closer than 0.7 dp") != std::string::npos; }));
}

TEST(InOutReaderErrors, NameTheFileLineAndElement) {
  auto bad = [](const std::string& name, const std::string& zone, const std::string& marker, const std::string& element,
                const std::string& text) {
    SCOPED_TRACE(name);
    test::expectLoadError("inout_" + name, tankWith(zone), marker, element, text);
  };
  std::string noRefill = kInletLine;
  noRefill.erase(0, noRefill.find("<inputtreatment"));
  bad("norefill", noRefill, "<inoutzone>", "<inoutzone>", "missing element <refilling>");
  std::string layers = kInletLine;
  layers.replace(layers.find("<layers value=\"3\""), 17, "<layers value=\"0\"");
  bad("layers", layers, "<layers", "<layers>", "1 to 250");
  std::string interp = kInletLine;
  interp.replace(interp.find("<imposevelocity mode=\"0\"><velocity v=\"0.5\" /></imposevelocity>"), 62,
                 "<imposevelocity mode=\"3\" />");
  bad("interpolated", interp, "<imposevelocity", "<imposevelocity>", "missing element <gridveldata>");
  std::string refill = kInletLine;
  refill.replace(refill.find("<refilling value=\"0\""), 20, "<refilling value=\"3\"");
  bad("refilling", refill, "<refilling", "<refilling>", "2 (advanced)");
  std::string rho = kInletLine + R"(<imposerhop mode="1" />)";
  bad("hydrostatic", rho, "<inoutzone>", "<inoutzone>", "needs the zone's zsurf");
  std::string outlet = kInletLine;
  outlet.replace(outlet.find("v=\"0.5\""), 7, "v=\"-0.5\"");
  bad("outlet", outlet, "<inoutzone>", "<inoutzone>", "needs <inputtreatment value=\"1\">");
  std::string outside = kInletLine;
  outside.replace(outside.find("<layers value=\"3\""), 17, "<layers value=\"30\"");
  bad("outside", outside, "<inoutzone>", "<inoutzone>", "outside the domain");
  std::string wall = kInletLine;
  wall.replace(wall.find("x=\"-0.01\" z=\"0.01\""), 18, "x=\"-0.01\" z=\"0.0\"");
  bad("wall", wall, "<inoutzone>", "<inoutzone>", "boundary particle");
  std::string mode = kInletLine;
  mode.replace(mode.find("<imposevelocity mode=\"0\">"), 25, "<imposevelocity mode=\"1\">");
  bad("mode", mode, "<velocity v", "<velocity>", "mode=\"0\"");
}

// A jet circle needs a circle zone (DualSPHysics refuses it on other shapes too).
TEST(InOutReaderErrors, JetCircleOnALineIsRefused) {
  std::string jet = kInletLine;
  jet.replace(jet.find("<velocity v=\"0.5\" />"), 20, R"(<jetcircle v="2" distance="0.01" radius="0.02" />)");
  test::expectLoadError("inout_jet", tankWith(jet), "<inoutzone", "<inoutzone>", "needs a circle zone");
}

const std::string kMeshData = fmt::format("{}/engine/tests/data/meshdata/", SPH_SOURCE_DIR);

std::string withVelocity(const std::string& imposevelocity) {
  std::string zone = kInletLine;
  zone.replace(zone.find("<imposevelocity mode=\"0\"><velocity v=\"0.5\" /></imposevelocity>"), 62, imposevelocity);
  return zone;
}

// <imposevelocity mode="3"><meshdata>: DualSPHysics' own gauge file (the slanted 9 x 4 grid of
// MeshGauge2D_Raw.mbi4, tests/case/test_mesh_data_file.cpp) as three-component velocities,
// reversed, then multiplied and shifted component by component, its grid moved by setpos; the
// attribute forms and the child elements; magnitudes ignore setvelmul with a warning, as
// DualSPHysics does; a variable the file lacks is an error at the element.
TEST(InOutReader, VelocityFromMeshData) {
  const auto dir = test::tempDir("inout_meshvel");
  std::filesystem::copy_file(kMeshData + "MeshGauge2D_Raw.mbi4", dir / "g.mbi4");
  const std::string zone = withVelocity(R"(<imposevelocity mode="3"><meshdata file="g.mbi4" magnitude="false"
reverse="true" setaddz="0.5" setx="9"><setvelmul x="2" y="1" z="1" /><initialtime v="0.25" />
<setpos x="1" y="0" z="0" /></meshdata></imposevelocity>)");
  const CaseDefinition c = loadCase(test::writeFile(dir / "case_Def.xml", tankWith(zone)));
  const InOutZoneDef& z = c.inout.zones[0];
  ASSERT_TRUE(z.meshVelocity);
  const MeshData raw = readMeshData(kMeshData + "MeshGauge2D_Raw.mbi4", "Vel");
  const MeshData& m = *z.meshVelocity;
  EXPECT_EQ(m.components, 3u);
  EXPECT_DOUBLE_EQ(m.origin.x, raw.origin.x + 1);  // <setpos> over setx
  EXPECT_DOUBLE_EQ(z.meshVelocityTime0, 0.25);
  ASSERT_EQ(m.values.size(), raw.values.size());
  const size_t k = m.valuesPerTime() + 3;  // the second time's second point
  ASSERT_NE(raw.values[k], 0.0f);
  EXPECT_FLOAT_EQ(m.values[k], -2 * raw.values[k]);
  EXPECT_FLOAT_EQ(m.values[k + 1], -raw.values[k + 1]);
  EXPECT_FLOAT_EQ(m.values[k + 2], -raw.values[k + 2] + 0.5f);
  // magnitude="true" (the default) asks a .mbi4 for VelDir, which this one does not hold.
  const std::string veldir = tankWith(withVelocity(R"(<imposevelocity mode="3"><meshdata file="g.mbi4" /></imposevelocity>)"));
  test::expectInputErrorAt(test::writeFile(dir / "veldir_Def.xml", veldir), veldir, "<meshdata", "<meshdata>",
                           "no variable VelDir in the file");
  // A CSV of magnitudes with setvelmul: ignored, said so.
  test::writeFile(dir / "m.csv", "Format;n\nJMeshTDatas-200817;VelDir;m/s;float;false;1;1;2;0;0;0;0;0;0;0;0;0;0;0;0.1;1;0;0\n"
                                  "time;a;b\n0;0.5;0.6\n");
  const CaseDefinition mag = loadCase(test::writeFile(
      dir / "mag_Def.xml", tankWith(withVelocity(R"(<imposevelocity mode="3"><meshdata file="m.csv" setmulx="2" /></imposevelocity>)"))));
  EXPECT_EQ(mag.inout.zones[0].meshVelocity->components, 1u);
  EXPECT_EQ(mag.inout.zones[0].meshVelocity->values[1], 0.6f);
  bool warned = false;
  for (const std::string& w : mag.warnings) warned = warned || w.find("ignored for velocity magnitudes") != std::string::npos;
  EXPECT_TRUE(warned);
  const std::string loop = tankWith(withVelocity(R"(<imposevelocity mode="3"><meshdata file="m.csv"><timeloop tbegin="1" tend="1" /></meshdata></imposevelocity>)"));
  test::expectInputErrorAt(test::writeFile(dir / "loop_Def.xml", loop), loop, "<timeloop", "<timeloop>",
                           "tbegin (1) must be before tend (1)");
}

// <imposezsurf mode="1"><meshdata> in 2D: a table of the data at the centre of the zone's points
// (x -0.01, z 0.055) at the data's times from the last at or before <initialtime> on, less it,
// and looped as <timeloop> says; only for a variable zsurf.
TEST(InOutReader, ZsurfFromMeshData) {
  const auto dir = test::tempDir("inout_meshzsurf");
  // Two columns at x -0.11 and 0.09 (moved there by setx): the centre is halfway.
  test::writeFile(dir / "z.csv", "Format;n\nJMeshTDatas-200817;Zsurf;m;float;true;2;1;1;-0.21;0;0;0.2;0;0;0;0;0;0;0;0;0;0;1\n"
                                 "time;a;b\n0;0.1;0.2\n1;0.2;0.3\n2;0.3;0.4\n3;0.4;0.5\n");
  const std::string zone = kInletLine + R"(<imposezsurf mode="1"><meshdata file="z.csv" setx="0.1"><initialtime v="1.5" />
<timeloop tbegin="1.1" tend="3" /></meshdata></imposezsurf>)";
  const CaseDefinition c = loadCase(test::writeFile(dir / "case_Def.xml", tankWith(zone)));
  const InOutZoneDef& z = c.inout.zones[0];
  EXPECT_FALSE(z.zsurfSeries);
  ASSERT_EQ(z.zsurf.size(), 3u);  // the data's times 1, 2, 3 less 1.5
  EXPECT_DOUBLE_EQ(z.zsurf[0].time, -0.5);
  EXPECT_NEAR(z.zsurf[0].zsurf, 0.25, 1e-7);
  EXPECT_NEAR(z.zsurf[1].zsurf, 0.35, 1e-7);
  EXPECT_NEAR(z.zsurf[2].zsurf, 0.25, 1e-7);  // the loop's end takes the values of its start (time 1)
  EXPECT_NEAR(zsurfAt(z, 0), 0.30, 1e-7);
  EXPECT_NEAR(zsurfAt(z, 1.0), 0.30, 1e-7);
  EXPECT_NEAR(zsurfAt(z, 2.0), 0.30, 1e-7);  // from 1.5 on the time goes back by 2
  EXPECT_NEAR(zsurfAt(z, 2.5), 0.35, 1e-7);
  const std::string fixed = kInletLine + R"(<imposezsurf mode="0"><zsurf value="0.1" /><meshdata file="z.csv" /></imposezsurf>)";
  test::expectLoadError("inout_meshzsurf_fixed", tankWith(fixed), "<meshdata", "<meshdata>", "mode=\"1\"");
  const std::string calc = kInletLine + R"(<imposezsurf mode="2"><zsurf0 value="0.1" /><meshdata file="z.csv" /></imposezsurf>)";
  test::expectLoadError("inout_meshzsurf_calc", tankWith(calc), "<meshdata", "<meshdata>", "is for a variable zsurf");
  const std::string both = kInletLine + R"(<imposezsurf mode="1"><meshdata file="z.csv" /><zsurffile file="z.csv" /></imposezsurf>)";
  test::expectLoadError("inout_meshzsurf_both", tankWith(both), "<zsurffile", "<zsurffile>", "one of them");
}

// In 3D across an outlet wider than dp (Channel3DMesh_Def.xml: 0.1 m wide, dp 0.02): a column of
// zsurf every dp from the corner upstream (y 0.1) to the other (y 0), each the data at its foot at
// every time; a point takes its nearest column's.
TEST(InOutReader, ZsurfFromMeshDataAcrossA3DZone) {
  const std::string inout = fmt::format("{}/engine/tests/data/inout/", SPH_SOURCE_DIR);
  const CaseDefinition c = loadCase(inout + "Channel3DMesh_Def.xml");
  const InOutZoneDef& z = c.inout.zones[1];
  ASSERT_TRUE(z.zsurfSeries);
  EXPECT_EQ(z.zsurfColumns, 6u);
  const MeshData& s = *z.zsurfSeries;
  EXPECT_NEAR(s.origin.y, 0.1, 1e-12);
  EXPECT_NEAR(s.vdp[0].y, -0.02, 1e-12);
  ASSERT_EQ(s.times.size(), 4u);
  // At 0.15 s the data's columns read 0.09, 0.075 and 0.085 at y 0, 0.05 and 0.1.
  EXPECT_NEAR(zsurfColumnAt(s, 0.15, 0), 0.085, 1e-7);
  EXPECT_NEAR(zsurfColumnAt(s, 0.15, 1), 0.081, 1e-7);  // y 0.08
  EXPECT_NEAR(zsurfColumnAt(s, 0.15, 5), 0.09, 1e-7);
  EXPECT_NEAR(zsurfAtPoint(z, 0.15, {0.62, 0.071, 0.05}), 0.081, 1e-7);
  EXPECT_NEAR(zsurfAtPoint(z, 0.25, {0.62, 0.0, 0.05}), 0.08, 1e-7);  // halfway to 0.35 s's 0.07
  // The inlet's speeds: magnitudes on 3 x 3 points in y and z.
  ASSERT_TRUE(c.inout.zones[0].meshVelocity);
  EXPECT_EQ(meshInterpolation(*c.inout.zones[0].meshVelocity).axes, 2u);
}

// <imposevelocity mode="3"> with DualSPHysics' CSV grid: the file's layout, <gridposzero>,
// <gridresetvelz>; a bad file is an error naming the case's element and the file's line.
TEST(InOutReader, VelocityGridFile) {
  const std::string grid = "fmtversion;grid_dpx;grid_dpz;grid_nx;grid_nz;vars\n1;0.04;0.05;2;3;velx velz\n\n"
                           "time;a;b;c;d;e;f;g;h;i;j;k;l\n"
                           "0;1;2;3;4;5;6;0.1;0.2;0.3;0.4;0.5;0.6\n0.5;2;3;4;5;6;7;0;0;0;0;0;0\n";
  std::string zone = kInletLine;
  zone.replace(zone.find("<imposevelocity mode=\"0\"><velocity v=\"0.5\" /></imposevelocity>"), 62,
               R"(<imposevelocity mode="3"><gridveldata file="g.csv" /><gridposzero x="-0.06" z="0.01" />
<gridresetvelz value="false" /></imposevelocity>)");
  const auto dir = test::tempDir("inout_grid");
  test::writeFile(dir / "g.csv", grid);
  const CaseDefinition c = loadCase(test::writeFile(dir / "case_Def.xml", tankWith(zone)));
  ASSERT_EQ(c.inout.zones.size(), 1u);
  const InOutZoneDef& z = c.inout.zones[0];
  EXPECT_EQ(z.velocityMode, InOutVelocityMode::Interpolated);
  ASSERT_TRUE(z.grid);
  const InOutVelocityGrid& g = *z.grid;
  EXPECT_EQ(g.nx, 2u);
  EXPECT_EQ(g.nz, 3u);
  EXPECT_DOUBLE_EQ(g.dpx, 0.04);
  EXPECT_DOUBLE_EQ(g.dpz, 0.05);
  EXPECT_DOUBLE_EQ(g.x0, -0.06);
  EXPECT_DOUBLE_EQ(g.z0, 0.01);
  EXPECT_TRUE(g.velz);
  EXPECT_FALSE(g.resetVelz);
  EXPECT_EQ(g.times, (std::vector<double>{0, 0.5}));
  ASSERT_EQ(g.values.size(), 24u);
  EXPECT_FLOAT_EQ(g.values[5], 6);
  EXPECT_FLOAT_EQ(g.values[6], 0.1f);

  auto bad = [&](const std::string& name, const std::string& file, const std::string& text) {
    SCOPED_TRACE(name);
    const auto d = test::tempDir("inout_grid_" + name);
    test::writeFile(d / "g.csv", file);
    const std::string xml = tankWith(zone);
    test::expectInputErrorAt(test::writeFile(d / "case_Def.xml", xml), xml, "<gridveldata", "<gridveldata>", text);
  };
  bad("head", "time;x\n1;2\n", "the first line must be fmtversion");
  bad("vars", "fmtversion;grid_dpx;grid_dpz;grid_nx;grid_nz;vars\n1;0.04;0.05;2;3;vely\n0;1;2;3;4;5;6\n",
      "vars \"vely\"");
  bad("count", "fmtversion;grid_dpx;grid_dpz;grid_nx;grid_nz;vars\n1;0.04;0.05;2;3;velx\n0;1;2;3;4;5\n",
      "g.csv:3: 6 values on the row, a row of this grid has 7");
  bad("order", "fmtversion;grid_dpx;grid_dpz;grid_nx;grid_nz;vars\n1;0.04;0.05;1;1;velx\n0;1\n0;2\n",
      "g.csv:4: time 0 is not after");
  bad("nx", "fmtversion;grid_dpx;grid_dpz;grid_nx;grid_nz;vars\n1;0.04;0.05;31;1;velx\n", "1 <= nx <= 30");
}

// <imposezsurf mode="2">: the gauge line DualSPHysics' mesh gauge uses (2h into the domain from
// the zone's points, dp apart from zsurfmin up to the zone's top) and zsurf0; <zsurffit>, which
// DualSPHysics 5.4 does not apply, warned of; the combinations DualSPHysics refuses are refused.
TEST(InOutReader, CalculatedZsurf) {
  std::string zone = kInletLine + R"(<imposezsurf mode="2"><zsurf0 value="0.09" /><zsurfmin value="0.03" />
<zsurffit valuedp="0.25" /></imposezsurf>)";
  const CaseDefinition c = loadText("inout_zcalc", tankWith(zone));
  const InOutZoneDef& z = c.inout.zones[0];
  EXPECT_EQ(z.zsurfMode, InOutZsurfMode::Calculated);
  EXPECT_DOUBLE_EQ(zsurfAt(z, 0), 0.09);
  ASSERT_FALSE(c.warnings.empty());
  EXPECT_NE(c.warnings.back().find("<zsurffit> is ignored"), std::string::npos) << c.warnings.back();
  // Points at x -0.01 (the line), z 0.01..0.1; h = sqrt(2) 0.01 in 2D.
  ASSERT_EQ(z.zsurfGauge.size(), 8u);  // 0.03, 0.04, ..., 0.10
  EXPECT_NEAR(z.zsurfGauge[0].x, -0.01 + 2 * std::sqrt(2.0) * 0.01, 1e-12);
  EXPECT_NEAR(z.zsurfGauge[0].z, 0.03, 1e-12);
  EXPECT_NEAR(z.zsurfGauge[7].z, 0.10, 1e-12);
  const std::string plain = kInletLine + R"(<imposezsurf mode="2"><zsurf0 value="0.09" /></imposezsurf>)";

  auto bad = [](const std::string& name, const std::string& zoneText, const std::string& marker,
                const std::string& element, const std::string& text) {
    SCOPED_TRACE(name);
    test::expectLoadError("inout_zc_" + name, tankWith(zoneText), marker, element, text);
  };
  bad("zsurf0", kInletLine + R"(<imposezsurf mode="2"><zsurfmin value="0" /></imposezsurf>)", "<imposezsurf",
      "<imposezsurf>", "missing element <zsurf0>");
  bad("fit", kInletLine + R"(<imposezsurf mode="2"><zsurf0 value="0.1" /><zsurffit value="1" valuedp="1" /></imposezsurf>)",
      "<zsurffit", "<zsurffit>", "one of them");
  bad("mode", kInletLine + R"(<imposezsurf mode="0"><zsurf value="0.1" /><zsurf0 value="0.1" /></imposezsurf>)",
      "<zsurf0", "<zsurf0>", "mode=\"2\"");
  std::string refill = plain;
  refill.replace(refill.find("<refilling value=\"0\""), 20, "<refilling value=\"1\"");
  bad("refilling", refill, "<inoutzone>", "<inoutzone>", "refilling 1 (below zsurf) cannot follow a zsurf calculated");
}

}  // namespace
}  // namespace sph
