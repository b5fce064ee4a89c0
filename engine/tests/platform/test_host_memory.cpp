// Host memory on the CPU path: a run too large for the memory the process may take (here
// `ulimit -v`, as a container's or a batch system's limit would be) is refused before anything of
// the run is allocated, with the same figure `sph info` prints and a dp that then runs under the
// same limit (with the cell search, and with the Verlet plugin, which falls back to it when no
// list layout fits), never a std::bad_alloc part-way.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "test_support.h"

namespace sph {
namespace {

// `sph ARGS` with its address space limited to `kib` KiB.
test::CommandResult runLimited(long kib, const std::string& args) {
  return test::runCommand(fmt::format("bash -c 'ulimit -v {} && exec {} {}'", kib, SPH_BINARY_PATH, args));
}

TEST(HostMemory, ARunTooLargeForTheProcessIsRefusedWithADpThatRuns) {
  // DamBreak at dp 0.006 (459,000 particles) needs about 143 MiB on the CPU; the binary itself
  // maps about 30 MiB. 120 MiB of address space leaves about 95.
  constexpr long kLimitKiB = 120000;
  const std::string dir = test::tempDir("host_memory").string();
  const std::string casePath = std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak.xml";
  const std::string common = " --device cpu --threads 1 --no-vtk --quiet --overwrite";

  const test::CommandResult info = runLimited(kLimitKiB, "info " + casePath + " --dp 0.006");
  ASSERT_EQ(info.exitCode, 0) << info.output;
  const std::string figure = "a run needs about ";
  const size_t at = info.output.find(figure);
  ASSERT_NE(at, std::string::npos) << info.output;
  const double infoMiB = std::strtod(info.output.c_str() + at + figure.size(), nullptr);

  const test::CommandResult refused =
      runLimited(kLimitKiB, "run " + casePath + " --dp 0.006 --steps 1" + common + " --out " + dir + "/refused");
  EXPECT_EQ(refused.exitCode, 2) << refused.output;
  EXPECT_NE(refused.output.find("of host memory"), std::string::npos) << refused.output;
  // The figure sph info printed is the one the run was refused for.
  EXPECT_NE(refused.output.find(fmt::format("the run needs about {:.0f} MiB", infoMiB)), std::string::npos)
      << info.output << "\n" << refused.output;
  // Each plugin's refusal names a dp at which a run with that plugin fits (its library's mapping
  // counts against the limit too: the plugin is loaded before the check).
  for (const char* neighbours : {"cell", "verlet"}) {
    const test::CommandResult too = runLimited(
        kLimitKiB, fmt::format("run {} --dp 0.006 --steps 1 --neighbours {}{} --out {}/refused_{}", casePath,
                               neighbours, common, dir, neighbours));
    EXPECT_EQ(too.exitCode, 2) << neighbours << "\n" << too.output;
    const std::string marker = "a dp of about ";
    const size_t fitsAt = too.output.find(marker);
    ASSERT_NE(fitsAt, std::string::npos) << too.output;
    const double fits = std::strtod(too.output.c_str() + fitsAt + marker.size(), nullptr);
    EXPECT_GT(fits, 0.006);
    const test::CommandResult runs =
        runLimited(kLimitKiB, fmt::format("run {} --dp {} --steps 2 --neighbours {}{} --out {}/{}", casePath, fits,
                                          neighbours, common, dir, neighbours));
    EXPECT_EQ(runs.exitCode, 0) << neighbours << "\n" << runs.output;
  }
}

}  // namespace
}  // namespace sph
