// The plugin boundary (plugin_abi.h): plugins built from this engine's headers load, a plugin built
// from other headers is refused with a message naming it and both ABI tags.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "platform/plugin_loader.h"
#include "sph/plugin/errors.h"
#include "sph/plugin/plugin_abi.h"

namespace {

// Sets SPH_PLUGIN_PATH for one test and puts the old value back.
class PluginPath {
 public:
  explicit PluginPath(const std::string& dirs) {
    if (const char* old = std::getenv("SPH_PLUGIN_PATH")) old_ = old, had_ = true;
    setenv("SPH_PLUGIN_PATH", dirs.c_str(), 1);
  }
  ~PluginPath() {
    if (had_)
      setenv("SPH_PLUGIN_PATH", old_.c_str(), 1);
    else
      unsetenv("SPH_PLUGIN_PATH");
  }

 private:
  std::string old_;
  bool had_ = false;
};

const std::string kStaleLib = std::string(SPH_TEST_PLUGIN_DIR) + "/libsph_stale.so";

TEST(PluginAbi, TagIsHeadersHashAndLayoutHash) {
  const std::string tag = sph::pluginAbiTag();
  EXPECT_EQ(tag.rfind(SPH_PLUGIN_HEADERS_HASH, 0), 0u) << tag;
  EXPECT_EQ(tag.size(), 16u + 1u + 16u) << tag;
  EXPECT_NE(sph::abi::layoutOf<float>(), sph::abi::layoutOf<double>());
}

TEST(PluginAbi, BuiltPluginsCarryTheEngineTag) {
  std::vector<std::string> problems;
  const auto plugins = sph::discoverPlugins(&problems);
  bool cell = false;
  for (const auto& p : plugins) cell |= p.name == "cell";
  EXPECT_TRUE(cell) << "the cell plugin of this build did not load";
  for (const auto& w : problems) ADD_FAILURE() << w;
}

TEST(PluginAbi, StalePluginIsRefusedWithBothTags) {
  ASSERT_TRUE(std::filesystem::exists(kStaleLib)) << kStaleLib << " not built";
  PluginPath path(SPH_TEST_PLUGIN_DIR);
  std::vector<std::string> problems;
  for (const auto& p : sph::discoverPlugins(&problems)) EXPECT_NE(p.name, "stale") << "loaded from " << p.path;
  std::string line;
  for (const auto& w : problems)
    if (w.find("libsph_stale.so") != std::string::npos) line = w;
  ASSERT_FALSE(line.empty()) << "no problem reported for " << kStaleLib;
  EXPECT_NE(line.find("'stale'"), std::string::npos) << line;
  EXPECT_NE(line.find(sph::pluginAbiTag()), std::string::npos) << line;
  // The stale tag: other headers, so another hash, and another layout (one member more).
  const size_t at = line.find("ABI tag ");
  ASSERT_NE(at, std::string::npos) << line;
  const std::string theirs = line.substr(at + 8, 33);
  EXPECT_NE(theirs.substr(0, 16), std::string(SPH_PLUGIN_HEADERS_HASH)) << line;
  EXPECT_NE(theirs.substr(17), sph::pluginAbiTag().substr(17)) << line;
  EXPECT_NE(line.find("rebuild"), std::string::npos) << line;
}

TEST(PluginAbi, AskingForTheStalePluginIsAnInputErrorThatSaysWhy) {
  PluginPath path(SPH_TEST_PLUGIN_DIR);
  try {
    sph::createStrategy("stale");
    FAIL() << "the stale plugin was created";
  } catch (const sph::InputError& e) {
    const std::string msg = e.what();
    // Its own library is the one asked for: the message says why it cannot be used.
    EXPECT_NE(msg.find("neighbour-search plugin 'stale': " + kStaleLib), std::string::npos) << msg;
    EXPECT_NE(msg.find("rebuild it"), std::string::npos) << msg;
    EXPECT_NE(msg.find(sph::pluginAbiTag()), std::string::npos) << msg;
  }
}

// A fresh folder under the system's temporary directory, removed with the object.
struct TempFolder {
  explicit TempFolder(const std::string& name)
      : path(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(getpid()))) {
    std::filesystem::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::filesystem::path path;
};

const std::string kCellLib = std::string(SPH_PLUGIN_BUILD_DIR) + "/libsph_cell.so";

TEST(PluginLoading, OnlyTheRequestedPluginIsLoaded) {
  // A library that is no library at all, where every run would have opened it before: a run of
  // another plugin does not see it.
  TempFolder dir("sph_broken_plugin");
  std::ofstream(dir.path / "libsph_broken.so") << "not an ELF file";
  PluginPath path(dir.path.string());
  sph::PluginInfo info;
  const sph::StrategyPtr s = sph::createStrategy("cell", &info);
  ASSERT_TRUE(s);
  EXPECT_EQ(info.name, "cell");
  // Listing every plugin still reports it, naming the file.
  std::vector<std::string> problems;
  (void)sph::discoverPlugins(&problems);
  bool named = false;
  for (const auto& w : problems) named |= w.find("libsph_broken.so") != std::string::npos;
  EXPECT_TRUE(named);
}

TEST(PluginLoading, OnlyAnExplicitPathReplacesABuiltInPlugin) {
  ASSERT_TRUE(std::filesystem::exists(kCellLib)) << kCellLib;
  // A copy of the cell plugin, as someone's own "cell" would be (its neighbour toolkit is already
  // loaded by the first strategy, so the copy links wherever it lies).
  sph::PluginInfo builtIn;
  const sph::StrategyPtr first = sph::createStrategy("cell", &builtIn);
  TempFolder dir("sph_shadow_plugin");
  std::filesystem::copy_file(kCellLib, dir.path / "libsph_cell.so");
  {
    PluginPath path(dir.path.string());
    sph::PluginInfo info;
    const sph::StrategyPtr s = sph::createStrategy("cell", &info);
    EXPECT_EQ(info.path, builtIn.path) << "SPH_PLUGIN_PATH replaced the built-in cell plugin";
  }
  sph::PluginInfo info;
  const sph::StrategyPtr s = sph::createStrategy("cell", &info, {dir.path.string()});
  EXPECT_EQ(std::filesystem::path(info.path).parent_path(), std::filesystem::weakly_canonical(dir.path));
}

}  // namespace
