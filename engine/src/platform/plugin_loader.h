// Finds and loads neighbour-strategy plugins (shared libraries exporting sph_plugin_descriptor).
// Search order: the directories given explicitly (sph run --plugin-path), then lib/sph/plugins
// next to the running binary (<bin>/../lib/sph/plugins) and the build tree's plugin directory
// (the built-in plugins), then the directories in SPH_PLUGIN_PATH (colon-separated). So only an
// explicit --plugin-path can replace a built-in plugin; an environment variable cannot.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sph/plugin/neighbour_strategy.h"

namespace sph {

struct PluginInfo {
  std::string name;
  std::string description;
  std::string path;
};

// A plugin's name and its options (NeighbourStrategy::options()).
struct PluginOptions {
  std::string plugin;
  std::vector<StrategyOption> options;
};

std::vector<std::string> pluginSearchDirs(const std::vector<std::string>& explicitDirs = {});

// This sph's plugin ABI tag, "<headers hash>-<layout hash>" (plugin_abi.h); a plugin loads only
// when its tag is the same.
std::string pluginAbiTag();

// Every loadable plugin found in the libsph_*.so files of the search directories (first one wins
// per name). Libraries that fail to load, have another ABI tag or are writable by every user are
// reported in `problems` (one line each) when given. InputError when a directory of
// `explicitDirs` does not exist.
std::vector<PluginInfo> discoverPlugins(std::vector<std::string>* problems = nullptr,
                                        const std::vector<std::string>& explicitDirs = {});

struct StrategyDeleter {
  void (*destroy)(NeighbourStrategy*) = nullptr;
  void operator()(NeighbourStrategy* s) const {
    if (s && destroy) destroy(s);
  }
};
using StrategyPtr = std::unique_ptr<NeighbourStrategy, StrategyDeleter>;

// Creates the strategy named `name`. Only its own library, libsph_<name>.so, is loaded: the first
// in search order, so a broken library beside it cannot break the run, and a broken one of that
// name is an InputError saying why (never passed over for another of the same name further on).
// A plugin in a file named otherwise is found by loading every libsph_*.so, as discoverPlugins
// does. Throws InputError naming the directories searched, the plugins found and the libraries
// skipped (and why) when there is none of that name, and when a directory of `explicitDirs` does
// not exist.
StrategyPtr createStrategy(const std::string& name, PluginInfo* info = nullptr,
                           const std::vector<std::string>& explicitDirs = {});

// Every plugin discoverPlugins finds, with its options.
std::vector<PluginOptions> discoverPluginOptions(const std::vector<std::string>& explicitDirs = {});

}  // namespace sph
