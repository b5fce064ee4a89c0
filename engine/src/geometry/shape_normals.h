// mDBC's boundary normals of simple shapes, as GenCase 5.4's <normals> operations (<norplane>,
// <norsphere>, <norcylinder>) and DualSPHysics' <initialize><boundnormal_*> compute them: for a
// boundary particle at p, the vector from p to the nearest point of the shape's surface ("the
// boundary limit"), or nothing when p is on the wrong side or farther than `maxDist`. The engine
// doubles these vectors (particle to ghost node), as DualSPHysics does when a run starts.
#pragma once

#include <optional>

#include "model/vec3d.h"

namespace sph {

// The plane through `point` with unit normal `unitNormal` (towards the fluid): the orthogonal
// projection of p onto it, minus p, whichever side p is on, when nearer than maxDist.
std::optional<Vec3d> planeNormal(const Vec3d& p, const Vec3d& point, const Vec3d& unitNormal, double maxDist);

// GenCase's automatic plane point (<point auto="true">) for particles whose bounding box is
// [lo, hi]: along an axis normal (+-x, +-y, +-z), the box's centre moved to its face on the fluid
// side plus `offset` (<limitdist> times dp); along any other normal, the centre moved along the
// normal to `farthest` + offset, where `farthest` is the largest signed distance of the particles
// from the plane through the centre.
bool isAxisNormal(const Vec3d& unitNormal);
Vec3d autoPlanePoint(const Vec3d& lo, const Vec3d& hi, const Vec3d& unitNormal, double farthest, double offset);

// The sphere's surface: particles inside it (`inside`, a shell holding fluid) or outside it (a
// solid ball in the fluid), within maxDist of the surface, get the radial vector to it; a
// particle exactly on the surface or on the other side gets none.
std::optional<Vec3d> sphereNormal(const Vec3d& p, const Vec3d& centre, double radius, bool inside, double maxDist);

// The finite cylinder between the centres of its two end faces, c1 (limit 1) and c2 (limit 2):
//  - inside (a pipe or tank holding fluid): a particle strictly inside gets the vector to the
//    nearest of the side wall and the end faces that are walls (limit1, limit2), within maxDist;
//    where the side wall and an end face are equally near (within `tolerance`) the vector to the
//    rim, their sum;
//  - outside (a solid column in the fluid): a particle outside gets the vector to the side wall,
//    to an end face, or to the rim when it is beyond both.
std::optional<Vec3d> cylinderNormal(const Vec3d& p, const Vec3d& c1, const Vec3d& c2, double radius, bool inside,
                                    bool limit1, bool limit2, double maxDist, double tolerance);

}  // namespace sph
