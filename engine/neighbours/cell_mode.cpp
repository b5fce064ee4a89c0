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
          "once: passes without floating bodies, mDBC2 walls, shifting or SPS compute each pair once (the GPU's "
          "in single precision only, adding the neighbour's terms by atomics: results vary by rounding from run to "
          "run; the CPU's in both, repeating bit for bit on the same number of threads); twice: every pair from "
          "both of its particles, runs that repeat bit for bit; default once on the GPU, twice on the CPU"};
}

std::vector<StrategyOption> cellSearchOptions() {
  return {{"CellMode", "--cell-mode", "full|half", {"full", "half", "2h", "h"},
           "cell size of the search grid: full (2h, scanned 3 cells a side) or half (h, scanned 5 a side); "
           "default full"},
          {"CellRows", "--cell-rows", "reachable|all", {"reachable", "all"},
           "reachable: skip the cells of the scanned block that lie beyond the support; all: scan whole rows as "
           "DualSPHysics does; default reachable"}};
}

double pairOnceScratchBytes(const MemoryQuery& q) {
  // The GPU's diffusion sums and flags (float and 32 bits, only where walls can switch the
  // diffusion off).
  if (q.device == Device::Gpu) return 8.0;
  // The CPU's: the same in its precision, and the parts' spill windows (pair_once_cpu.h): five
  // sums for each fluid particle within reach of an earlier part and one for each wall a part
  // touches. A part's windows reach a few cell layers past its end, so over all parts they hold
  // about kSpillShare entries a particle in cases of millions on a few dozen threads; more in
  // small cases, where they are small anyway.
  constexpr double kSpillShare = 1.0;
  const double real = q.precision == Precision::Double ? 8.0 : 4.0;
  return real + 4.0 + kSpillShare * 5.0 * real;
}

MemoryNeed cellSearchMemory(const MemoryQuery& q) {
  MemoryNeed m;
  m.what = "cell search";
  const bool once = pairsOnceRuns(q.device, q.precision) &&
                    pairsOnceAsked(parsePairsOnce(q.options), q.options.count("CellPairs") > 0, q.device);
  m.bytes = (16.0 + (once ? pairOnceScratchBytes(q) : 0.0)) * double(q.particles);
  m.detail = once ? "keys and indices, double-buffered for the sort; the pair-once passes' scratch (at most)"
                  : "keys and indices, double-buffered for the sort";
  return m;
}

}  // namespace sph::cell
