// The points of an inlet/outlet zone (model/case_inout.h) as DualSPHysics 5.4 places them
// (JSphInOutPoints, JSphInOutZone::LoadDomain): the centres of the first buffer layer on a line
// (2D), a flat box or a circle (3D), or the particles of a fluid mk; then the zone's plane and the
// box that holds its buffer.
#pragma once

#include <string>
#include <vector>

#include "model/case_inout.h"

namespace sph::gen {

struct InOutGeometry {
  std::vector<Vec3d> points;  // the first layer, rotated
  Vec3d direction;            // unit, into the domain
  Vec3d planePoint;           // on the plane between buffer and domain (dp/2 ahead of the points)
  Vec3d boxMin, boxMax;       // the axis-aligned box of the zone's buffer
};

// Points along one side of length `length`: floor(length/dp) + 1 at spacing dp from the start,
// or, when what is left over exceeds 0.95 dp, one more interval with the spacing shrunk to
// reach the end (JSphInOutPoints' rule). Returns the count; *spacing the spacing.
unsigned inOutSideCount(double length, double dp, double* spacing);

// The zone's geometry for dimension twoD (y of 2D points: y2d). `mkParticles`: the positions of
// the particles of the shape's mkfluid (particles form only). Throws InputError with `where`
// ("FILE:LINE: <zone2d>") for a zero direction, points off one line/plane perpendicular to it,
// and a 2D direction with a y component.
InOutGeometry inOutGeometry(const InOutShapeDef& s, int layers, double dp, bool twoD, double y2d,
                            const std::vector<Vec3d>& mkParticles, const std::string& where);

}  // namespace sph::gen
