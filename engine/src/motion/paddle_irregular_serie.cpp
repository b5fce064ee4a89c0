#include "motion/paddle_irregular_serie.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>

#include "motion/paddle_second_order.h"

namespace sph {
namespace {

// The elevation of the bound difference-frequency waves at x as a function of the series time:
// each pair's cosine of (w_j - w_i) s - (k_j - k_i) x + phi_j - phi_i written as a sine for
// SubharmonicTable, which samples the sum every 0.01 s (the pairs' frequencies are below
// fmax - fmin) and interpolates it by a cubic.
std::unique_ptr<SubharmonicTable> boundElevationTable(const IrregularPaddleLaw& law, const WavePaddle& p, double x) {
  const std::vector<double> coefficients = boundElevationCoefficients(law.subharmonicInput(p));
  const auto& w = law.waves();
  auto pairs = std::make_shared<std::vector<SubharmonicPair>>();
  pairs->reserve(coefficients.size());
  for (size_t j = 1; j < w.size(); ++j)
    for (size_t i = 0; i < j; ++i)
      pairs->push_back({coefficients[j * (j - 1) / 2 + i], w[j].omega - w[i].omega,
                        w[j].phase - w[i].phase - (w[j].k - w[i].k) * x + std::numbers::pi / 2});
  return std::make_unique<SubharmonicTable>(pairs);
}

// Calls visit(s, eta) for the samples every Tp/1000 from timeMin to timeMax.
template <typename Visit>
void sampleElevation(const IrregularPaddleLaw& law, const WavePaddle& p, double x, double timeMin, double timeMax,
                     int order, Visit visit) {
  const std::unique_ptr<SubharmonicTable> bound = order == 2 ? boundElevationTable(law, p, x) : nullptr;
  const double dt = p.period / 1000;
  const long samples = long(std::floor((timeMax - timeMin) / dt + 1e-9));
  for (long i = 0; i <= samples; ++i) {
    const double s = timeMin + double(i) * dt;
    visit(s, law.serieElevation(x, s) + (bound ? bound->at(s) : 0.0));
  }
}

}  // namespace

std::vector<SerieWave> serieWaves(const IrregularPaddleLaw& law, const WavePaddle& p, double x, double timeMin,
                                  double timeMax, int order) {
  std::vector<SerieWave> waves;
  bool started = false, first = true;
  double previousS = 0, previous = 0, start = 0, high = 0, low = 0;
  sampleElevation(law, p, x, timeMin, timeMax, order, [&](double s, double eta) {
    if (!first && previous < 0 && eta >= 0) {
      const double crossing = s - (s - previousS) * eta / (eta - previous);
      if (started) waves.push_back({start, high - low, crossing - start});
      started = true;
      start = crossing;
      high = low = eta;
    } else if (started) {
      high = std::max(high, eta);
      low = std::min(low, eta);
    }
    first = false;
    previousS = s;
    previous = eta;
  });
  return waves;
}

long serieLengthWaves(const IrregularPaddleLaw& law, const WavePaddle& p, double timeMax) {
  long crossings = 0;
  bool first = true;
  double previous = 0;
  sampleElevation(law, p, 0.0, 0.0, timeMax, 1, [&](double, double eta) {
    if (!first && previous < 0 && eta >= 0) ++crossings;
    first = false;
    previous = eta;
  });
  return crossings;
}

}  // namespace sph
