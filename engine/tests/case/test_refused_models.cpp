// DualSPHysics models this engine does not have yet, and impossible values of the models it
// has, are refused, naming the file, the line and the parameter, instead of running the case
// with another model.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "model/sim_parameters.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace sph {
namespace {

TEST(RefusedModels, NameTheParameterAndItsLine) {
  std::ifstream in(test::dualsphysicsData("StillTank_Def.xml"));
  std::stringstream text;
  text << in.rdbuf();
  const std::string base = text.str();
  const std::string anchor = "<parameter key=\"StepAlgorithm\"";
  ASSERT_NE(base.find(anchor), std::string::npos);
  const struct {
    const char* parameter;
    const char* key;       // the key the error names
    const char* replaces;  // the key whose line `parameter` replaces (null: key)
  } cases[] = {{"<parameter key=\"Boundary\" value=\"2\" />", "Boundary", nullptr},
               {"<parameter key=\"ViscoTreatment\" value=\"4\" />", "ViscoTreatment", nullptr},
               {"<parameter key=\"Shifting\" value=\"4\" />", "Shifting", nullptr},
               {"<parameter key=\"Shifting\" value=\"5\" />", "Shifting", nullptr},
               // A free-surface threshold at or above dim (3 here) would divide by dim - TFS <= 0.
               {"<parameter key=\"Shifting\" value=\"1\" /><parameter key=\"ShiftTFS\" value=\"3\" />", "ShiftTFS",
                "Shifting"}};
  const auto dir = test::tempDir("refused_models");
  for (const auto& c : cases) {
    SCOPED_TRACE(c.key);
    // Replaces the case's own line for the key, or adds one.
    std::string xml = base;
    const size_t own = xml.find(std::string("<parameter key=\"") + (c.replaces ? c.replaces : c.key) + "\"");
    if (own != std::string::npos)
      xml.replace(own, xml.find("/>", own) + 2 - own, c.parameter);
    else
      xml.insert(xml.find(anchor), std::string(c.parameter) + "\n            ");
    const std::string path = test::writeFile(dir / "case.xml", xml);
    const CaseDefinition def = loadCase(path);
    try {
      (void)deriveParameters(def);
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(path), std::string::npos) << what;
      EXPECT_NE(what.find(c.key), std::string::npos) << what;
      EXPECT_NE(what.find(std::to_string(test::lineOf(xml, c.parameter))), std::string::npos) << what;
    }
  }
}

}  // namespace
}  // namespace sph
