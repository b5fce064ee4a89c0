// A value of three components given at times (DualSPHysics' JLinearValue): imposed velocities and
// external forces of floating bodies. Between two times it is linear; before the first it is the
// first value, after the last the last. A component may be "none" (NaN here): not given at that
// time; between a given value and a none the value holds, from a none on it is none.
#pragma once

#include <cmath>
#include <vector>

#include "model/vec3d.h"

namespace sph {

struct TimeSeries3 {
  std::vector<double> times;  // not decreasing
  std::vector<Vec3d> values;

  Vec3d at(double t) const {
    if (times.empty()) return {0, 0, 0};
    if (times.size() == 1 || t <= times.front()) return values.front();
    if (t >= times.back()) return values.back();
    size_t k = 1;
    while (times[k] < t) ++k;  // times[k - 1] < t <= times[k]
    const double span = times[k] - times[k - 1];
    const double f = span > 0 ? (t - times[k - 1]) / span : 1.0;
    const Vec3d& a = values[k - 1];
    const Vec3d& b = values[k];
    const auto mix = [f](double u, double v) { return std::isnan(u) ? u : std::isnan(v) ? u : u + f * (v - u); };
    return {mix(a.x, b.x), mix(a.y, b.y), mix(a.z, b.z)};
  }
};

}  // namespace sph
