#include "cell_mode.h"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph::cell {

CellMode parseCellMode(const std::map<std::string, std::string>& options) {
  const auto it = options.find("CellMode");
  if (it == options.end()) return CellMode::Full;
  std::string v = it->second;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  if (v == "full" || v == "2h") return CellMode::Full;
  if (v == "half" || v == "h") return CellMode::Half;
  throw InputError(fmt::format(
      "cell neighbour search: unknown CellMode '{}' (expected 'full' (cells of 2h) or 'half' (cells of h))",
      it->second));
}

bool parseTrimRows(const std::map<std::string, std::string>& options) {
  const auto it = options.find("CellRows");
  if (it == options.end()) return true;
  std::string v = it->second;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  if (v == "reachable") return true;
  if (v == "all") return false;
  throw InputError(fmt::format(
      "cell neighbour search: unknown CellRows '{}' (expected 'reachable' (skip cells beyond the support) or "
      "'all' (DualSPHysics' full rows))",
      it->second));
}

std::vector<StrategyOption> cellSearchOptions() {
  return {{"CellMode", "--cell-mode", "full|half", {"full", "half", "2h", "h"},
           "cell size of the search grid: full (2h, scanned 3 cells a side) or half (h, scanned 5 a side); "
           "default full"},
          {"CellRows", "--cell-rows", "reachable|all", {"reachable", "all"},
           "reachable: skip the cells of the scanned block that lie beyond the support; all: scan whole rows as "
           "DualSPHysics does; default reachable"}};
}

MemoryNeed cellSearchMemory(const MemoryQuery& q) {
  MemoryNeed m;
  m.what = "cell search";
  m.bytes = 16.0 * double(q.particles);
  m.detail = "keys and indices, double-buffered for the sort";
  return m;
}

}  // namespace sph::cell
