// <special><shifting> (case/shifting_reader.h) and its zones (physics/shifting_zones.h): the mode
// and coefficients it sets instead of the parameters, boxes along the axes and turned ones
// (DualSPHysics turns them as GenCase turns drawings: clockwise seen from point2), the 2D
// parallelogram, and the errors. The zone tests are exact geometry: points a hair (1e-9 m) inside
// and outside each face.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "case/loader.h"
#include "model/sim_parameters.h"
#include "physics/shifting_zones.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr char kParameters[] = R"(<parameter key="StepAlgorithm" value="2" /><parameter key="TimeMax" value="0.1" />)";

SimParameters parametersWith(const std::string& name, const std::string& shifting,
                             const std::string& parameters = kParameters) {
  const std::string xml = test::smallTankWithSpecial(shifting, parameters);
  return deriveParameters(loadCase(test::writeFile(test::tempDir("shifting_zones") / (name + "_Def.xml"), xml)));
}

bool inside(const ShiftZone& z, double x, double y, double zc) {
  const double p[3] = {x, y, zc};
  return insideShiftZone(z, p);
}

TEST(ShiftingZones, SpecialSetsTheModeAndCoefficients) {
  const SimParameters p = parametersWith("Mode", R"(<shifting><mode value="1" /><coefficient value="-3" />
<fsthreshold value="1.5" /></shifting>)");
  EXPECT_EQ(p.shifting, Shifting::NoBound);
  EXPECT_EQ(p.shiftCoef, -3);
  EXPECT_EQ(p.shiftTfs, 1.5);
  EXPECT_TRUE(p.shiftZones.empty());
  const SimParameters off = parametersWith("Off", R"(<shifting><mode value="0" /></shifting>)");
  EXPECT_EQ(off.shifting, Shifting::None);
}

TEST(ShiftingZones, BoxesAlongTheAxesAndTurnedOnes) {
  const SimParameters p = parametersWith("Zones", R"(<shifting><mode value="3" />
<shiftingzone><posref x="0.1" y="-1" z="0" /><size x="0.2" y="2" z="0.5" /></shiftingzone>
<shiftingzone><posref x="0" y="-1" z="0" /><size x="1" y="2" z="0.1" />
  <rotateaxis angle="-45" anglesunits="degrees"><point1 x="0" y="0" z="0" /><point2 x="0" y="1" z="0" /></rotateaxis>
</shiftingzone>
<shiftingzone><posref x="0" y="0" z="0" /><vecx x="0.3" y="0" z="0.3" /><vecy x="0" y="0" z="0" />
  <vecz x="-0.1" y="0" z="0.1" /></shiftingzone>
</shifting>)");
  ASSERT_EQ(p.shiftZones.size(), 3u);
  const ShiftZone& box = p.shiftZones[0];
  EXPECT_EQ(box.box, 1u);
  EXPECT_TRUE(inside(box, 0.1, 0, 0));  // limits count as inside
  EXPECT_TRUE(inside(box, 0.3, 0, 0.5));
  EXPECT_FALSE(inside(box, 0.3 + 1e-9, 0, 0.2));
  EXPECT_FALSE(inside(box, 0.2, 0, -1e-9));
  EXPECT_FALSE(inside(box, 0.2, 1 + 1e-9, 0.2));
  // The strip 1 m along x and 0.1 m high, turned by -45 degrees about +y: GenCase's turn by ang
  // takes +x to (cos ang, 0, sin ang), so its long edge runs along (r, 0, -r), its short one
  // along 0.1 (r, 0, r).
  const ShiftZone& turned = p.shiftZones[1];
  EXPECT_EQ(turned.box, 0u);
  const double r = std::sqrt(0.5);
  EXPECT_TRUE(inside(turned, 0.5 * r + 0.001 * r, 0, -0.5 * r + 0.001 * r));  // just off the long edge's middle
  EXPECT_TRUE(inside(turned, 0.5 * r + 0.05 * r, 0, -0.5 * r + 0.05 * r));  // half way across
  EXPECT_FALSE(inside(turned, 0.5 * r - 0.01, 0, -0.5 * r - 0.01));   // below the strip
  EXPECT_FALSE(inside(turned, 0.5, 0, 0.5));                          // where it was before turning
  // A 2D parallelogram without a y edge: any y.
  const ShiftZone& flat = p.shiftZones[2];
  EXPECT_EQ(flat.box, 0u);
  EXPECT_TRUE(inside(flat, 0.1, 5, 0.15));
  EXPECT_TRUE(inside(flat, 0.99 * 0.2, -3, 0.99 * 0.4));  // near origin + vecx + vecz
  EXPECT_FALSE(inside(flat, 0.2, 0, 0.1 - 1e-6));
}

TEST(ShiftingZones, ErrorsNameTheElement) {
  const std::string both = test::smallTankWithSpecial(R"(<shifting><mode value="3" /></shifting>)",
                                                      std::string(kParameters) + R"(<parameter key="Shifting" value="0" />)");
  try {
    deriveParameters(loadCase(test::writeFile(test::tempDir("shifting_zones") / "Both_Def.xml", both)));
    ADD_FAILURE() << "shifting set twice";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("also set by <special><shifting>"), std::string::npos) << e.what();
  }
  const struct {
    const char* special;
    const char* marker;
    const char* element;
    const char* what;
  } bad[] = {
      {"<shifting>\n<mode value=\"5\" /></shifting>", "<mode", "mode", "not a shifting mode"},
      {"<shifting><mode value=\"3\" />\n<shiftingzone><size x=\"1\" y=\"1\" z=\"1\" /></shiftingzone></shifting>",
       "<shiftingzone", "posref", "missing"},
      {"<shifting><mode value=\"3\" /><shiftingzone><posref x=\"0\" y=\"0\" z=\"0\" /><size x=\"1\" y=\"1\" z=\"1\" />\n"
       "<rotateaxis angle=\"10\" anglesunits=\"turns\"><point1 x=\"0\" y=\"0\" z=\"0\" /><point2 x=\"0\" y=\"1\" z=\"0\" "
       "/></rotateaxis></shiftingzone></shifting>",
       "<rotateaxis", "rotateaxis", "degrees"},
      {"<shifting><mode value=\"3\" />\n<radius v=\"1\" /></shifting>", "<radius", "radius", "unknown"},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE(b.special);
    test::expectLoadError("shifting_zones_bad", test::smallTankWithSpecial(b.special, kParameters), b.marker,
                          b.element, b.what);
  }
  // Edges that span no volume in 3D are refused when the parameters are derived.
  const std::string flat3d = test::caseXml(
      R"(<definition dp="0.05"><pointmin x="-0.1" y="-0.1" z="-0.1" /><pointmax x="1" y="1" z="1" /></definition>)",
      R"(<setmkfluid mk="0" /><drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="0.2" y="0.2" z="0.2" /></drawbox>)",
      kParameters);
  std::string xml = flat3d;
  xml.insert(xml.find("    <parameters>"), R"(<special><shifting><mode value="3" /><shiftingzone><posref x="0" y="0" z="0" />
<vecx x="1" y="0" z="1" /><vecy x="0" y="0" z="0" /><vecz x="0" y="0" z="1" /></shiftingzone></shifting></special>
)");
  try {
    deriveParameters(loadCase(test::writeFile(test::tempDir("shifting_zones") / "Flat3D_Def.xml", xml)));
    ADD_FAILURE() << "a flat zone in 3D";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("do not span a volume"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sph
