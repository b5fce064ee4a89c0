#include "geometry/inout_points.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph::gen {
namespace {

Vec3d unit(const Vec3d& a) { return scale(a, 1.0 / norm(a)); }

Vec3d rotate(const InOutShapeDef& s, const Vec3d& centre, const Vec3d& p) {
  const auto& r = s.rotation;
  const Vec3d d = sub(p, centre);
  return add(centre, Vec3d{r[0] * d.x + r[1] * d.y + r[2] * d.z, r[3] * d.x + r[4] * d.y + r[5] * d.z,
                           r[6] * d.x + r[7] * d.y + r[8] * d.z});
}

// A unit vector perpendicular to d (DualSPHysics' choice, which fixes the circle's first point
// and the first axis of the rectangle search).
Vec3d perpendicular(const Vec3d& d) {
  if (d.x != 0) return unit(Vec3d{-d.z, 0, d.x});
  if (d.y != 0) return unit(Vec3d{0, -d.z, d.y});
  return unit(Vec3d{d.z, 0, -d.x});
}

std::vector<Vec3d> shapePoints(const InOutShapeDef& s, double dp, bool twoD, double y2d,
                               const std::vector<Vec3d>& mkParticles) {
  std::vector<Vec3d> pts;
  switch (s.shape) {
    case InOutShape::Line: {
      const Vec3d a{s.point.x, y2d, s.point.z}, b{s.point2.x, y2d, s.point2.z};
      const double len = norm(sub(b, a));
      double h = dp;
      const unsigned n = inOutSideCount(len, dp, &h);
      const Vec3d u = len > 0 ? scale(sub(b, a), 1.0 / len) : Vec3d{};
      for (unsigned i = 0; i < n; ++i) pts.push_back(add(a, scale(u, h * i)));
      break;
    }
    case InOutShape::Box: {
      double hx = dp, hy = dp, hz = dp;
      const unsigned nx = inOutSideCount(s.size.x, dp, &hx), ny = inOutSideCount(s.size.y, dp, &hy),
                     nz = inOutSideCount(s.size.z, dp, &hz);
      for (unsigned iz = 0; iz < nz; ++iz)
        for (unsigned iy = 0; iy < ny; ++iy)
          for (unsigned ix = 0; ix < nx; ++ix)
            pts.push_back(Vec3d{s.point.x + hx * ix, s.point.y + hy * iy, s.point.z + hz * iz});
      break;
    }
    case InOutShape::Circle: {
      const Vec3d d = unit(s.direction);
      const Vec3d e2 = perpendicular(d), e3 = cross(d, e2);
      const unsigned rings = std::max(1u, unsigned(std::floor((s.radius + dp / 4) / dp)));
      const double dr = s.radius / rings;
      for (unsigned k = 0; k <= rings; ++k) {
        const double r = dr * k;
        const unsigned m = std::max(1u, unsigned(std::floor((2 * std::numbers::pi * r + dp / 2) / dp)));
        for (unsigned j = 0; j < m; ++j) {
          const double a = 2 * std::numbers::pi * j / m;
          pts.push_back(add(s.point, add(scale(e2, r * std::cos(a)), scale(e3, r * std::sin(a)))));
        }
      }
      break;
    }
    case InOutShape::Particles:
      pts = mkParticles;
      break;
  }
  if (twoD)
    for (Vec3d& p : pts) p.y = y2d;
  return pts;
}

Vec3d shapeDirection(const InOutShapeDef& s) {
  if (s.directionGiven || s.shape != InOutShape::Line) return s.direction;
  // A 2D line without <direction>: the line turned by +90 degrees in the x-z view.
  const Vec3d v = sub(s.point2, s.point);
  return Vec3d{-v.z, 0, v.x};
}

}  // namespace

unsigned inOutSideCount(double length, double dp, double* spacing) {
  unsigned n = unsigned(std::floor(length / dp));
  *spacing = dp;
  if (length - n * dp > 0.95 * dp) {
    ++n;
    *spacing = length / n;
  }
  return n + 1;
}

InOutGeometry inOutGeometry(const InOutShapeDef& s, int layers, double dp, bool twoD, double y2d,
                            const std::vector<Vec3d>& mkParticles, const std::string& where) {
  InOutGeometry g;
  Vec3d dir = shapeDirection(s);
  if (!(norm(dir) > 0)) throw InputError(where + ": the direction is not a valid vector (zero)");
  std::vector<Vec3d> pts = shapePoints(s, dp, twoD, y2d, mkParticles);
  if (pts.empty()) throw InputError(where + ": the shape gives no points");
  if (s.rotated) {
    const Vec3d centre = s.rotationCentreGiven ? s.rotationCentre
                         : s.shape == InOutShape::Line ? Vec3d{s.point.x, y2d, s.point.z}
                                                       : Vec3d{0, twoD ? y2d : 0.0, 0};
    const Vec3d p0 = pts.front();
    const Vec3d tip = rotate(s, centre, add(p0, dir));
    for (Vec3d& p : pts) p = rotate(s, centre, p);
    dir = sub(tip, pts.front());
  }
  if (twoD && std::fabs(dir.y) > 1e-12 * norm(dir))
    throw InputError(where + fmt::format(": the direction ({:g}, {:g}, {:g}) has a y component in a 2D case", dir.x,
                                         dir.y, dir.z));
  if (twoD) dir.y = 0;
  dir = unit(dir);
  // Every point on one line (2D) or plane (3D) perpendicular to the direction.
  for (const Vec3d& p : pts) {
    const double off = dot(sub(p, pts.front()), dir);
    if (std::fabs(off) > 0.01 * dp)
      throw InputError(where + fmt::format(": all points of the zone must be on one {} perpendicular to its direction "
                                           "({:g}, {:g}, {:g}): ({:g}, {:g}, {:g}) is {:g} m off it",
                                           twoD ? "line" : "plane", dir.x, dir.y, dir.z, p.x, p.y, p.z, off));
  }
  const Vec3d ahead = scale(dir, dp / 2);  // from the first layer to the plane
  const double farDepth = 2.0 * layers + 1;  // the far side, in half-dp steps behind the plane
  std::vector<Vec3d> corners;
  if (twoD) {
    const Vec3d t = unit(Vec3d{dir.z, 0, -dir.x});
    auto byT = [&](const Vec3d& a, const Vec3d& b) { return dot(a, t) < dot(b, t); };
    const Vec3d pmin = *std::min_element(pts.begin(), pts.end(), byT);
    const Vec3d pmax = *std::max_element(pts.begin(), pts.end(), byT);
    const Vec3d nearMin = add(add(pmin, ahead), scale(t, -dp / 2)), nearMax = add(add(pmax, ahead), scale(t, dp / 2));
    corners = {nearMin, nearMax, sub(nearMax, scale(ahead, farDepth)), sub(nearMin, scale(ahead, farDepth))};
    g.planePoint = scale(add(nearMin, nearMax), 0.5);
  } else {
    // The smallest rectangle around the points in the plane, its axes turned about the direction
    // in steps of half a degree (DualSPHysics' search).
    const Vec3d e2 = perpendicular(dir), e3 = cross(dir, e2);
    double best = HUGE_VAL;
    Vec3d bu, bv;
    double lo[2] = {0, 0}, hi[2] = {0, 0};
    for (int step = 0; step < 180; ++step) {
      const double a = step * 0.5 * std::numbers::pi / 180;
      const Vec3d u = add(scale(e2, std::cos(a)), scale(e3, std::sin(a))), v = cross(dir, u);
      double l0 = HUGE_VAL, h0 = -HUGE_VAL, l1 = HUGE_VAL, h1 = -HUGE_VAL;
      for (const Vec3d& p : pts) {
        const double cu = dot(p, u), cv = dot(p, v);
        l0 = std::min(l0, cu);
        h0 = std::max(h0, cu);
        l1 = std::min(l1, cv);
        h1 = std::max(h1, cv);
      }
      const double area = (h0 - l0 + dp) * (h1 - l1 + dp);
      if (area < best * (1 - 1e-12)) {  // the first of equal areas (best starts infinite)
        best = area;
        bu = u;
        bv = v;
        lo[0] = l0 - dp / 2;
        hi[0] = h0 + dp / 2;
        lo[1] = l1 - dp / 2;
        hi[1] = h1 + dp / 2;
      }
    }
    const Vec3d base = add(scale(dir, dot(pts.front(), dir)), ahead);  // the plane's offset along dir
    const double us[4] = {lo[0], hi[0], hi[0], lo[0]}, vs[4] = {lo[1], lo[1], hi[1], hi[1]};
    Vec3d centre{};
    for (int k = 0; k < 4; ++k) {
      corners.push_back(add(base, add(scale(bu, us[k]), scale(bv, vs[k]))));
      centre = add(centre, scale(corners.back(), 0.25));
    }
    for (int k = 0; k < 4; ++k) corners.push_back(sub(corners[k], scale(ahead, farDepth)));
    g.planePoint = centre;
  }
  g.boxMin = g.boxMax = corners.front();
  for (const Vec3d& c : corners) {
    g.boxMin = {std::min(g.boxMin.x, c.x), std::min(g.boxMin.y, c.y), std::min(g.boxMin.z, c.z)};
    g.boxMax = {std::max(g.boxMax.x, c.x), std::max(g.boxMax.y, c.y), std::max(g.boxMax.z, c.z)};
  }
  if (twoD) {
    g.boxMin.y = y2d - 0.1 * dp;
    g.boxMax.y = y2d + 0.1 * dp;
  }
  g.points = std::move(pts);
  g.direction = dir;
  return g;
}

}  // namespace sph::gen
