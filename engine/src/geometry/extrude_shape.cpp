// GenCase's <drawextrude>; the rule is stated in geometry/extrude_shape.h.
#include "geometry/extrude_shape.h"

#include <cmath>

#include <fmt/format.h>

namespace sph::gen {
namespace {


}  // namespace

std::string extrudeTriangles(const std::vector<Vec3d>& points, bool closed, const Vec3d& extrude, double offset,
                             std::vector<std::array<Vec3d, 3>>& out) {
  const size_t n = points.size();
  const size_t sides = closed ? n : n - 1;
  std::vector<Vec3d> base = points;
  if (offset != 0) {
    if (dot(extrude, extrude) == 0) return "layers need a non-zero <extrude> (they move the sides across it)";
    std::vector<Vec3d> normal(sides);
    for (size_t i = 0; i < sides; ++i) {
      const Vec3d c = cross(sub(points[(i + 1) % n], points[i]), extrude);
      const double len = std::sqrt(dot(c, c));
      if (!(len > 0))
        return fmt::format("with layers, segment {} (points {} to {}) must have a length and not lie along <extrude>",
                           i + 1, i + 1, (i + 1) % n + 1);
      normal[i] = scale(c, 1 / len);
    }
    for (size_t j = 0; j < n; ++j) {
      const bool first = !closed && j == 0, last = !closed && j == n - 1;
      if (first || last) {
        base[j] = add(points[j], scale(normal[first ? 0 : sides - 1], offset));
        continue;
      }
      const Vec3d& na = normal[(j + sides - 1) % sides];
      const Vec3d& nb = normal[j % sides];
      const Vec3d db = sub(points[(j + 1) % n], points[j]);
      const double across = dot(db, na);
      if (across == 0)
        return fmt::format("with layers, the segments meeting at point {} must not lie on one line", j + 1);
      const Vec3d p = add(points[j], scale(nb, offset));
      base[j] = add(p, scale(db, (offset - dot(sub(p, points[j]), na)) / across));
    }
  }
  for (size_t i = 0; i < sides; ++i) {
    const Vec3d& b0 = base[i];
    const Vec3d& b1 = base[(i + 1) % n];
    const Vec3d t0 = add(b0, extrude), t1 = add(b1, extrude);
    out.push_back({b0, b1, t1});
    out.push_back({b0, t1, t0});
  }
  return "";
}

}  // namespace sph::gen
