// Floating bodies against physics (CPU, CI-sized 2D cases): a box of relative weight 0.5 floats
// half submerged, and a DEM block dropped on the floor in air rebounds with its restitution
// coefficient. Plus the contract of OUT/floating.csv and both strategies agreeing on bodies.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "model/case_model.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

using test::readFloatingCsv;
using BodyRow = test::FloatingRow;

// Runs a case on the CPU into the temporary folder `name`; `last` (if given) gets the particles
// at the end.
RunReport runCase(const std::string& name, const std::string& xml, const std::string& neighbours = "cell",
                  ParticleSnapshot* last = nullptr) {
  return test::runCpuCase(test::tempDir(name), xml, neighbours, last);
}

std::filesystem::path outOf(const std::string& name) {
  return test::processTempRoot() / name / "out";
}

// A 2D tank 0.6 m long with water 0.2 m deep (dp 0.01: the top particle row is at 0.20 m, so the
// still water ends at 0.205 m) and a square box of 10 x 10 particles (side 0.10 m) whose bottom
// face is at the still-water level minus half its side, with the water there carved out (so the
// water level does not change when it floats at the draft theory gives).
std::string floatingBoxCase() {
  return test::caseXml(
      R"(<definition dp="0.01"><pointmin x="-0.05" y="0" z="-0.05" /><pointmax x="1" y="0" z="1" /></definition>)",
      R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="0.6" y="0" z="0.2" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right</boxfill><point x="0" y="-0.1" z="0" /><size x="0.6" y="0.2" z="0.4" /></drawbox>
<setmkvoid />
<drawbox><boxfill>solid</boxfill><point x="0.25" y="0" z="0.16" /><size x="0.09" y="0" z="0.09" /></drawbox>
<setmkbound mk="1" />
<drawbox><boxfill>solid</boxfill><point x="0.25" y="0" z="0.16" /><size x="0.09" y="0" z="0.09" /></drawbox>)",
      R"(<parameter key="StepAlgorithm" value="2" /><parameter key="Kernel" value="2" />
<parameter key="Visco" value="0.05" /><parameter key="DensityDT" value="1" /><parameter key="DensityDTvalue" value="0.1" />
<parameter key="TimeMax" value="1.0" /><parameter key="TimeOut" value="0.01" />)");
}

std::string withFloatings(std::string xml, const std::string& floatings) {
  xml.insert(xml.find("  </casedef>"), floatings);
  return xml;
}

// The free surface of the water at the end of a run: the mean of the top fluid particle of every
// lattice column in [x0, x1), plus dp/2 (the particle's own extent).
double waterLevel(const ParticleSnapshot& s, double x0, double x1, double dp) {
  std::map<long, double> top;
  for (size_t i = 0; i < s.count(); ++i) {
    const double x = s.pos[3 * i], z = s.pos[3 * i + 2];
    if (s.type[i] != 1 || x < x0 || x >= x1) continue;
    const auto [it, fresh] = top.try_emplace(std::lround(x / dp), z);
    if (!fresh) it->second = std::max(it->second, z);
  }
  double sum = 0;
  for (const auto& [column, z] : top) sum += z;
  return top.empty() ? 0 : sum / double(top.size()) + 0.5 * dp;
}

// Archimedes: a body of relative weight 0.5 floats with half its height under water. The box is
// 10 particles = 0.10 m high (each particle stands for dp^2), so the draft is 0.05 m, measured
// from the box's bottom face (lowest particle row - dp/2, the centre over 0.3-1.0 s: the body
// heaves by about +-1.5 mm, 0.15 dp, with a period near 0.6 s) to the water level at the end,
// away from the box (0.205 m at the start, 0.2051 m at the end). The box starts at that draft.
// Measured: 0.06 dp too deep (draft 0.05063 m), bounded by 0.1 dp. Keeping Molteni's term for
// fluid particles next to a wall or a floating particle (DualSPHysics turns it off there,
// pair_physics.h) gave 0.03 dp; the body's mass per particle in the pair terms instead of
// rho0 dp^2 (GenCase's masspart, floating_pair_physics.h) gave 0.13 dp. Started 1 dp deeper or
// 1 dp higher (water carved to match), the box settled about 0.04 dp too deep and 0.1 dp too
// high: floating particles keep the density the settling gave them, so the equilibrium depends a
// little on where the body came from.
TEST(FloatingValidation, BoxOfRelativeWeightHalfFloatsHalfSubmerged) {
  const std::string xml = withFloatings(floatingBoxCase(),
                                        "    <floatings><floating mkbound=\"1\" relativeweight=\"0.5\" /></floatings>\n");
  ParticleSnapshot last;
  const RunReport r = runCase("float_box", xml, "cell", &last);
  ASSERT_EQ(r.status, "completed") << r.error;
  const auto rows = readFloatingCsv(outOf("float_box") / "floating.csv");
  ASSERT_GT(rows.size(), 90u);
  double sum = 0;
  int n = 0;
  for (const BodyRow& b : rows) {
    EXPECT_NEAR(b.c[0], 0.295, 1e-3) << "the box drifts sideways at t=" << b.t;
    EXPECT_NEAR(b.w[1], 0.0, 0.05) << "the box turns at t=" << b.t;
    if (b.t >= 0.3) {
      sum += b.c[2];
      ++n;
    }
  }
  const double dp = 0.01, side = 0.10;
  // Columns at least 0.1 m from the box's sides and 3 dp from the walls.
  const double level = 0.5 * (waterLevel(last, 0.03, 0.145, dp) + waterLevel(last, 0.445, 0.57, dp));
  EXPECT_NEAR(level, 0.205, 0.1 * dp) << "the water level moved";
  const double bottom = sum / n - 0.5 * side;
  const double draft = level - bottom;
  std::printf("water level %.5f m, draft %.5f m (theory %.5f m): error %.2f dp\n", level, draft, 0.5 * side,
              (draft - 0.5 * side) / dp);
  EXPECT_NEAR(draft, 0.5 * side, 0.1 * dp);
}

// A 2D DEM block of 5 x 5 particles of hard wood (the bundled material's E and nu; a contact then
// lasts ~0.3 ms, resolved in ~15 steps by the contact's time-step rate) dropped
// in air from 3 cm onto the floor: e = sqrt(rebound height / drop height), the heights of the
// centre measured from where the bottom row touches the floor (centre distance dp). The puddle
// in the far corner only gives the case its speed of sound (hswl 0.05 m, c0 14 m/s). DtMin is
// lowered: its default, 0.05 h/c0 = 5e-5 s, would cut the contact into ~6 steps.
// This is the contact law of dem_physics.h with the rigid rules (FloatingMotion rigid,
// physics/floating_body_physics.h), which this test measures.
// Tolerance 10% (the validation's target), for both integrators. Measured (e 0.5, e 0.8):
// symplectic 0.47, 0.79; Verlet 0.46, 0.78. The contact law alone gives e to 1%
// (test_dem_physics.cpp); most of what is left is the first contact pass, which still shares the
// body's mass among the contacts of the pass before (none): with the right count from the start,
// e 0.5 came back as 0.49. A symplectic corrector that moves bodies with the new velocity
// instead of the mean of the old and new ones (physics/floating_body_physics.h) gave 0.43 for e 0.5.
std::string demDropCase(int stepAlgorithm) {
  return test::caseXml(
      R"(<definition dp="0.01"><pointmin x="-0.05" y="0" z="-0.05" /><pointmax x="1" y="0" z="1" /></definition>)",
      R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0.45" y="0" z="0" /><size x="0.05" y="0" z="0.05" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right</boxfill><point x="0" y="-0.1" z="0" /><size x="0.5" y="0.2" z="0.3" /></drawbox>
<setmkbound mk="1" />
<drawbox><boxfill>solid</boxfill><point x="0.1" y="0" z="0.04" /><size x="0.04" y="0" z="0.04" /></drawbox>)",
      R"(<parameter key="StepAlgorithm" value=")" + std::to_string(stepAlgorithm) + R"(" /><parameter key="Kernel" value="2" />
<parameter key="Visco" value="0.05" /><parameter key="DensityDT" value="1" />
<parameter key="RigidAlgorithm" value="2" /><parameter key="DtMin" value="1e-7" />
<parameter key="FloatingMotion" value="rigid" />
<parameter key="TimeMax" value="0.3" /><parameter key="TimeOut" value="0.0005" />)");
}

class DemRebound : public ::testing::TestWithParam<int> {};  // the StepAlgorithm

TEST_P(DemRebound, BlockReboundsWithItsRestitution) {
  const int stepAlgorithm = GetParam();
  for (const double e : {0.5, 0.8}) {
    const std::string props =
        "    <floatings><floating mkbound=\"1\" relativeweight=\"2\" property=\"wood\" /></floatings>\n"
        "    <properties>\n"
        "      <property name=\"wood\" Young_Modulus=\"1.23e10\" PoissonRatio=\"0.369\" Restitution_Coefficient=\"" +
        std::to_string(e) +
        "\" Kfric=\"0.3\" />\n"
        "      <links><link mkbound=\"0\" property=\"wood\" /></links>\n"
        "    </properties>\n";
    const std::string name = std::string(e < 0.6 ? "dem_drop_05_" : "dem_drop_08_") + std::to_string(stepAlgorithm);
    const RunReport r = runCase(name, withFloatings(demDropCase(stepAlgorithm), props));
    ASSERT_EQ(r.status, "completed") << r.error;
    const auto rows = readFloatingCsv(outOf(name) / "floating.csv");
    ASSERT_GT(rows.size(), 500u);
    const double dp = 0.01;
    // Centre 0.06 m; bottom row 0.04 m; touching when the bottom row is dp above the floor row (z=0).
    const double z0 = rows.front().c[2], bottomToCentre = z0 - 0.04, touch = dp + bottomToCentre;
    const double drop = z0 - touch;
    // The apex after the first bounce: the highest centre once the block has moved up again.
    size_t k = 0;
    while (k < rows.size() && rows[k].v[2] <= 0) ++k;  // falling, then in contact
    ASSERT_LT(k, rows.size()) << "the block never moved up again";
    double apex = rows[k].c[2];
    for (; k < rows.size() && rows[k].v[2] > 0; ++k) apex = std::max(apex, rows[k].c[2]);
    const double measured = std::sqrt(std::max(0.0, apex - touch) / drop);
    std::printf("StepAlgorithm %d, e = %.2f: rebound %.3f (drop %.4f m, rebound height %.4f m)\n", stepAlgorithm, e,
                measured, drop, apex - touch);
    EXPECT_NEAR(measured, e, 0.1 * e);
  }
}

INSTANTIATE_TEST_SUITE_P(Integrators, DemRebound, ::testing::Values(1, 2),
                         [](const ::testing::TestParamInfo<int>& i) { return i.param == 1 ? "Verlet" : "Symplectic"; });

}  // namespace
}  // namespace sph
