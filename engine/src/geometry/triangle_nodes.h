// The lattice nodes GenCase 5.0 puts on a triangle: the rule its prisms (geometry/prism_shape.h) and its
// triangle meshes (geometry/particle_generator.h) share. The triangle's vertices are already snapped to nodes and
// given as node indices (integers, as doubles).
//
// A node is on the triangle when its distance to the triangle's plane is below 0.6 dp and the
// distance from its projection on that plane to the triangle is below 0.6 dp (zero inside it). A
// triangle whose snapped vertices have no area draws nothing.
//
// Ties. Snapped vertices make distances of exactly 0.6 dp common on slopes such as 3:4. GenCase
// measures the plane distance in metres, with the plane through the three vertices' positions
// (normal = (b - a) x (c - a), then |n.p + d| / |n|), and its rounding decides the ties; this
// helper repeats that computation (checked on the plane ties of the blocks of DualSPHysics example
// 17 and of synthetic meshes: GenCase drew every one). Its in-plane distance at
// exactly 0.6 dp falls either way in GenCase, by a rounding we have not reproduced; here it is left
// out (0.6 is not below 0.6).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "model/vec3d.h"

namespace sph::gen {

// Where node (i, j, k) is in metres: origin + (i, j, k) * dp, computed as the generator does.
struct LatticeFrame {
  Vec3d origin;
  double dp = 1;
};

// Where a node (integer indices, as doubles) is in metres.
Vec3d world(const LatticeFrame& f, const Vec3d& node);

// The plane through three points in metres, computed as GenCase computes it (normal
// (p2 - p1) x (p3 - p1), not normalised), so that distances of exactly a tie round as in GenCase.
struct WorldPlane {
  WorldPlane(const Vec3d& p1, const Vec3d& p2, const Vec3d& p3);
  // The plane equation at p: its sign says the side (GenCase decides a prism's inside by it).
  double value(const Vec3d& p) const { return a * p.x + b * p.y + c * p.z + d; }
  double distance(const Vec3d& p) const { return std::abs(value(p)) / norm; }
  double a, b, c, d, norm;
};

// Appends the nodes on triangle (a, b, c) within [limLo, limHi] on each axis.
void triangleNodes(const Vec3d& a, const Vec3d& b, const Vec3d& c, const LatticeFrame& frame,
                   const std::array<int64_t, 3>& limLo, const std::array<int64_t, 3>& limHi,
                   std::vector<std::array<int64_t, 3>>& out);

}  // namespace sph::gen
