// A prism for <drawprism> (and <drawbeach>), drawn as GenCase 5.0 draws it. The vertices are n
// bottom points, then the n top points in the same order; they are snapped to lattice nodes first.
// Faces work in node-index units (one unit = dp); the interior in metres (see below).
//
// Faces (the `mask` attribute numbers them): 1 is the bottom polygon, 2 the top one, and 3..n+2
// the sides, side 3 joining vertices 1 and 2, ..., side n+2 vertices n and 1. Each face is cut
// into triangles: the caps as a fan from their first vertex, side i (bottom b_i, b_i+1, top
// t_i+1, t_i) into (b_i, b_i+1, t_i+1) and (b_i, t_i+1, t_i). A triangle whose snapped vertices
// have no area draws nothing.
//
// A node is on a face when it is on one of the face's triangles (geometry/triangle_nodes.h).
//
// Interior. GenCase draws it only when the bottom polygon's right-hand normal points towards the
// top; the other winding draws no interior. It cuts the bottom polygon into triangles, each
// standing as a triangular prism, and draws:
//  - the nodes strictly inside one of these prisms: on the inner side of its bottom, top and three
//    sides, each side a plane through (b_j, t_j, t_i) for the side from vertex i to vertex j
//    (the caps through their three vertices), the sign of the plane equation taken in metres
//    (WorldPlane). Nodes exactly on a sloped side thus fall in or out by rounding, as in GenCase;
//  - for each cut (diagonal a-c of the bottom), the nodes strictly between the caps, within the
//    node box of b_a, b_c, t_a, t_c, whose distance to the plane (b_a, b_c, t_c) in metres is
//    below 0.6 dp (ties at exactly 0.6 dp are not reproduced). So a cut leaves a strip of the
//    outer sides near its ends; a box in mode solid is this rule with the cut from (x max, y min)
//    to (x min, y max) (geometry/particle_generator.h).
// The cutting is ear clipping: clip the corner with the smallest angle (first listed on ties),
// then the smallest of what remains, and so on. Checked on GenCase: exact for triangles and near
// rectangles (a rectangle is cut from its second vertex to its fourth); GenCase's cut of random
// convex quadrilaterals in 32 of 35. GenCase's cut depends on the shape only (not on which vertex
// is listed first, nor on the height, position or mirroring), by a rule not found: for 5 and 6
// vertices this one matches about half the shapes (the shortest diagonal first, 18 of 21
// pentagons; fans from the largest corner, Delaunay and best-triangle cuts fewer).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/triangle_nodes.h"
#include "model/vec3d.h"

namespace sph::gen {

class PrismShape {
 public:
  // 2n snapped vertices (integer node indices, as doubles), n >= 3, on the lattice `frame`.
  // Returns an empty string and fills `out`, or the reason the points make no prism.
  static std::string build(const std::vector<Vec3d>& snapped, const LatticeFrame& frame, PrismShape& out);

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
  // Is node (i, j, k) in the interior (the rule above)?
  bool inInterior(int64_t i, int64_t j, int64_t k) const;

 private:
  struct Triangle {
    Vec3d a, b, c;
  };
  // A plane and the sign its equation has on the inner side.
  struct Side {
    WorldPlane plane;
    double inward;
    bool inside(const Vec3d& p) const { return plane.value(p) * inward > 0; }
  };
  // One triangle of the cut bottom, standing as a prism: caps first, then its three sides.
  struct Piece {
    std::vector<Side> sides;
    std::array<int64_t, 3> lo, hi;
  };
  // A cut between two pieces: its plane, the node box it reaches, and the caps it lies between.
  struct Cut {
    WorldPlane plane;
    std::array<Side, 2> caps;
    std::array<int64_t, 3> lo, hi;
  };
  std::vector<std::vector<Triangle>> faces_;  // face f-1: its triangles
  std::vector<Piece> pieces_;
  std::vector<Cut> cuts_;
  LatticeFrame frame_;
  bool hasInterior_ = false;
  std::array<int64_t, 3> lo_{}, hi_{};
};

}  // namespace sph::gen
