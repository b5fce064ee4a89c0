// mDBC's boundary normals as GenCase 5 computes them from the boundary geometry a case draws
// for them (<casedef><normals><geometryfile>, shapes drawn with <setactive drawshapes="1">), and
// as DualSPHysics then uses them: the vector from each boundary particle to its ghost node, twice
// the vector to the boundary surface (mdbc_physics.h).
//
// For a particle p and every face whose plane is within reach (p behind the face, at a distance
// 0 < d <= reach from its plane along the face's normal n, which points into the fluid), the projection
// q = p + d n either falls on the face ("inside") or not; then the point of the face nearest q
// (its "limit point") is used instead. GenCase's choice among the faces:
//  - some face with q inside: the nearest such face(s) (distance within dp 1e-4): one face gives
//    d n; several at the same distance (p behind an edge or a corner, inside two or three faces)
//    give the mean of their d n, rescaled to the distance along it to the nearest of their
//    planes, unless that is longer than 1.5 reach;
//  - no face with q inside: the nearest limit point (one per distinct face normal, the nearest
//    of each), or, when three distinct limit points are equally near (an outer corner in 3D),
//    the intersection of the three faces' planes.
// Particles farther than `reach` from every face's plane get no normal (zero).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/vec3d.h"

namespace sph {

// A planar rectangle corner + s u + t v (s, t in [0, 1]) with its unit normal towards the fluid.
struct NormalFace {
  Vec3d corner, u, v, normal;
};

// The faces of the box [lo, hi] that `faces` selects (geometry/particle_generator.h's kFace* bits), normals
// outward, or inward with `invert` (GenCase's <setnormalinvert invert="true">). Faces of zero
// area (a 2D box's front and back) are left out.
std::vector<NormalFace> boxNormalFaces(const Vec3d& lo, const Vec3d& hi, uint8_t faces, bool invert);

// The ghost-node vector (twice GenCase's normal) of positions[i] for i < count; zero where no
// face is within `reach` (GenCase's distanceh times h). `dp` sets the comparison tolerance.
std::vector<Vec3d> ghostNormals(const std::vector<Vec3d>& positions, size_t count,
                                const std::vector<NormalFace>& faces, double reach, double dp);

}  // namespace sph
