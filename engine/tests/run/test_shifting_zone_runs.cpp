// Shifting zones in whole runs (2D dam break of test_support.h's small tank, 0.2 s, symplectic or
// Verlet integrator (whose GPU steps are recorded and replayed), shifting mode 3): a zone holding the whole domain changes nothing, bit for bit, from shifting
// everywhere; a zone away from the water gives, bit for bit, the run whose shift is zero for every
// particle (ShiftCoef 0: the same force passes, which on the GPU may round their sums otherwise
// than passes without shifting sums); a zone over half the water gives neither. On the CPU with
// both neighbour plugins, and on the GPU where there is one.
#include <gtest/gtest.h>

#include <string>

#include <fmt/format.h>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr char kParameters[] = R"(<parameter key="StepAlgorithm" value="2" /><parameter key="Kernel" value="2" />
<parameter key="ViscoTreatment" value="1" /><parameter key="Visco" value="0.1" /><parameter key="DensityDT" value="2" />
<parameter key="TimeMax" value="0.2" /><parameter key="TimeOut" value="0.2" />)";

ParticleSnapshot runWith(const std::string& name, const std::string& special, const std::string& parameters,
                         Device device, const char* neighbours) {
  const std::string xml = test::smallTankWithSpecial(special, parameters);
  const CaseDefinition c = loadCase(test::writeFile(test::tempDir("shifting_zone_runs") / (name + "_Def.xml"), xml));
  Simulation sim(c, test::silentRun(device, neighbours, Precision::Double));
  sim.run();
  return sim.snapshot();
}

std::string zone(double x0, double z0, double sx, double sz) {
  return fmt::format(R"(<shiftingzone><posref x="{}" y="-1" z="{}" /><size x="{}" y="2" z="{}" /></shiftingzone>)", x0,
                     z0, sx, sz);
}

struct ZoneRun {
  Device device;
  const char* neighbours;
  int stepAlgorithm = 2;  // 1: the Verlet integrator, whose GPU steps are recorded and replayed
};

class ShiftingZoneRuns : public ::testing::TestWithParam<ZoneRun> {};

TEST_P(ShiftingZoneRuns, OnlyParticlesInsideAZoneAreShifted) {
  const ZoneRun& r = GetParam();
  if (r.device == Device::Gpu && !gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  std::string parameters = kParameters;
  if (r.stepAlgorithm == 1)
    parameters.replace(parameters.find(R"(key="StepAlgorithm" value="2")"), 29, R"(key="StepAlgorithm" value="1")");
  const std::string shiftEverywhere = parameters + R"(<parameter key="Shifting" value="3" />)";
  const ParticleSnapshot everywhere = runWith("Everywhere", "", shiftEverywhere, r.device, r.neighbours);
  const std::string noShift = parameters + R"(<parameter key="Shifting" value="3" /><parameter key="ShiftCoef" value="0" />)";
  const ParticleSnapshot none = runWith("None", "", noShift, r.device, r.neighbours);
  const std::string mode = R"(<shifting><mode value="3" />)";
  const ParticleSnapshot whole =
      runWith("Whole", mode + zone(-0.2, -0.2, 1.5, 1.5) + "</shifting>", parameters, r.device, r.neighbours);
  const ParticleSnapshot away =
      runWith("Away", mode + zone(0.7, 0.7, 0.2, 0.2) + "</shifting>", parameters, r.device, r.neighbours);
  const ParticleSnapshot half =
      runWith("Half", mode + zone(0.1, -0.2, 1.5, 1.5) + "</shifting>", parameters, r.device, r.neighbours);
  ASSERT_EQ(everywhere.pos.size(), whole.pos.size());
  EXPECT_TRUE(everywhere.pos == whole.pos) << "a zone over the whole domain changed the run";
  EXPECT_TRUE(everywhere.vel == whole.vel);
  EXPECT_TRUE(none.pos == away.pos) << "a zone away from the water still shifted";
  EXPECT_TRUE(none.rho == away.rho);
  EXPECT_FALSE(half.pos == everywhere.pos);
  EXPECT_FALSE(half.pos == none.pos);
  EXPECT_FALSE(everywhere.pos == none.pos) << "shifting did nothing: the test shows nothing";
}

INSTANTIATE_TEST_SUITE_P(Tank, ShiftingZoneRuns,
                         ::testing::Values(ZoneRun{Device::Cpu, "cell"}, ZoneRun{Device::Cpu, "verlet"},
                                           ZoneRun{Device::Gpu, "cell"}, ZoneRun{Device::Gpu, "verlet"},
                                           ZoneRun{Device::Cpu, "cell", 1}, ZoneRun{Device::Gpu, "verlet", 1}),
                         [](const ::testing::TestParamInfo<ZoneRun>& i) {
                           return std::string(i.param.device == Device::Gpu ? "Gpu" : "Cpu") + i.param.neighbours +
                                  (i.param.stepAlgorithm == 1 ? "VerletSteps" : "");
                         });

}  // namespace
}  // namespace sph
