// Finds and loads neighbour-strategy plugins (shared libraries exporting sph_plugin_descriptor).
// Search order: the directories given explicitly (sph run --plugin-path), then lib/sph/plugins
// next to the running binary (<bin>/../lib/sph/plugins) and the build tree's plugin directory
// (the built-in plugins), then the directories in SPH_PLUGIN_PATH (colon-separated). So only an
// explicit --plugin-path can replace a built-in plugin; an environment variable cannot.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sph/neighbour_strategy.h"

namespace sph {

struct PluginInfo {
  std::string name;
  std::string description;
  std::string path;
};

std::vector<std::string> pluginSearchDirs(const std::vector<std::string>& explicitDirs = {});

// This sph's plugin ABI tag, "<headers hash>-<layout hash>" (plugin_abi.h); a plugin loads only
// when its tag is the same.
std::string pluginAbiTag();

// Every loadable plugin found (first one wins per name). Libraries that fail to load or have
// another ABI tag are reported in `problems` (one line each) when given.
std::vector<PluginInfo> discoverPlugins(std::vector<std::string>* problems = nullptr,
                                        const std::vector<std::string>& explicitDirs = {});

struct StrategyDeleter {
  void (*destroy)(NeighbourStrategy*) = nullptr;
  void operator()(NeighbourStrategy* s) const {
    if (s && destroy) destroy(s);
  }
};
using StrategyPtr = std::unique_ptr<NeighbourStrategy, StrategyDeleter>;

// Creates the strategy named `name`. Only its own library, libsph_<name>.so, is loaded (the first
// in search order that loads), so a broken library beside it cannot break the run; a plugin in a
// file named otherwise is found by loading every library, as discoverPlugins does. Throws
// InputError naming the directories searched, the plugins found and the libraries skipped (and
// why) when there is none of that name.
StrategyPtr createStrategy(const std::string& name, PluginInfo* info = nullptr,
                           const std::vector<std::string>& explicitDirs = {});

}  // namespace sph
