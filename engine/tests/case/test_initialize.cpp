// <special><initialize><fluidvelocity> (DualSPHysics' start-of-run fluid velocities): constant,
// linear and parabolic profiles in z along a direction, for chosen mkfluid and inside onlypos,
// against the formulas and against DualSPHysics 5.4 (its first part of InitializeDamBreak2D_Def.xml,
// DualSPHysics' CaseDambreakVal2D with a parabolic profile inside onlypos; the fixture is its
// PartCsv_0000.csv after `GenCase_linux64 Def out/Init` and `DualSPHysics5.4CPU_linux64 out/Init run
// -cpu -sv:csv`, every 37th particle); and the reader's errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "model/case_model.h"
#include "test_motion_cases.h"
#include "test_support.h"

namespace sph {
namespace {

std::string tankWith(const std::string& initialize) {
  test::PistonTank t;
  t.special = "<initialize>\n" + initialize + "\n</initialize>";
  return test::pistonTankXml(t);
}

CaseDefinition load(const std::string& name, const std::string& initialize) {
  return loadCase(test::writeFile(test::tempDir("initialize") / (name + "_Def.xml"), tankWith(initialize)));
}

// Calls f(i, z) for every fluid particle, and checks that boundary particles did not move.
template <typename F>
int forFluid(const CaseDefinition& c, F&& f) {
  int n = 0;
  for (size_t i = 0; i < c.positions.size(); ++i) {
    const Vec3f v = c.velocities.empty() ? Vec3f{} : c.velocities[i];
    if (c.mks[c.mkIndex[i]].bound) {
      EXPECT_EQ(v.x, 0.0f);
      EXPECT_EQ(v.z, 0.0f);
      continue;
    }
    f(c.positions[i], v);
    ++n;
  }
  return n;
}

TEST(InitializeFluidVelocity, ConstantAlongTheUnitDirection) {
  const CaseDefinition c = load("Constant", R"(<fluidvelocity mkfluid="0"><direction x="3" y="0" z="4" />
<velocity v="0.5" /></fluidvelocity>)");
  EXPECT_GT(forFluid(c, [](const Vec3d&, const Vec3f& v) {
              EXPECT_FLOAT_EQ(v.x, 0.3f);
              EXPECT_FLOAT_EQ(v.z, 0.4f);
              EXPECT_EQ(v.y, 0.0f);
            }),
            0);
}

TEST(InitializeFluidVelocity, LinearAndParabolicInZ) {
  const CaseDefinition lin = load("Linear", R"(<fluidvelocity><direction x="1" y="0" z="0" />
<velocity2 v="0" v2="1" z="0" z2="0.2" /></fluidvelocity>)");
  forFluid(lin, [](const Vec3d& x, const Vec3f& v) { EXPECT_NEAR(v.x, x.z / 0.2, 2e-7); });
  const CaseDefinition par = load("Parabolic", R"(<fluidvelocity><direction x="1" y="0" z="0" />
<velocity3 v="0" v2="1" v3="0" z="0" z2="0.1" z3="0.2" /></fluidvelocity>)");
  forFluid(par, [](const Vec3d& x, const Vec3f& v) {
    const double u = (x.z - 0.1) / 0.1;
    EXPECT_NEAR(v.x, 1 - u * u, 1e-6);
  });
}

TEST(InitializeFluidVelocity, OnlyInsideOnlyposAndForTheMksGiven) {
  const CaseDefinition c = load("OnlyPos", R"(<fluidvelocity mkfluid="0"><direction x="1" y="0" z="0" />
<velocity v="2" /><onlypos><posmin x="0.3" /></onlypos></fluidvelocity>)");
  int inside = 0, outside = 0;
  forFluid(c, [&](const Vec3d& x, const Vec3f& v) {
    if (x.x >= 0.3) {
      EXPECT_EQ(v.x, 2.0f);
      ++inside;
    } else {
      EXPECT_EQ(v.x, 0.0f);
      ++outside;
    }
  });
  EXPECT_GT(inside, 0);
  EXPECT_GT(outside, 0);
  const CaseDefinition other = load("OtherMk", R"(<fluidvelocity mkfluid="3"><direction x="1" y="0" z="0" />
<velocity v="2" /></fluidvelocity>)");
  forFluid(other, [](const Vec3d&, const Vec3f& v) { EXPECT_EQ(v.x, 0.0f); });
}

// DualSPHysics solves the parabola's 3x3 system in single precision and we in double: 2e-5 m/s
// holds its rounding on velocities of up to 1 m/s (7.4e-6 measured); a wrong particle set or
// profile would be off by a tenth of a metre a second or more.
TEST(InitializeFluidVelocity, MatchesDualSPHysics) {
  const CaseDefinition c = loadCase(test::dualsphysicsData("InitializeDamBreak2D_Def.xml"));
  const auto rows = test::readFixtureRows(test::dualsphysicsData("InitializeDamBreak2D_velocity.csv"), 4);
  ASSERT_GT(rows.size(), 500u);
  ASSERT_FALSE(c.velocities.empty());
  int matched = 0, moving = 0;
  double worst = 0;
  for (const auto& r : rows) {
    for (size_t i = 0; i < c.positions.size(); ++i) {
      if (std::abs(c.positions[i].x - r[0]) > 1e-6 || std::abs(c.positions[i].z - r[1]) > 1e-6) continue;
      worst = std::max({worst, std::abs(c.velocities[i].x - r[2]), std::abs(c.velocities[i].z - r[3])});
      ++matched;
      moving += r[2] != 0;
      break;
    }
  }
  EXPECT_EQ(matched, int(rows.size()));
  EXPECT_GT(moving, 300);
  EXPECT_LT(worst, 2e-5);
}

TEST(InitializeFluidVelocity, RefusesBadOperationsNamingLineAndElement) {
  struct Bad {
    const char* name;
    std::string initialize;
    const char* marker;
    const char* element;
    const char* what;
  };
  const std::vector<Bad> bad = {
      {"TwoProfiles", "<fluidvelocity><direction x=\"1\" y=\"0\" z=\"0\" />\n<velocity v=\"1\" /><velocity2 v=\"0\" "
                      "v2=\"1\" z=\"0\" z2=\"1\" /></fluidvelocity>",
       "<fluidvelocity", "fluidvelocity", "exactly one"},
      {"ZeroDirection", "<fluidvelocity>\n<direction x=\"0\" y=\"0\" z=\"0\" /><velocity v=\"1\" /></fluidvelocity>",
       "<direction", "direction", "zero"},
      {"SameZ", "<fluidvelocity><direction x=\"1\" y=\"0\" z=\"0\" />\n<velocity2 v=\"0\" v2=\"1\" z=\"1\" z2=\"1\" "
                "/></fluidvelocity>",
       "<velocity2", "velocity2", "must differ"},
      {"NormalsFromParticles", "<boundnormal_parts mkbound=\"1\"><maxdisth v=\"2\" /></boundnormal_parts>",
       "<boundnormal_parts", "boundnormal_parts", "not supported"},
      {"Unknown", "<fluidvelocity><direction x=\"1\" y=\"0\" z=\"0\" /><velocity v=\"1\" />\n<profile /></fluidvelocity>",
       "<profile", "profile", "unknown"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.name);
    const std::string xml = tankWith(b.initialize);
    const std::string path = test::writeFile(test::tempDir("initialize") / (std::string(b.name) + "_Def.xml"), xml);
    test::expectInputErrorAt(path, xml, b.marker, b.element, b.what);
  }
}

}  // namespace
}  // namespace sph
