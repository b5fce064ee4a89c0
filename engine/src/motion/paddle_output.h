// The <savemotion> files of wave paddles: OUT/WavePaddle_mkbNNNN_MMMM.csv (MMMM: the
// <savemotion>'s number in its paddle, from 0, as DualSPHysics names them), the paddle's law
// sampled from its start every dt for the asked time (a first row at time 0 when the paddle
// starts later, as in DualSPHysics), written when the run starts (as DualSPHysics does), so that
// the motion can be checked before the run gets far; for irregular waves also the series (<saveserie>), its
// waves (<saveseriewaves>) and its length in waves (<calcserielength>, printed).
#pragma once

#include <filesystem>
#include <vector>

#include "model/case_wave_paddles.h"

namespace sph {

// The files each paddle asks for; the others write nothing. timeMax and timeOut are the run's:
// the span and interval of a <savemotion> that gives none.
void writeWavePaddleMotions(const std::filesystem::path& out, const std::vector<WavePaddle>& paddles, double timeMax,
                            double timeOut);

}  // namespace sph
