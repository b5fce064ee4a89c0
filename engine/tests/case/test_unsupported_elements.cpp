// Elements of DualSPHysics 5.4's format that this engine does not implement are refused by name,
// saying what they are for and that the engine lacks them; a misspelt element is "unknown". The
// coverage probe (FormatProbe) checks every element of the format reference the same way.
#include <gtest/gtest.h>

#include <string>

#include "case/loader.h"
#include "case/unsupported_elements.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace sph {
namespace {

// A small case with `commands` first in <mainlist>, `casedefExtra` at the end of <casedef> and `specialExtra` in <special>.
std::string caseWith(const std::string& casedefExtra, const std::string& specialExtra = "",
                     const std::string& commands = "") {
  return "<?xml version=\"1.0\" ?>\n<case>\n<casedef>\n<geometry>\n<definition dp=\"0.1\">\n"
         "<pointmin x=\"0\" y=\"0\" z=\"0\" />\n<pointmax x=\"1\" y=\"1\" z=\"1\" />\n</definition>\n"
         "<commands>\n<mainlist>\n<setdrawmode mode=\"full\" />\n" + commands + "<setmkfluid mk=\"0\" />\n<drawbox>\n<point x=\"0\" y=\"0\" z=\"0.1\" />\n"
         "<size x=\"0.5\" y=\"0.5\" z=\"0.5\" />\n</drawbox>\n<setmkbound mk=\"1\" />\n<drawbox>\n"
         "<point x=\"0.7\" y=\"0.2\" z=\"0.1\" />\n<size x=\"0.2\" y=\"0.2\" z=\"0.2\" />\n</drawbox>\n"
         "</mainlist>\n</commands>\n</geometry>\n" +
         casedefExtra + "</casedef>\n<execution>\n<special>\n" + specialExtra + "</special>\n</execution>\n</case>\n";
}

std::string loadError(const std::string& dir, const std::string& xml) {
  const std::string path = test::writeFile(test::tempDir(dir) / "case.xml", xml);
  try {
    loadCase(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(UnsupportedElements, RefusedByNameWithWhatTheyAreFor) {
  const struct {
    std::string casedef, special, element, what;
    std::string commands;
  } cases[] = {
      {"", "", "<drawfigure>", "a figure of triangles", "<drawfigure>\n<points />\n</drawfigure>\n"},
      {"", "", "<clipbox>", "clipping of the shapes drawn to a box", "<clipbox />\n"},
      {"<initials>\n<densitymesh mkfluid=\"0\" />\n</initials>\n", "", "<densitymesh>", "density from a mesh file", ""},
      {"<vres>\n<bufferbox />\n</vres>\n", "", "<vres>", "variable resolution", ""},
      {"<normals>\n<norparts mkbound=\"1\" />\n</normals>\n", "", "<norparts>", "mDBC normals from the particles", ""},
      {"", "<nnphases>\n<phase mkfluid=\"0\" />\n</nnphases>\n", "<nnphases>", "non-Newtonian", ""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.element);
    const std::string xml = caseWith(c.casedef, c.special, c.commands);
    const std::string msg = loadError("unsupported_element", xml);
    const std::string opening = c.element.substr(0, c.element.size() - 1);  // "<name", attributes follow
    std::string where = std::to_string(test::lineOf(xml, opening));
    where.append(": ").append(c.element);
    EXPECT_NE(msg.find(where), std::string::npos) << msg;
    EXPECT_NE(msg.find(c.what), std::string::npos) << msg;
    EXPECT_NE(msg.find("not supported by this engine"), std::string::npos) << msg;
  }
}

// GenCase's log, debug and export commands place no particle: accepted.
TEST(UnsupportedElements, GenCaseRecordsAreAccepted) {
  const std::string xml = caseWith("", "",
                                   "<debugout />\n<printf text=\"dp [Dp]\" if=\"Dp>0\" />\n<exportvar vars=\"all\" />\n"
                                   "<cellsout file=\"cells\" />\n<pointsmkout file=\"points\" />\n");
  EXPECT_EQ(loadError("genCase_records", xml), "no error");
}

TEST(UnsupportedElements, AMisspeltElementIsUnknown) {
  const std::string xml = caseWith("<initials>\n<densitydept mkfluid=\"0\" />\n</initials>\n");
  const std::string msg = loadError("unsupported_misspelt", xml);
  EXPECT_NE(msg.find("<densitydept>: unknown element inside <initials>"), std::string::npos) << msg;
  // The table is by parent: the same name elsewhere is not a DualSPHysics element.
  EXPECT_FALSE(unsupportedElement("initials", "densitymesh").empty());
  EXPECT_TRUE(unsupportedElement("floating", "densitymesh").empty());
  // A <list> holds the commands of <mainlist>.
  EXPECT_EQ(unsupportedElement("list", "setmknextfluid"), unsupportedElement("mainlist", "setmknextfluid"));
}

}  // namespace
}  // namespace sph
