// DualSPHysics' ViscoTime parameter (its JDsViscoInput): Visco read from a file of (time, value)
// rows, linear in between and constant outside, taken at the start of each step; the loader's
// errors; and runs: a file that repeats Visco changes nothing, one that raises it slows the flow.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "case/loader.h"
#include "model/sim_parameters.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

std::string damBreak(const std::string& extra) {
  return test::caseXml(
      R"(<definition dp="0.02"><pointmin x="-0.1" y="0" z="-0.1" /><pointmax x="1" y="0" z="1" /></definition>)",
      R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="0.2" y="2" z="0.3" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right</boxfill><point x="0" y="-1" z="0" /><size x="0.8" y="2" z="0.5" /></drawbox>)",
      R"(<parameter key="StepAlgorithm" value="2" /><parameter key="Visco" value="0.01" />
<parameter key="TimeMax" value="0.08" /><parameter key="TimeOut" value="1" />)" + extra);
}

TEST(ViscoTime, RowsAreReadRelativeToTheCaseAndInterpolated) {
  const auto dir = test::tempDir("viscotime_read");
  test::writeFile(dir / "visco.csv", "# time;visco\n0;0.01\n1;0.03\n");
  const CaseDefinition c =
      loadCase(test::writeFile(dir / "case.xml", damBreak(R"(<parameter key="ViscoTime" value="visco.csv" />)")));
  ASSERT_EQ(c.viscoTime.size(), 2u);
  const SimParameters p = deriveParameters(c);
  EXPECT_DOUBLE_EQ(p.viscoAt(-1), 0.01);
  EXPECT_DOUBLE_EQ(p.viscoAt(0.5), 0.02);
  EXPECT_DOUBLE_EQ(p.viscoAt(2), 0.03);
  EXPECT_TRUE(p.warnings.empty());
}

TEST(ViscoTime, ErrorsNameTheParameterAndTheFile) {
  const std::string xml = damBreak(R"(<parameter key="ViscoTime" value="missing.csv" />)");
  test::expectLoadError("viscotime_missing", xml, "<parameter key=\"ViscoTime\"", "ViscoTime", "missing.csv");
  const auto dir = test::tempDir("viscotime_negative");
  test::writeFile(dir / "visco.csv", "0;0.01\n1;-0.5\n");
  const std::string bad = damBreak(R"(<parameter key="ViscoTime" value="visco.csv" />)");
  test::expectInputErrorAt(test::writeFile(dir / "bad_Def.xml", bad), bad, "<parameter key=\"ViscoTime\"", "ViscoTime",
                           "below zero");
}

// The fluid's kinetic energy at the end of a run.
double kineticEnergy(const ParticleSnapshot& s) {
  double e = 0;
  for (size_t i = 0; i < s.count(); ++i)
    if (s.type[i] == 1) e += s.vel[3 * i] * s.vel[3 * i] + s.vel[3 * i + 2] * s.vel[3 * i + 2];
  return e;
}

TEST(ViscoTime, RunsUseTheViscosityOfTheirTime) {
  ParticleSnapshot plain, same, high;
  test::runCpuCase(test::tempDir("viscotime_plain"), damBreak(""), "cell", &plain);
  const auto d2 = test::tempDir("viscotime_same");
  test::writeFile(d2 / "same.csv", "0;0.01\n1;0.01\n");
  test::runCpuCase(d2, damBreak(R"(<parameter key="ViscoTime" value="same.csv" />)"), "cell", &same);
  const auto d3 = test::tempDir("viscotime_high");
  test::writeFile(d3 / "high.csv", "0;0.01\n0.01;0.5\n");
  test::runCpuCase(d3, damBreak(R"(<parameter key="ViscoTime" value="high.csv" />)"), "cell", &high);
  EXPECT_EQ(plain.vel, same.vel);  // the same arithmetic
  EXPECT_EQ(plain.pos, same.pos);
  // Fifty times the artificial viscosity from 0.01 s on holds the column back.
  EXPECT_LT(kineticEnergy(high), 0.8 * kineticEnergy(plain));
}

}  // namespace
}  // namespace sph
