// The individual waves of an irregular paddle's series (<saveseriewaves>) and the series' length in
// waves (<calcserielength>), as DualSPHysics 5.4 computes them (found from its output files and
// log, and checked against them by engine/tests/motion/test_irregular_paddles.cpp):
//
//  * the elevation at xpos in front of the paddle at rest, at series time s (s = 0 is the series'
//    origin, not <serieini>; no ramp, no gain): first order (IrregularPaddleLaw::serieElevation),
//    or with the bound difference-frequency waves (boundElevationCoefficients) for the second;
//  * sampled every Tp/1000 from timemin to timemax;
//  * a wave runs from one zero up-crossing to the next, each crossing interpolated linearly
//    between the samples around it; its height is the largest minus the smallest sample from
//    the first after its start to the last before its end, its period the time between its
//    crossings; the waves before the first crossing and after the last are not counted;
//  * the series' length in waves: the number of zero up-crossings of the first-order elevation at
//    x = 0 from s = 0 to timemax, sampled the same way.
#pragma once

#include <vector>

#include "motion/paddle_irregular_law.h"

namespace sph {

struct SerieWave {
  double start = 0;   // s, series time of its zero up-crossing
  double height = 0;  // m
  double period = 0;  // s
};

// The waves of the elevation of `order` (1 or 2) at x over [timeMin, timeMax] of the series.
std::vector<SerieWave> serieWaves(const IrregularPaddleLaw& law, const WavePaddle& p, double x, double timeMin,
                                  double timeMax, int order);

// The number of zero up-crossings of the first-order elevation at x = 0 over [0, timeMax].
long serieLengthWaves(const IrregularPaddleLaw& law, const WavePaddle& p, double timeMax);

}  // namespace sph
