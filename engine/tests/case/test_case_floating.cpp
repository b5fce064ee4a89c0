// <floatings> and <properties>: floating bodies, materials (property files, inline properties,
// "_User" overrides, '+'-joined names) and the errors for bad input, including those that only
// the simulation set-up can find (DEM materials, RigidAlgorithm).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "case/loader.h"
#include "floating/floating_bodies.h"
#include "model/sim_parameters.h"
#include "model/case_model.h"
#include "run/simulation.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace {

using sph::CaseDefinition;
using sph::InputError;

std::string testcase(const char* name) { return std::string(SPH_SOURCE_DIR) + "/testcases/" + name; }

// Two boundary blocks (mkbound 1 and 2) on a floor (mkbound 0) with water; `extra` goes inside
// <casedef> after the geometry.
std::string blocksCase(const std::string& extra) {
  return "<?xml version=\"1.0\" ?>\n<case>\n<casedef>\n<geometry>\n<definition dp=\"0.1\">\n"
         "<pointmin x=\"0\" y=\"0\" z=\"0\" />\n<pointmax x=\"2\" y=\"1\" z=\"1\" />\n</definition>\n"
         "<commands>\n<mainlist>\n<setdrawmode mode=\"full\" />\n"
         "<setmkfluid mk=\"0\" />\n<drawbox>\n<point x=\"0\" y=\"0\" z=\"0.1\" />\n<size x=\"0.5\" y=\"1\" z=\"0.5\" />\n</drawbox>\n"
         "<setmkbound mk=\"0\" />\n<drawbox>\n<boxfill>bottom</boxfill>\n<point x=\"0\" y=\"0\" z=\"0\" />\n"
         "<size x=\"2\" y=\"1\" z=\"1\" />\n</drawbox>\n"
         "<setmkbound mk=\"1\" />\n<drawbox>\n<point x=\"1\" y=\"0.2\" z=\"0.1\" />\n<size x=\"0.2\" y=\"0.2\" z=\"0.2\" />\n</drawbox>\n"
         "<setmkbound mk=\"2\" />\n<drawbox>\n<point x=\"1.5\" y=\"0.2\" z=\"0.1\" />\n<size x=\"0.2\" y=\"0.2\" z=\"0.2\" />\n</drawbox>\n"
         "</mainlist>\n</commands>\n</geometry>\n" +
         extra + "</casedef>\n</case>\n";
}

std::string writeCase(const std::string& dir, const std::string& xml) {
  return sph::test::writeFile(sph::test::tempDir(dir) / "case.xml", xml);
}

using sph::test::lineOf;

void expectError(const std::string& path, int line, const std::string& element, const std::string& text) {
  try {
    sph::loadCase(path);
    FAIL() << "no error for " << text;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind(path + ":" + std::to_string(line) + ":", 0), 0u) << msg;
    EXPECT_NE(msg.find(element), std::string::npos) << msg;
    EXPECT_NE(msg.find(text), std::string::npos) << msg;
  }
}

TEST(CaseFloatings, SolidsBodiesAndMaterials) {
  const CaseDefinition c = sph::loadCase(testcase("Solids.xml"));
  ASSERT_EQ(c.floatings.size(), 1u);
  const sph::FloatingDef& f = c.floatings[0];
  ASSERT_EQ(f.mkBound.size(), 18u);
  EXPECT_EQ(f.mkBound.front(), 51);
  EXPECT_EQ(f.mkBound.back(), 68);
  ASSERT_TRUE(f.relativeWeight);
  EXPECT_DOUBLE_EQ(*f.relativeWeight, 1.25);
  EXPECT_EQ(f.property, "hard-wood");
  // testcases/materials/Floating_Materials.xml, found through the bundled materials folder.
  const auto wood = sph::resolveMaterial(c.properties, f.property, "");
  EXPECT_DOUBLE_EQ(wood.at("Young_Modulus"), 1.23e10);
  ASSERT_EQ(c.properties.links.size(), 1u);
  EXPECT_EQ(c.properties.links[0].mkBound, std::vector<int>{0});
  // "steel + userdef01": steel's keys, then Restitution_Coefficient_User 0.65 replaces steel's 0.80.
  const auto tank = sph::resolveMaterial(c.properties, c.properties.links[0].property, "");
  EXPECT_DOUBLE_EQ(tank.at("Restitution_Coefficient"), 0.65);
  EXPECT_DOUBLE_EQ(tank.at("Young_Modulus"), 2.1e11);
  EXPECT_EQ(tank.count("Restitution_Coefficient_User"), 0u);
}

TEST(CaseFloatings, MkListsRangesAndWeights) {
  const std::string xml = blocksCase(
      "<floatings>\n<floating mkbound=\"1\" relativeweight=\"0.5\" />\n"
      "<floating mkbound=\"2\">\n<massbody value=\"3.5\" />\n<center x=\"1.6\" y=\"0.3\" z=\"0.2\" />\n"
      "<velini x=\"1\" y=\"0\" z=\"0\" />\n</floating>\n</floatings>\n");
  const CaseDefinition c = sph::loadCase(writeCase("floating_ok", xml));
  ASSERT_EQ(c.floatings.size(), 2u);
  EXPECT_DOUBLE_EQ(*c.floatings[0].relativeWeight, 0.5);
  EXPECT_DOUBLE_EQ(*c.floatings[1].massBody, 3.5);
  EXPECT_DOUBLE_EQ(c.floatings[1].center->x, 1.6);
  EXPECT_DOUBLE_EQ(c.floatings[1].velIni.x, 1.0);
  EXPECT_EQ(c.floatings[1].line, lineOf(xml, "<floating mkbound=\"2\""));
}

// DualSPHysics 5 names the initial velocities linearvelini and angularvelini (GenCase 5 refuses
// the older velini and omegaini); either name is read, both at once are refused.
TEST(CaseFloatings, InitialVelocitiesUnderEitherName) {
  const std::string xml = blocksCase(
      "<floatings>\n<floating mkbound=\"1\" relativeweight=\"0.5\">\n"
      "<linearvelini x=\"0\" y=\"0\" z=\"-2\" />\n<angularvelini x=\"0\" y=\"3\" z=\"0\" />\n</floating>\n"
      "<floating mkbound=\"2\" relativeweight=\"0.5\">\n<omegaini x=\"1\" y=\"0\" z=\"0\" />\n</floating>\n"
      "</floatings>\n");
  const CaseDefinition c = sph::loadCase(writeCase("floating_velini", xml));
  ASSERT_EQ(c.floatings.size(), 2u);
  EXPECT_DOUBLE_EQ(c.floatings[0].velIni.z, -2.0);
  EXPECT_DOUBLE_EQ(c.floatings[0].omegaIni.y, 3.0);
  EXPECT_DOUBLE_EQ(c.floatings[1].omegaIni.x, 1.0);
  const std::string both = blocksCase(
      "<floatings>\n<floating mkbound=\"1\" relativeweight=\"0.5\">\n<velini x=\"1\" y=\"0\" z=\"0\" />\n"
      "<linearvelini x=\"1\" y=\"0\" z=\"0\" />\n</floating>\n</floatings>\n");
  expectError(writeCase("floating_velini_both", both), lineOf(both, "<linearvelini"), "<linearvelini>", "keep one");
}

// The set-up of a run from `xml` must fail with `text`, naming the file (and `line` if > 0).
void expectRunError(const std::string& dir, const std::string& xml, int line, const std::string& text) {
  const std::string path = writeCase(dir, xml);
  const CaseDefinition c = sph::loadCase(path);
  sph::RunOptions o;
  o.device = sph::Device::Cpu;
  o.writeOutput = false;
  try {
    sph::Simulation sim(c, o);
    FAIL() << "no error for " << text;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    const std::string where = line > 0 ? path + ":" + std::to_string(line) + ":" : path + ":";
    EXPECT_EQ(msg.rfind(where, 0), 0u) << msg;
    EXPECT_NE(msg.find(text), std::string::npos) << msg;
  }
}

std::string withParameters(const std::string& params) {
  return "<execution>\n<parameters>\n" + params + "</parameters>\n</execution>\n";
}

// The body's density as GenCase 5.4 writes it: an attribute, and rhopbody="0" beside <massbody>
// meaning "not given" (GenCase_CaseTemplate.xml's mkbound 3); two weights are refused.
TEST(CaseFloatings, RhopbodyAttributeAsGenCase54WritesIt) {
  const CaseDefinition c = sph::loadCase(writeCase(
      "floating_rhop_attr", blocksCase("<floatings>\n<floating mkbound=\"1\" rhopbody=\"700\" />\n"
                                       "<floating mkbound=\"2\" rhopbody=\"0\">\n<massbody value=\"3\" />\n"
                                       "</floating>\n</floatings>\n")));
  ASSERT_EQ(c.floatings.size(), 2u);
  EXPECT_DOUBLE_EQ(*c.floatings[0].rhopBody, 700);
  EXPECT_FALSE(c.floatings[0].massBody);
  EXPECT_FALSE(c.floatings[1].rhopBody);
  EXPECT_DOUBLE_EQ(*c.floatings[1].massBody, 3);
  const std::string two =
      blocksCase("<floatings>\n<floating mkbound=\"1\" rhopbody=\"700\" relativeweight=\"0.5\" />\n</floatings>\n");
  expectError(writeCase("floating_two_weights", two), lineOf(two, "<floating mkbound"), "<floating>", "exactly once");
}

// <inertia> (the diagonal), <inertiafull> (the tensor) and <masspart> (a value or
// distributed_bodymass) reach the bodies the run moves; without them, GenCase's inertia from the
// particles and rho0 dp^3 (1 kg at dp 0.1).
TEST(CaseFloatings, GivenInertiaAndParticleMass) {
  const std::string xml = blocksCase(R"(<floatings>
<floating mkbound="1" relativeweight="0.5"><inertia x="2" y="3" z="4" /></floating>
<floating mkbound="2"><massbody value="6" /><masspart value="0.5" />
<inertiafull><values v11="5" v12="0.1" v13="0" /><values v21="0.1" v22="6" v23="0.2" />
<values v31="0" v32="0.2" v33="7" /></inertiafull></floating>
</floatings>
)");
  const CaseDefinition c = sph::loadCase(writeCase("floating_inertia", xml));
  const sph::SimParameters p = sph::deriveParameters(c);
  const auto bodies = sph::floatingBodies(c, p, sph::planParticleOrder(c));
  ASSERT_EQ(bodies.size(), 2u);
  const double first[6] = {2, 3, 4, 0, 0, 0}, second[6] = {5, 6, 7, 0.1, 0, 0.2};
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(bodies[0].inertia[k], first[k]);
    EXPECT_EQ(bodies[1].inertia[k], second[k]);
  }
  EXPECT_DOUBLE_EQ(bodies[0].pairMass, 1.0);
  EXPECT_EQ(bodies[1].pairMass, 0.5);
  // Without them: GenCase's inertia (positive moments) and the body's mass spread over its particles.
  const std::string plain = blocksCase(R"(<floatings><floating mkbound="1"><massbody value="6" />
<masspart value="distributed_bodymass" /></floating></floatings>
)");
  const CaseDefinition d = sph::loadCase(writeCase("floating_inertia_plain", plain));
  const auto b = sph::floatingBodies(d, sph::deriveParameters(d), sph::planParticleOrder(d));
  EXPECT_GT(b[0].inertia[0], 0);
  EXPECT_DOUBLE_EQ(b[0].pairMass, 6.0 / b[0].count);
}

TEST(CaseFloatingsErrors, BadInertiaAndParticleMass) {
  const struct {
    const char* body;
    const char* marker;
    const char* text;
  } cases[] = {
      {"<floating mkbound=\"1\" relativeweight=\"1\"><inertiafull>\n<values v11=\"1\" v12=\"0.5\" v13=\"0\" />"
       "<values v21=\"0\" v22=\"1\" v23=\"0\" /><values v31=\"0\" v32=\"0\" v33=\"1\" /></inertiafull></floating>",
       "<inertiafull", "symmetric"},
      {"<floating mkbound=\"1\" relativeweight=\"1\">\n<inertia x=\"0\" y=\"1\" z=\"1\" /></floating>", "<inertia ",
       "must be positive"},
      {"<floating mkbound=\"1\" relativeweight=\"1\">\n<masspart value=\"0\" /></floating>", "<masspart", "positive"},
      {"<floating mkbound=\"1\" relativeweight=\"1\"><inertia x=\"1\" y=\"1\" z=\"1\" />\n<inertiafull>"
       "<values v11=\"1\" v12=\"0\" v13=\"0\" /></inertiafull></floating>",
       "<inertiafull", "keep one"},
  };
  for (const auto& t : cases) {
    SCOPED_TRACE(t.body);
    const std::string xml = blocksCase(std::string("<floatings>\n") + t.body + "\n</floatings>\n");
    expectError(writeCase("floating_bad_inertia", xml), lineOf(xml, t.marker), "<", t.text);
  }
  // FloatingMotion rigid works the inertia out every step: a given one is refused.
  std::string rigid = blocksCase(R"(<floatings><floating mkbound="1" relativeweight="1"><inertia x="1" y="1" z="1" />
</floating></floatings>
)");
  rigid.insert(rigid.find("</case>"), R"(<execution><parameters><parameter key="FloatingMotion" value="rigid" />
</parameters></execution>
)");
  const CaseDefinition c = sph::loadCase(writeCase("floating_rigid_inertia", rigid));
  EXPECT_THROW(sph::floatingBodies(c, sph::deriveParameters(c), sph::planParticleOrder(c)), InputError);
}

// <linearvel>, <angularvel>, <linearforce>, <angularforce> (rows or a file), <translationDOF>,
// <rotationDOF>, as GenCase_CaseTemplate.xml writes them.
TEST(CaseFloatings, ImposedMotionAndRestrictions) {
  const auto dir = sph::test::tempDir("floating_imposed");
  sph::test::writeFile(dir / "FileAngular.csv", "# time x y z\n0 0 0 1\n2 0 0 3\n");
  const std::string xml = blocksCase(
      "<floatings>\n<floating mkbound=\"1\" relativeweight=\"0.5\">\n"
      "<translationDOF x=\"0\" y=\"0\" z=\"1\" />\n<rotationDOF x=\"0\" y=\"1\" />\n"
      "<linearvel>\n<vel time=\"0\" x=\"0\" z=\"0\" />\n<vel time=\"1\" x=\"2\" y=\"none\" z=\"4\" />\n</linearvel>\n"
      "<angularvel file=\"FileAngular.csv\" />\n"
      "<linearforce>\n<force time=\"0\" x=\"1\" y=\"2\" z=\"3\" />\n</linearforce>\n</floating>\n"
      "<floating mkbound=\"2\" relativeweight=\"0.5\" />\n</floatings>\n");
  const CaseDefinition c = sph::loadCase(sph::test::writeFile(dir / "case.xml", xml));
  const sph::FloatingDef& f = c.floatings.at(0);
  EXPECT_FALSE(f.translationFree[0]);
  EXPECT_FALSE(f.translationFree[1]);
  EXPECT_TRUE(f.translationFree[2]);
  EXPECT_FALSE(f.rotationFree[0]);
  EXPECT_TRUE(f.rotationFree[1]);
  EXPECT_TRUE(f.rotationFree[2]);  // left out: free
  ASSERT_TRUE(f.linearVel);
  const sph::Vec3d half = f.linearVel->at(0.5);
  EXPECT_DOUBLE_EQ(half.x, 1);
  EXPECT_TRUE(std::isnan(half.y));  // y left out at 0 (free), none at 1
  EXPECT_DOUBLE_EQ(half.z, 2);
  EXPECT_DOUBLE_EQ(f.linearVel->at(5).x, 2);  // after the last row: the last value
  ASSERT_TRUE(f.angularVel);
  EXPECT_DOUBLE_EQ(f.angularVel->at(1).z, 2);
  ASSERT_TRUE(f.linearForce);
  EXPECT_DOUBLE_EQ(f.linearForce->at(7).y, 2);
  EXPECT_FALSE(f.angularForce);
  const sph::FloatingDef& free = c.floatings.at(1);
  EXPECT_TRUE(free.translationFree[0] && free.rotationFree[2]);
  EXPECT_FALSE(free.linearVel);

  const std::string twice = blocksCase(
      "<floatings>\n<floating mkbound=\"1\" relativeweight=\"0.5\">\n<translation x=\"0\" />\n"
      "<translationDOF x=\"0\" />\n</floating>\n</floatings>\n");
  expectError(writeCase("floating_dof_twice", twice), lineOf(twice, "<translation x"), "<translation>", "keep one");
  const std::string noRows = blocksCase(
      "<floatings>\n<floating mkbound=\"1\" relativeweight=\"0.5\">\n<linearforce />\n</floating>\n</floatings>\n");
  expectError(writeCase("floating_no_rows", noRows), lineOf(noRows, "<linearforce"), "<linearforce>", "needs <force");
}

TEST(CaseFloatingsErrors, DemNeedsMaterialsForBodiesAndWalls) {
  const std::string rigid2 = "<parameter key=\"RigidAlgorithm\" value=\"2\" />\n";
  {  // a body without property=
    std::string xml = blocksCase("<floatings>\n<floating mkbound=\"1-2\" relativeweight=\"0.5\" />\n</floatings>\n");
    xml.replace(xml.find("</case>"), 7, withParameters(rigid2) + "</case>");
    expectRunError("dem_body", xml, lineOf(xml, "<floating "), "<floating> mkbound 1: RigidAlgorithm=2 (DEM) needs");
  }
  {  // the floor (mkbound 0) has no <link>
    std::string xml = blocksCase(
        "<floatings>\n<floating mkbound=\"1-2\" relativeweight=\"0.5\" property=\"steel\" />\n</floatings>\n"
        "<properties>\n<property name=\"steel\" Young_Modulus=\"2e11\" PoissonRatio=\"0.3\" "
        "Restitution_Coefficient=\"0.8\" Kfric=\"0.4\" />\n</properties>\n");
    xml.replace(xml.find("</case>"), 7, withParameters(rigid2) + "</case>");
    expectRunError("dem_wall", xml, 0, "mkbound 0 has none: add <link mkbound=\"0\"");
  }
  {  // a material without Kfric
    std::string xml = blocksCase(
        "<floatings>\n<floating mkbound=\"1-2\" relativeweight=\"0.5\" property=\"soft\" />\n</floatings>\n"
        "<properties>\n<property name=\"soft\" Young_Modulus=\"2e6\" PoissonRatio=\"0.3\" "
        "Restitution_Coefficient=\"0.8\" />\n<links>\n<link mkbound=\"0\" property=\"soft\" />\n</links>\n"
        "</properties>\n");
    xml.replace(xml.find("</case>"), 7, withParameters(rigid2) + "</case>");
    expectRunError("dem_kfric", xml, lineOf(xml, "<floating "), "has no Kfric");
  }
}

TEST(CaseFloatingsErrors, UnsupportedRigidAlgorithm) {
  std::string xml = blocksCase("<floatings>\n<floating mkbound=\"1-2\" relativeweight=\"0.5\" />\n</floatings>\n");
  xml.replace(xml.find("</case>"), 7, withParameters("<parameter key=\"RigidAlgorithm\" value=\"3\" />\n") + "</case>");
  expectRunError("rigid3", xml, lineOf(xml, "RigidAlgorithm"), "RigidAlgorithm");
}

TEST(CaseFloatingsErrors, BadBodies) {
  const struct {
    const char* body;
    const char* text;
  } cases[] = {
      {"<floating mkbound=\"7\" relativeweight=\"1\" />", "mkbound 7 has no particles"},
      {"<floating mkbound=\"2-1\" relativeweight=\"1\" />", "not a list of mk numbers"},
      // A range to the largest int once listed every number up to it (and overflowed).
      {"<floating mkbound=\"51-2147483647\" relativeweight=\"1\" />", "the largest mk"},
      {"<floating mkbound=\"1\" />", "exactly once"},
      {"<floating mkbound=\"1\" relativeweight=\"1\"><massbody value=\"2\" /></floating>", "exactly once"},
      {"<floating mkbound=\"1\" relativeweight=\"-1\" />", "must be positive"},
      {"<floating mkbound=\"1\" relativeweight=\"1\"><inertiaa x=\"1\" y=\"1\" z=\"1\" /></floating>",
       "unknown element inside <floating>"},
  };
  for (const auto& t : cases) {
    SCOPED_TRACE(t.body);
    const std::string xml = blocksCase(std::string("<floatings>\n") + t.body + "\n</floatings>\n");
    expectError(writeCase("floating_bad", xml), lineOf(xml, t.text[0] == 'u' ? "<inertiaa" : "<floating "), "<", t.text);
  }
  const std::string twice = blocksCase("<floatings>\n<floating mkbound=\"1\" relativeweight=\"1\" />\n"
                                       "<floating mkbound=\"1-2\" relativeweight=\"1\" />\n</floatings>\n");
  expectError(writeCase("floating_twice", twice), lineOf(twice, "<floating mkbound=\"1-2\""), "<floating>",
              "two floating bodies");
}

TEST(CaseFloatingsErrors, UnknownFloatingMotion) {
  std::string xml = blocksCase("<floatings>\n<floating mkbound=\"1\" relativeweight=\"0.5\" />\n</floatings>\n");
  xml.replace(xml.find("</case>"), 7,
              withParameters("<parameter key=\"FloatingMotion\" value=\"exact\" />\n") + "</case>");
  expectRunError("floating_motion_bad", xml, lineOf(xml, "FloatingMotion"), "dualsphysics");
}

TEST(CaseFloatingsErrors, BadProperties) {
  const std::string unknownMaterial =
      blocksCase("<properties>\n<property name=\"soft\" Kfric=\"0.2\" />\n<links>\n"
                 "<link mkbound=\"0\" property=\"soft + rubbery\" />\n</links>\n</properties>\n");
  expectError(writeCase("prop_unknown", unknownMaterial), lineOf(unknownMaterial, "<link "), "<link>", "unknown property \"rubbery\" (defined: soft)");
  const std::string missingFile =
      blocksCase("<properties>\n<propertyfile file=\"NoSuch_Materials.xml\" path=\"materials\" />\n</properties>\n");
  expectError(writeCase("prop_nofile", missingFile), lineOf(missingFile, "<propertyfile"), "<propertyfile>", "property file NoSuch_Materials.xml not found");
  const std::string notNumber = blocksCase("<properties>\n<property name=\"soft\" Kfric=\"low\" />\n</properties>\n");
  expectError(writeCase("prop_nan", notNumber), lineOf(notNumber, "<property "), "<property>", "Kfric=\"low\" is not a number");
  const std::string floatingProperty =
      blocksCase("<floatings>\n<floating mkbound=\"1\" relativeweight=\"1\" property=\"glass\" />\n</floatings>\n"
                 "<properties>\n<property name=\"soft\" Kfric=\"0.2\" />\n</properties>\n");
  expectError(writeCase("prop_floating", floatingProperty), lineOf(floatingProperty, "<floating "), "<floating>", "unknown property \"glass\"");
}

TEST(CaseFloatings, PropertyFileBesideTheCaseWins) {
  const auto dir = sph::test::tempDir("prop_local");
  sph::test::writeFile(dir / "Mats.xml",
                       "<materials>\n<property name=\"steel\" Young_Modulus=\"1\" Kfric=\"0.1\" />\n</materials>\n");
  const std::string path = sph::test::writeFile(
      dir / "case.xml", blocksCase("<properties>\n<propertyfile file=\"Mats.xml\" path=\"materials\" />\n"
                                   "<links>\n<link mkbound=\"0\" property=\"steel\" />\n</links>\n</properties>\n"));
  const CaseDefinition c = sph::loadCase(path);
  EXPECT_DOUBLE_EQ(sph::resolveMaterial(c.properties, "steel", "").at("Young_Modulus"), 1.0);
}

// DualSPHysics' own material files give each value as a child element <Key value="..."/>.
TEST(CaseFloatings, PropertyValuesAsChildElementsAsDualSphysicsWritesThem) {
  const auto dir = sph::test::tempDir("prop_elements");
  const std::string mats =
      "<materials>\n<property name=\"steel\">\n"
      "  <Young_Modulus value=\"210000000000.0\" comment=\"Young Modulus (N/m2)\" />\n"
      "  <PoissonRatio value=\"0.30\" />\n  <Restitution_Coefficient value=\"0.80\" />\n"
      "  <Kfric value=\"0.45\" comment=\"Kinetic friction coefficient\" />\n</property>\n"
      "<property name=\"twice\" Kfric=\"0.1\">\n  <Kfric value=\"0.2\" />\n</property>\n</materials>\n";
  sph::test::writeFile(dir / "Mats.xml", mats);
  const std::string link = "<links>\n<link mkbound=\"0\" property=\"steel\" />\n</links>\n";
  const std::string path = sph::test::writeFile(
      dir / "case.xml", blocksCase("<properties>\n<propertyfile file=\"Mats.xml\" />\n" + link + "</properties>\n"));
  try {
    (void)sph::loadCase(path);
    ADD_FAILURE() << "a value given twice was accepted";
  } catch (const sph::InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Mats.xml:" + std::to_string(lineOf(mats, "<Kfric value=\"0.2\""))), std::string::npos) << what;
    EXPECT_NE(what.find("given twice"), std::string::npos) << what;
  }
  std::string fixed = mats;
  fixed.erase(fixed.find("<property name=\"twice\""));
  sph::test::writeFile(dir / "Mats.xml", fixed + "</materials>\n");
  const CaseDefinition c = sph::loadCase(path);
  const auto steel = sph::resolveMaterial(c.properties, "steel", "");
  EXPECT_DOUBLE_EQ(steel.at("Young_Modulus"), 2.1e11);
  EXPECT_DOUBLE_EQ(steel.at("Kfric"), 0.45);
}

TEST(CaseFloatingsErrors, PropertyFileWithoutRootElement) {
  // Well-formed XML with nothing but a comment: an error naming the file, not a crash.
  const auto dir = sph::test::tempDir("prop_noroot");
  sph::test::writeFile(dir / "Mats.xml", "<?xml version=\"1.0\" ?>\n<!-- nothing here -->\n");
  const std::string path = sph::test::writeFile(
      dir / "case.xml", blocksCase("<properties>\n<propertyfile file=\"Mats.xml\" />\n</properties>\n"));
  try {
    (void)sph::loadCase(path);
    ADD_FAILURE() << "a property file without a root element was accepted";
  } catch (const sph::InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("Mats.xml: no root element"), std::string::npos) << what;
    EXPECT_NE(what.find(path), std::string::npos) << what;
  }
}

TEST(CaseFloatings, DualSphysicsCaseSolidsLoadsUnchanged) {
  // The reference file names Floating_Materials.xml, which is not beside it: the bundled
  // testcases/materials copy is found instead.
  const CaseDefinition c = sph::loadCase(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/CaseSolids_Def.xml");
  EXPECT_EQ(c.positions.size(), 115016u);
  ASSERT_EQ(c.floatings.size(), 1u);
  EXPECT_EQ(c.floatings[0].mkBound.size(), 18u);
  EXPECT_EQ(c.properties.links.size(), 1u);
}

}  // namespace
