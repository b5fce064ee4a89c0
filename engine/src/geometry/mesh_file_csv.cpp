// Bathymetry tables (GenCase's <drawfilecsv mode="bathymetry">; geometry/mesh_file.h): lines
// starting with '#' are comments; the first other line is a label and the x values, each later one
// a y value and the z of the surface at every x, all ';'- (or ',')-separated, as
// GenCase_Bathymetry.csv of DualSPHysics' format reference. The x values must increase along the
// row, the y values down the table. Each cell of the table becomes two triangles, cut as GenCase
// cuts a quadrilateral (the triangles (v0, v1, v2) and (v0, v2, v3)) from its corners
// (x_i, y_j), (x_i+1, y_j), (x_i+1, y_j+1), (x_i, y_j+1).
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <fmt/format.h>

#include "geometry/mesh_file.h"

namespace sph::gen {
namespace {

// The ';'- or ','-separated fields of a line, trimmed.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    const size_t b = cur.find_first_not_of(" \t\r"), e = cur.find_last_not_of(" \t\r");
    out.push_back(b == std::string::npos ? std::string() : cur.substr(b, e - b + 1));
    cur.clear();
  };
  for (const char ch : line) {
    if (ch == ';' || ch == ',')
      flush();
    else
      cur += ch;
  }
  flush();
  return out;
}

double number(const std::string& path, int line, const std::string& text, const char* what) {
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
    throw MeshFileError(fmt::format("{}:{}: {} \"{}\" is not a finite number", path, line, what, text));
  return v;
}

}  // namespace

std::vector<PreciseTriangle> readBathymetryCsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw MeshFileError(fmt::format("{}: cannot open the bathymetry file", path));
  std::vector<double> xs, ys;
  std::vector<std::vector<double>> zs;  // per row (y), per column (x)
  std::string text;
  int line = 0;
  while (std::getline(in, text)) {
    ++line;
    const size_t first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos || text[first] == '#') continue;
    const std::vector<std::string> f = fields(text);
    if (xs.empty()) {
      if (f.size() < 3)
        throw MeshFileError(fmt::format("{}:{}: the first line needs a label and at least two x values", path, line));
      for (size_t k = 1; k < f.size(); ++k) {
        xs.push_back(number(path, line, f[k], "the x value"));
        if (xs.size() > 1 && !(xs.back() > xs[xs.size() - 2]))
          throw MeshFileError(
              fmt::format("{}:{}: the x values must increase ({} after {})", path, line, f[k], f[k - 1]));
      }
      continue;
    }
    if (f.size() != xs.size() + 1)
      throw MeshFileError(fmt::format("{}:{}: {} values where the x values ask for {} (a y value and a z per x)", path,
                                      line, f.size(), xs.size() + 1));
    ys.push_back(number(path, line, f[0], "the y value"));
    if (ys.size() > 1 && !(ys.back() > ys[ys.size() - 2]))
      throw MeshFileError(fmt::format("{}:{}: the y values must increase down the table ({} after {})", path, line,
                                      f[0], ys[ys.size() - 2]));
    std::vector<double> row;
    for (size_t k = 1; k < f.size(); ++k) row.push_back(number(path, line, f[k], "the z value"));
    zs.push_back(std::move(row));
  }
  if (xs.empty()) throw MeshFileError(fmt::format("{}: no table in the bathymetry file", path));
  if (ys.size() < 2) throw MeshFileError(fmt::format("{}: the bathymetry needs at least two rows of y", path));
  std::vector<PreciseTriangle> out;
  out.reserve(2 * (xs.size() - 1) * (ys.size() - 1));
  for (size_t j = 0; j + 1 < ys.size(); ++j)
    for (size_t i = 0; i + 1 < xs.size(); ++i) {
      const Vec3d v0{xs[i], ys[j], zs[j][i]}, v1{xs[i + 1], ys[j], zs[j][i + 1]};
      const Vec3d v2{xs[i + 1], ys[j + 1], zs[j + 1][i + 1]}, v3{xs[i], ys[j + 1], zs[j + 1][i]};
      out.push_back({v0, v1, v2});
      out.push_back({v0, v2, v3});
    }
  return out;
}

}  // namespace sph::gen
