#include "geometry/node_pattern.h"

#include <cctype>

#include <fmt/format.h>

namespace sph::gen {

std::string makeNodePattern(const std::string& name, const std::string& text, const int64_t size[3],
                            const int64_t scale[3], const int64_t gap[3], const int64_t border[3], NodePattern& out) {
  constexpr const char* kAxis = "XYZ";
  constexpr int64_t kMaxPlaces = int64_t(1) << 24;
  // In GenCase's order: sizes, scales, borders, gaps, then the text.
  for (int a = 0; a < 3; ++a)
    if (size[a] < 1) return fmt::format("size {} ({}) is not valid: at least 1", kAxis[a], size[a]);
  if (size[0] * size[1] > kMaxPlaces || size[0] * size[1] * size[2] > kMaxPlaces)
    return fmt::format("size {} x {} x {} is too large", size[0], size[1], size[2]);
  for (int a = 0; a < 3; ++a)
    if (scale[a] < 1 || scale[a] > kMaxPlaces)
      return fmt::format("scale {} ({}) is not valid: at least 1", kAxis[a], scale[a]);
  for (int a = 0; a < 3; ++a)
    if (border[a] < 0 || border[a] > kMaxPlaces)
      return fmt::format("border {} ({}) is not valid: at least 0", kAxis[a], border[a]);
  for (int a = 0; a < 3; ++a) {
    const int64_t period = size[a] * scale[a] + border[a];
    if (gap[a] < 0 || gap[a] >= period)
      return fmt::format("gap {} ({}) is not valid: from 0 to {} (size x scale + border - 1)", kAxis[a], gap[a],
                         period - 1);
  }
  if (text.empty()) return "the pattern is empty";
  const size_t n = size_t(size[0] * size[1] * size[2]);
  bool hex = true, chars = true;
  for (const char c : text) {
    hex = hex && std::isxdigit(static_cast<unsigned char>(c));
    chars = chars && (c == 'X' || c == 'x' || c == '-');
  }
  if (!hex && !chars) return "its characters are not valid: 'X' and '-', or hexadecimal digits";
  out = NodePattern{};
  out.name = name;
  for (int a = 0; a < 3; ++a) {
    out.size[a] = size[a];
    out.scale[a] = scale[a];
    out.gap[a] = gap[a];
    out.border[a] = border[a];
  }
  out.places.assign(n, 0);
  if (hex) {
    if (text.size() != (n + 3) / 4)
      return fmt::format("{} hexadecimal digits for {} places: {} expected", text.size(), n, (n + 3) / 4);
    for (size_t p = 0; p < n; ++p) {
      const int digit = std::isdigit(static_cast<unsigned char>(text[p / 4]))
                            ? text[p / 4] - '0'
                            : std::tolower(static_cast<unsigned char>(text[p / 4])) - 'a' + 10;
      out.places[p] = uint8_t(digit >> (3 - p % 4) & 1);
    }
  } else {
    if (text.size() != n)
      return fmt::format("{} characters for {} places ({} x {} x {})", text.size(), n, size[0], size[1], size[2]);
    for (size_t p = 0; p < n; ++p) out.places[p] = text[p] != '-';
  }
  return "";
}

}  // namespace sph::gen
