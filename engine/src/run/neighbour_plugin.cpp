#include "run/neighbour_plugin.h"

namespace sph {

NeighbourPlugin loadNeighbourPlugin(const CaseDefinition& c, const RunOptions& o) {
  std::string name = o.neighbours;
  if (name.empty()) name = parameterString(c, "NeighbourSearch", "");
  if (name.empty()) name = "cell";
  NeighbourPlugin p;
  p.strategy = createStrategy(name, &p.info, o.pluginDirs);
  return p;
}

}  // namespace sph
