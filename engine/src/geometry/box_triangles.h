// A <drawbox> under a rotation (geometry/draw_transform.h), as GenCase 5.0 draws it. The box's corners are
// taken in the box's own frame and transformed:
//   c0 (x0 y0 z0), c1 (x1 y0 z0), c2 (x1 y1 z0), c3 (x0 y1 z0), c4 .. c7 the same at z1.
// A solid box is the prism of c0 .. c7 (bottom c0 c1 c2 c3, top c4 .. c7; geometry/prism_shape.h), with
// no face left out, drawn in the current draw mode. Each face of a face box is a quad cut along
// the diagonal through its lowest-numbered corner: bottom c0 c1 c2 c3 (diagonal c0-c2), top
// c4 c5 c6 c7 (c4-c6), left c0 c3 c7 c4 (c0-c7), right c1 c2 c6 c5 (c1-c6), front c0 c1 c5 c4
// (c0-c5), back c2 c3 c7 c6 (c2-c7); its two triangles are drawn by the triangle rule
// (geometry/triangle_nodes.h). Found by comparing GenCase's rotated boxes with its <drawprism> and
// <drawtriangle> drawn under the same rotation.
//
// The same triangle rule explains GenCase's unrotated face boxes, drawn as planes of nodes
// (geometry/particle_generator.h): a face whose snapped extent is zero along one of its sides (a box of no
// thickness in y in a 2D case, for its left, right, bottom and top faces) has no area and draws
// nothing.
#pragma once

#include <array>
#include <vector>

#include "geometry/particle_generator.h"

namespace sph::gen {

// The corners c0 .. c7 of the box from lo to hi (its own frame).
std::array<Vec3d, 8> boxCorners(const Vec3d& lo, const Vec3d& hi);

// Appends the two triangles of face `face` (one BoxFace bit) of the box whose corners are `c`.
void boxFaceTriangles(const std::array<Vec3d, 8>& c, uint8_t face, std::vector<std::array<Vec3d, 3>>& out);

}  // namespace sph::gen
