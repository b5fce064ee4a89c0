// <initials>: GenCase's initial velocity of a fluid mk, as GenCase 5.0 applies it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "case/loader.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "sph/plugin/errors.h"

namespace {

namespace fs = std::filesystem;

std::string writeCase(const std::string& name, const std::string& xml) {
  const fs::path dir = fs::temp_directory_path() / ("sph_initials_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const fs::path file = dir / name;
  std::ofstream(file) << xml;
  return file.string();
}

// A case of the given <definition>, geometry commands and initials.
std::string caseOf(const std::string& definition, const std::string& commands, const std::string& initials) {
  return R"(<?xml version="1.0" ?>
<case>
<casedef>
<constantsdef>
<gravity x="0" y="0" z="-9.81" /><rhop0 value="1000" /><rhopgradient value="2" />
<hswl value="0" auto="true" /><gamma value="7" /><speedsystem value="0" auto="true" />
<coefsound value="20" /><speedsound value="0" auto="true" /><coefh value="1.0" /><cflnumber value="0.2" />
</constantsdef>
<mkconfig boundcount="240" fluidcount="9" />
<geometry>
)" + definition + R"(
<commands><mainlist>
)" + commands + R"(
</mainlist></commands>
</geometry>
)" + initials + R"(
</casedef>
<execution><parameters><parameter key="TimeMax" value="0.1" /></parameters></execution>
</case>
)";
}

// DualSPHysics' 2D dam break at dp 0.05 (800 fluid particles of mk 0, 201 boundary) with the
// initials given; GenCase 5.0 gave the fluid (1.5, 0.25, -0.5) and the walls zero.
std::string damBreak2D(const std::string& initials) {
  return caseOf(R"(<definition dp="0.05"><pointmin x="-1" y="0" z="-1" /><pointmax x="4.5" y="0" z="3.5" /></definition>)",
                R"(<setdrawmode mode="full" />
<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="1" y="2" z="2" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right | front | back</boxfill><point x="0" y="-1" z="0" /><size x="4" y="2" z="3" /></drawbox>)",
                initials);
}

TEST(CaseInitials, FluidVelocityAsGenCaseWritesIt) {
  // The second <velocity> of the same mk replaces the first, as in GenCase.
  const std::string xml = damBreak2D(
      "<initials>\n<velocity mkfluid=\"0\" x=\"9\" y=\"9\" z=\"9\" />\n"
      "<velocity mkfluid=\"0\" x=\"1.5\" y=\"0.25\" z=\"-0.5\" />\n</initials>");
  const sph::CaseDefinition c = sph::loadCase(writeCase("Initials_Def.xml", xml));
  ASSERT_EQ(c.nBound, 201u);
  ASSERT_EQ(c.nFluid, 800u);
  ASSERT_EQ(c.velocities.size(), c.positions.size());
  for (size_t i = 0; i < c.positions.size(); ++i) {
    const sph::Vec3f v = c.velocities[i];
    if (i < c.nBound) {
      EXPECT_TRUE(v.x == 0 && v.y == 0 && v.z == 0) << i;
    } else {
      EXPECT_TRUE(v.x == 1.5f && v.y == 0.25f && v.z == -0.5f) << i;
    }
  }
  EXPECT_TRUE(c.warnings.empty());
}

// A solitary wave drawn by <drawwave> (depth 1 m, H 0.4 m, crest at x0 = 4 m, dp 0.05) with
// <velwave>'s velocity: GenCase 5.0 gave 3,868 particles and these x velocities (every depth the
// same), u = sqrt(g d) H sech^2(sqrt(3 H / (4 d^3)) (x - x0)).
TEST(CaseInitials, SolitaryWaveVelocityAsGenCaseWritesIt) {
  auto wave = [](const char* negative) {
    return caseOf(R"(<definition dp="0.05"><pointmin x="0" y="0" z="0" /><pointmax x="10" y="0" z="3" /></definition>)",
                  R"(<setmkfluid mk="0" />
<drawwave depth="1" hmaxwave="0.4" x0="4" z0="0"><point x="0" y="0" z="0" /><size x="8" y="0" z="2" /></drawwave>)",
                  std::string(R"(<initials><velwave mkfluid="0" depth="1" hmaxwave="0.4" x0="4" negative=")") + negative +
                      R"(" /></initials>)");
  };
  const sph::CaseDefinition c = sph::loadCase(writeCase("Wave_Def.xml", wave("false")));
  ASSERT_EQ(c.nFluid, 3868u);
  ASSERT_EQ(c.velocities.size(), c.positions.size());
  const std::pair<double, float> genCase[] = {{0.0, 0.06111934781074524f}, {0.5, 0.1038159504532814f},
                                              {2.5, 0.6804373264312744f}, {4.0, 1.25283682346344f},
                                              {7.5, 0.1038159504532814f}};
  int checked = 0;
  for (size_t i = 0; i < c.positions.size(); ++i)
    for (const auto& [x, u] : genCase)
      if (std::fabs(c.positions[i].x - x) < 1e-9) {
        EXPECT_NEAR(c.velocities[i].x, u, 1e-6 * u) << "x " << x << " z " << c.positions[i].z;
        EXPECT_EQ(c.velocities[i].z, 0.0f);
        ++checked;
      }
  EXPECT_GT(checked, 80);
  const sph::CaseDefinition back = sph::loadCase(writeCase("WaveBack_Def.xml", wave("true")));
  for (size_t i = 0; i < c.positions.size(); ++i) ASSERT_EQ(back.velocities[i].x, -c.velocities[i].x);
}

TEST(CaseInitials, MkWithoutParticlesSetsNothingWithAWarning) {
  const std::string xml = damBreak2D("<initials><velocity mkfluid=\"5\" x=\"1\" y=\"0\" z=\"0\" /></initials>");
  const sph::CaseDefinition c = sph::loadCase(writeCase("InitialsNoMk_Def.xml", xml));
  EXPECT_TRUE(c.velocities.empty());
  ASSERT_EQ(c.warnings.size(), 1u);
  EXPECT_NE(c.warnings[0].find("mkfluid 5"), std::string::npos) << c.warnings[0];
  // The run's warnings carry it (run.json, the console).
  const sph::SimParameters p = sph::deriveParameters(c);
  ASSERT_FALSE(p.warnings.empty());
  EXPECT_EQ(p.warnings[0], c.warnings[0]);
}

TEST(CaseInitials, BadInputNamesTheElement) {
  // GenCase refuses these too: boundaries, an unknown element, a missing component.
  for (const char* bad : {"<velocity mkbound=\"0\" x=\"1\" y=\"0\" z=\"0\" />", "<velprofile mkfluid=\"0\" />",
                          "<velocity mkfluid=\"0\" x=\"1\" />"}) {
    const std::string xml = damBreak2D(std::string("<initials>\n") + bad + "\n</initials>");
    const std::string path = writeCase("InitialsBad_Def.xml", xml);
    try {
      sph::loadCase(path);
      ADD_FAILURE() << "no error for " << bad;
    } catch (const sph::InputError& e) {
      const std::string msg = e.what();
      EXPECT_EQ(msg.rfind(path + ":", 0), 0u) << msg;
      EXPECT_TRUE(msg.find("velocity") != std::string::npos || msg.find("velprofile") != std::string::npos) << msg;
    }
  }
}

}  // namespace

// GenCase 5.4's other initial conditions on the same dam break.
namespace sph {
namespace {

CaseDefinition loadWith(const std::string& name, const std::string& initials) {
  return loadCase(writeCase(name + "_Def.xml", damBreak2D("<initials>\n" + initials + "\n</initials>")));
}

// <velocity> written with a direction and a profile, as <initialize><fluidvelocity>.
TEST(CaseInitials, VelocityProfileAlongADirection) {
  const CaseDefinition c = loadWith("Profile", R"(<velocity mkfluid="0"><direction x="0" y="0" z="2" />
<velocity2 v="1" v2="3" z="0" z2="2" /></velocity>)");
  ASSERT_EQ(c.velocities.size(), c.positions.size());
  for (size_t i = c.nBound; i < c.positions.size(); ++i) {
    EXPECT_EQ(c.velocities[i].x, 0.0f);
    EXPECT_NEAR(c.velocities[i].z, 1 + c.positions[i].z, 1e-6);
  }
}

TEST(CaseInitials, MoveAndRotateTheParticlesOfAnMk) {
  const CaseDefinition plain = loadWith("Plain", "");
  const CaseDefinition moved = loadWith("Moved", R"(<move mkfluid="0" x="0.5" y="0" z="0.1" />
<move mkbound="0" x="0" y="0" z="-0.2" />)");
  const CaseDefinition turned = loadWith("Turned", R"(<rotateaxis mkfluid="0" angle="90" anglesunits="degrees">
<axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="1" z="0" /></rotateaxis>)");
  const CaseDefinition turnedRad = loadWith("TurnedRad", R"(<rotateaxis mkfluid="0" angle="1.5707963267948966" anglesunits="radians">
<axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="1" z="0" /></rotateaxis>)");
  ASSERT_EQ(moved.positions.size(), plain.positions.size());
  for (size_t i = 0; i < plain.positions.size(); ++i) {
    const Vec3d& p = plain.positions[i];
    const bool fluid = i >= plain.nBound;
    EXPECT_NEAR(moved.positions[i].x, p.x + (fluid ? 0.5 : 0), 1e-12);
    EXPECT_NEAR(moved.positions[i].z, p.z + (fluid ? 0.1 : -0.2), 1e-12);
    // GenCase turns clockwise seen from axisp2: a quarter turn about +y takes (x, z) to (-z, x).
    EXPECT_NEAR(turned.positions[i].x, fluid ? -p.z : p.x, 1e-12);
    EXPECT_NEAR(turned.positions[i].z, fluid ? p.x : p.z, 1e-12);
    EXPECT_EQ(turned.positions[i].y, p.y);
    EXPECT_NEAR(turnedRad.positions[i].x, turned.positions[i].x, 1e-12);
    EXPECT_NEAR(turnedRad.positions[i].z, turned.positions[i].z, 1e-12);
  }
}

TEST(CaseInitials, RandomMovesStayWithinTheirAmplitudeAndRepeatWithTheSeed) {
  const CaseDefinition plain = loadWith("Plain", "");
  const CaseDefinition a = loadWith("RandomA", R"(<moverandom mkfluid="0" randomseed="2810" dpx="0.1" dpz="0.05" />)");
  const CaseDefinition b = loadWith("RandomB", R"(<moverandom mkfluid="0" randomseed="2810" dpx="0.1" dpz="0.05" />)");
  const CaseDefinition other = loadWith("RandomC", R"(<moverandom mkfluid="0" randomseed="7" dpxyz="0.1" />)");
  double largestX = 0, largestZ = 0;
  int differ = 0;
  for (size_t i = 0; i < plain.positions.size(); ++i) {
    const Vec3d d = sub(a.positions[i], plain.positions[i]);
    if (i < plain.nBound) {
      EXPECT_EQ(norm(d), 0.0);
      continue;
    }
    EXPECT_LE(std::abs(d.x), 0.1 * 0.05);
    EXPECT_LE(std::abs(d.z), 0.05 * 0.05);
    EXPECT_EQ(d.y, 0.0);  // 2D: the particles stay in their plane
    EXPECT_EQ(b.positions[i].x, a.positions[i].x);
    EXPECT_EQ(b.positions[i].z, a.positions[i].z);
    EXPECT_EQ(other.positions[i].y, plain.positions[i].y);
    differ += other.positions[i].x != a.positions[i].x;
    largestX = std::max(largestX, std::abs(d.x));
    largestZ = std::max(largestZ, std::abs(d.z));
  }
  // 800 uniform draws come within 1% of each bound.
  EXPECT_GT(largestX, 0.99 * 0.1 * 0.05);
  EXPECT_GT(largestZ, 0.99 * 0.05 * 0.05);
  EXPECT_GT(differ, 790);
}

std::vector<double> densities(const CaseDefinition& c) {
  std::vector<double> rho(c.positions.size());
  initialDensity(c, deriveParameters(c), rho.data());
  return rho;
}

TEST(CaseInitials, UniformAndGradientDensities) {
  const CaseDefinition c = loadWith("Densities", R"(<densityuniform mkfluid="0" rhop="1001.5">
<onlypos><posmax z="1" /></onlypos></densityuniform>
<densitygradient mkfluid="0"><onlypos><posmin z="1.5" /></onlypos>
<pos1 x="0" y="0" z="2" rhop="1000" /><pos2 x="0" y="0" z="1" rhop="1010" /></densitygradient>)");
  const std::vector<double> rho = densities(c);
  const SimParameters p = deriveParameters(c);
  std::vector<double> hydrostatic(c.positions.size());
  hydrostaticDensity(c, p, hydrostatic.data());
  for (size_t i = c.nBound; i < c.positions.size(); ++i) {
    const double z = c.positions[i].z;
    if (z <= 1) EXPECT_EQ(rho[i], 1001.5);
    else if (z >= 1.5) EXPECT_NEAR(rho[i], 1000 + 10 * (2 - z), 1e-9);
    else EXPECT_EQ(rho[i], hydrostatic[i]);
  }
  for (size_t i = 0; i < c.nBound; ++i) EXPECT_EQ(rho[i], p.rho0);
}

// <densitydepth> without a surface level takes the mk's highest particle: <rhopgradient> 3's
// rule, to rounding; with one, the depth below it; with its own constants, theirs.
TEST(CaseInitials, HydrostaticDensityFromTheDepth) {
  const CaseDefinition automatic = loadWith("DepthAuto", R"(<densitydepth mkfluid="0" />)");
  std::string mode3Xml = damBreak2D("");
  mode3Xml.replace(mode3Xml.find("<rhopgradient value=\"2\" />"), 26, "<rhopgradient value=\"3\" />");
  const CaseDefinition mode3 = loadCase(writeCase("Mode3_Def.xml", mode3Xml));
  const std::vector<double> a = densities(automatic), m = densities(mode3);
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], m[i], 1e-9 * m[i]);
  const CaseDefinition given = loadWith("DepthGiven", R"(<densitydepth mkfluid="0"><posswl x="0" y="0" z="2.5" />
<rhop0 value="1100" /><gamma value="6.5" /><b value="2e6" /></densitydepth>)");
  const std::vector<double> g = densities(given);
  for (size_t i = given.nBound; i < g.size(); ++i) {
    const double depth = 2.5 - given.positions[i].z;
    EXPECT_NEAR(g[i], 1100 * std::pow(1 + 1100 * 9.81 * depth / 2e6, 1 / 6.5), 1e-9 * g[i]);
  }
}

// GenCase's output holds the densities GenCase worked out: the operations are only checked.
TEST(CaseInitials, GenCaseOutputIsNotChangedAgain) {
  const fs::path data = fs::path(SPH_SOURCE_DIR) / "engine/tests/data/gencase";
  const fs::path dir = fs::path(writeCase("unused.txt", "")).parent_path();
  fs::copy_file(data / "DamBreak2D.bi4", dir / "DamBreak2D.bi4", fs::copy_options::overwrite_existing);
  std::ifstream in(data / "DamBreak2D.xml");
  std::string xml((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  xml.insert(xml.find("    </casedef>"), R"(<initials><densityuniform mkfluid="0" rhop="1200" />
<move mkfluid="0" x="1" y="0" z="0" /></initials>
)");
  const CaseDefinition c = loadCase(writeCase("DamBreak2D.xml", xml));
  const CaseDefinition original = loadCase((data / "DamBreak2D.xml").string());
  EXPECT_TRUE(c.initialDensities.empty());
  for (size_t i = 0; i < c.positions.size(); ++i) EXPECT_EQ(c.positions[i].x, original.positions[i].x);
}

TEST(CaseInitials, BadOperationsNameLineAndElement) {
  struct Bad {
    const char* initials;
    const char* marker;
    const char* element;
    const char* what;
  };
  const std::vector<Bad> bad = {
      {"<densityuniform mkfluid=\"0\" rhop=\"0\" />", "<densityuniform", "densityuniform", "positive"},
      {"<densitygradient mkfluid=\"0\"><pos1 x=\"0\" y=\"0\" z=\"1\" rhop=\"1000\" />\n<pos2 x=\"0\" y=\"0\" z=\"1\" "
       "rhop=\"1001\" /></densitygradient>",
       "<pos2", "pos2", "same point"},
      {"<move mkfluid=\"0\" mkbound=\"0\" x=\"1\" y=\"0\" z=\"0\" />", "<move", "move", "one of mkbound"},
      {"<move mkfluid=\"0\" x=\"1\" y=\"0.1\" z=\"0\" />", "<move", "move", "2D"},
      {"<rotateaxis mkfluid=\"0\" angle=\"1\" anglesunits=\"grads\"><axisp1 x=\"0\" y=\"0\" z=\"0\" /><axisp2 x=\"0\" "
       "y=\"1\" z=\"0\" /></rotateaxis>",
       "<rotateaxis", "rotateaxis", "degrees or radians"},
      {"<rotateaxis mkfluid=\"0\" angle=\"1\"><axisp1 x=\"0\" y=\"0\" z=\"0\" /><axisp2 x=\"1\" y=\"0\" z=\"0\" "
       "/></rotateaxis>",
       "<rotateaxis", "rotateaxis", "along y"},
      {"<moverandom mkfluid=\"0\" dpx=\"-0.1\" />", "<moverandom", "moverandom", "negative"},
      {"<velwave mkfluid=\"0\" depth=\"0\" hmaxwave=\"0.1\" x0=\"1\" />", "<velwave", "velwave", "depth must be positive"},
      {"<velwave mkfluid=\"0\" depth=\"1\" hmaxwave=\"-0.1\" x0=\"1\" />", "<velwave", "velwave", "hmaxwave"},
      {"<velwave mkbound=\"0\" depth=\"1\" hmaxwave=\"0.1\" x0=\"1\" />", "<velwave", "velwave", "mkfluid"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.initials);
    const std::string xml = damBreak2D(std::string("<initials>\n") + b.initials + "\n</initials>");
    const std::string path = writeCase("InitialsBad_Def.xml", xml);
    try {
      loadCase(path);
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      const std::string msg = e.what();
      const std::string marker = b.marker;
      const size_t at = xml.find(marker);
      const std::string line = std::to_string(1 + std::count(xml.begin(), xml.begin() + long(at), '\n'));
      EXPECT_EQ(msg.rfind(path + ":" + line + ":", 0), 0u) << msg;
      EXPECT_NE(msg.find(b.element), std::string::npos) << msg;
      EXPECT_NE(msg.find(b.what), std::string::npos) << msg;
    }
  }
}

}  // namespace
}  // namespace sph
