// Reader of <special><relaxationzones> (case/relaxation_zones_reader.cpp): the format's defaults,
// the uniform zone's turned box as DualSPHysics places it, and bad input (every error names file,
// line and element).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "case/loader.h"
#include "model/case_model.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace sph {
namespace {

const char* kDefinition =
    R"(<definition dp="0.1"><pointmin x="-0.5" y="0" z="-0.5" /><pointmax x="4" y="0" z="2" /></definition>)";
const char* kFluidBox = R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="3" y="1" z="1" /></drawbox>)";

std::string caseWith(const std::string& zones) {
  std::string xml = test::caseXml(kDefinition, kFluidBox, R"(<parameter key="TimeMax" value="2" />
<parameter key="TimeOut" value="0.05" />)");
  const std::string at = "<execution>\n";
  xml.insert(xml.find(at) + at.size(), "<special>\n<relaxationzones>\n" + zones + "</relaxationzones>\n</special>\n");
  return xml;
}

CaseDefinition load(const std::string& xml) {
  static int serial = 0;
  const auto dir = test::tempDir("relax_reader_" + std::to_string(serial++));
  return loadCase(test::writeFile(dir / "Relax_Def.xml", xml));
}

// The load fails at the line of `marker`, naming `element`, with `text` in the message.
void expectError(const std::string& xml, const std::string& marker, const std::string& element,
                 const std::string& text) {
  static int serial = 0;
  test::expectLoadError("relax_reader_bad_" + std::to_string(serial++), xml, marker, element, text);
}

const std::string kRegular = R"(<rzwaves_regular>
<waveheight value="0.1" />
<waveperiod value="1.5" />
<depth value="0.5" />
<swl value="0.5" />
<center x="0.8" y="0" z="0" />
<width value="1.2" />
</rzwaves_regular>
)";

TEST(RelaxationZonesReader, RegularWavesWithTheFormatsDefaults) {
  const CaseDefinition c = load(caseWith(kRegular));
  ASSERT_EQ(c.relaxZones.waves.size(), 1u);
  const RelaxWaveZone& z = c.relaxZones.waves[0];
  EXPECT_FALSE(z.spectrum);
  EXPECT_EQ(z.common.start, 0);
  EXPECT_EQ(z.common.duration, 0);
  EXPECT_EQ(z.common.coefDt, 1000);
  EXPECT_EQ(z.common.psi, 0.9);
  EXPECT_EQ(z.common.beta, 1);
  EXPECT_EQ(z.waves.order, 1);
  EXPECT_EQ(z.waves.phase, 0);
  EXPECT_EQ(z.waves.rampPeriods, 0);
  EXPECT_EQ(z.drift, 0);
  // _FmtXML_RelaxationZones.xml: coefdir defaults to (1,0,0): z is not relaxed.
  EXPECT_EQ(z.coefDir.x, 1);
  EXPECT_EQ(z.coefDir.z, 0);
  EXPECT_DOUBLE_EQ(z.centerX, 0.8);
  EXPECT_DOUBLE_EQ(z.width, 1.2);
  EXPECT_FALSE(z.saveMotion);
}

TEST(RelaxationZonesReader, SwitchedOffAndCommentedOutZonesAreLeftOut) {
  std::string off = kRegular;
  off.replace(off.find("<rzwaves_regular>"), 17, "<rzwaves_regular active=\"false\">");
  EXPECT_TRUE(load(caseWith(off)).relaxZones.empty());
  std::string commented = kRegular;
  commented.replace(commented.find("<rzwaves_regular>"), 17, "<_rzwaves_regular>");
  commented.replace(commented.find("</rzwaves_regular>"), 18, "</_rzwaves_regular>");
  EXPECT_TRUE(load(caseWith(commented)).relaxZones.empty());
  std::string xml = caseWith(kRegular);
  xml.replace(xml.find("<relaxationzones>"), 17, "<relaxationzones active=\"0\">");
  EXPECT_TRUE(load(xml).relaxZones.empty());
}

// The uniform zone of _FmtXML_RelaxationZones.xml's kind, turned by -20 degrees about y: DualSPHysics
// 5.4 logs "Velocity direction: (-0.939693,0,0.34202)" and "Center: (1.42718,0,0.0541458) (width:
// 0.8)" for it.
TEST(RelaxationZonesReader, UniformZoneTurnedAsDualSphysicsTurnsIt) {
  const CaseDefinition c = load(caseWith(R"(<rz_uniform>
<domainbox>
<point x="1.0" y="-0.05" z="0.05" />
<size x="0.8" y="0.1" z="0.3" />
<direction x="-1" y="0" z="0" />
<rotateaxis angle="-20" anglesunits="degrees">
<point1 x="1.0" y="0" z="0.05" />
<point2 x="1.0" y="1" z="0.05" />
</rotateaxis>
</domainbox>
<velocity value="0.3" />
</rz_uniform>
)"));
  ASSERT_EQ(c.relaxZones.uniform.size(), 1u);
  const RelaxUniformZone& z = c.relaxZones.uniform[0];
  EXPECT_EQ(z.axis, 0);
  EXPECT_EQ(z.sign, -1);
  EXPECT_EQ(z.velocity, 0.3);
  const Vec3d dir{z.sign * z.edge[0].x / 0.8, z.sign * z.edge[0].y / 0.8, z.sign * z.edge[0].z / 0.8};
  EXPECT_NEAR(dir.x, -0.939693, 1e-6);
  EXPECT_NEAR(dir.y, 0, 1e-12);
  EXPECT_NEAR(dir.z, 0.34202, 1e-6);
  const Vec3d centre{z.origin.x + (z.edge[0].x + z.edge[1].x + z.edge[2].x) / 2,
                     z.origin.y + (z.edge[0].y + z.edge[1].y + z.edge[2].y) / 2,
                     z.origin.z + (z.edge[0].z + z.edge[1].z + z.edge[2].z) / 2};
  EXPECT_NEAR(centre.x, 1.42718, 1e-5);
  EXPECT_NEAR(centre.y, 0, 1e-12);
  EXPECT_NEAR(centre.z, 0.0541458, 1e-6);
}

TEST(RelaxationZonesReaderErrors, BadZones) {
  auto with = [](const std::string& from, const std::string& to) {
    std::string z = kRegular;
    z.replace(z.find(from), from.size(), to);
    return caseWith(z);
  };
  expectError(with("<width value=\"1.2\" />", "<width value=\"0\" />"), "<width value=\"0\"", "<width>",
              "must be positive");
  expectError(with("<width value=\"1.2\" />", "<width value=\"1.2\" /><waveorder value=\"3\" />"),
              "<waveorder", "<waveorder>", "must be 1 or 2");
  expectError(with("<width value=\"1.2\" />", "<width value=\"1.2\" /><function psi=\"0\" beta=\"1\" />"),
              "<function", "<function>", "both must be positive");
  expectError(with("<width value=\"1.2\" />", "<width value=\"1.2\" /><coefdt value=\"-1\" />"), "<coefdt",
              "<coefdt>", "must not be negative");
  expectError(with("<width value=\"1.2\" />", ""), "<rzwaves_regular>", "<rzwaves_regular>", "<width>");
  expectError(with("<width value=\"1.2\" />", "<width value=\"1.2\" /><pistondir x=\"1\" />"), "<pistondir",
              "<pistondir>", "");
  const std::string spectrum = R"(<rzwaves_spectrum>
<waveorder value="2" />
<waveheight value="0.1" />
<waveperiod value="1.5" />
<depth value="0.5" />
<swl value="0.5" />
<center x="0.8" y="0" z="0" />
<width value="1.2" />
</rzwaves_spectrum>
)";
  expectError(caseWith(spectrum), "<waveorder", "<waveorder>", "second-order irregular waves are not available");
  std::string drift = spectrum;
  drift.replace(drift.find("<waveorder value=\"2\" />"), 23, "<driftcorrection value=\"1\" />");
  expectError(caseWith(drift), "<driftcorrection", "<driftcorrection>", "not supported for irregular waves");
  std::string save = spectrum;
  save.replace(save.find("<waveorder value=\"2\" />"), 23, "<savemotion time=\"1\" timedt=\"0.1\" />");
  expectError(caseWith(save), "<savemotion", "<savemotion>", "not supported by this engine");
  expectError(caseWith("<rzwaves_external_1d>\n<depth value=\"0.7\" />\n</rzwaves_external_1d>\n"),
              "<rzwaves_external_1d>", "<rzwaves_external_1d>", "missing element <filesvel>");
  expectError(caseWith("<rzwaves_external_1d>\n<driftcorrection value=\"1\" />\n</rzwaves_external_1d>\n"),
              "<driftcorrection", "<driftcorrection>", "not supported for external velocity data");
  expectError(caseWith("<rzwaves_external_1d>\n<filesvel value=\"none\" />\n<filesvelx initial=\"0\" count=\"2\" />\n"
                       "<center x=\"1\" y=\"0\" z=\"0\" />\n<width value=\"0.5\" />\n</rzwaves_external_1d>\n"),
              "<filesvel ", "<filesvel>", "none_velx_x00_y00.csv");
  expectError(caseWith("<rz_waves>\n</rz_waves>\n"), "<rz_waves>", "<rz_waves>", "unknown");
  const std::string uniform = R"(<rz_uniform>
<domainbox>
<point x="1.0" y="-0.05" z="0.05" />
<size x="0.8" y="0.1" z="0.3" />
<direction x="-1" y="0" z="0.5" />
</domainbox>
<velocity value="0.3" />
</rz_uniform>
)";
  expectError(caseWith(uniform), "<direction", "<direction>", "exactly one of x, y, z");
  std::string flat = uniform;
  flat.replace(flat.find("z=\"0.5\""), 7, "z=\"0\"");
  flat.replace(flat.find("y=\"0.1\""), 7, "y=\"0\"");
  expectError(caseWith(flat), "<size x=\"0.8\"", "<size>", "every side of the box must be positive");
  std::string times = uniform;
  times.replace(times.find("z=\"0.5\""), 7, "z=\"0\"");
  times.replace(times.find("<velocity value=\"0.3\" />"), 24,
                "<velocitytimes>\n<timevalue time=\"1\" v=\"0\" />\n<timevalue time=\"0.5\" v=\"1\" />\n</velocitytimes>");
  expectError(caseWith(times), "<timevalue time=\"0.5\"", "<timevalue>", "must be after the row before");
}

}  // namespace
}  // namespace sph
