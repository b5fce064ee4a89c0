// Damping zones (<special><damping>, DualSPHysics' JDsDamping): where waves should die out, at
// the end of a flume, each step multiplies the velocity of the fluid particles in a zone by
// max(0, 1 - dt f^2 redumax factor_axis), f in [0, 1] growing with the depth into the zone. Three
// shapes, as DualSPHysics 5.4 defines them:
//  * plane (<dampingzone>): s = the distance past the plane through limitmin normal to
//    limitmax - limitmin; damped for 0 < s <= L + overlimit (L = |limitmax - limitmin|), with
//    f = min(s / L, 1); optionally only inside a <domain>: zmin <= z <= zmax and inside the
//    quadrilateral of its four points (taken in DualSPHysics' order, see DampingZone::side);
//  * box (<dampingbox>): no damping inside the box [min1, min2]; f = 1 outside [max1, max2] up
//    to overlimit beyond it; between, the largest of the distances past the inner box on each
//    active side, each divided by that side's width;
//  * cylinder (<dampingcylinder>): s = the distance from the axis p1-p2 minus the inner radius,
//    then as the plane with L = outer radius - inner radius.
// Only fluid particles are damped (not floating bodies, not excluded ones). The velocity is
// rounded to the run's precision after each zone, zones taken in the order of the case.
#pragma once

#include <cmath>
#include <cstdint>

#include "sph/plugin/hd.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/real4.h"

namespace sph {

enum class DampingShape : uint32_t { Plane, Box, Cylinder };

struct DampingZone {
  DampingShape shape = DampingShape::Plane;
  double reduMax = 10, overLimit = 0;
  double factor[3] = {1, 1, 1};
  // Plane: unit normal and origin (limitmin); width L. Cylinder: axis p1 (origin) to p2 (end),
  // inner radius rMin, width L = outer - inner.
  double normal[3] = {0, 0, 0}, origin[3] = {0, 0, 0}, end[3] = {0, 0, 0};
  double width = 0, rMin = 0;
  // Plane's <domain>: z range and the four corners in xy, in the order of DualSPHysics (points
  // 2-4 sorted by the angle of the vector from them to point 1); inside when every edge a -> b
  // has the point on its left or on it.
  bool domain = false;
  double zMin = 0, zMax = 0;
  double corner[4][2] = {};
  // Box: inner (free) box [min1, min2], full-damping limits [max1, max2], outer limits
  // [over1, over2]; side widths below (min1 - max1) and above (max2 - min2), 0 on inactive sides.
  double min1[3] = {}, min2[3] = {}, max1[3] = {}, max2[3] = {}, over1[3] = {}, over2[3] = {};
  double size1[3] = {}, size2[3] = {};

  SPH_HD bool side(int k, double x, double y) const {
    const double* a = corner[k];
    const double* b = corner[(k + 1) % 4];
    return (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) >= 0;
  }
};

namespace damping {

SPH_HD inline bool within(const double* lo, const double* p, const double* hi) {
  return lo[0] <= p[0] && p[0] <= hi[0] && lo[1] <= p[1] && p[1] <= hi[1] && lo[2] <= p[2] && p[2] <= hi[2];
}

// f in [0, 1] for a point of the zone, or a negative value outside it.
SPH_HD inline double depth(const DampingZone& z, const double* p) {
  switch (z.shape) {
    case DampingShape::Plane: {
      const double s = z.normal[0] * (p[0] - z.origin[0]) + z.normal[1] * (p[1] - z.origin[1]) +
                       z.normal[2] * (p[2] - z.origin[2]);
      if (!(0 < s && s <= z.width + z.overLimit)) return -1;
      if (z.domain && !(p[2] >= z.zMin && p[2] <= z.zMax && z.side(0, p[0], p[1]) && z.side(1, p[0], p[1]) &&
                        z.side(2, p[0], p[1]) && z.side(3, p[0], p[1])))
        return -1;
      return s >= z.width ? 1.0 : s / z.width;
    }
    case DampingShape::Cylinder: {
      // Distance from the axis line: |(p - p1) x u| with u the unit axis.
      const double u[3] = {z.end[0] - z.origin[0], z.end[1] - z.origin[1], z.end[2] - z.origin[2]};
      const double len = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
      const double d[3] = {p[0] - z.origin[0], p[1] - z.origin[1], p[2] - z.origin[2]};
      const double c[3] = {d[1] * u[2] - d[2] * u[1], d[2] * u[0] - d[0] * u[2], d[0] * u[1] - d[1] * u[0]};
      const double s = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]) / len - z.rMin;
      if (!(0 < s && s <= z.width + z.overLimit)) return -1;
      return s >= z.width ? 1.0 : s / z.width;
    }
    case DampingShape::Box: {
      if (!within(z.over1, p, z.over2) || within(z.min1, p, z.min2)) return -1;
      if (!within(z.max1, p, z.max2)) return 1.0;
      double f = 0;
      for (int a = 0; a < 3; ++a) {
        if (z.size2[a] != 0) f = fmax(f, (p[a] - z.min2[a]) / z.size2[a]);
        if (z.size1[a] != 0) f = fmax(f, (z.min1[a] - p[a]) / z.size1[a]);
      }
      return f;
    }
  }
  return -1;
}

}  // namespace damping

// The zones over particle i after a step of dt (fluid particles only; see the top).
template <typename T>
SPH_HD SPH_FORCEINLINE void dampParticle(uint32_t i, const Real4<T>* pos, Real4<T>* velrho, const uint32_t* code,
                                         const DampingZone* zones, uint32_t count, double dt) {
  const uint32_t c = code[i];
  if (code::isBound(c) || code::isFloating(c) || code::isParked(c) || code::isExcluded(c)) return;
  const double p[3] = {double(pos[i].x), double(pos[i].y), double(pos[i].z)};
  Real4<T> v = velrho[i];
  bool changed = false;
  for (uint32_t k = 0; k < count; ++k) {
    const DampingZone& z = zones[k];
    const double f = damping::depth(z, p);
    if (f < 0) continue;
    const double r = dt * f * f * z.reduMax;
    v.x = T(fmax(0.0, 1 - r * z.factor[0]) * double(v.x));
    v.y = T(fmax(0.0, 1 - r * z.factor[1]) * double(v.y));
    v.z = T(fmax(0.0, 1 - r * z.factor[2]) * double(v.z));
    changed = true;
  }
  if (changed) velrho[i] = v;
}

}  // namespace sph
