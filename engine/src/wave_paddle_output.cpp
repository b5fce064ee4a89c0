#include "wave_paddle_output.h"

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "sph/output.h"
#include "wave_paddle_law.h"

namespace sph {

void writeWavePaddleMotions(const std::filesystem::path& out, const std::vector<WavePaddle>& paddles) {
  for (const WavePaddle& p : paddles) {
    if (!(p.saveTime > 0)) continue;
    const RegularPaddleLaw law(p);
    const bool flap = p.type == PaddleType::Flap;
    std::string text = fmt::format(
        "Type of paddle: {} - Regular\nStart time: {} [s]\nDepth: {} [m]\nWaveOrder: {}\nWaveHeight: {} [m]\n"
        "WavePeriod: {} [s]\nWaveLength: {:.6g} [m]\nGainStroke: {}\nStroke: {:.6g} [m]\nAmplitude: {:.6g} {}\n\n"
        "Time [s];{}\n",
        flap ? "Flap" : "Piston", p.start, p.depth, p.order, p.height, p.period, law.waveLength(), p.gainStroke,
        law.stroke(), law.amplitude(), flap ? "[rad]" : "[m]", flap ? "Angle [rad]" : "Position [m]");
    // Counted, not summed, so that the last sample lands on saveTime.
    const long samples = std::lround(p.saveTime / p.saveDt);
    for (long i = 0; i <= samples; ++i) {
      const double t = p.start + double(i) * p.saveDt;
      text += fmt::format("{:.6f};{:.9g}\n", t, law.at(t));
    }
    writeTextFileAtomic((out / fmt::format("WavePaddle_mkb{:04d}.csv", p.mkbound)).string(), text);
  }
}

}  // namespace sph
