// Triangles of a planar polygon (GenCase's <drawpolygon>): the polygon's vertices, in order, cut
// into triangles by ear clipping in the polygon's plane. A polygon is drawn as the surface of its
// triangles, and any cut of a planar polygon covers the same region, so the cut does not change
// the particles; a polygon whose vertices are not in one plane has no such region (GenCase cuts
// it by a rule not reproduced here) and is refused, as are polygons with fewer than three
// vertices, of no area, or whose edges cross.
#pragma once

#include <array>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "model/vec3d.h"

namespace sph::gen {

class PolygonError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Triangles as indices into `vertices`; PolygonError says what is wrong.
std::vector<std::array<size_t, 3>> polygonTriangles(const std::vector<Vec3d>& vertices);

}  // namespace sph::gen
