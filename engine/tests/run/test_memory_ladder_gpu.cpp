// Out of device memory is never a failed run where a smaller configuration fits. Each run is
// given only so much device memory (SPH_DEVICE_MEMORY_LIMIT: the process holds back the rest, so
// every allocation meets a real out-of-memory). First each configuration runs alone on the whole
// device, giving its peak memory, which the estimate (run/memory_estimate.h) must predict; then
// `--neighbours verlet` (layout auto) with just above one configuration's peak must build that
// layout, in the order auto tries them (index lists, clusters, bitmask), or fall back to the cell
// search when none fits; below the cell search's estimate the run is refused with a dp that then
// runs with the same memory. The ladder takes every pair twice: half cluster lists (each pair
// once, the GPU's default) take about the memory of bitmask lists, too close to test apart; the
// peaks of the half index and cluster lists are checked against their estimates alone.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "case/loader.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "platform/gpu_runtime.h"
#include "platform/plugin_loader.h"
#include "run/memory_estimate.h"
#include "test_resume_runs.h"
#include "test_support.h"

namespace sph {
namespace {

namespace fs = std::filesystem;

// The number after "key": in a run.json (-1 when absent).
double jsonValue(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\": ");
  if (at == std::string::npos) return -1;
  size_t from = at + key.size() + 4;
  if (json[from] == '"') ++from;
  return std::strtod(json.c_str() + from, nullptr);
}

struct LadderRun {
  int exitCode = -1;
  std::string output, json;
};

// `sph ARGS --out OUT` on a device of `limitBytes` (the whole device when 0).
LadderRun runWithin(double limitBytes, const std::string& args, const fs::path& out) {
  LadderRun r;
  const std::string limit = limitBytes > 0 ? fmt::format("SPH_DEVICE_MEMORY_LIMIT={:.0f} ", limitBytes) : "";
  const test::CommandResult c =
      test::runCommand(fmt::format("{}{} {} --out {}", limit, SPH_BINARY_PATH, args, out.string()));
  r.exitCode = c.exitCode;
  r.output = c.output;
  if (fs::exists(out / "run.json")) r.json = test::fileText(out / "run.json");
  return r;
}

TEST(MemoryLadderGpu, EachStepDownHappensAtThePredictedSize) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  constexpr double kDp = 0.0026;  // DamBreak with about 5 M particles
  const std::string casePath = std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak.xml";
  LoadOptions lo;
  lo.dpOverride = kDp;
  const CaseDefinition c = loadCase(casePath, lo);
  SimParameters p = deriveParameters(c);
  const auto verlet = createStrategy("verlet");
  const DeviceMemoryEstimate once = estimateDeviceMemory(p, c.positions.size(), Precision::Single, *verlet);
  p.strategyOptions["VerletPairs"] = "twice";
  const DeviceMemoryEstimate e = estimateDeviceMemory(p, c.positions.size(), Precision::Single, *verlet);
  // Each of the plugin's needs with the engine's arrays.
  auto needIn = [](const DeviceMemoryEstimate& est, const std::string& what) {
    for (const MemoryNeed& m : est.strategy)
      if (m.what == what) return est.engine + m.bytes;
    ADD_FAILURE() << "the verlet plugin estimates no " << what;
    return 0.0;
  };
  auto needOf = [&](const std::string& what) { return needIn(e, what); };
  const fs::path dir = test::tempDir("memory_ladder_gpu");
  const std::string base =
      fmt::format("run {} --dp {} --device gpu --steps 3 --no-vtk --quiet --overwrite", casePath, kDp);
  // Half lists alone: the default pairs, each pair once.
  for (const auto& [layout, what] : {std::pair{"indices", "index lists"}, std::pair{"clusters", "cluster lists"}}) {
    SCOPED_TRACE(std::string(layout) + ", each pair once");
    const LadderRun r =
        runWithin(0, base + " --neighbours verlet --verlet-layout " + layout, dir / (std::string("once_") + layout));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_GT(jsonValue(r.json, "builds_pairs_once"), 0) << r.json;
    EXPECT_NEAR(jsonValue(r.json, "peak_device_bytes") / needIn(once, what), 1.0, 0.15) << r.json;
  }
  const std::string run = base + " --verlet-pairs twice";

  struct Step {
    const char* layout;  // the layout whose builds run.json counts, or "cell"
    std::string options;
    double estimate;
    double peak = 0;  // measured alone on the whole device
  };
  Step steps[] = {{"indices", "--neighbours verlet --verlet-layout indices", needOf("index lists")},
                  {"clusters", "--neighbours verlet --verlet-layout clusters", needOf("cluster lists")},
                  {"bitmask", "--neighbours verlet --verlet-layout bitmask", needOf("bitmask lists")},
                  {"cell", "--neighbours cell", e.run()}};
  // The prediction: each configuration's peak within 15% of the estimate (lists of a lattice at
  // rest against DamBreak's, with fewer neighbours at the walls and the surface).
  for (Step& s : steps) {
    SCOPED_TRACE(s.layout);
    const LadderRun alone = runWithin(0, run + " " + s.options, dir / (std::string("alone_") + s.layout));
    ASSERT_EQ(alone.exitCode, 0) << alone.output;
    s.peak = jsonValue(alone.json, "peak_device_bytes");
    ASSERT_GT(s.peak, 0) << alone.json;
    EXPECT_NEAR(s.peak / s.estimate, 1.0, 0.15) << "peak " << s.peak << " estimate " << s.estimate;
  }
  // Just above a configuration's peak (5%, and 64 MiB for what no report counts: CUB's scratch,
  // recorded steps) is below the next larger one's.
  auto above = [](double peak) { return 1.05 * peak + 64.0 * 1024 * 1024; };
  for (size_t k = 0; k + 1 < std::size(steps); ++k)
    ASSERT_GT(steps[k].peak, above(steps[k + 1].peak)) << "the ladder's steps are too close to test apart";
  for (const Step& s : steps) {
    SCOPED_TRACE(s.layout);
    const LadderRun r = runWithin(above(s.peak), run + " --neighbours verlet", dir / (std::string("auto_") + s.layout));
    ASSERT_EQ(r.exitCode, 0) << r.output;
    EXPECT_NE(r.json.find("\"status\": \"completed\""), std::string::npos) << r.json;
    for (const char* layout : {"indices", "clusters", "bitmask"}) {
      const double builds = jsonValue(r.json, fmt::format("builds_{}_layout", layout));
      if (std::string(layout) == s.layout) EXPECT_GT(builds, 0) << r.json;
      else EXPECT_EQ(builds, 0) << layout << " was built\n" << r.json;
    }
    EXPECT_EQ(jsonValue(r.json, "fallback_events") > 0, std::string(s.layout) == "cell") << r.json;
  }

  // Below the cell search's estimate (with the 6% the check adds): refused before anything is
  // allocated, naming a dp that runs with the same memory (the default pairs again).
  const double small = 0.9 * once.run();
  const LadderRun refused = runWithin(small, base + " --neighbours verlet", dir / "refused");
  EXPECT_EQ(refused.exitCode, 2) << refused.output;
  EXPECT_TRUE(refused.json.empty()) << "a refused run wrote a report";
  const std::string marker = "a dp of about ";
  const size_t at = refused.output.find(marker);
  ASSERT_NE(at, std::string::npos) << refused.output;
  const double fits = std::strtod(refused.output.c_str() + at + marker.size(), nullptr);
  EXPECT_GT(fits, kDp);
  const std::string again = fmt::format("run {} --dp {} --device gpu --steps 3 --no-vtk --quiet --overwrite", casePath, fits);
  for (const char* neighbours : {"cell", "verlet"}) {
    const LadderRun runs = runWithin(small, again + " --neighbours " + neighbours, dir / (std::string("fits_") + neighbours));
    EXPECT_EQ(runs.exitCode, 0) << neighbours << "\n" << runs.output;
  }
}

}  // namespace
}  // namespace sph
