// GenCase 5.4's <normals> operations (<norgeometry>, <norset>, <norplane>, <norsphere>,
// <norcylinder>) and DualSPHysics' <initialize><boundnormal_*> (case/normals_reader.h), on the
// 2D tilted tank of engine/tests/data/MdbcTiltedTank2D_Def.xml (three wall layers, walls' surface
// half a dp inside the first layer). Its GenCase 5.0 form (<geometryfile>, whose normals the
// geometry tests check against GenCase) is the yardstick: planes through the same surfaces must
// give the same normals wherever one wall alone is near, to the float rounding of GenCase's VTK
// coordinates (2e-7 m).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "case/loader.h"
#include "geometry/shape_normals.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kTol = 2e-7;

std::string tankText() {
  std::ifstream in(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/MdbcTiltedTank2D_Def.xml");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The tank with its <normals> element replaced by `normals` and `special` put in <execution>.
std::string tankWith(const std::string& normals, const std::string& special = "") {
  std::string xml = tankText();
  const size_t from = xml.find("<normals>"), to = xml.find("</normals>") + std::string("</normals>").size();
  xml.replace(from, to - from, normals);
  if (!special.empty()) xml.insert(xml.find("<parameters>"), "<special>" + special + "</special>\n");
  return xml;
}

CaseDefinition load(const std::string& name, const std::string& xml) {
  return loadCase(test::writeFile(test::tempDir("case_normals") / (name + "_Def.xml"), xml));
}

// The floor (z < 0) and the two walls (z >= 0) of the tank, as planes through its surface.
const std::string kPlanes = R"(
<norplane mkbound="0"><onlypos><posmax z="-0.005" /></onlypos><point x="0" y="0" z="-0.005" />
  <normal x="0" y="0" z="1" /><maxdisth v="2" /></norplane>
<norplane mkbound="0"><onlypos><posmin z="0" /><posmax x="0" /></onlypos><point x="-0.005" y="0" z="0" />
  <normal x="1" y="0" z="0" /></norplane>
<norplane mkbound="0"><onlypos><posmin x="0.6" z="0" /></onlypos><point x="0.605" y="0" z="0" />
  <normal x="-1" y="0" z="0" /></norplane>)";

bool inCorner(const Vec3d& p) { return p.z < 0 && (p.x < 0 || p.x > 0.6); }

void expectSame(const Vec3d& a, const Vec3d& b, const Vec3d& where) {
  EXPECT_NEAR(a.x, b.x, kTol) << "at " << where.x << ", " << where.z;
  EXPECT_NEAR(a.y, b.y, kTol) << "at " << where.x << ", " << where.z;
  EXPECT_NEAR(a.z, b.z, kTol) << "at " << where.x << ", " << where.z;
}

TEST(CaseNormals, PlanesGiveTheGeometryFilesNormalsAwayFromCorners) {
  const CaseDefinition geometry = loadCase(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/MdbcTiltedTank2D_Def.xml");
  const CaseDefinition planes = load("Planes", tankWith("<normals>" + kPlanes + "</normals>"));
  ASSERT_EQ(planes.positions.size(), geometry.positions.size());
  ASSERT_EQ(planes.normals.size(), planes.positions.size());
  int compared = 0;
  for (size_t i = 0; i < planes.nBound; ++i) {
    const Vec3d& p = planes.positions[i];
    ASSERT_EQ(p.x, geometry.positions[i].x);
    ASSERT_EQ(p.z, geometry.positions[i].z);
    // Every wall particle is within 2h (0.028 m) of its wall's surface (the deepest is 0.025 m).
    EXPECT_GT(norm(planes.normals[i]), 0.009) << "at " << p.x << ", " << p.z;
    if (inCorner(p)) continue;
    expectSame(planes.normals[i], geometry.normals[i], p);
    ++compared;
  }
  EXPECT_GT(compared, 150);
  for (size_t i = planes.nBound; i < planes.positions.size(); ++i) EXPECT_EQ(norm(planes.normals[i]), 0.0);
}

// GenCase 5.4's form of the geometry file gives the 5.0 form's normals; maxsizeh drops the longer.
TEST(CaseNormals, GeometryIn54FormAndMaxSize) {
  const CaseDefinition v50 = loadCase(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/MdbcTiltedTank2D_Def.xml");
  const std::string geometry =
      R"(<norgeometry><geometryfile file="[CaseName]_hdp_Actual.vtk" /><distanceh v="2" />{}<svshapes v="false" /></norgeometry>)";
  const CaseDefinition v54 = load("Geometry54", tankWith("<normals>" + fmt::format(fmt::runtime(geometry), "") + "</normals>"));
  for (size_t i = 0; i < v54.positions.size(); ++i) expectSame(v54.normals[i], v50.normals[i], v54.positions[i]);
  // 1.6 h = 0.0226 m: the third layer (0.025 m from the surface) loses its normal, the others keep it.
  const CaseDefinition capped =
      load("MaxSize", tankWith("<normals>" + fmt::format(fmt::runtime(geometry), "<maxsizeh v=\"1.6\" />") + "</normals>"));
  int dropped = 0;
  for (size_t i = 0; i < capped.nBound; ++i) {
    const double full = norm(v50.normals[i]) / 2;
    if (full > 1.6 * std::sqrt(2.0 * 0.01 * 0.01)) {
      EXPECT_EQ(norm(capped.normals[i]), 0.0);
      ++dropped;
    } else {
      expectSame(capped.normals[i], v50.normals[i], capped.positions[i]);
    }
  }
  EXPECT_GT(dropped, 60);
}

TEST(CaseNormals, AutomaticPointIsHalfADpBeyondTheWall) {
  const CaseDefinition given = load("PointGiven", tankWith("<normals>" + kPlanes + "</normals>"));
  const std::string automatic = R"(<normals>
<norplane mkbound="0"><onlypos><posmax z="-0.005" /></onlypos><point auto="true" /><normal x="0" y="0" z="1" /></norplane>
</normals>)";
  const CaseDefinition autoPoint = load("PointAuto", tankWith(automatic));
  for (size_t i = 0; i < given.nBound; ++i)
    if (given.positions[i].z < 0) expectSame(autoPoint.normals[i], given.normals[i], given.positions[i]);
}

// clear="true" (the default) takes the normal off the particles the operation selects but does
// not reach; clear="false" leaves them the one they had.
TEST(CaseNormals, ClearDecidesWhatUnreachedParticlesKeep) {
  const auto run = [](const char* clear) {
    return load(std::string("Clear") + clear, tankWith(fmt::format(R"(<normals>
<norset mkbound="0"><normal x="0" y="0.5" z="0" /></norset>
<norplane mkbound="0"><onlypos><posmax z="-0.005" /></onlypos><point x="0" y="0" z="-0.005" />
  <normal x="0" y="0" z="1" /><maxdisth v="0.5" /><clear v="{}" /></norplane>
</normals>)",
                                                                   clear)));
  };
  const CaseDefinition kept = run("false"), cleared = run("true");
  for (size_t i = 0; i < kept.nBound; ++i) {
    const Vec3d& p = kept.positions[i];
    if (p.z > 0) {  // the walls: only the set normal
      expectSame(kept.normals[i], {0, 1, 0}, p);
      expectSame(cleared.normals[i], {0, 1, 0}, p);
    } else if (std::fabs(p.z + 0.01) < 1e-9) {  // the floor's first layer, 0.005 m from the plane (reach 0.0071 m)
      expectSame(kept.normals[i], {0, 0, 0.01}, p);
      expectSame(cleared.normals[i], {0, 0, 0.01}, p);
    } else if (p.z < -0.015) {  // the deeper floor layers: out of reach
      expectSame(kept.normals[i], {0, 1, 0}, p);
      expectSame(cleared.normals[i], {0, 0, 0}, p);
    }
  }
}

// <norsphere> and <norcylinder> read as the reference writes them give the shapes' normals
// (geometry/shape_normals.h) to the particles they select, doubled.
TEST(CaseNormals, SphereAndCylinderReadAsWritten) {
  const CaseDefinition sphere = load("Sphere", tankWith(R"(<normals>
<norsphere mkbound="0"><center x="0.3" y="0" z="0.3" /><radius v="0.32" /><inside v="true" /><maxdisth v="3" /></norsphere>
</normals>)"));
  const CaseDefinition cylinder = load("Cylinder", tankWith(R"(<normals>
<norcylinder mkbound="0"><onlypos><posmin z="-0.02" /></onlypos><center1 x="0.3" y="-1" z="0.3" />
  <center2 x="0.3" y="1" z="0.3" /><radius v="0.43" /><inside v="false" /><limit1 v="false" /><maxdisth v="2" />
</norcylinder>
</normals>)"));
  const double h = std::sqrt(2.0) * 0.01;
  int some = 0;
  for (size_t i = 0; i < sphere.nBound; ++i) {
    const Vec3d& p = sphere.positions[i];
    const auto s = sphereNormal(p, {0.3, 0, 0.3}, 0.32, true, 3 * h);
    expectSame(sphere.normals[i], s ? scale(*s, 2) : Vec3d{}, p);
    const auto c = p.z >= -0.02 ? cylinderNormal(p, {0.3, -1, 0.3}, {0.3, 1, 0.3}, 0.43, false, false, true, 2 * h, 0.01 * h)
                                : std::optional<Vec3d>{};
    expectSame(cylinder.normals[i], c ? scale(*c, 2) : Vec3d{}, p);
    some += s.has_value() + c.has_value();
  }
  EXPECT_GT(some, 10);
}

// DualSPHysics' <initialize> operations set the normals when the run starts: a plane there gives
// what GenCase's <norplane> gives, and a set normal there replaces the case's.
TEST(CaseNormals, InitializeOperations) {
  std::string initialize = kPlanes;
  for (size_t at; (at = initialize.find("norplane")) != std::string::npos;) initialize.replace(at, 8, "boundnormal_plane");
  const CaseDefinition byCase = load("ByCase", tankWith("<normals>" + kPlanes + "</normals>"));
  const CaseDefinition byRun = load("ByRun", tankWith("<normals><norset><normal x=\"1\" y=\"0\" z=\"0\" /></norset></normals>",
                                                      "<initialize>" + initialize + "</initialize>"));
  for (size_t i = 0; i < byCase.positions.size(); ++i)
    expectSame(byRun.normals[i], byCase.normals[i], byCase.positions[i]);
  const CaseDefinition set = load("SetByRun", tankWith(R"(<normals><norset><normal x="1" y="0" z="0" /></norset></normals>)",
                                                       R"(<initialize><boundnormal_set mkbound="0"><onlypos><posmin x="0.6" />
</onlypos><normal x="0" y="0" z="0.25" /></boundnormal_set></initialize>)"));
  for (size_t i = 0; i < set.nBound; ++i)
    expectSame(set.normals[i], set.positions[i].x >= 0.6 ? Vec3d{0, 0, 0.5} : Vec3d{2, 0, 0}, set.positions[i]);
}

// GenCase's output without normals (GenCase 5.0 does not know these operations): they are worked
// out on its particles.
TEST(CaseNormals, OperationsOnGenCaseOutput) {
  const std::filesystem::path data = std::filesystem::path(SPH_SOURCE_DIR) / "engine/tests/data/gencase";
  const std::filesystem::path dir = test::tempDir("case_normals_gencase");
  std::filesystem::copy_file(data / "DamBreak2D.bi4", dir / "DamBreak2D.bi4",
                             std::filesystem::copy_options::overwrite_existing);
  std::ifstream in(data / "DamBreak2D.xml");
  std::stringstream ss;
  ss << in.rdbuf();
  std::string xml = ss.str();
  xml.insert(xml.find("    </casedef>"), R"(<normals><norset mkbound="0"><normal x="0" y="0" z="0.02" /></norset></normals>
)");
  const CaseDefinition c = loadCase(test::writeFile(dir / "DamBreak2D.xml", xml));
  ASSERT_EQ(c.normals.size(), c.positions.size());
  for (size_t i = 0; i < c.positions.size(); ++i) expectSame(c.normals[i], i < c.nBound ? Vec3d{0, 0, 0.04} : Vec3d{}, c.positions[i]);
  // A geometry file needs the commands' shapes, which GenCase's output does not run.
  xml.replace(xml.find("<normals>"), 9, "<normals><geometryfile file=\"[CaseName]_hdp_Actual.vtk\" />");
  const std::string path = test::writeFile(dir / "DamBreak2D.xml", xml);
  test::expectInputErrorAt(path, xml, "<geometryfile", "geometryfile", "BoundNor");
}

// mDBC refuses normals that reach no particle, as DualSPHysics does when its run starts.
TEST(CaseNormals, MdbcWithoutAnyNormalIsRefused) {
  CaseDefinition c = load("NoneReached", tankWith(R"(<normals>
<norplane mkbound="0"><point x="0" y="0" z="5" /><normal x="0" y="0" z="1" /></norplane>
</normals>)"));
  try {
    deriveParameters(c);
    ADD_FAILURE() << "mDBC without any normal";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no boundary particle has a normal"), std::string::npos) << e.what();
  }
  const SimParameters p = deriveParameters(load("SomeReached", tankWith("<normals>" + kPlanes + "</normals>")));
  bool warned = false;
  for (const std::string& w : p.warnings) warned = warned || w.find("have no mDBC normal") != std::string::npos;
  EXPECT_FALSE(warned) << "every wall particle of the tank is reached";
}

TEST(CaseNormals, ErrorsNameLineAndElement) {
  struct Bad {
    const char* name;
    std::string normals;
    const char* marker;
    const char* element;
    const char* what;
  };
  const std::vector<Bad> bad = {
      {"ZeroNormal", "<norplane mkbound=\"0\"><point x=\"0\" y=\"0\" z=\"0\" />\n<normal x=\"0\" y=\"0\" z=\"0\" /></norplane>",
       "<normal x=\"0\" y=\"0\" z=\"0\"", "normal", "zero"},
      {"NoRadius", "<norsphere mkbound=\"0\"><center x=\"0\" y=\"0\" z=\"0\" />\n<radius v=\"0\" /><inside v=\"true\" /></norsphere>",
       "<radius", "radius", "positive"},
      {"NoInside", "<norsphere mkbound=\"0\">\n<center x=\"0\" y=\"0\" z=\"0\" /><radius v=\"1\" /></norsphere>",
       "<norsphere", "inside", "missing"},
      {"SameCentres", "<norcylinder mkbound=\"0\"><center1 x=\"0\" y=\"0\" z=\"0\" />\n<center2 x=\"0\" y=\"0\" z=\"0\" />"
                      "<radius v=\"1\" /><inside v=\"true\" /></norcylinder>",
       "<center2", "center2", "same point"},
      {"BothGeometries", "<geometryfile file=\"[CaseName]_hdp_Actual.vtk\" />\n<norgeometry><geometryfile "
                         "file=\"[CaseName]_hdp_Actual.vtk\" /></norgeometry>",
       "<norgeometry", "norgeometry", "keep one"},
      {"BadMk", "<norset mkbound=\"zero\">\n<normal x=\"0\" y=\"0\" z=\"1\" /></norset>", "<norset", "mkbound", "mk numbers"},
      {"Unknown", "<norplane mkbound=\"0\"><point x=\"0\" y=\"0\" z=\"0\" /><normal x=\"0\" y=\"0\" z=\"1\" />\n<limit1 v=\"true\" />"
                  "</norplane>",
       "<limit1", "limit1", "unknown"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.name);
    const std::string xml = tankWith("<normals>\n" + b.normals + "\n</normals>");
    test::expectLoadError("case_normals_bad", xml, b.marker, b.element, b.what);
  }
}

}  // namespace
}  // namespace sph
