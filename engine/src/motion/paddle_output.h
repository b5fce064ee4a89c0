// The <savemotion> files of wave paddles: OUT/WavePaddle_mkbNNNN.csv, the paddle's law sampled
// over the asked time, written when the run starts (as DualSPHysics does), so that the motion
// can be checked before the run gets far; for irregular waves also the series (<saveserie>), its
// waves (<saveseriewaves>) and its length in waves (<calcserielength>, printed).
#pragma once

#include <filesystem>
#include <vector>

#include "model/case_wave_paddles.h"

namespace sph {

// The files each paddle asks for; the others write nothing.
void writeWavePaddleMotions(const std::filesystem::path& out, const std::vector<WavePaddle>& paddles);

}  // namespace sph
