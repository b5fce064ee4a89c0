// Polygons cut into triangles by ear clipping, for GenCase's <drawprism> bottoms and <drawpolygon>.
//
// clipEars cuts a polygon (normal n, right-hand winding) taking the ear of the smallest corner
// angle first (the first listed on ties), GenCase's cut of a prism's bottom; a polygon without an
// ear (its edges cross) is clipped in order.
//
// polygonTriangles cuts a <drawpolygon>: the polygon is drawn as the surface of its triangles, and
// any cut of a planar polygon covers the same region, so the cut does not change the particles; a
// polygon whose vertices are not in one plane has no such region (GenCase cuts it by a rule not
// reproduced here) and is refused, as are polygons with fewer than three vertices, of no area, or
// whose edges cross.
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

// The triangles as vertex indices in polygon order, each ear's (previous, corner, next).
std::vector<std::array<size_t, 3>> clipEars(const Vec3d* poly, size_t n, const Vec3d& normal);

// Triangles as indices into `vertices`; PolygonError says what is wrong.
std::vector<std::array<size_t, 3>> polygonTriangles(const std::vector<Vec3d>& vertices);

}  // namespace sph::gen
