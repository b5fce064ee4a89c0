// <initials>: GenCase's initial velocity of a fluid mk, as GenCase 5.0 applies it.
#include <gtest/gtest.h>

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

// DualSPHysics' 2D dam break at dp 0.05 (800 fluid particles of mk 0, 201 boundary) with the
// initials given; GenCase 5.0 gave the fluid (1.5, 0.25, -0.5) and the walls zero.
std::string damBreak2D(const std::string& initials) {
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
<definition dp="0.05"><pointmin x="-1" y="0" z="-1" /><pointmax x="4.5" y="0" z="3.5" /></definition>
<commands><mainlist>
<setdrawmode mode="full" />
<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="1" y="2" z="2" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right | front | back</boxfill><point x="0" y="-1" z="0" /><size x="4" y="2" z="3" /></drawbox>
</mainlist></commands>
</geometry>
)" + initials + R"(
</casedef>
<execution><parameters><parameter key="TimeMax" value="0.1" /></parameters></execution>
</case>
)";
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
