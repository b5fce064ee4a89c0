// A rotated box's corners and face triangles; the rule is stated in geometry/box_triangles.h.
#include "geometry/box_triangles.h"

namespace sph::gen {

std::array<Vec3d, 8> boxCorners(const Vec3d& lo, const Vec3d& hi) {
  return {{{lo.x, lo.y, lo.z},
           {hi.x, lo.y, lo.z},
           {hi.x, hi.y, lo.z},
           {lo.x, hi.y, lo.z},
           {lo.x, lo.y, hi.z},
           {hi.x, lo.y, hi.z},
           {hi.x, hi.y, hi.z},
           {lo.x, hi.y, hi.z}}};
}

void boxFaceTriangles(const std::array<Vec3d, 8>& c, uint8_t face, std::vector<std::array<Vec3d, 3>>& out) {
  struct Quad {
    uint8_t face;
    int q[4];
  };
  static constexpr Quad kQuads[] = {{kFaceBottom, {0, 1, 2, 3}}, {kFaceTop, {4, 5, 6, 7}},   {kFaceLeft, {0, 3, 7, 4}},
                                    {kFaceRight, {1, 2, 6, 5}},  {kFaceFront, {0, 1, 5, 4}}, {kFaceBack, {2, 3, 7, 6}}};
  for (const Quad& k : kQuads) {
    if (k.face != face) continue;
    out.push_back({c[k.q[0]], c[k.q[1]], c[k.q[2]]});
    out.push_back({c[k.q[0]], c[k.q[2]], c[k.q[3]]});
  }
}

}  // namespace sph::gen
