// Where GenCase 5.0 puts the vertices of a mesh file (<drawfilestl>, <drawfilevtk>,
// <drawfileply>). The children <drawscale x y z>, <drawrotate angx angy angz> (degrees) and
// <drawmove x y z>, each at most once and in any order, act in this fixed order: scale, then
// rotate, then move; the commands' transformation (<move>, <rotateline>: geometry/draw_transform.h) comes
// last. The rotation turns about the
// origin, right-handed, about y first, then x, then z. All of it is in double precision from the
// file's single-precision vertices (found by running GenCase on asymmetric meshes with every
// order of the children).
#pragma once

#include <array>

#include "model/vec3d.h"

namespace sph::gen {

struct MeshPlacement {
  Vec3d scale{1, 1, 1};
  Vec3d rotateDegrees;  // angx, angy, angz
  Vec3d move;           // <drawmove>

  Vec3d apply(const Vec3f& v) const;
  Vec3d apply(const Vec3d& v) const;  // a bathymetry table's vertices, read in double
};

}  // namespace sph::gen
