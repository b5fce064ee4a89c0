// mDBC's boundary normals from a case's geometry (geometry/boundary_normals.h, case/geometry_commands.h) equal
// GenCase's: the fixtures hold the normals GenCase 5.0 computes for the same cases (its raw
// CASE_NormalData.nbi4 made final by tools/dualsphysics/gencase_normals.py) for the same
// particles, which our generator reproduces.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <cmath>
#include <fstream>
#include <map>
#include <tuple>
#include <sstream>
#include <string>
#include <vector>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace sph {
namespace {

struct NormalRow {
  double pos[3], normal[3];
};

std::vector<NormalRow> readNormals(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  std::vector<NormalRow> rows;
  std::string line;
  std::getline(in, line);  // header: id,x,y,z,nx,ny,nz
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::string f;
    std::vector<double> v;
    while (std::getline(ss, f, ',')) v.push_back(std::stod(f));
    if (v.size() != 7) throw std::runtime_error(path + ": a row without 7 fields");
    rows.push_back({{v[1], v[2], v[3]}, {v[4], v[5], v[6]}});
  }
  return rows;
}

// GenCase reads the surface back from the VTK file it wrote, in float: a coordinate of 0.605 m
// becomes 0.60500002, and the doubled normals carry up to 2 float ulps of the coordinates.
constexpr double kTol = 2e-7;

void expectGenCaseNormals(const char* caseFile, const char* fixture, size_t expectedBound) {
  const CaseDefinition c = loadCase(test::dualsphysicsData(caseFile));
  const std::vector<NormalRow> rows = readNormals(test::dualsphysicsData(fixture));
  ASSERT_EQ(c.nBound, expectedBound);
  ASSERT_EQ(rows.size(), c.nBound);
  ASSERT_EQ(c.normals.size(), c.positions.size());
  // GenCase orders the particles z fastest, our generator x fastest: rows match by position.
  std::map<std::tuple<long, long, long>, size_t> row;
  const auto key = [&](double x, double y, double z) {
    return std::make_tuple(std::lround(x / c.dp * 8), std::lround(y / c.dp * 8), std::lround(z / c.dp * 8));
  };
  for (size_t k = 0; k < rows.size(); ++k) row[key(rows[k].pos[0], rows[k].pos[1], rows[k].pos[2])] = k;
  int bad = 0;
  for (size_t i = 0; i < c.nBound && bad < 10; ++i) {
    const Vec3d& p = c.positions[i];
    const Vec3d& n = c.normals[i];
    const auto it = row.find(key(p.x, p.y, p.z));
    ASSERT_NE(it, row.end()) << "boundary particle " << i << " is not one of GenCase's";
    const NormalRow& r = rows[it->second];
    if (std::fabs(n.x - 2 * r.normal[0]) > kTol || std::fabs(n.y - 2 * r.normal[1]) > kTol ||
        std::fabs(n.z - 2 * r.normal[2]) > kTol) {
      ++bad;
      ADD_FAILURE() << "boundary particle " << i << " at (" << p.x << ", " << p.y << ", " << p.z << "): ghost vector ("
                    << n.x << ", " << n.y << ", " << n.z << "), GenCase's normal doubled (" << 2 * r.normal[0] << ", "
                    << 2 * r.normal[1] << ", " << 2 * r.normal[2] << ")";
    }
  }
  for (size_t i = c.nBound; i < c.normals.size(); ++i)
    ASSERT_TRUE(c.normals[i].x == 0 && c.normals[i].y == 0 && c.normals[i].z == 0) << "fluid particle " << i;
}

// 2D: three wall layers, the surface from a box shape shrunk by <layers vdp="-0.5"> in a <list>;
// the tank's inner corners give diagonal normals.
TEST(BoundaryNormals, DamBreak2DEqualGenCase) {
  expectGenCaseNormals("MdbcDamBreak2D_Def.xml", "MdbcDamBreak2D_normals.csv", 447);
}

// 3D: the tank's inner edges and corners (normals inside two or three faces) and a box
// obstacle's outer edges and corners (no face inside: the nearest edge point, or the three
// faces' corner).
TEST(BoundaryNormals, TankWithObstacle3DEqualGenCase) {
  expectGenCaseNormals("Normals3D_Def.xml", "Normals3D_normals.csv", 3013);
}

// A small 3D case: its head (down to <mainlist>), fluid, boundary shapes written with <shapeout
// file="hdp"> and tail (to </geometry>).
const std::string kHead =
    "<?xml version=\"1.0\" ?>\n<case>\n<casedef>\n<constantsdef />\n"
    "<mkconfig boundcount=\"240\" fluidcount=\"9\" />\n<geometry>\n"
    "<definition dp=\"0.1\">\n<pointmin x=\"-1\" y=\"-1\" z=\"-1\" />\n<pointmax x=\"2\" y=\"2\" z=\"2\" />\n"
    "</definition>\n<commands>\n<mainlist>\n";
const std::string kFluid =
    "<setmkfluid mk=\"0\" />\n<drawbox>\n<point x=\"0\" y=\"0\" z=\"0\" />\n<size x=\"1\" y=\"1\" z=\"1\" />\n"
    "</drawbox>\n";
const std::string kShapes =
    "<setactive drawpoints=\"0\" drawshapes=\"1\" />\n<setshapemode>actual | bound</setshapemode>\n"
    "<setmkbound mk=\"0\" />\n<drawbox>\n<boxfill>bottom</boxfill>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
    "<size x=\"1\" y=\"1\" z=\"1\" />\n</drawbox>\n<shapeout file=\"hdp\" />\n<resetdraw />\n"
    "<setdrawmode mode=\"full\" />\n";
const std::string kTail = "</mainlist>\n</commands>\n</geometry>\n";

bool sameNormals(const std::vector<Vec3d>& a, const std::vector<Vec3d>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const Vec3d& p, const Vec3d& q) { return p.x == q.x && p.y == q.y && p.z == q.z; });
}

// GenCase names the shape file by <shapeout>'s format, and reset="false" keeps the shapes for the
// next <shapeout>: <normals> finds them under either name, with the same normals.
TEST(BoundaryNormals, ShapeFileFormatAndReset) {
  const auto normalsFrom = [](const std::string& shapes, const std::string& file) {
    const std::string xml = kHead + shapes + kFluid + kTail + "<normals>\n<geometryfile file=\"[CaseName]_" + file +
                            "\" />\n</normals>\n</casedef>\n</case>\n";
    return loadCase(test::writeFile(test::tempDir("normals_format") / "fmt_Def.xml", xml)).normals;
  };
  const auto plain = normalsFrom(kShapes, "hdp_Actual.vtk");
  ASSERT_FALSE(plain.empty());
  std::string vtp = kShapes;
  vtp.replace(vtp.find("<shapeout file=\"hdp\" />"), 24, "<shapeout file=\"hdp\" format=\"VTP\" />");
  EXPECT_TRUE(sameNormals(normalsFrom(vtp, "hdp_Actual.vtp"), plain));
  std::string kept = kShapes;
  kept.replace(kept.find("<shapeout file=\"hdp\" />"), 24,
               "<shapeout file=\"first\" reset=\"false\" savenormal=\"1.5\" />\n<shapeout file=\"hdp\" />");
  EXPECT_TRUE(sameNormals(normalsFrom(kept, "hdp_Actual.vtk"), plain));
  EXPECT_TRUE(sameNormals(normalsFrom(kept, "first_Actual.vtk"), plain));
  // Without reset="false" the second file holds nothing: GenCase writes no such file.
  std::string cleared = kShapes;
  cleared.replace(cleared.find("<shapeout file=\"hdp\" />"), 24, "<shapeout file=\"first\" />\n<shapeout file=\"hdp\" />");
  EXPECT_THROW(normalsFrom(cleared, "hdp_Actual.vtk"), InputError);
}

// What the loader refuses, naming the element.
TEST(BoundaryNormals, BadGeometryIsNamed) {
  const auto expectError = [](const std::string& xml, const std::string& element, const std::string& text) {
    const std::string path = test::writeFile(test::tempDir("normals") / "bad_Def.xml", xml);
    try {
      loadCase(path);
      ADD_FAILURE() << "no error for " << element;
    } catch (const InputError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(path + ":" + std::to_string(test::lineOf(xml, element)) + ":"), std::string::npos) << msg;
      EXPECT_NE(msg.find(text), std::string::npos) << msg;
    }
  };
  // A geometry file the case does not write.
  expectError(kHead + kShapes + kFluid + kTail +
                  "<normals>\n<geometryfile file=\"[CaseName]_other_Actual.vtk\" />\n</normals>\n</casedef>\n</case>\n",
              "<geometryfile", "bad_other_Actual.vtk\" is not a file of shapes this case writes (");
  // Shapes of a command other than <drawbox>.
  expectError(kHead + "<setactive drawshapes=\"1\" />\n<setmkbound mk=\"0\" />\n<fillbox x=\"0\" y=\"0\" z=\"0\">\n"
                     "<modefill>void</modefill>\n<point x=\"0\" y=\"0\" z=\"0\" />\n<size x=\"1\" y=\"1\" z=\"1\" />\n"
                     "</fillbox>\n" + kFluid + kTail + "</casedef>\n</case>\n",
              "<fillbox", "cannot be drawn as a shape");
  // A <runlist> of no list.
  expectError(kHead + "<runlist name=\"missing\" />\n" + kFluid + kTail + "</casedef>\n</case>\n", "<runlist",
              "no <list name=\"missing\">");
}

// Boundary 2 without normals, an unknown slip mode and mDBC2's no-penetration option name the
// parameter.
TEST(BoundaryNormals, MdbcNeedsNormalsAndAKnownSlipMode) {
  CaseDefinition c = loadCase(test::dualsphysicsData("MdbcDamBreak2D_Def.xml"));
  EXPECT_NO_THROW(deriveParameters(c));
  for (const char* slip : {"2", "3"}) {
    c.parameters["SlipMode"] = {slip, 7};
    EXPECT_NO_THROW(deriveParameters(c));
  }
  c.parameters["NoPenetration"] = {"true", 8};
  EXPECT_THROW(deriveParameters(c), InputError);
  c.parameters.erase("NoPenetration");
  c.parameters["SlipMode"] = {"4", 7};
  EXPECT_THROW(deriveParameters(c), InputError);
  c.parameters["SlipMode"] = {"1", 7};
  c.normals.clear();
  try {
    deriveParameters(c);
    ADD_FAILURE() << "mDBC without normals";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("needs boundary normals"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sph
