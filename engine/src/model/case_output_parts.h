// <execution><special><outputparts>: DualSPHysics' filters of the particles written to the output
// parts (JDsOutputParts). The filters of a block (the root or a <filtergroup>) fold left over its
// starting selection (preselection all or none): `add` ORs a filter's test in, `confirm` ANDs it,
// `del` ANDs its negation; `inverse` negates the test first. A group's result is such a test for
// its parent. Every bound is inclusive. Applied by output/part_filter.h.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "model/vec3d.h"

namespace sph {

struct OutputFilter {
  enum class Kind { Pos, Plane, Sphere, Cylinder, Type, Mk, Group };
  Kind kind = Kind::Pos;
  bool combineAnd = false;  // confirm and del
  bool negate = false;      // inverse, flipped again by del
  int line = 0;
  // Pos: [lo, hi] (an axis not given: unbounded).
  Vec3d lo, hi;
  // Plane: 0 <= n . (p - point) <= distance, n the unit vector (zero vector: every particle).
  // Sphere: |p - point| <= radius. Cylinder: between point and point2, within radius of its axis.
  Vec3d point, point2, normal;
  double distance = 0, radius = 0;
  bool centreGiven = true;  // Sphere following a body without <centre>: the body's centre
  // Type: bits of kTypeFixed... .
  unsigned types = 0;
  // Mk: as written, <mk v="a-b"> (global mk numbers), <mkbound> or <mkfluid>; then (attachOutputParts)
  // the global mks of the blocks from a's to b's in the case's block order, all of one kind.
  enum class MkNumbering { Global, Bound, Fluid };
  MkNumbering numbering = MkNumbering::Global;
  int mkA = 0, mkB = 0;
  std::vector<int> mks;
  // Follows the floating body of this mkbound (or, as written, global mk followMk; resolved by
  // attachOutputParts): moved by its centre's displacement since the start.
  std::optional<int> followMkBound, followMk;
  // Group.
  bool preselectAll = false;
  std::vector<OutputFilter> children;

  static constexpr unsigned kTypeFixed = 1, kTypeMoving = 2, kTypeFloating = 4, kTypeFluid = 8;
};

struct CaseOutputParts {
  bool active = false;
  int line = 0;
  // Every ignoreParts-th part (0, N, 2N, ...) is written whole; 0: every part is filtered.
  int ignoreParts = 0;
  OutputFilter root;  // a Group
};

}  // namespace sph
