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

bool parsePairsOnce(const std::map<std::string, std::string>& options) {
  const auto it = options.find("CellPairs");
  if (it == options.end()) return true;
  std::string v = it->second;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  if (v == "once") return true;
  if (v == "twice") return false;
  throw InputError(fmt::format(
      "cell neighbour search: unknown CellPairs '{}' (expected 'once' (each pair computed once where the pass "
      "allows it) or 'twice' (every pair from both particles, runs that repeat bit for bit))",
      it->second));
}

StrategyOption cellPairsOption() {
  return {"CellPairs",
          "--cell-pairs",
          "once|twice",
          {"once", "twice"},
          "once: the GPU's single-precision passes without floating bodies, mDBC2 walls, shifting or SPS compute "
          "each pair once and add the neighbour's terms by atomics (results vary by rounding from run to run); "
          "twice: every pair from both of its particles, runs that repeat bit for bit; default once"};
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
  const bool once = q.device == Device::Gpu && q.precision == Precision::Single && parsePairsOnce(q.options);
  m.bytes = (once ? 24.0 : 16.0) * double(q.particles);
  m.detail = once ? "keys and indices, double-buffered for the sort; the pair-once passes' diffusion sums (at most)"
                  : "keys and indices, double-buffered for the sort";
  return m;
}

}  // namespace sph::cell
