#include "run/float_positions.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace sph {

FloatPositionLimit floatPositionLimit(const SimParameters& p) {
  FloatPositionLimit l;
  for (const Vec3d& v : {p.domainMin, p.domainMax})
    l.farthest = std::max({l.farthest, std::abs(v.x), std::abs(v.y), std::abs(v.z)});
  // The spacing above the farthest coordinate: the coarser of the two around it.
  const float f = float(l.farthest);
  l.spacing = double(std::nextafter(f, std::numeric_limits<float>::infinity())) - double(f);
  l.dp = p.dp;
  return l;
}

std::optional<std::string> floatPositionWarning(const SimParameters& p, Precision precision) {
  if (precision != Precision::Single) return std::nullopt;
  const FloatPositionLimit l = floatPositionLimit(p);
  if (l.ratio() <= kFloatPositionWarnRatio) return std::nullopt;
  return fmt::format(
      "single precision: the pair kernels read positions as floats, {:.3g} m apart at |x| = {:.4g} m, {:.2f}% of dp; "
      "consider --precision double or a domain nearer the origin",
      l.spacing, l.farthest, 100 * l.ratio());
}

}  // namespace sph
