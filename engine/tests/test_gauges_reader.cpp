// Reader of <execution><special><gauges> (case_gauges_reader.cpp) and the run-time defaults of
// the gauges (resolveGauge): DualSPHysics' format, the reference cases, and bad input (every
// error names file, line and element).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "gauge_recorder.h"
#include "sph/case_model.h"
#include "sph/errors.h"
#include "sph/sim_parameters.h"
#include "test_support.h"

namespace sph {
namespace {

const char* kDefinition2D =
    R"(<definition dp="0.1"><pointmin x="-0.5" y="0" z="-0.5" /><pointmax x="2" y="0" z="2" /></definition>)";
const char* kDefinition3D =
    R"(<definition dp="0.1"><pointmin x="-0.5" y="-0.5" z="-0.5" /><pointmax x="2" y="2" z="2" /></definition>)";
const char* kFluidBox = R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="1" y="1" z="1" /></drawbox>)";

// A small case whose <execution> holds `special` before the parameters.
std::string caseWithSpecial(const std::string& special, const char* definition = kDefinition2D) {
  std::string xml = test::caseXml(definition, kFluidBox,
                                  R"(<parameter key="TimeMax" value="2" />
<parameter key="TimeOut" value="0.05" />)");
  const std::string at = "<execution>\n";
  xml.insert(xml.find(at) + at.size(), special);
  return xml;
}

CaseDefinition load(const std::string& xml) {
  static int serial = 0;
  const auto dir = test::tempDir("gauges_reader_" + std::to_string(serial++));
  return loadCase(test::writeFile(dir / "Gauges_Def.xml", xml));
}

// The load fails with "<file>:<line of marker>: <element>: ...text...".
void expectError(const std::string& xml, const std::string& marker, const std::string& element,
                 const std::string& text) {
  const size_t at = xml.find(marker);
  ASSERT_NE(at, std::string::npos) << marker;
  const int line = 1 + int(std::count(xml.begin(), xml.begin() + long(at), '\n'));
  try {
    load(xml);
    ADD_FAILURE() << "no error for " << marker;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("Gauges_Def.xml:" + std::to_string(line) + ": " + element), std::string::npos) << msg;
    EXPECT_NE(msg.find(text), std::string::npos) << msg;
  }
}

std::string gauges(const std::string& inner) { return "<special>\n<gauges>\n" + inner + "</gauges>\n</special>\n"; }

const GaugeSpec& byName(const CaseDefinition& c, const std::string& name) {
  for (const GaugeSpec& g : c.gauges.items)
    if (g.name == name) return g;
  throw std::runtime_error("no gauge " + name);
}

TEST(GaugesReader, DefaultsAndOverrides) {
  const CaseDefinition c = load(caseWithSpecial(gauges(R"(<default>
  <savevtkpart value="true" />
  <computedt value="0.02" />
  <computetime start="0.1" end="1.5" />
  <output value="true" />
  <outputdt value="0.04" />
  <outputtime start="0.2" />
</default>
<velocity name="Vel">
  <point x="0.5" y="0" z="0.25" />
</velocity>
<pressure name="P-1">
  <computedt value="0" />
  <computetime end="0.9" />
  <output value="false" />
  <outputtime end="0.7" />
  <point x="0.4" y="0" z="0.1" />
</pressure>
<swl name="Swl">
  <pointdp coefdp="0.5" />
  <masslimit coef="0.45" />
  <point0 x="0.5" y="0" z="-0.2" />
  <point2 x="0.5" y="0" z="1.5" />
</swl>
<swl name="SwlValue">
  <pointdp value="0.02" />
  <masslimit value="3.5" />
  <point0 x="0" y="0" z="0.05" />
  <point2 x="1.9" y="0" z="0.05" />
</swl>
)")));
  ASSERT_EQ(c.gauges.items.size(), 4u);
  const GaugeSpec& v = byName(c, "Vel");
  EXPECT_EQ(v.kind, GaugeKind::Velocity);
  EXPECT_EQ(v.point.x, 0.5);
  EXPECT_EQ(v.point.z, 0.25);
  EXPECT_EQ(v.timing.saveVtkPart, true);
  EXPECT_EQ(v.timing.computeDt, 0.02);
  EXPECT_EQ(v.timing.computeStart, 0.1);
  EXPECT_EQ(v.timing.computeEnd, 1.5);
  EXPECT_EQ(v.timing.output, true);
  EXPECT_EQ(v.timing.outputDt, 0.04);
  EXPECT_EQ(v.timing.outputStart, 0.2);
  EXPECT_FALSE(v.timing.outputEnd.has_value());

  // The gauge's own elements replace <default>'s; a window given by one end keeps the other.
  const GaugeSpec& p = byName(c, "P-1");
  EXPECT_EQ(p.kind, GaugeKind::Pressure);
  EXPECT_EQ(p.timing.computeDt, 0.0);
  EXPECT_EQ(p.timing.computeStart, 0.1);
  EXPECT_EQ(p.timing.computeEnd, 0.9);
  EXPECT_EQ(p.timing.output, false);
  EXPECT_EQ(p.timing.outputStart, 0.2);
  EXPECT_EQ(p.timing.outputEnd, 0.7);

  const GaugeSpec& s = byName(c, "Swl");
  EXPECT_EQ(s.kind, GaugeKind::Swl);
  EXPECT_TRUE(s.pointDpIsCoef);
  EXPECT_EQ(s.pointDp, 0.5);
  EXPECT_EQ(s.massLimitCoef, 0.45);
  EXPECT_FALSE(s.massLimit.has_value());
  EXPECT_EQ(s.point0.z, -0.2);
  EXPECT_EQ(s.point2.z, 1.5);
  const GaugeSpec& sv = byName(c, "SwlValue");
  EXPECT_FALSE(sv.pointDpIsCoef);
  EXPECT_EQ(sv.pointDp, 0.02);
  EXPECT_EQ(sv.massLimit, 3.5);

  // Run-time values: coefdp x dp, coef x particle mass, value as given.
  const SimParameters params = deriveParameters(c);
  const ResolvedGauge rs = resolveGauge(s, params);
  EXPECT_DOUBLE_EQ(rs.pointDp, 0.5 * 0.1);
  EXPECT_DOUBLE_EQ(rs.massLimit, 0.45 * 1000 * 0.1 * 0.1);  // 2D: m = rho0 dp^2
  const ResolvedGauge rsv = resolveGauge(sv, params);
  EXPECT_DOUBLE_EQ(rsv.pointDp, 0.02);
  EXPECT_DOUBLE_EQ(rsv.massLimit, 3.5);
  const ResolvedGauge rv = resolveGauge(v, params);
  EXPECT_TRUE(std::isinf(rv.outputEnd)) << "no end given: to the end of the run";
  EXPECT_DOUBLE_EQ(rv.computeEnd, 1.5);
}

TEST(GaugesReader, DualSphysicsDefaultsWhenNothingIsGiven) {
  for (const char* def : {kDefinition2D, kDefinition3D}) {
    const CaseDefinition c = load(caseWithSpecial(gauges(R"(<swl name="S">
  <pointdp value="0.05" />
  <point0 x="0.5" y="0.5" z="-0.2" />
  <point2 x="0.5" y="0.5" z="1.5" />
</swl>
)"),
                                                  def));
    ASSERT_EQ(c.gauges.items.size(), 1u);
    const SimParameters p = deriveParameters(c);
    const ResolvedGauge g = resolveGauge(c.gauges.items[0], p);
    EXPECT_FALSE(c.gauges.items[0].timing.output.value_or(false)) << "output is off by default (DualSPHysics)";
    EXPECT_DOUBLE_EQ(g.computeDt, 0.05);  // TimeOut
    EXPECT_DOUBLE_EQ(g.outputDt, 0.05);
    EXPECT_DOUBLE_EQ(g.computeStart, 0);
    EXPECT_TRUE(std::isinf(g.computeEnd));  // the whole run
    EXPECT_DOUBLE_EQ(g.outputStart, 0);
    EXPECT_TRUE(std::isinf(g.outputEnd));
    // DualSPHysics: mass limit 0.4 m in 2D, 0.5 m in 3D.
    const double m = c.twoD ? 1000 * 0.1 * 0.1 : 1000 * 0.1 * 0.1 * 0.1;
    EXPECT_DOUBLE_EQ(g.massLimit, (c.twoD ? 0.4 : 0.5) * m);
  }
}

TEST(GaugesReader, InactiveAndCommentedOutGaugesAreLeftOut) {
  const std::string point = R"(<point x="0.5" y="0" z="0.5" />)";
  CaseDefinition c = load(caseWithSpecial(gauges("<velocity name=\"A\" active=\"false\">" + point +
                                                 "</velocity>\n<_velocity name=\"B\">" + point +
                                                 "</_velocity>\n<maxz name=\"M\" active=\"0\" />\n<velocity name=\"C\">" +
                                                 "<_computedt value=\"9\" />" + point + "</velocity>\n")));
  ASSERT_EQ(c.gauges.items.size(), 1u);
  EXPECT_EQ(c.gauges.items[0].name, "C");
  EXPECT_FALSE(c.gauges.items[0].timing.computeDt.has_value());
  c = load(caseWithSpecial("<special>\n<gauges active=\"false\">\n<velocity name=\"A\">" + point +
                           "</velocity>\n</gauges>\n</special>\n"));
  EXPECT_TRUE(c.gauges.items.empty());
  c = load(caseWithSpecial("<special>\n<_damping />\n</special>\n"));
  EXPECT_TRUE(c.gauges.items.empty());
}

// The two swl gauges of DualSPHysics' CaseDambreakVal2D (also in testcases/DamBreak2D.xml).
void expectDambreakVal2DGauges(const std::string& path) {
  LoadOptions opts;
  opts.dpOverride = 0.05;  // the gauges do not depend on dp; keeps the load fast
  const CaseDefinition c = loadCase(path, opts);
  ASSERT_EQ(c.gauges.items.size(), 2u) << path;
  const GaugeSpec& a = c.gauges.items[0];
  const GaugeSpec& b = c.gauges.items[1];
  EXPECT_EQ(a.name, "Swl_x02");
  EXPECT_EQ(b.name, "Swl_z003");
  EXPECT_EQ(a.kind, GaugeKind::Swl);
  // <default>: savevtkpart and output on; the reference's _computedt etc. are disabled.
  EXPECT_EQ(a.timing.output, true);
  EXPECT_EQ(a.timing.saveVtkPart, true);
  EXPECT_FALSE(a.timing.computeDt.has_value());
  EXPECT_FALSE(a.timing.computeStart.has_value());
  EXPECT_FALSE(a.timing.outputDt.has_value());
  EXPECT_EQ(b.timing.computeDt, 0.005);
  EXPECT_EQ(b.timing.outputDt, 0.005);
  EXPECT_TRUE(a.pointDpIsCoef);
  EXPECT_EQ(a.pointDp, 0.5);
  EXPECT_EQ(a.point0.x, 0.2);
  EXPECT_EQ(a.point0.z, -0.05);
  EXPECT_EQ(a.point2.z, 2.1);
  EXPECT_EQ(b.point0.x, -0.05);
  EXPECT_EQ(b.point2.x, 4.05);
  EXPECT_EQ(b.point2.z, 0.03);
}

TEST(GaugesReader, DamBreak2DTestcase) {
  expectDambreakVal2DGauges(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml");
}

TEST(GaugesReader, DualSphysicsReferenceCase) {
  expectDambreakVal2DGauges(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/CaseDambreakVal2D_Def.xml");
}

TEST(GaugesReaderErrors, UnsupportedAndUnknownElements) {
  expectError(caseWithSpecial("<special>\n<relaxationzones>\n<rzwaves_regular />\n</relaxationzones>\n</special>\n"),
              "<relaxationzones>", "<relaxationzones>", "not supported");
  expectError(caseWithSpecial("<special>\n<initialize />\n</special>\n"), "<initialize", "<initialize>",
              "not supported");
  expectError(caseWithSpecial("<special>\n<inout />\n</special>\n"), "<inout", "<inout>", "not supported");
  expectError(caseWithSpecial("<special>\n<chrono />\n</special>\n"), "<chrono", "<chrono>", "not supported");
  expectError(caseWithSpecial("<special>\n<gaugez />\n</special>\n"), "<gaugez", "<gaugez>", "unknown element");
  expectError(caseWithSpecial(gauges("<maxz name=\"M\" />\n")), "<maxz", "<maxz>", "not supported");
  expectError(caseWithSpecial(gauges("<force name=\"F\" />\n")), "<force", "<force>", "not supported");
  expectError(caseWithSpecial(gauges("<mesh name=\"F\" />\n")), "<mesh", "<mesh>", "not supported");
  expectError(caseWithSpecial(gauges("<density name=\"D\" />\n")), "<density", "<density>", "unknown element");
  expectError(caseWithSpecial(gauges("<velocity name=\"V\">\n<point x=\"0\" y=\"0\" z=\"0\" />\n<point0 />\n"
                                     "</velocity>\n")),
              "<point0", "<point0>", "unknown element");
  expectError(caseWithSpecial(gauges("<default>\n<pointdp value=\"1\" />\n</default>\n")), "<pointdp", "<pointdp>",
              "unknown element");
}

TEST(GaugesReaderErrors, BadGaugeDefinitions) {
  const std::string pt = "<point x=\"0\" y=\"0\" z=\"0\" />\n";
  expectError(caseWithSpecial(gauges("<velocity>\n" + pt + "</velocity>\n")), "<velocity", "<velocity>",
              "missing attribute name");
  expectError(caseWithSpecial(gauges("<velocity name=\"a/b\">\n" + pt + "</velocity>\n")), "<velocity", "<velocity>",
              "a/b");
  expectError(caseWithSpecial(gauges("<velocity name=\"V\">\n" + pt + "</velocity>\n<pressure name=\"V\">\n" + pt +
                                     "</pressure>\n")),
              "<pressure", "<pressure>", "already used");
  expectError(caseWithSpecial(gauges("<pressure name=\"P\">\n</pressure>\n")), "<pressure", "<pressure>",
              "missing element <point>");
  expectError(caseWithSpecial(gauges("<velocity name=\"V\">\n<point x=\"0\" z=\"0\" />\n</velocity>\n")), "<point x=\"0\" z",
              "<point>", "missing attribute y");
  const std::string line = "<point0 x=\"0\" y=\"0\" z=\"0\" />\n<point2 x=\"0\" y=\"0\" z=\"1\" />\n";
  expectError(caseWithSpecial(gauges("<swl name=\"S\">\n" + line + "</swl>\n")), "<swl", "<swl>",
              "missing element <pointdp>");
  expectError(caseWithSpecial(gauges("<swl name=\"S\">\n<pointdp value=\"1\" coefdp=\"1\" />\n" + line + "</swl>\n")),
              "<pointdp", "<pointdp>", "not both");
  expectError(caseWithSpecial(gauges("<swl name=\"S\">\n<pointdp coefdp=\"-1\" />\n" + line + "</swl>\n")),
              "<pointdp", "<pointdp>", "positive");
  expectError(caseWithSpecial(gauges("<swl name=\"S\">\n<pointdp value=\"0.1\" />\n<masslimit />\n" + line +
                                     "</swl>\n")),
              "<masslimit", "<masslimit>", "value (kg) or coef");
  expectError(caseWithSpecial(gauges("<swl name=\"S\">\n<pointdp value=\"0.1\" />\n<masslimit value=\"0\" />\n" +
                                     line + "</swl>\n")),
              "<masslimit", "<masslimit>", "positive");
  expectError(caseWithSpecial(gauges("<swl name=\"S\">\n<pointdp value=\"0.1\" />\n<point0 x=\"0\" y=\"0\" z=\"1\" />\n"
                                     "<point2 x=\"0\" y=\"0\" z=\"1\" />\n</swl>\n")),
              "<swl", "<swl>", "same point");
  expectError(caseWithSpecial(gauges("<velocity name=\"V\">\n<computetime start=\"1\" end=\"0.5\" />\n" + pt +
                                     "</velocity>\n")),
              "<computetime", "<computetime>", "after end");
  expectError(caseWithSpecial(gauges("<default>\n<outputtime />\n</default>\n")), "<outputtime", "<outputtime>",
              "start or end");
  expectError(caseWithSpecial(gauges("<default>\n<computedt value=\"-0.1\" />\n</default>\n")), "<computedt",
              "<computedt>", ">= 0");
  expectError(caseWithSpecial(gauges("<default>\n<output value=\"yes\" />\n</default>\n")), "<output value", "<output>",
              "not true or false");
  expectError(caseWithSpecial(gauges("<default>\n<output />\n</default>\n")), "<output />", "<output>",
              "missing attribute value");
  expectError(caseWithSpecial(gauges("<velocity name=\"V\">\n<computedt value=\"1\" />\n<computedt value=\"2\" />\n" +
                                     pt + "</velocity>\n")),
              "<computedt value=\"2\"", "<computedt>", "appears twice");
  expectError(caseWithSpecial("<special>\n<gauges />\n<gauges />\n</special>\n"), "<gauges />\n</special>",
              "<gauges>", "appears twice");
}

}  // namespace
}  // namespace sph
