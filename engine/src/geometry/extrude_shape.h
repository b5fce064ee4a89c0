// <drawextrude> as GenCase 5.0 draws it: a polyline of points P_0 .. P_n-1 swept along a vector
// v. Each segment P_i P_i+1 (and, when closed, P_n-1 P_0) sweeps a side (P_i, P_i+1, P_i+1 + v,
// P_i + v), drawn as the triangles (P_i, P_i+1, P_i+1 + v) and (P_i, P_i+1 + v, P_i + v) by the
// triangle rule (geometry/triangle_nodes.h). No end caps, whatever the draw mode.
//
// A layer of `offset` metres draws the polyline moved sideways: each segment's side moves by
// `offset` along n_i = (P_i+1 - P_i) x v, normalised, and the polyline's vertices become the
// corners where the moved sides meet. An open polyline's first and last points move along their
// segment's n; a vertex between segments a (before) and b (after) becomes the point where the
// moved line of segment b, P_j + offset n_b + s (P_j+1 - P_j), crosses the moved plane of side a,
// (x - P_j) . n_a = offset. (Found on GenCase's particles: in 3D, with v not perpendicular to the
// polyline, the corner line of the two moved sides runs along v and GenCase takes that point.)
#pragma once

#include <array>
#include <string>
#include <vector>

#include "model/vec3d.h"

namespace sph::gen {

// Appends the triangles of one layer (world or local coordinates, as the points). Returns an empty
// string, or why a non-zero offset cannot be drawn: GenCase's offset is undefined (not a number)
// for a segment of zero length, a segment along v, a zero v, and two consecutive segments on one
// line (whose moved sides never meet).
std::string extrudeTriangles(const std::vector<Vec3d>& points, bool closed, const Vec3d& extrude, double offset,
                             std::vector<std::array<Vec3d, 3>>& out);

}  // namespace sph::gen
