// The run's neighbour-search plugin, loaded before the run's parameters are derived: its options
// are parameters of the case, and its memory estimate is part of the run's.
#pragma once

#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "platform/plugin_loader.h"
#include "run/simulation.h"

namespace sph {

struct NeighbourPlugin {
  StrategyPtr strategy;
  PluginInfo info;
  PluginOptions options() const { return {info.name, strategy->options()}; }
};

// The plugin --neighbours names, else the case's NeighbourSearch, else cell.
NeighbourPlugin loadNeighbourPlugin(const CaseDefinition& c, const RunOptions& o);

}  // namespace sph
