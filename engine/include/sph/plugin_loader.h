// Finds and loads neighbour-strategy plugins (shared libraries exporting sph_plugin_descriptor).
// Search order: the directories in SPH_PLUGIN_PATH (colon-separated), then lib/sph/plugins next
// to the running binary (<bin>/../lib/sph/plugins), then the build tree's plugin directory.
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

std::vector<std::string> pluginSearchDirs();

// This sph's plugin ABI tag, "<headers hash>-<layout hash>" (plugin_abi.h); a plugin loads only
// when its tag is the same.
std::string pluginAbiTag();

// Every loadable plugin found (first one wins per name). Libraries that fail to load or have
// another ABI tag are reported in `problems` (one line each) when given.
std::vector<PluginInfo> discoverPlugins(std::vector<std::string>* problems = nullptr);

struct StrategyDeleter {
  void (*destroy)(NeighbourStrategy*) = nullptr;
  void operator()(NeighbourStrategy* s) const {
    if (s && destroy) destroy(s);
  }
};
using StrategyPtr = std::unique_ptr<NeighbourStrategy, StrategyDeleter>;

// Creates the strategy named `name`; throws InputError naming the directories searched and the
// plugins found when there is none of that name.
StrategyPtr createStrategy(const std::string& name, PluginInfo* info = nullptr);

}  // namespace sph
