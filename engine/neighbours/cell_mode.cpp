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

}  // namespace sph::cell
