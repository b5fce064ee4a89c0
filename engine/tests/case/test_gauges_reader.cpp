// Reader of <execution><special><gauges> (case/gauges_reader.cpp) and the run-time defaults of
// the gauges (resolveGauge): DualSPHysics' format, the reference cases, and bad input (every
// error names file, line and element).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "case/loader.h"
#include "gauges/gauge_recorder.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "sph/plugin/errors.h"
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
  expectError(caseWithSpecial("<special>\n<vres />\n</special>\n"), "<vres", "<vres>", "not supported");
  expectError(caseWithSpecial("<special>\n<forcepoints />\n</special>\n"), "<forcepoints", "<forcepoints>",
              "not supported");
  expectError(caseWithSpecial("<special>\n<moorings />\n</special>\n"), "<moorings", "<moorings>", "not supported");
  expectError(caseWithSpecial("<special>\n<chrono />\n</special>\n"), "<chrono", "<chrono>", "not supported");
  expectError(caseWithSpecial("<special>\n<gaugez />\n</special>\n"), "<gaugez", "<gaugez>", "unknown element");
  expectError(caseWithSpecial(gauges("<mesh name=\"F\">\n<point x=\"0\" y=\"0\" z=\"0\" />\n<outputdata value=\"vel\" />\n"
                                     "<outputfmt value=\"xml\" />\n</mesh>\n")),
              "<outputfmt", "<outputfmt>", "unknown output format \"xml\"");
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

// The fluid box of caseWithSpecial plus boundaries: a floor (mkbound 3) and a wall (mkbound 5),
// and (with `floating`) a block of mkbound 7 that is a floating body.
std::string caseWithBounds(const std::string& special, bool floating = false) {
  std::string xml = caseWithSpecial(special);
  const std::string bounds = std::string(R"(
<setmkbound mk="3" />
<drawbox><boxfill>solid</boxfill><point x="-0.3" y="0" z="-0.3" /><size x="1.6" y="0" z="0.2" /></drawbox>
<setmkbound mk="5" />
<drawbox><boxfill>solid</boxfill><point x="1.2" y="0" z="0" /><size x="0.2" y="0" z="1" /></drawbox>)") +
                             (floating ? R"(
<setmkbound mk="7" />
<drawbox><boxfill>solid</boxfill><point x="1.6" y="0" z="1" /><size x="0.2" y="0" z="0.2" /></drawbox>)"
                                       : "") +
                             "\n";
  const std::string at = "</mainlist>";
  xml.insert(xml.find(at), bounds);
  if (floating) {
    const std::string end = "</casedef>";
    xml.insert(xml.find(end), "<floatings>\n<floating mkbound=\"7\" relativeweight=\"0.5\" />\n</floatings>\n");
  }
  return xml;
}

TEST(GaugesReader, MaxZAndForce) {
  const CaseDefinition c = load(caseWithBounds(gauges(R"(<default><output value="true" /></default>
<maxz name="MaxValue">
  <point0 x="0.9" y="0" z="0" />
  <height value="2.1" />
  <distlimit value="0.04" />
</maxz>
<maxz name="MaxDp">
  <computedt value="0.01" />
  <point0 x="0.5" y="0" z="-0.1" />
  <height value="1.5" />
  <distlimit coefdp="2" />
</maxz>
<maxz name="MaxH">
  <point0 x="0.5" y="0" z="0.2" />
  <height value="0" />
  <distlimit coefh="0.5" />
</maxz>
<force name="Floor">
  <target mkbound="3" />
</force>
<force name="Wall">
  <outputdt value="0.02" />
  <target mkbound="5" />
</force>
)")));
  ASSERT_EQ(c.gauges.items.size(), 5u);
  const GaugeSpec& mv = byName(c, "MaxValue");
  EXPECT_EQ(mv.kind, GaugeKind::MaxZ);
  EXPECT_EQ(mv.point0.x, 0.9);
  EXPECT_EQ(mv.point0.z, 0.0);
  EXPECT_EQ(mv.height, 2.1);
  EXPECT_EQ(mv.distLimit, 0.04);
  EXPECT_EQ(mv.distLimitUnit, GaugeSpec::DistUnit::Metre);
  EXPECT_EQ(mv.timing.output, true);
  const GaugeSpec& md = byName(c, "MaxDp");
  EXPECT_EQ(md.distLimitUnit, GaugeSpec::DistUnit::Dp);
  EXPECT_EQ(md.timing.computeDt, 0.01);
  EXPECT_EQ(byName(c, "MaxH").distLimitUnit, GaugeSpec::DistUnit::H);

  // The targets are looked up among the case's mks: global mk = mkbound + fluidcount + 1.
  const GaugeSpec& floor = byName(c, "Floor");
  EXPECT_EQ(floor.kind, GaugeKind::Force);
  EXPECT_EQ(floor.mkBound, 3);
  ASSERT_GE(floor.mkIndex, 0);
  EXPECT_TRUE(c.mks[size_t(floor.mkIndex)].bound);
  EXPECT_EQ(c.mks[size_t(floor.mkIndex)].local, 3);
  EXPECT_EQ(floor.mk, 3 + 9 + 1);
  const GaugeSpec& wall = byName(c, "Wall");
  EXPECT_EQ(c.mks[size_t(wall.mkIndex)].local, 5);
  EXPECT_EQ(wall.timing.outputDt, 0.02);

  // Run-time values: coefdp x dp, coefh x h, value as given; a force gauge is scaled by the
  // boundary particles' mass.
  const SimParameters p = deriveParameters(c);
  EXPECT_DOUBLE_EQ(resolveGauge(mv, p).distLimit, 0.04);
  EXPECT_DOUBLE_EQ(resolveGauge(md, p).distLimit, 2 * 0.1);
  EXPECT_DOUBLE_EQ(resolveGauge(byName(c, "MaxH"), p).distLimit, 0.5 * p.h);
  EXPECT_DOUBLE_EQ(resolveGauge(mv, p).floorZ, p.domainMin.z);
  EXPECT_DOUBLE_EQ(resolveGauge(floor, p).massBound, p.massBound);
  EXPECT_TRUE(gaugePoints(resolveGauge(mv, p)).empty()) << "maxz and force gauges have no interpolation points";
  EXPECT_TRUE(gaugePoints(resolveGauge(floor, p)).empty());
}

TEST(GaugesReaderErrors, BadMaxZAndForceDefinitions) {
  const std::string p0 = "<point0 x=\"0.5\" y=\"0\" z=\"0\" />\n";
  const std::string h = "<height value=\"1\" />\n";
  const std::string d = "<distlimit value=\"0.05\" />\n";
  expectError(caseWithSpecial(gauges("<maxz name=\"M\">\n" + h + d + "</maxz>\n")), "<maxz", "<maxz>",
              "missing element <point0>");
  expectError(caseWithSpecial(gauges("<maxz name=\"M\">\n" + p0 + d + "</maxz>\n")), "<maxz", "<maxz>",
              "missing element <height>");
  expectError(caseWithSpecial(gauges("<maxz name=\"M\">\n" + p0 + h + "</maxz>\n")), "<maxz", "<maxz>",
              "missing element <distlimit>");
  expectError(caseWithSpecial(gauges("<maxz name=\"M\">\n" + p0 + h + "<distlimit value=\"-0.05\" />\n</maxz>\n")),
              "<distlimit", "<distlimit>", "must be positive");
  expectError(caseWithSpecial(gauges("<maxz name=\"M\">\n" + p0 + h + "<distlimit coefdp=\"0\" />\n</maxz>\n")),
              "<distlimit", "<distlimit>", "must be positive");
  expectError(caseWithSpecial(gauges("<maxz name=\"M\">\n" + p0 + h + "<distlimit value=\"1\" coefh=\"1\" />\n</maxz>\n")),
              "<distlimit", "<distlimit>", "not value and coefh");
  expectError(caseWithSpecial(gauges("<maxz name=\"M\">\n" + p0 + h + "<distlimit coef=\"1\" />\n</maxz>\n")),
              "<distlimit", "<distlimit>", "needs attribute value");
  expectError(caseWithSpecial(gauges("<maxz name=\"M\">\n" + p0 + "<height value=\"-1\" />\n" + d + "</maxz>\n")),
              "<height", "<height>", ">= 0");
  expectError(caseWithSpecial(gauges("<maxz name=\"M\">\n" + p0 + h + d + "<point x=\"0.123\" y=\"0\" z=\"0\" />\n</maxz>\n")),
              "<point x=\"0.123\"", "<point>", "unknown element");

  expectError(caseWithBounds(gauges("<force name=\"F\">\n</force>\n")), "<force", "<force>",
              "missing element <target");
  expectError(caseWithBounds(gauges("<force name=\"F\">\n<target />\n</force>\n")), "<target", "<target>",
              "missing attribute mkbound");
  expectError(caseWithBounds(gauges("<force name=\"F\">\n<target mkfluid=\"0\" />\n</force>\n")), "<target",
              "<target>", "boundary particles");
  expectError(caseWithBounds(gauges("<force name=\"F\">\n<target mkbound=\"-1\" />\n</force>\n")), "<target",
              "<target>", ">= 0");
  // Looked up once the particles are made: the line of <target>, naming the gauge.
  expectError(caseWithBounds(gauges("<force name=\"F\">\n<target mkbound=\"4\" />\n</force>\n")), "<target",
              "<target> of force gauge 'F'", "mkbound 4 has no particles");
  // mkbound 0 is the fluid's mk number, not a boundary's: the case has no boundary mk 0.
  expectError(caseWithBounds(gauges("<force name=\"F\">\n<target mkbound=\"0\" />\n</force>\n")), "<target",
              "<target> of force gauge 'F'", "mkbound 0 has no particles");
  expectError(caseWithBounds(gauges("<force name=\"F\">\n<target mkbound=\"7\" />\n</force>\n"), true), "<target",
              "<target> of force gauge 'F'", "floating body");
}

}  // namespace
}  // namespace sph
