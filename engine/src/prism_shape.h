// A prism for <drawprism>: a planar convex polygon (the bottom cap) swept along a vector to its
// translated copy (the top cap). DualSPHysics lists the n bottom vertices, then the n top
// vertices in the same order.
//
// Face numbers (the `mask` attribute of <drawprism>): 1 is the bottom cap, 2 the top cap, and
// 3..n+2 the sides, side 3 joining vertices 1 and 2, side 4 vertices 2 and 3, ..., side n+2
// vertices n and 1. (Inferred from DualSPHysics' CaseWavemaker: its tank prism masks "1 | 2 |
// 6 | 7", which leaves open exactly the two caps (the periodic y ends), the side at x = 0 where
// the piston stands and the top, and keeps the far wall, the beach and the floor.)
//
// Which lattice nodes belong to the shape extends the box rule of case_generator.h to planes of
// any orientation. For each face with outward unit normal n, let d be a node's signed distance
// to the face plane (positive outside) and t = dp/2 max(|n_x|, |n_y|, |n_z|): along the lattice
// axis closest to n consecutive nodes differ in d by exactly 2t.
//  * The face is the layer -t <= d < t, clipped by the other faces' d < t. It is one node
//    thick along that axis (a "naive" digital plane: no holes, even for a sloping face), and for
//    an axis-aligned face it is the plane of nodes nearest the face, ties going inwards, as for
//    a box.
//  * The solid is every node with d < t for all faces: the interior plus the face layers, so a
//    solid and its faces meet without a gap, and an axis-aligned prism fills exactly the nodes
//    of the equal box.
// Only convex polygons are accepted: for them "d < t for all faces" is the whole solid. At a
// vertex where two faces meet at an acute angle their half layers overlap past the vertex, so
// the shape reaches up to t / sin(angle / 2) beyond it (a node or two for sharp wedges).
#pragma once

#include <string>
#include <vector>

#include "sph/case_model.h"

namespace sph::gen {

class PrismShape {
 public:
  // 2n vertices, n >= 3. Returns an empty string and fills `out`, or the reason the points do
  // not form a convex prism.
  static std::string build(const std::vector<Vec3d>& points, double dp, PrismShape& out);

  int faceCount() const { return int(faces_.size()); }
  // Bounding box of the vertices.
  const Vec3d& lo() const { return lo_; }
  const Vec3d& hi() const { return hi_; }

  // Is the node at x part of the solid prism?
  bool inSolid(const Vec3d& x) const;
  // Is the node at x on one of the faces whose bit is set in `faces` (bit f-1 for face f)?
  bool onFaces(const Vec3d& x, uint64_t faces) const;

 private:
  struct Plane {
    Vec3d n;      // outward unit normal
    double c;     // signed distance = n.x - c
    double half;  // layer half-thickness t
  };
  double distance(int f, const Vec3d& x) const;

  std::vector<Plane> faces_;
  Vec3d lo_, hi_;
  double eps_ = 0;  // rounding tolerance on d: ties at d = t fall outside, at d = -t inside
};

}  // namespace sph::gen
