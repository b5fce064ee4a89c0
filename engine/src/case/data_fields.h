// The fields of one line of DualSPHysics' ';'-separated data files (mesh data, piston and
// relaxation-zone velocities): trimmed of blanks, a separator ending the line ignored; and a
// field as a finite number.
#pragma once

#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace sph {

inline std::string trimField(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

inline std::vector<std::string> splitFields(const std::string& line, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t k = 0; k <= line.size(); ++k)
    if (k == line.size() || line[k] == sep) {
      out.push_back(trimField(std::string_view(line).substr(start, k - start)));
      start = k + 1;
    }
  while (!out.empty() && out.back().empty()) out.pop_back();
  return out;
}

inline bool parseField(const std::string& s, double& v) {
  if (s.empty()) return false;
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(v);
}

}  // namespace sph
