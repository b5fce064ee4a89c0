// Physics is never changed silently: every <parameters> key is read, recorded as having no effect
// (with the reason), refused (a method this engine does not have), or warned about (a key nobody
// knows); run.json lists every parameter and constant the run used with where it came from.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "case/loader.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "platform/plugin_loader.h"
#include "run/simulation.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using sph::test::caseXml;

const char* kDefinition =
    R"(<definition dp="0.02"><pointmin x="-0.1" y="0" z="-0.1" /><pointmax x="1" y="0" z="1" /></definition>)";
const char* kCommands = R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="0.2" y="0" z="0.2" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right</boxfill><point x="0" y="-0.1" z="0" /><size x="0.4" y="0.2" z="0.4" /></drawbox>)";

// The case with `parameters`, written to a fresh folder; returns its path.
std::string writeCase(const std::string& dirName, const std::string& parameters) {
  const fs::path dir = sph::test::tempDir(dirName);
  return sph::test::writeFile(dir / "case.xml", caseXml(kDefinition, kCommands, parameters));
}

const sph::SimParameters::Provenance* find(const sph::SimParameters& p, const std::string& name) {
  for (const auto& u : p.provenance)
    if (u.name == name) return &u;
  return nullptr;
}

TEST(ParameterProvenance, SourcesOfEveryValue) {
  const std::string params = "<parameter key=\"Kernel\" value=\"1\" />\n<parameter key=\"TimeMax\" value=\"0.5\" />";
  const std::string path = writeCase("prov_sources", params);
  const sph::SimParameters p = sph::deriveParameters(sph::loadCase(path));
  const std::string xml = caseXml(kDefinition, kCommands, params);
  ASSERT_TRUE(find(p, "Kernel"));
  EXPECT_EQ(find(p, "Kernel")->value, "1");
  EXPECT_EQ(find(p, "Kernel")->source, "xml:" + std::to_string(sph::test::lineOf(xml, "\"Kernel\"")));
  ASSERT_TRUE(find(p, "Visco"));
  EXPECT_EQ(find(p, "Visco")->source, "default");
  EXPECT_EQ(find(p, "Visco")->value, "0.01");
  ASSERT_TRUE(find(p, "h"));
  EXPECT_EQ(find(p, "h")->source, "derived from <constantsdef> and dp");
  EXPECT_TRUE(p.warnings.empty());
}

TEST(ParameterProvenance, UnknownKeyIsAWarningNamingFileAndLine) {
  const std::string params = "<parameter key=\"Visc0\" value=\"0.1\" />";
  const std::string path = writeCase("prov_unknown", params);
  // As a run with the cell plugin (sph info's) reads it: the plugin's options are known keys too.
  const sph::SimParameters p =
      sph::deriveParameters(sph::loadCase(path), {"cell", sph::createStrategy("cell")->options()});
  ASSERT_EQ(p.warnings.size(), 1u);
  const std::string xml = caseXml(kDefinition, kCommands, params);
  EXPECT_EQ(p.warnings[0].rfind(path + ":" + std::to_string(sph::test::lineOf(xml, "Visc0")) + ":", 0), 0u)
      << p.warnings[0];
  EXPECT_NE(p.warnings[0].find("Visc0"), std::string::npos);
  // The command line prints it and still runs; run.json keeps it.
  const sph::test::CommandResult info = sph::test::runSph("info " + path);
  EXPECT_EQ(info.exitCode, 0) << info.output;
  EXPECT_NE(info.output.find("sph: warning: " + p.warnings[0]), std::string::npos) << info.output;
}

TEST(ParameterProvenance, KeysWithoutEffectAreRecordedNotWarned) {
  const std::string params =
      "<parameter key=\"SavePosDouble\" value=\"1\" />\n<parameter key=\"ShiftCoef\" value=\"-2\" />\n"
      "<parameter key=\"StepAlgorithm\" value=\"2\" />\n<parameter key=\"VerletSteps\" value=\"0\" />\n"
      "<parameter key=\"SlipMode\" value=\"2\" />\n<parameter key=\"TimeOutExtra\" value=\"0.001\" />";
  const sph::SimParameters p = sph::deriveParameters(sph::loadCase(writeCase("prov_noeffect", params)));
  EXPECT_TRUE(p.warnings.empty()) << p.warnings.front();
  for (const char* key : {"SavePosDouble", "ShiftCoef", "VerletSteps", "SlipMode", "TimeOutExtra"}) {
    SCOPED_TRACE(key);
    ASSERT_TRUE(find(p, key));
    EXPECT_NE(find(p, key)->source.find("no effect"), std::string::npos) << find(p, key)->source;
  }
}

TEST(ParameterProvenance, MethodsWeDoNotHaveAreErrors) {
  struct Refused {
    std::string parameter, text;
  };
  const Refused refused[] = {
      {"<parameter key=\"DivCleanKp\" value=\"1\" />", "divergence cleaning"},
      {"<parameter key=\"DeltaSPH\" value=\"0.1\" />", "use DensityDT"},
  };
  for (const Refused& r : refused) {
    SCOPED_TRACE(r.parameter);
    const std::string path = writeCase("prov_refused", r.parameter);
    try {
      sph::deriveParameters(sph::loadCase(path));
      ADD_FAILURE() << "no error";
    } catch (const sph::InputError& e) {
      const std::string msg = e.what();
      const std::string xml = caseXml(kDefinition, kCommands, r.parameter);
      EXPECT_EQ(msg.rfind(path + ":" + std::to_string(sph::test::lineOf(xml, "<parameter key")) + ":", 0), 0u) << msg;
      EXPECT_NE(msg.find(r.text), std::string::npos) << msg;
    }
  }
  // Switched off, they ask for nothing.
  const sph::SimParameters p =
      sph::deriveParameters(sph::loadCase(writeCase("prov_off", "<parameter key=\"ViscoTime\" value=\"0\" />")));
  EXPECT_TRUE(p.warnings.empty());
}

// DualSPHysics' deprecated domain keys give the simulation domain, with a warning; beside a
// <simulationdomain> that gives a limit they are refused, as DualSPHysics refuses them.
TEST(ParameterProvenance, DeprecatedDomainKeysGiveTheDomain) {
  const sph::CaseDefinition fixed = sph::loadCase(writeCase(
      "prov_domainfixed", "<parameter key=\"DomainFixed\" value=\"-1, 0, -2, 3, 0, 4\" />\n"
                          "<parameter key=\"DomainFixedZmax\" value=\"5\" />\n"
                          "<parameter key=\"DomainFixedXmin\" value=\"-1.5\" />"));
  EXPECT_DOUBLE_EQ(fixed.resolvedDomainMin.x, -1.5);
  EXPECT_DOUBLE_EQ(fixed.resolvedDomainMin.z, -2);
  EXPECT_DOUBLE_EQ(fixed.resolvedDomainMax.x, 3);
  EXPECT_DOUBLE_EQ(fixed.resolvedDomainMax.z, 5);  // the single limit comes after DomainFixed
  const sph::SimParameters p = sph::deriveParameters(fixed);
  ASSERT_EQ(p.warnings.size(), 1u);
  EXPECT_NE(p.warnings[0].find("deprecated"), std::string::npos) << p.warnings[0];
  ASSERT_TRUE(find(p, "DomainFixedZmax"));
  EXPECT_NE(find(p, "DomainFixedZmax")->source.find("simulation domain"), std::string::npos);

  // IncZ 0.5: the domain reaches half the particles' height above them; the rest is the default.
  const sph::CaseDefinition plain = sph::loadCase(writeCase("prov_incz0", ""));
  const sph::CaseDefinition incz = sph::loadCase(writeCase("prov_incz", "<parameter key=\"IncZ\" value=\"0.5\" />"));
  const double height = plain.resolvedDomainMax.z - plain.resolvedDomainMin.z;
  EXPECT_DOUBLE_EQ(incz.resolvedDomainMax.z, plain.resolvedDomainMax.z + 0.5 * height);
  EXPECT_DOUBLE_EQ(incz.resolvedDomainMin.z, plain.resolvedDomainMin.z);
  EXPECT_DOUBLE_EQ(incz.resolvedDomainMax.x, plain.resolvedDomainMax.x);

  const char* both = "<parameter key=\"IncZ\" value=\"0.5\" />\n"
                     "<simulationdomain><posmax z=\"default + 10%\" /></simulationdomain>";
  try {
    sph::loadCase(writeCase("prov_domain_both", both));
    ADD_FAILURE() << "no error";
  } catch (const sph::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("IncZ"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("<simulationdomain>"), std::string::npos) << e.what();
  }
  EXPECT_THROW(sph::loadCase(writeCase("prov_domain_bad", "<parameter key=\"DomainFixed\" value=\"0,0,0,1,1\" />")),
               sph::InputError);
}

// coefsound 0 is DualSPHysics' way to let <speedsound> or the 10 sqrt(g hswl) floor set the speed
// of sound; only a negative one is refused.
TEST(ParameterProvenance, CoefSoundZero) {
  const auto c0 = [](const std::string& dir, const std::string& constants) {
    const fs::path path = sph::test::tempDir(dir) / "case.xml";
    sph::test::writeFile(path, caseXml(kDefinition, kCommands, "", constants));
    return sph::deriveParameters(sph::loadCase(path.string())).c0;
  };
  EXPECT_DOUBLE_EQ(c0("coefsound_given", "<coefsound value=\"0\" />\n<speedsound value=\"50\" auto=\"false\" />"), 50);
  EXPECT_DOUBLE_EQ(c0("coefsound_floor", "<coefsound value=\"0\" />\n<hswl value=\"0.4\" auto=\"false\" />"),
                   10 * std::sqrt(9.81 * 0.4));
  const fs::path bad = sph::test::tempDir("coefsound_negative") / "case.xml";
  sph::test::writeFile(bad, caseXml(kDefinition, kCommands, "", "<coefsound value=\"-1\" />"));
  EXPECT_THROW(sph::loadCase(bad.string()), sph::InputError);
}

TEST(ParameterProvenance, MinFluidStopIsDualSphysicsNewPartsOutMax) {
  const sph::SimParameters p = sph::deriveParameters(
      sph::loadCase(writeCase("prov_minfluid", "<parameter key=\"MinFluidStop\" value=\"0.25\" />")));
  EXPECT_DOUBLE_EQ(p.partsOutMax, 0.75);
  EXPECT_THROW(sph::deriveParameters(sph::loadCase(
                   writeCase("prov_minfluid_bad", "<parameter key=\"MinFluidStop\" value=\"0.25\" />\n"
                                                  "<parameter key=\"PartsOutMax\" value=\"0.5\" />"))),
               sph::InputError);
}

// run.json: every value with its source, command-line overrides named as such, and the warnings.
TEST(ParameterProvenance, RunJsonRecordsParametersAndWarnings) {
  const std::string path = writeCase("prov_run", "<parameter key=\"Visc0\" value=\"0.1\" />\n"
                                                 "<parameter key=\"TimeMax\" value=\"1\" />");
  const fs::path out = fs::path(path).parent_path() / "out";
  const sph::test::CommandResult r =
      sph::test::runSph("run " + path + " --device cpu --steps 2 --time-max 0.25 --no-vtk --quiet --out " + out.string());
  ASSERT_EQ(r.exitCode, 0) << r.output;
  std::ifstream in(out / "run.json");
  const std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(json.find("\"TimeMax\": {\"value\": \"0.25\", \"source\": \"command line\"}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"Kernel\": {\"value\": \"2\", \"source\": \"default\"}"), std::string::npos) << json;
  EXPECT_NE(json.find("\"warnings\": [\n    \"" + path), std::string::npos) << json;
}

// GenCase's output: the constants it computed are used and named as its.
TEST(ParameterProvenance, GenCaseConstants) {
  const sph::SimParameters p = sph::deriveParameters(
      sph::loadCase(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/gencase/DamBreak2D.xml"));
  for (const char* key : {"h", "B", "MassFluid", "MassBound"}) {
    SCOPED_TRACE(key);
    ASSERT_TRUE(find(p, key));
    EXPECT_EQ(find(p, key)->source, "GenCase output <constants>");
  }
  // GenCase writes SavePosDouble and the rest of its defaults: none is unknown.
  EXPECT_TRUE(p.warnings.empty()) << p.warnings.front();
}

}  // namespace
