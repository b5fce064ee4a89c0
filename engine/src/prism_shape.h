// A prism for <drawprism>, drawn as GenCase 5.0 draws it. The vertices are n bottom points, then
// the n top points in the same order; they are snapped to lattice nodes first, and everything
// below works in node-index units (one unit = dp).
//
// Faces (the `mask` attribute numbers them): 1 is the bottom polygon, 2 the top one, and 3..n+2
// the sides, side 3 joining vertices 1 and 2, ..., side n+2 vertices n and 1. Each face is cut
// into triangles: the caps as a fan from their first vertex, side i (bottom b_i, b_i+1, top
// t_i+1, t_i) into (b_i, b_i+1, t_i+1) and (b_i, t_i+1, t_i). A triangle whose snapped vertices
// have no area draws nothing.
//
// A node is on a face when it is on one of the face's triangles (triangle_nodes.h).
//
// The interior is the nodes strictly inside the snapped prism (inside the planes of the two caps
// and of every side). GenCase draws it only when the bottom polygon's right-hand normal points
// towards the top; the other winding draws no interior.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sph/vec3d.h"
#include "triangle_nodes.h"

namespace sph::gen {

class PrismShape {
 public:
  // 2n snapped vertices (integer node indices, as doubles), n >= 3. Returns an empty string and
  // fills `out`, or the reason the points make no prism.
  static std::string build(const std::vector<Vec3d>& snapped, PrismShape& out);

  int faceCount() const { return int(faces_.size()); }
  // Range of the snapped vertices (node indices).
  const std::array<int64_t, 3>& lo() const { return lo_; }
  const std::array<int64_t, 3>& hi() const { return hi_; }

  // Appends the nodes on the faces whose bits are set in `faces` (bit f-1 for face f), within
  // [limLo, limHi] on each axis; a node may be listed more than once.
  void faceNodes(uint64_t faces, const LatticeFrame& frame, const std::array<int64_t, 3>& limLo,
                 const std::array<int64_t, 3>& limHi, std::vector<std::array<int64_t, 3>>& out) const;
  // Whether GenCase draws this prism's interior at all (the winding rule above).
  bool hasInterior() const { return hasInterior_; }
  // Is node (i, j, k) strictly inside?
  bool inInterior(int64_t i, int64_t j, int64_t k) const;

 private:
  struct Triangle {
    Vec3d a, b, c;
  };
  struct Plane {
    Vec3d n;  // inward, not normalised
    Vec3d p;  // a point on the plane
  };
  std::vector<std::vector<Triangle>> faces_;  // face f-1: its triangles
  std::vector<Plane> planes_;
  bool hasInterior_ = false;
  std::array<int64_t, 3> lo_{}, hi_{};
};

}  // namespace sph::gen
