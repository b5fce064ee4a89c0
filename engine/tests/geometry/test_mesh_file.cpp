// The mesh files of <drawfilestl>, <drawfilevtk> and <drawfileply> (geometry/mesh_file.h): every format
// gives the same triangles, quadrilaterals become two triangles, and a bad file is refused with a
// message that names it (and, through a case, the case file, line and element). GenCase's particles
// for these meshes are compared in test_gencase_parity (Meshes_Def.xml).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "case/loader.h"
#include "geometry/mesh_file.h"
#include "geometry/mesh_placement.h"
#include "geometry/particle_generator.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace {

using sph::Vec3d;
using sph::Vec3f;
using namespace sph::gen;

const std::string kData = std::string(SPH_SOURCE_DIR) + "/engine/tests/data/gencase/";

bool same(const std::vector<MeshTriangle>& a, const std::vector<MeshTriangle>& b) {
  if (a.size() != b.size()) return false;
  for (size_t t = 0; t < a.size(); ++t)
    for (int v = 0; v < 3; ++v)
      if (a[t][v].x != b[t][v].x || a[t][v].y != b[t][v].y || a[t][v].z != b[t][v].z) return false;
  return true;
}

std::string writeBytes(const std::string& name, const std::string& bytes) {
  const auto dir = sph::test::tempDir("mesh_file");
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The message of the MeshFileError reading `path` throws ("" when it throws none).
std::string readError(const std::string& path, MeshFormat format) {
  try {
    readMesh(path, format);
  } catch (const MeshFileError& e) {
    return e.what();
  }
  return "";
}

TEST(MeshFile, EveryFormatGivesTheSameTriangles) {
  const auto vtkAscii = readVtk(kData + "MeshRoof.vtk");
  EXPECT_EQ(vtkAscii.size(), 5u);  // a quadrilateral (2 triangles) and 3 triangles
  EXPECT_TRUE(same(vtkAscii, readVtk(kData + "MeshRoofBin.vtk")));
  const auto plyAscii = readPly(kData + "MeshFan.ply");
  EXPECT_EQ(plyAscii.size(), 4u);
  EXPECT_TRUE(same(plyAscii, readPly(kData + "MeshFanLe.ply")));
  EXPECT_TRUE(same(plyAscii, readPly(kData + "MeshFanBe.ply")));
  EXPECT_EQ(readStl(kData + "MeshTetra.stl").size(), 4u);
  EXPECT_EQ(readStl(kData + "MeshBox.stl").size(), 12u);
  EXPECT_EQ(readStl(kData + "Blocks_3D_scaled.stl").size(), 1176u);  // binary, "Exported from Blender"
}

TEST(MeshFile, QuadrilateralsAreCutFromTheirFirstVertex) {
  // MeshRoof.vtk's first polygon is (0, 1, 4, 3): triangles (0, 1, 4) and (0, 4, 3).
  const auto t = readVtk(kData + "MeshRoof.vtk");
  EXPECT_FLOAT_EQ(t[0][2].z, 0.19f);  // vertex 4
  EXPECT_FLOAT_EQ(t[1][1].z, 0.19f);  // vertex 4
  EXPECT_FLOAT_EQ(t[1][2].z, 0.07f);  // vertex 3
  EXPECT_EQ(t[0][0].x, t[1][0].x);    // both from vertex 0
}

TEST(MeshFile, VerticesAreSinglePrecision) {
  // 0.15 as a float is above 0.15: GenCase snaps such a vertex up, so must we.
  const std::string path = writeBytes(
      "single.stl", "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0.15 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
                    "endloop\nendfacet\nendsolid s\n");
  const auto t = readStl(path);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0][0].x, 0.15f);
  EXPECT_GT(double(t[0][0].x), 0.15);
}

// A bathymetry table (<drawfilecsv mode="bathymetry">): x values in the first line, then y and a z
// per x; each cell cut along (x_i, y_j)-(x_i+1, y_j+1) as GenCase cuts it (GenCase on a cell with
// one corner raised draws z = min(x, y)), the values kept in double; comments and ',' accepted.
TEST(MeshFile, BathymetryTable) {
  const std::string path = writeBytes("bath.csv", "# a comment\nY \\ X => Z;0;1;3\n0;0;0;0.05\n\n2, 0, 1, 0.5\n");
  const std::vector<PreciseTriangle> t = readBathymetryCsv(path);
  ASSERT_EQ(t.size(), 4u);
  const auto is = [](const Vec3d& v, double x, double y, double z) { return v.x == x && v.y == y && v.z == z; };
  EXPECT_TRUE(is(t[0][0], 0, 0, 0) && is(t[0][1], 1, 0, 0) && is(t[0][2], 1, 2, 1));
  EXPECT_TRUE(is(t[1][0], 0, 0, 0) && is(t[1][1], 1, 2, 1) && is(t[1][2], 0, 2, 0));
  EXPECT_TRUE(is(t[2][1], 3, 0, 0.05)) << "kept in double";
  EXPECT_TRUE(is(t[3][2], 1, 2, 1));
  auto error = [&](const std::string& name, const std::string& text) {
    try {
      readBathymetryCsv(writeBytes(name, text));
    } catch (const MeshFileError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  std::string msg = error("descending.csv", "h;0;2;1\n0;0;0;0\n1;0;0;0\n");
  EXPECT_NE(msg.find("descending.csv:1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("increase"), std::string::npos) << msg;
  msg = error("short.csv", "h;0;1\n0;0;0\n1;0\n");
  EXPECT_NE(msg.find("short.csv:3"), std::string::npos) << msg;
  msg = error("word.csv", "h;0;1\n0;0;deep\n1;0;0\n");
  EXPECT_NE(msg.find("\"deep\" is not a finite number"), std::string::npos) << msg;
  msg = error("onerow.csv", "h;0;1\n0;0;0\n");
  EXPECT_NE(msg.find("two rows"), std::string::npos) << msg;
  msg = error("ydown.csv", "h;0;1\n1;0;0\n0;0;0\n");
  EXPECT_NE(msg.find("ydown.csv:3"), std::string::npos) << msg;
  try {
    readBathymetryCsv(kData + "no_such_table.csv");
    FAIL() << "a missing file was read";
  } catch (const MeshFileError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_table.csv"), std::string::npos);
  }
}

TEST(MeshFile, BadFilesAreRefusedNamingTheFile) {
  const std::string missing = kData + "no_such_mesh.stl";
  EXPECT_NE(readError(missing, MeshFormat::Stl).find("no_such_mesh.stl"), std::string::npos);

  // A binary STL cut short: 2 triangles announced, 1 present.
  std::string stl(80, ' ');
  const uint32_t two = 2;
  stl.append(reinterpret_cast<const char*>(&two), 4);
  stl.append(50, '\0');
  const std::string truncated = writeBytes("truncated.stl", stl);
  std::string msg = readError(truncated, MeshFormat::Stl);
  EXPECT_NE(msg.find("truncated.stl"), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;

  // A binary STL whose header starts with "solid": GenCase reads it as ASCII and draws nothing.
  stl.replace(0, 5, "solid");
  stl.append(50, '\0');
  msg = readError(writeBytes("solidheader.stl", stl), MeshFormat::Stl);
  EXPECT_NE(msg.find("starts with \"solid\""), std::string::npos) << msg;

  msg = readError(writeBytes("text.stl", "this is not a mesh at all, just some words\n"), MeshFormat::Stl);
  EXPECT_NE(msg.find("not an STL file"), std::string::npos) << msg;

  msg = readError(writeBytes("nan.stl", "solid s\nfacet normal 0 0 1\nouter loop\nvertex nan 0 0\nvertex 1 0 0\n"
                                        "vertex 0 1 0\nendloop\nendfacet\nendsolid s\n"),
                  MeshFormat::Stl);
  EXPECT_NE(msg.find("not a finite number"), std::string::npos) << msg;

  msg = readError(writeBytes("open.stl", "solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n"),
                  MeshFormat::Stl);
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;

  const std::string vtkHead = "# vtk DataFile Version 3.0\nt\nASCII\nDATASET POLYDATA\nPOINTS 3 float\n0 0 0 1 0 0 0 1 0\n";
  msg = readError(writeBytes("count.vtk", vtkHead + "POLYGONS 1 5\n3 0 1 2\n"), MeshFormat::Vtk);
  EXPECT_NE(msg.find("the header says 5"), std::string::npos) << msg;
  msg = readError(writeBytes("index.vtk", vtkHead + "POLYGONS 1 4\n3 0 1 7\n"), MeshFormat::Vtk);
  EXPECT_NE(msg.find("vertex index 7 is outside 0..2"), std::string::npos) << msg;
  msg = readError(writeBytes("short.vtk", "# vtk DataFile Version 3.0\nt\nASCII\nDATASET POLYDATA\nPOINTS 3 float\n0 0 0 1\n"),
                  MeshFormat::Vtk);
  EXPECT_NE(msg.find("ends where"), std::string::npos) << msg;
  msg = readError(writeBytes("grid.vtk", "# vtk DataFile Version 3.0\nt\nASCII\nDATASET STRUCTURED_GRID\n"), MeshFormat::Vtk);
  EXPECT_NE(msg.find("POLYDATA"), std::string::npos) << msg;
  msg = readError(writeBytes("pentagon.vtk", "# vtk DataFile Version 3.0\nt\nASCII\nDATASET POLYDATA\nPOINTS 5 float\n"
                                             "0 0 0 1 0 0 1 1 0 0 1 0 0 2 0\nPOLYGONS 1 6\n5 0 1 2 3 4\n"),
                  MeshFormat::Vtk);
  EXPECT_NE(msg.find("polygon of 5 vertices"), std::string::npos) << msg;

  const std::string plyHead = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                              "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";
  msg = readError(writeBytes("few.ply", plyHead + "0 0 0\n1 0 0\n0 1 0\n"), MeshFormat::Ply);
  EXPECT_NE(msg.find("ends where"), std::string::npos) << msg;
  msg = readError(writeBytes("notply.ply", "solid s\n"), MeshFormat::Ply);
  EXPECT_NE(msg.find("not a PLY file"), std::string::npos) << msg;
  msg = readError(writeBytes("inf.ply", plyHead + "0 0 0\n1 inf 0\n0 1 0\n3 0 1 2\n"), MeshFormat::Ply);
  EXPECT_NE(msg.find("not a finite number"), std::string::npos) << msg;
}

TEST(MeshFile, PlacementScalesThenRotatesYXZThenMoves) {
  MeshPlacement p;
  p.scale = {2, 1, 1};
  p.rotateDegrees = {0, 0, 90};
  p.move = {10, 0, 5};
  const Vec3d v = p.apply(Vec3f{1, 0, 0});  // (2, 0, 0), turned to (0, 2, 0), moved
  EXPECT_NEAR(v.x, 10, 1e-12);
  EXPECT_NEAR(v.y, 2, 1e-12);
  EXPECT_NEAR(v.z, 5, 1e-12);
  // About y first, then x: (1, 0, 0) -> (0, 0, -1) -> (0, 1, 0).
  MeshPlacement q;
  q.rotateDegrees = {90, 90, 0};
  const Vec3d w = q.apply(Vec3f{1, 0, 0});
  EXPECT_NEAR(w.x, 0, 1e-12);
  EXPECT_NEAR(w.y, 1, 1e-12);
  EXPECT_NEAR(w.z, 0, 1e-12);
}

// A case drawing `commands` on a lattice around the unit cube, with a little water to be a case.
std::string meshCase(const std::string& commands) {
  return sph::test::caseXml(
      R"(<definition dp="0.1"><pointmin x="-0.5" y="-0.5" z="-0.5" /><pointmax x="1.5" y="1.5" z="1.5" /></definition>)",
      commands + R"(
<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="1.2" y="1.2" z="1.2" /><size x="0.2" y="0.2" z="0.2" /></drawbox>)",
      R"(<parameter key="TimeMax" value="0.1" />)");
}

std::string loadError(const std::string& path) {
  try {
    sph::loadCase(path);
  } catch (const sph::InputError& e) {
    return e.what();
  }
  return "";
}

TEST(MeshFile, CaseErrorsNameTheCaseTheLineAndTheMeshFile) {
  const auto dir = sph::test::tempDir("mesh_case");
  sph::test::writeFile(dir / "bad.vtk", "# vtk DataFile Version 3.0\nt\nASCII\nDATASET POLYDATA\nPOINTS 1 float\n0 0\n");
  const std::string xml = meshCase("<setmkbound mk=\"0\" />\n<drawfilevtk file=\"bad.vtk\" />");
  const std::string path = sph::test::writeFile(dir / "case.xml", xml);
  try {
    sph::loadCase(path);
    FAIL() << "a truncated mesh file loaded";
  } catch (const sph::InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("case.xml:" + std::to_string(sph::test::lineOf(xml, "drawfilevtk")) + ": <drawfilevtk>"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("bad.vtk"), std::string::npos) << msg;
  }
  const std::string twice = meshCase(
      "<setmkbound mk=\"0\" />\n<drawfilestl file=\"x.stl\"><drawmove x=\"1\" y=\"0\" z=\"0\" />"
      "<drawmove x=\"1\" y=\"0\" z=\"0\" /></drawfilestl>");
  EXPECT_NE(loadError(sph::test::writeFile(dir / "twice.xml", twice)).find("<drawmove> given twice"), std::string::npos);
  const std::string autofill = meshCase("<setmkbound mk=\"0\" />\n<drawfilestl file=\"x.stl\" autofill=\"true\" />");
  EXPECT_NE(loadError(sph::test::writeFile(dir / "autofill.xml", autofill)).find("autofill"), std::string::npos);
  sph::test::writeFile(dir / "t.csv", "h;0;1\n0;0;0\n1;0;0\n");
  const std::string mode = meshCase("<setmkbound mk=\"0\" />\n<drawfilecsv file=\"t.csv\" mode=\"terrain\" />");
  EXPECT_NE(loadError(sph::test::writeFile(dir / "mode.xml", mode)).find("mode \"terrain\""), std::string::npos);
  const std::string centre = meshCase(
      "<setmkbound mk=\"0\" />\n<drawfilecsv file=\"t.csv\" mode=\"bathymetry\"><drawcenter x=\"1\" y=\"0\" z=\"0\" />"
      "</drawfilecsv>");
  EXPECT_NE(loadError(sph::test::writeFile(dir / "centre.xml", centre)).find("not supported"), std::string::npos);
  const std::string table = meshCase("<setmkbound mk=\"0\" />\n<drawfilecsv file=\"none.csv\" mode=\"bathymetry\" />");
  const std::string msg = loadError(sph::test::writeFile(dir / "table.xml", table));
  EXPECT_NE(msg.find("<drawfilecsv>"), std::string::npos) << msg;
  EXPECT_NE(msg.find("none.csv"), std::string::npos) << msg;
}

TEST(MeshFile, MeshesDrawTheirSurfaceInEveryDrawMode) {
  // GenCase draws no inside for a closed mesh, whatever the draw mode: the same particles in all.
  const auto dir = sph::test::tempDir("mesh_modes");
  std::filesystem::copy_file(kData + "MeshBox.stl", dir / "MeshBox.stl");
  std::vector<uint32_t> counts;
  for (const char* mode : {"full", "face", "solid"}) {
    const std::string xml = meshCase(std::string("<setdrawmode mode=\"") + mode +
                                     "\" />\n<setmkbound mk=\"0\" />\n<drawfilestl file=\"MeshBox.stl\" />");
    counts.push_back(sph::loadCase(sph::test::writeFile(dir / "case.xml", xml)).nBound);
  }
  EXPECT_GT(counts[0], 0u);
  EXPECT_EQ(counts[0], counts[1]);
  EXPECT_EQ(counts[0], counts[2]);
}

}  // namespace
