// What a case imposes on a floating body (<translationDOF>, <rotationDOF>, <linearvel>,
// <angularvel>), in whole runs of FloatingSmall (a cube of half the water's density rocked by a
// piston's waves), on the CPU and, where there is one, the GPU: the restricted motion is exactly
// zero and an imposed velocity is the body's, step after step, whatever the waves do.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

// FloatingSmall_Def.xml with `inside` added to its <floating>, at twice its dp (1,700 particles:
// seconds on CI's cores), run for `seconds` on `device`.
std::vector<test::FloatingRow> runDriven(const std::string& name, const std::string& inside, Device device,
                                         double seconds) {
  std::ifstream in(test::dualsphysicsData("FloatingSmall_Def.xml"));
  std::stringstream text;
  text << in.rdbuf();
  std::string xml = text.str();
  const std::string body = "<massbody value=\"32\" />";
  xml.replace(xml.find(body), body.size(), body + "\n" + inside);
  const auto dir = test::tempDir(name + (device == Device::Gpu ? "_gpu" : "_cpu"));
  LoadOptions coarse;
  coarse.dpOverride = 0.1;
  const CaseDefinition c = loadCase(test::writeFile(dir / "FloatingSmall_Def.xml", xml), coarse);
  RunOptions o = test::gpuRunWithOutputs("cell", (dir / "out").string());
  o.device = device;
  o.timeMax = seconds;
  o.timeOut = 0.01;
  Simulation sim(c, o);
  const RunReport r = sim.run();
  EXPECT_EQ(r.status, "completed") << r.error;
  return test::readFloatingCsv(dir / "out" / "floating.csv");
}

class FloatingDrive : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override {
    if (GetParam() == Device::Gpu && !gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  }
};

// Heave only: x and y of the centre stay where they start and the body never turns, while the
// waves lift it (the free cube drifts and rolls in the same waves).
TEST_P(FloatingDrive, RestrictedAxesDoNotMove) {
  const auto rows = runDriven("floating_dof",
                              "<translationDOF x=\"0\" y=\"0\" z=\"1\" />\n<rotationDOF x=\"0\" y=\"0\" z=\"0\" />",
                              GetParam(), 0.2);
  ASSERT_GT(rows.size(), 15u);
  double heave = 0;
  for (const auto& r : rows) {
    EXPECT_EQ(r.c[0], rows.front().c[0]) << r.t;
    EXPECT_EQ(r.c[1], rows.front().c[1]) << r.t;
    EXPECT_EQ(r.v[0], 0) << r.t;
    EXPECT_EQ(r.v[1], 0) << r.t;
    for (int k = 0; k < 3; ++k) EXPECT_EQ(r.w[k], 0) << r.t;
    heave = std::max(heave, std::abs(r.c[2] - rows.front().c[2]));
  }
  EXPECT_GT(heave, 1e-4);  // z stayed free
}

// An imposed velocity: vx 0.1 m/s from the start, an angular velocity about y ramping from 0 to
// 1 rad/s over 0.2 s, taken at each step's start. The centre moves by dt times the velocity of
// the step before (DualSPHysics' rule), so by 0.1 (t - dt1) along x, dt1 the first step (DtIni,
// h/c0: a few ms): the same lag at every row.
TEST_P(FloatingDrive, ImposedVelocityIsTheBodys) {
  const auto rows = runDriven("floating_imposed",
                              "<linearvel>\n<vel time=\"0\" x=\"0.1\" y=\"none\" z=\"none\" />\n</linearvel>\n"
                              "<angularvel>\n<vel time=\"0\" x=\"none\" y=\"0\" z=\"none\" />\n"
                              "<vel time=\"0.2\" x=\"none\" y=\"1\" z=\"none\" />\n</angularvel>",
                              GetParam(), 0.2);
  ASSERT_GT(rows.size(), 15u);
  const double x0 = rows.front().c[0];
  const double lag = x0 + 0.1 * rows[1].t - rows[1].c[0];
  EXPECT_GT(lag, 0);
  EXPECT_LT(lag, 0.1 * 0.01);
  const auto ramp = [](double t) { return std::min(std::max(t, 0.0), 0.2) / 0.2; };
  for (const auto& r : rows) {
    if (r.t == 0) continue;
    EXPECT_DOUBLE_EQ(r.v[0], 0.1) << r.t;
    EXPECT_NEAR(r.c[0], x0 + 0.1 * r.t - lag, 1e-6) << r.t;
    // The step's start is at most one step (under 5 ms here) before the row's time.
    EXPECT_LE(r.w[1], ramp(r.t) + 1e-6) << r.t;
    EXPECT_GE(r.w[1], ramp(r.t - 0.005) - 1e-6) << r.t;
  }
}

INSTANTIATE_TEST_SUITE_P(Devices, FloatingDrive, ::testing::Values(Device::Cpu, Device::Gpu),
                         [](const auto& info) { return info.param == Device::Cpu ? "Cpu" : "Gpu"; });

}  // namespace
}  // namespace sph
