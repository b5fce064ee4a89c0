// What single precision's float positions cost a case. Moves keep double accuracy (pos and its
// rounding remainder posLo, physics/position_split.h), but the pair kernels read the float pos: each
// position is within half a float spacing of the true one, so a pair's r_ab is within one
// spacing. The spacing grows with the coordinate (2^-20 m at 8-16 m, 2^-14 m at 512-1024 m): a
// long domain far from the origin at a fine dp reads its pairs coarsely.
#pragma once

#include <optional>
#include <string>

#include "model/sim_parameters.h"
#include "sph/plugin/neighbour_strategy.h"

namespace sph {

struct FloatPositionLimit {
  double farthest = 0;  // largest |coordinate| of the domain (m)
  double spacing = 0;   // float spacing there (m): the most a pair kernel's r_ab is off by
  double dp = 0;        // the case's particle spacing (m)
  // spacing as a fraction of dp (0 without dp).
  double ratio() const { return dp > 0 ? spacing / dp : 0; }
};

FloatPositionLimit floatPositionLimit(const SimParameters& p);

// The ratio above which a single-precision run is warned: an error of 1% of dp in r_ab. It is a
// judgement, not a measurement: the examples sit at 5e-4 dp or below (12_FloatingWaves at its own
// dp, the finest, at 4.8e-4) and give DualSPHysics' results in single precision.
inline constexpr double kFloatPositionWarnRatio = 0.01;

// The warning for a run of this precision, when its pair distances are coarser than the threshold.
std::optional<std::string> floatPositionWarning(const SimParameters& p, Precision precision);

}  // namespace sph
