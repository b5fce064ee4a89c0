#include "case/inout_grid_file.h"

#include <cstdlib>
#include <sstream>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "platform/input_file.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t k = 0; k <= line.size(); ++k)
    if (k == line.size() || line[k] == ';' || line[k] == ',') {
      out.push_back(trim(std::string_view(line).substr(start, k - start)));
      start = k + 1;
    }
  if (out.size() == 1 && out[0].empty()) out.clear();
  return out;
}

bool number(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

}  // namespace

InOutVelocityGrid readInOutVelocityGrid(const std::string& path) {
  std::istringstream in(readInputFile(path, "inlet/outlet velocity grid file"));
  std::vector<std::pair<int, std::vector<std::string>>> lines;  // non-blank, with their numbers
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::vector<std::string> c = cells(line);
    if (!c.empty()) lines.push_back({n, std::move(c)});
  }
  auto fail = [&](int n, const std::string& msg) -> InputError {
    return InputError(n > 0 ? fmt::format("{}:{}: {}", path, n, msg) : fmt::format("{}: {}", path, msg));
  };
  const std::vector<std::string> head = {"fmtversion", "grid_dpx", "grid_dpz", "grid_nx", "grid_nz", "vars"};
  if (lines.size() < 2 || lines[0].second != head)
    throw fail(lines.empty() ? 0 : lines[0].first,
               "the first line must be fmtversion;grid_dpx;grid_dpz;grid_nx;grid_nz;vars (DualSPHysics' grid format)");
  const auto& [hn, h] = lines[1];
  double v[5];
  if (h.size() != 6) throw fail(hn, fmt::format("{} values, the header row has 6", h.size()));
  for (int k = 0; k < 5; ++k)
    if (!number(h[size_t(k)], v[k])) throw fail(hn, fmt::format("{} \"{}\" is not a number", head[size_t(k)], h[size_t(k)]));
  if (v[0] != 1) throw fail(hn, fmt::format("fmtversion {:g} is not 1, the format read here", v[0]));
  InOutVelocityGrid g;
  g.file = path;
  g.dpx = v[1];
  g.dpz = v[2];
  if (!(g.dpx > 0 && g.dpz > 0 && v[3] >= 1 && v[3] <= 30 && v[4] >= 1 && v[4] <= 1000 && v[3] == int(v[3]) &&
        v[4] == int(v[4])))
    throw fail(hn, "the grid must have dpx, dpz > 0, 1 <= nx <= 30 and 1 <= nz <= 1000 (whole numbers), as "
                   "DualSPHysics allows");
  g.nx = uint32_t(v[3]);
  g.nz = uint32_t(v[4]);
  if (h[5] == "velx") g.velz = false;
  else if (h[5] == "velx velz") g.velz = true;
  else throw fail(hn, fmt::format("vars \"{}\" must be \"velx\" or \"velx velz\"", h[5]));
  const size_t npt = size_t(g.nx) * g.nz, perRow = 1 + npt * (g.velz ? 2 : 1);
  size_t first = 2;
  if (first < lines.size() && lines[first].second.front() == "time") ++first;  // the column names
  for (size_t r = first; r < lines.size(); ++r) {
    const auto& [n, c] = lines[r];
    if (c.size() != perRow) throw fail(n, fmt::format("{} values on the row, a row of this grid has {}", c.size(), perRow));
    double t;
    if (!number(c[0], t)) throw fail(n, fmt::format("time \"{}\" is not a number", c[0]));
    if (!g.times.empty() && !(t > g.times.back()))
      throw fail(n, fmt::format("time {:g} is not after the previous row's {:g}", t, g.times.back()));
    g.times.push_back(t);
    for (size_t k = 1; k < perRow; ++k) {
      double x;
      if (!number(c[k], x)) throw fail(n, fmt::format("value {} \"{}\" is not a number", k + 1, c[k]));
      g.values.push_back(float(x));
    }
  }
  if (g.times.empty()) throw fail(0, "no row of velocities");
  return g;
}

}  // namespace sph
