#include "sph/float_positions.h"

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
  l.stepDt = p.dtFixed > 0 ? p.dtFixed : p.c0 > 0 ? p.cfl * p.h / p.c0 : 0;
  l.lostSpeed = l.stepDt > 0 ? l.spacing / (2 * l.stepDt) : 0;
  const double g = std::sqrt(p.gravity.x * p.gravity.x + p.gravity.y * p.gravity.y + p.gravity.z * p.gravity.z);
  l.waveSpeed = p.hswl > 0 ? std::sqrt(g * p.hswl) : 0;
  return l;
}

std::optional<std::string> floatPositionWarning(const SimParameters& p, Precision precision) {
  if (precision != Precision::Single) return std::nullopt;
  const FloatPositionLimit l = floatPositionLimit(p);
  if (l.ratio() <= kFloatPositionWarnRatio) return std::nullopt;
  return fmt::format(
      "single precision keeps positions in floats: at |x| = {:.4g} m a step of {:.3g} s loses moves slower than "
      "{:.3g} m/s, {:.2f}% of sqrt(g hswl); still water far from the origin may drift (12_FloatingWaves did at "
      "1.05%, not at 0.53%): consider --precision double",
      l.farthest, l.stepDt, l.lostSpeed, 100 * l.ratio());
}

}  // namespace sph
