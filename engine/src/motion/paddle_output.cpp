#include "motion/paddle_output.h"

#include <cmath>
#include <numbers>
#include <string>

#include <fmt/format.h>

#include "motion/paddle_irregular_serie.h"
#include "motion/paddle_law.h"
#include "output/output.h"

namespace sph {
namespace {

std::string regularHeader(const WavePaddle& p, const RegularPaddleLaw& law) {
  const bool flap = p.type == PaddleType::Flap;
  return fmt::format(
      "Type of paddle: {} - Regular\nStart time: {} [s]\nDepth: {} [m]\nWaveOrder: {}\nWaveHeight: {} [m]\n"
      "WavePeriod: {} [s]\nWaveLength: {:.6g} [m]\nGainStroke: {}\nStroke: {:.6g} [m]\nAmplitude: {:.6g} {}\n\n"
      "Time [s];{}\n",
      flap ? "Flap" : "Piston", p.start, p.depth, p.order, p.height, p.period, law.waveLength(), p.gainStroke,
      law.stroke(), law.amplitude(), flap ? "[rad]" : "[m]", flap ? "Angle [rad]" : "Position [m]");
}

// As DualSPHysics' header: one column of constants per wave.
std::string solitaryHeader(const WavePaddle& p, const SolitaryPaddleLaw& law) {
  constexpr const char* kTheory[] = {"", "Rayleigh (Serre 1953)", "Boussinesq (Goring 1978)",
                                     "KdV (Clamond and Germain 1999)"};
  const auto row = [&](const char* name, auto value, const char* unit) {
    std::string r = name;
    for (size_t i = 0; i < law.waves().size(); ++i) r += fmt::format("{}{:.6g}", i ? ";" : " ", value(law.waves()[i]));
    return r + unit + "\n";
  };
  using W = SolitaryPaddleLaw::Wave;
  return fmt::format(
             "Type of paddle: Piston - Solitary\nMovement direction: ({}:{}:{})\nStart time: {} [s]\n"
             "Depth: {} [m]\nWaveTheory: {}\nWaveCount: {}\n",
             p.direction.x, p.direction.y, p.direction.z, p.start, p.depth, kTheory[int(p.theory)],
             law.waves().size()) +
         row(
             "WaveHeight:", [](const W& w) { return w.height; }, " [m]") +
         row(
             "WaveLength:", [](const W& w) { return 2 * std::numbers::pi / w.waveNumber; }, " [m]") +
         row(
             "Celerity:", [](const W& w) { return w.celerity; }, " [m/s]") +
         row(
             "DurationCoef:", [](const W& w) { return w.durationCoef; }, "") +
         row(
             "GenerationTime:", [](const W& w) { return w.duration; }, " [s]") +
         row(
             "Stroke:", [](const W& w) { return w.stroke; }, " [m]") +
         row(
             "TimeStart:", [](const W& w) { return w.start; }, " [s]") +
         "\nTime [s];Position [m]\n";
}

constexpr const char* kSpectrumNames[] = {"JONSWAP", "Pierson-Moskowitz"};
constexpr const char* kDiscretizationNames[] = {"Regular", "Random", "Energy Stretched", "Cosine Stretched"};

// As DualSPHysics' header of a focused group.
std::string focusedHeader(const WavePaddle& p, const IrregularPaddleLaw& law) {
  const IrregularWaves& w = p.irregular;
  const FocusedWaves& f = w.focus;
  const double waves = f.maxWavesTime > 0 ? f.maxWavesTime / (p.period / 1.1) : f.maxWaves;
  return fmt::format(
      "Type of paddle: Piston - Focused\nMovement direction: ({}:{}:{}) [m]\nStart time: {} [s]\nGravity: {} [m/s^2]\n"
      "Depth: {} [m]\nInitialRamp: {} [s]\nSpectrum: {}\nDiscretization: {}\nNumber of basic waves: {}\n"
      "Wave order generation: {}\nWaveHeight-significant: {} [m]\nWavePeriod-peak: {} [s]\nGainStroke: {}\n"
      "Peak coefficient: {}\nRandom seed: {}\nFocused location: {} [m]\nFocused phase: {:.6g} [deg] ({:.6g} [rad])\n"
      "Focused reach time: {:.6g} [s]\nPre-time focused: {} [s]\nFinal motion time: {} [s]\nFinal ramp: {} [s]\n"
      "Max-wave config: {:.6g} [waves] ({:.6g} [s])\nMax-wave Height: {:.6g} [m]\n\nTime [s];Position [m]\n",
      p.direction.x, p.direction.y, p.direction.z, p.start, p.gravity, p.depth, w.rampTime,
      kSpectrumNames[int(w.spectrum)], kDiscretizationNames[int(w.discretization)], w.waves,
      p.order == 2 ? "2nd" : "1st", p.height, p.period, p.gainStroke, w.peakCoef, w.seed, f.x,
      f.phase * 180 / std::numbers::pi, f.phase, law.focusTime(), f.preTime, f.moveTime,
      f.moveRamp <= f.moveTime ? f.moveRamp : 0.0, waves, waves * p.period / 1.1, law.maxHeight());
}

// As DualSPHysics' header, with the serie's start after autofit.
std::string irregularHeader(const WavePaddle& p, const IrregularPaddleLaw& law) {
  const IrregularWaves& w = p.irregular;
  if (w.focus.on) return focusedHeader(p, law);
  return fmt::format(
      "Type of paddle: {} - Spectrum\nStart time: {} [s]\nDepth: {} [m]\nInitialRamp: {} [s]\nSpectrum: {}\n"
      "Discretization: {}\nNumber of basic waves: {}\nWave order generation: {}\nWaveHeight-significant: {} [m]\n"
      "WavePeriod-peak: {} [s]\nGainStroke: {}\nPeak coefficient: {}\nRandom seed: {}\n"
      "Serie initial time: {:.6g} [s]\nFrequency range: {:.6g} - {:.6g} [Hz]\n\nTime [s];{}\n",
      p.type == PaddleType::Flap ? "Flap" : "Piston", p.start, p.depth, w.rampTime, kSpectrumNames[int(w.spectrum)],
      kDiscretizationNames[int(w.discretization)], w.waves, p.order == 2 ? "2nd" : "1st", p.height, p.period,
      p.gainStroke, w.peakCoef, w.seed,
      law.serieStart(), law.fmin(), law.fmax(), p.type == PaddleType::Flap ? "Angle [rad]" : "Position [m]");
}

// WavePaddle_mkbNNNN_Serie.csv: the series from serie time timemin to timemax (the paddle's
// motion without ramp, and the first-order elevation at xpos in front of it).
void writeSerie(const std::filesystem::path& out, const WavePaddle& p, const IrregularPaddleLaw& law) {
  const IrregularWaves& w = p.irregular;
  std::string text = fmt::format(
      "Irregular wave serie of the paddle of mkbound {}\nSpectrum: {}\nDiscretization: {}\nNumber of basic waves: {}\n"
      "Random seed: {}\nFrequency range: {:.6g} - {:.6g} [Hz]\nSaveSerie: [tmin:{} [s]  tmax:{} [s]  dt:{} [s]  "
      "xpos:{} [m]]\n\nTime [s];elevation_o1 [m];{}\n",
      p.mkbound, kSpectrumNames[int(w.spectrum)], kDiscretizationNames[int(w.discretization)], w.waves, w.seed,
      law.fmin(), law.fmax(), w.serieTimeMin, w.serieTimeMax, w.serieTimeDt, w.serieX,
      p.type == PaddleType::Flap ? "flapangle [rad]" : "pistonpos [m]");
  const long samples = std::lround((w.serieTimeMax - w.serieTimeMin) / w.serieTimeDt);
  const std::vector<double> motion = law.serieMotionGrid(w.serieTimeMin, w.serieTimeDt, int(samples + 1));
  for (long i = 0; i <= samples; ++i) {
    const double s = w.serieTimeMin + double(i) * w.serieTimeDt;
    text += fmt::format("{:.6f};{:.12g};{:.12g}\n", s, law.serieElevation(w.serieX, s), motion[size_t(i)]);
  }
  writeTextFileAtomic((out / fmt::format("WavePaddle_mkb{:04d}_Serie.csv", p.mkbound)).string(), text);
}

// WavePaddle_mkbNNNN_SerieWaves_o1.csv and _o2.csv: the series' waves at xpos (motion/paddle_irregular_serie.h),
// with DualSPHysics' header and number format.
void writeSerieWaves(const std::filesystem::path& out, const WavePaddle& p, const IrregularPaddleLaw& law) {
  const IrregularWaves& w = p.irregular;
  for (int order : {1, 2}) {
    std::string text = fmt::format(
        "Type of paddle: {} - Spectrum\nSpectrum: {}\nDiscretization: {}\nNumber of basic waves: {}\n"
        "WaveHeight-significant: {} [m]\nWavePeriod-peak: {} [s]\nPeak coefficient: {}\nRandom seed: {}\n"
        "Frequency range: {:.6g} - {:.6g} [Hz]\nGravity: {} [m/s^2]\nDepth: {} [m]\n"
        "SaveSerieWaves: [tmin:{} [s]  tmax:{} [s]  xpos:{} [m]  order:{}]\n\nwave;timeini [s];height [m];period [s]\n",
        p.type == PaddleType::Flap ? "Flap" : "Piston", kSpectrumNames[int(w.spectrum)],
        kDiscretizationNames[int(w.discretization)], w.waves, p.height, p.period, w.peakCoef, w.seed, law.fmin(),
        law.fmax(), p.gravity, p.depth, w.wavesTimeMin, w.wavesTimeMax, w.wavesX, order);
    const std::vector<SerieWave> waves = serieWaves(law, p, w.wavesX, w.wavesTimeMin, w.wavesTimeMax, order);
    for (size_t i = 0; i < waves.size(); ++i)
      text += fmt::format("{};{:20.12E};{:20.12E};{:20.12E}\n", i + 1, waves[i].start, waves[i].height, waves[i].period);
    writeTextFileAtomic((out / fmt::format("WavePaddle_mkb{:04d}_SerieWaves_o{}.csv", p.mkbound, order)).string(), text);
  }
}

}  // namespace

void writeWavePaddleMotions(const std::filesystem::path& out, const std::vector<WavePaddle>& paddles, double timeMax,
                            double timeOut) {
  for (const WavePaddle& p : paddles) {
    const bool irregular = p.waves == PaddleWaves::Irregular;
    const bool serie = irregular && p.irregular.serieTimeDt > 0;
    const bool serieWaves = irregular && p.irregular.wavesTimeMax > 0;
    const bool serieLength = irregular && p.irregular.lengthTime > 0;
    if (p.saveMotions.empty() && !serie && !serieWaves && !serieLength) continue;
    const PaddleLaw law(p);
    if (serie) writeSerie(out, p, *law.irregular());
    if (serieWaves) writeSerieWaves(out, p, *law.irregular());
    // DualSPHysics prints it in its log; so does this engine, when the run starts.
    if (serieLength)
      fmt::print("Paddle of mkbound {}: serie length {} seconds  {} waves (minimum)\n", p.mkbound, p.irregular.lengthTime,
                 serieLengthWaves(*law.irregular(), p, p.irregular.lengthTime));
    const std::string header = p.waves == PaddleWaves::Solitary    ? solitaryHeader(p, *law.solitary())
                               : p.waves == PaddleWaves::Irregular ? irregularHeader(p, *law.irregular())
                                                                   : regularHeader(p, *law.regular());
    const size_t columns = header.rfind("\n\n");
    for (size_t n = 0; n < p.saveMotions.size(); ++n) {
      const PaddleSaveMotion& m = p.saveMotions[n];
      const double time = m.timeOr(timeMax), dt = m.dtOr(timeOut);
      if (!(time > 0) || !(dt > 0)) continue;  // a run of no time, or no output interval: nothing to sample
      std::string text = header.substr(0, columns) +
                         fmt::format("\nSaveMotion: [time:{} [s]  dt:{} [s]  xpos:{} [m]{}]", time, dt, m.xpos,
                                     m.zpos ? fmt::format("  zpos:{} [m]", *m.zpos) : "") +
                         header.substr(columns);
      if (p.start > 0) text += fmt::format("{:.6f};{:.9g}\n", 0.0, law.at(0));
      // Counted, not summed, so that a sample that lands on the end is written (with a margin
      // for time/dt computed a hair below an integer).
      const long samples = long(std::floor(time / dt + 1e-9));
      for (long i = 0; i <= samples; ++i) {
        const double t = p.start + double(i) * dt;
        text += fmt::format("{:.6f};{:.9g}\n", t, law.at(t));
      }
      writeTextFileAtomic((out / fmt::format("WavePaddle_mkb{:04d}_{:04d}.csv", p.mkbound, n)).string(), text);
    }
  }
}

}  // namespace sph
