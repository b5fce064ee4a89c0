// What single precision's float positions cost a case. This engine keeps positions in floats in
// single precision (DualSPHysics keeps them in double): a step moves a particle by v dt, and a
// move smaller than half the float spacing at its coordinate is rounded away. Far from the origin
// at a fine dp (hence a short dt) that stops the slow creep of nearly still water while the
// density equation still sees its velocity, and the water drifts: 12_FloatingWaves at its own dp
// (0.002 m, x up to 10 m) does, at twice that dp it does not (docs/validation.md, floating box).
#pragma once

#include <optional>
#include <string>

#include "sph/neighbour_strategy.h"
#include "sph/sim_parameters.h"

namespace sph {

struct FloatPositionLimit {
  double farthest = 0;   // largest |coordinate| of the domain (m)
  double spacing = 0;    // float spacing there (m)
  double stepDt = 0;     // the step a still fluid takes: DtFixed, else CFL h / c0 (s)
  double lostSpeed = 0;  // moves slower than this are lost there: spacing / (2 stepDt) (m/s)
  double waveSpeed = 0;  // sqrt(|g| hswl), the scale of the case's free-surface flows (m/s); 0 without hswl
  // lostSpeed as a fraction of waveSpeed (0 when waveSpeed is 0).
  double ratio() const { return waveSpeed > 0 ? lostSpeed / waveSpeed : 0; }
};

FloatPositionLimit floatPositionLimit(const SimParameters& p);

// The ratio above which a single-precision run is warned. 12_FloatingWaves drifted at 1.05% (dp
// 0.002) and held still at 0.53% (dp 0.004); the threshold lies between the two.
inline constexpr double kFloatPositionWarnRatio = 0.0075;

// The warning for a run of this precision, when its float positions lose more than the threshold.
std::optional<std::string> floatPositionWarning(const SimParameters& p, Precision precision);

}  // namespace sph
