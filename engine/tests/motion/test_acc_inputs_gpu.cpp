// Acceleration inputs on the GPU and on the CPU: the 2D tank of the DualSPHysics fixture
// (AccInputTank2D_Def.xml: linear, angular and rotating-frame terms, with and without global
// gravity, one input in a time window) gives the same particles after 200 steps, for both
// neighbour plugins, both precisions and both integrators (matched by id). The Verlet integrator's
// steps are the ones a GPU run records and replays as CUDA graphs: with inputs they must be run
// afresh every step. Skips without a usable GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "test_snapshot_compare.h"
#include "test_support.h"

namespace sph {
namespace {

struct AccSetup {
  const char* neighbours;
  Precision precision;
  int stepAlgorithm;
};

// The fixture's case with StepAlgorithm `alg`, written beside a copy of its data file.
CaseDefinition tankCase(int alg) {
  std::ifstream in(test::dualsphysicsData("AccInputTank2D_Def.xml"));
  std::stringstream ss;
  ss << in.rdbuf();
  std::string xml = ss.str();
  const std::string key = "key=\"StepAlgorithm\" value=\"2\"";
  const size_t at = xml.find(key);
  if (at == std::string::npos) throw std::runtime_error("AccInputTank2D_Def.xml has no StepAlgorithm 2");
  xml.replace(at, key.size(), "key=\"StepAlgorithm\" value=\"" + std::to_string(alg) + "\"");
  const auto dir = test::tempDir("accinputs_gpu_" + std::to_string(alg));
  std::filesystem::copy_file(test::dualsphysicsData("AccInputTank2D.csv"), dir / "AccInputTank2D.csv",
                             std::filesystem::copy_options::overwrite_existing);
  return loadCase(test::writeFile(dir / "AccInputTank2D_Def.xml", xml));
}

class AccInputGpuVsCpu : public ::testing::TestWithParam<AccSetup> {};

TEST_P(AccInputGpuVsCpu, SameStateAfter200Steps) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  const AccSetup s = GetParam();
  const CaseDefinition c = tankCase(s.stepAlgorithm);
  RunOptions o;
  o.neighbours = s.neighbours;
  o.precision = s.precision;
  // The inputs' values are interpolated once on the host and the formula is the same on both.
  test::expectGpuMatchesCpu(c, o, 200,
                            fmt::format("{} {} step algorithm {}", s.neighbours, precisionName(s.precision), s.stepAlgorithm));
}

std::vector<AccSetup> setups() {
  std::vector<AccSetup> v;
  for (const char* n : {"cell", "verlet"})
    for (Precision p : {Precision::Double, Precision::Single})
      for (int alg : {1, 2}) v.push_back({n, p, alg});
  return v;
}

INSTANTIATE_TEST_SUITE_P(AccInputs, AccInputGpuVsCpu, ::testing::ValuesIn(setups()), [](const auto& info) {
  return std::string(info.param.neighbours) + "_" + precisionName(info.param.precision) +
         (info.param.stepAlgorithm == 1 ? "_verlet_integrator" : "_symplectic");
});

}  // namespace
}  // namespace sph
