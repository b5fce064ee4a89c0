#include "motion/paddle_irregular_law.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <numbers>
#include <random>
#include <stdexcept>
#include <tuple>

#include "motion/paddle_regular_law.h"

namespace sph {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kRangeStep = 0.005;   // Hz: the grid the range is cut on, up to 5 Hz
constexpr int kRangeSteps = 1000;
constexpr int kSkippedDraws = 37;      // outputs of the generator DualSPHysics does not use
constexpr int kCellsPerBand = 100;     // stretched bands: edges on a grid of 100 N cells
constexpr int kWidestBand = 200;       // cells: 2 df

using Spectrum = IrregularWaves::Spectrum;
using Discretization = IrregularWaves::Discretization;

// The spectrum's density, written in the order of DualSPHysics' operations (the stretched bands
// and the range compare densities, so they see its rounding): Pierson-Moskowitz is JONSWAP's
// shape with gamma = 1 and beta = 5/16.
double density(Spectrum s, double gamma, double hs, double tp, double f) {
  if (f == 0) return 0.0;
  const double fp = 1.0 / tp, r = fp / f, r4 = r * r * r * r, fp4 = fp * fp * fp * fp;
  const double tail = 1.0 / (f * f * f * f * f), cut = std::exp(r4 * -1.25);
  if (s == Spectrum::PiersonMoskowitz) return fp4 * (hs * hs * 0.3125) * tail * cut;
  const double twoSigma2 = f <= fp ? 0.0098 : 0.0162;  // 2 sigma^2, sigma = 0.07 below fp, 0.09 above
  const double peak = std::pow(gamma, std::exp(-(f - fp) * (f - fp) / (twoSigma2 * fp * fp)));
  const double beta = 0.0624 / ((0.23 + 0.0336 * gamma) - 0.185 / (gamma + 1.9));
  return beta * (hs * hs) * fp4 * tail * peak * cut;
}

// A band cut: the waves' frequencies and bands.
struct Bands {
  std::vector<double> f, df;
};

// Frequencies at the band centres from the widths, from the running sum of the bands as
// DualSPHysics adds them (regular, random and stretched bands).
Bands fromWidths(double fmin, const std::vector<double>& widths) {
  Bands b;
  double below = 0;
  for (double df : widths) {
    b.f.push_back((fmin + below) + df * 0.5);
    b.df.push_back(df);
    below += df;
  }
  return b;
}

Bands regularBands(int n, double fmin, double fmax) {
  return fromWidths(fmin, std::vector<double>(size_t(n), (fmax - fmin) / n));
}

Bands randomBands(int n, double fmin, double fmax, const std::vector<double>& u) {
  const double df = (fmax - fmin) / n;
  std::vector<double> e(size_t(n) + 1), widths(static_cast<size_t>(n));
  e.front() = fmin;
  e.back() = fmax;
  for (int k = 1; k < n; ++k) e[size_t(k)] = fmin + (k - 0.5 + u[size_t(k - 1)]) * df;
  for (int k = 0; k < n; ++k) widths[size_t(k)] = e[size_t(k) + 1] - e[size_t(k)];
  return fromWidths(fmin, widths);
}

Bands cosStretchedBands(int n, double fmin, double fmax, double fp) {
  const int below = int(n * (fp - fmin) / (fmax - fmin));
  Bands b;
  for (int i = 0; i < n; ++i) {
    if (i <= below)
      b.f.push_back(below > 0 ? fp - (fp - fmin) * (1 - std::cos(0.5 * kPi * (below - i) / below)) : fp);
    else
      b.f.push_back(fp + (fmax - fp) * (1 - std::cos(0.5 * kPi * (i - below) / (n - below))));
  }
  // Bands between the midpoints (the frequencies are not their centres).
  std::vector<double> e(size_t(n) + 1);
  e.front() = fmin;
  e.back() = fmax;
  for (int k = 1; k < n; ++k) e[size_t(k)] = 0.5 * (b.f[size_t(k - 1)] + b.f[size_t(k)]);
  for (int i = 0; i < n; ++i) b.df.push_back(e[size_t(i) + 1] - e[size_t(i)]);
  return b;
}

// Bands of about equal energy on a grid of kCellsPerBand n cells, a cell's energy the mean of
// the density at its edges. Bands are taken from both ends of what is left: each end's candidate
// is the fewest cells whose energy reaches the rest's energy over the bands left (at most
// kWidestBand cells, and leaving a cell for each other band), and the candidate holding less
// energy is taken, so that weak tails get the widest bands first; the last band takes the cells
// left. The rest's energy is summed again at the first band and every tenth, else reduced by
// the band taken.
Bands stretchedBands(int n, double fmin, double fmax, const WavePaddle& p) {
  const long cells = long(kCellsPerBand) * n;
  const double du = (fmax - fmin) / double(cells);
  std::vector<double> energy(static_cast<size_t>(cells));
  double left = spectrumDensity(p, fmin);
  for (long c = 0; c < cells; ++c) {
    const double right = spectrumDensity(p, double(c + 1) * du + fmin);
    energy[size_t(c)] = (left + right) * 0.5;
    left = right;
  }
  std::vector<long> width(static_cast<size_t>(n), 0);
  long lo = 0, hi = cells - 1;
  int a = 0, b = n - 1;
  double rest = 0;
  while (b > a) {
    const int bands = b - a + 1;
    if (bands == n || bands % 10 == 0) {
      rest = 0;
      for (long c = lo; c <= hi; ++c) rest += energy[size_t(c)];
    }
    const double target = rest / bands;
    const long most = std::min<long>(kWidestBand, (hi - lo + 1) - bands + 1);
    double low = 0, high = 0;
    long nLow = 0, nHigh = 0;
    while (target > low && nLow < most && lo + nLow <= hi) low += energy[size_t(lo + nLow++)];
    while (target > high && nHigh < most && hi - nHigh >= lo) high += energy[size_t(hi - nHigh++)];
    if (high >= low) {
      width[size_t(a++)] = nLow;
      lo += nLow;
      rest -= low;
    } else {
      width[size_t(b--)] = nHigh;
      hi -= nHigh;
      rest -= high;
    }
  }
  width[size_t(a)] = hi + 1 - lo;
  std::vector<double> widths;
  for (long w : width) widths.push_back(double(w) * du);
  return fromWidths(fmin, widths);
}

// Rounds to 6 significant digits, as C's "%g" prints.
double sixDigits(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%g", x);
  return std::strtod(text, nullptr);
}

// DualSPHysics' ramp (as motion/paddle_regular_law.cpp's).
double ramp(double x) { return x >= 1 ? 1.0 : x * x * (6 - 8 * x + 3 * x * x); }

}  // namespace

double spectrumDensity(const WavePaddle& p, double f) {
  return density(p.irregular.spectrum, p.irregular.peakCoef, p.height, p.period, f);
}

std::pair<double, double> spectrumRange(const WavePaddle& p) {
  const double fp = 1.0 / p.period, threshold = 0.01 * spectrumDensity(p, fp);
  double fmin = 0, fmax = fp;
  for (int k = 0; k <= kRangeSteps; ++k) {
    const double f = double(k) * kRangeStep, s = spectrumDensity(p, f);
    if (f < fp && s <= threshold) fmin = f;
    if (f >= fp && s >= threshold) fmax = f;
  }
  return {fmin, fmax};
}

IrregularPaddleLaw::IrregularPaddleLaw(const WavePaddle& p)
    : start_(p.start), duration_(p.duration), rampTime_(p.irregular.rampTime), gain_(p.gainStroke) {
  const IrregularWaves& w = p.irregular;
  std::tie(fmin_, fmax_) = spectrumRange(p);
  const int n = w.waves;
  std::mt19937 random(w.seed);
  random.discard(kSkippedDraws);
  const auto uniform = [&] { return double(random()) / 4294967296.0; };
  std::vector<double> phase(static_cast<size_t>(n));
  for (double& u : phase) u = -2 * kPi * uniform();
  Bands bands;
  switch (w.discretization) {
    case Discretization::Regular:
      bands = regularBands(n, fmin_, fmax_);
      break;
    case Discretization::Random: {
      std::vector<double> u(size_t(std::max(n - 1, 0)));
      for (double& v : u) v = uniform();
      bands = randomBands(n, fmin_, fmax_, u);
      break;
    }
    case Discretization::CosStretched:
      bands = cosStretchedBands(n, fmin_, fmax_, 1 / p.period);
      break;
    case Discretization::Stretched:
      bands = stretchedBands(n, fmin_, fmax_, p);
      break;
  }
  const double d = p.depth;
  const bool flap = p.type == PaddleType::Flap;
  const double l = flap ? p.draft : 0.0;
  // A focused group: the amplitudes share half the maximum wave height in proportion to S df,
  // the phases bring every crest (fphase 0) to x at the focus time.
  const FocusedWaves& focus = w.focus;
  double energy = 0, crest = 0;
  if (focus.on) {
    focus_ = true;
    moveTime_ = focus.moveTime;
    moveRamp_ = focus.moveRamp <= focus.moveTime ? focus.moveRamp : 0.0;
    for (int i = 0; i < n; ++i) energy += spectrumDensity(p, bands.f[size_t(i)]) * bands.df[size_t(i)];
    const double count = focus.maxWavesTime > 0 ? focus.maxWavesTime / (p.period / 1.1) : focus.maxWaves;
    maxHeight_ = 0.706 * p.height * std::sqrt(std::log(count));
    crest = maxHeight_ / 2;
    // The group velocity of the range's upper frequency.
    const double km = waveNumber(1 / fmax_, d, p.gravity), wm = 2 * kPi * fmax_;
    const double cg = 0.5 * wm / km * (1 + 2 * km * d / std::sinh(2 * km * d));
    focusTime_ = focus.preTime + focus.x / cg;
  }
  for (int i = 0; i < n; ++i) {
    Wave v;
    v.f = bands.f[size_t(i)];
    v.df = bands.df[size_t(i)];
    v.amplitude = focus.on ? crest * spectrumDensity(p, v.f) * v.df / energy
                           : std::sqrt(2 * spectrumDensity(p, v.f) * v.df);
    v.phase = phase[size_t(i)];
    v.omega = 2 * kPi * v.f;
    v.k = waveNumber(1 / v.f, d, p.gravity);
    if (focus.on) v.phase = -v.omega * focusTime_ + v.k * focus.x - focus.phase;
    const double kd = v.k * d, sh = std::sinh(kd), ch = std::cosh(kd), den = std::sinh(2 * kd) + 2 * kd;
    const double heightOverStroke = flap ? 4 * sh * (sh - (ch - std::cosh(v.k * l)) / (v.k * (d - l))) / den
                                         : 2 * (std::cosh(2 * kd) - 1) / den;
    const double halfStroke = gain_ * v.amplitude / heightOverStroke;
    v.paddle = flap ? std::atan(halfStroke / (d - l)) : halfStroke;
    waves_.push_back(v);
  }
  if (p.order == 2) {
    pairs_ = std::make_shared<const std::vector<SubharmonicPair>>(subharmonicPairs(subharmonicInput(p)));
    table_ = std::make_shared<SubharmonicTable>(pairs_);
  }
  if (p.awas && p.awas->elevationOrder == 2) bound_ = std::make_shared<const std::vector<double>>(
      boundElevationCoefficients(subharmonicInput(p)));
  serie0_ = w.serieIni;
  if (w.autofit) {
    // The first sign change of X sampled every Tp/4 from serieini, bisected.
    const double step = p.period / 4;
    double a = w.serieIni, xa = serieMotion(a);
    for (long k = 0; xa != 0; ++k) {
      if (k > 100000000L / std::max(n, 1)) break;  // a series that never crosses zero: keep serieini
      const double b = a + step, xb = serieMotion(b);
      if ((xa < 0) != (xb < 0)) {
        double lo = a, hi = b, xl = xa;
        for (int it = 0; it < 64; ++it) {
          const double mid = 0.5 * (lo + hi), xm = serieMotion(mid);
          if ((xm < 0) == (xl < 0))
            lo = mid, xl = xm;
          else
            hi = mid;
        }
        a = 0.5 * (lo + hi);
        break;
      }
      a = b, xa = xb;
    }
    serie0_ = sixDigits(a);
  }
}

SubharmonicInput IrregularPaddleLaw::subharmonicInput(const WavePaddle& p) const {
  SubharmonicInput in;
  for (const Wave& v : waves_) {
    in.f.push_back(v.f);
    in.a.push_back(v.amplitude);
    in.phase.push_back(v.phase);
    in.k.push_back(v.k);
  }
  in.depth = p.depth;
  in.gravity = p.gravity;
  in.flap = p.type == PaddleType::Flap;
  in.draft = in.flap ? p.draft : 0.0;
  return in;
}

double IrregularPaddleLaw::firstOrder(double s) const {
  double x = 0;
  for (const Wave& v : waves_) x += v.paddle * std::sin(v.omega * s + v.phase);
  return x;
}

double IrregularPaddleLaw::serieMotion(double s) const {
  return firstOrder(s) + (pairs_ ? subharmonicSum(*pairs_, s) : 0.0);
}

std::vector<double> IrregularPaddleLaw::serieMotionGrid(double s0, double h, int count) const {
  std::vector<double> x(size_t(std::max(count, 0)), 0.0);
  if (pairs_) subharmonicGrid(*pairs_, s0, h, count, x.data());
  for (int q = 0; q < count; ++q) x[size_t(q)] += firstOrder(s0 + q * h);
  return x;
}

double IrregularPaddleLaw::serieElevation(double x, double s) const {
  double e = 0;
  for (const Wave& v : waves_) e += v.amplitude * std::cos(v.omega * s - v.k * x + v.phase);
  return e;
}

double IrregularPaddleLaw::at(double t) const {
  // At rest until the start, then where the series is: a series not starting at a zero of the
  // motion makes the paddle jump in its first step, as in DualSPHysics.
  double tau = t - start_;
  if (focus_ ? tau < 0 : tau <= 0) return 0.0;
  if (duration_ > 0) tau = std::min(tau, duration_);
  if (focus_ && moveTime_ > 0 && tau > moveTime_) return 0.0;  // back to rest after fmovtime
  if (t == cachedT_) return cachedX_;
  double r = rampTime_ > 0 ? ramp(tau / rampTime_) : 1.0;
  if (focus_ && moveRamp_ > 0 && tau > moveTime_ - moveRamp_) r *= ramp((moveTime_ - tau) / moveRamp_);
  const double s = serie0_ + tau;
  cachedT_ = t;
  cachedX_ = r * (firstOrder(s) + (table_ ? table_->at(s) : 0.0));
  return cachedX_;
}

double IrregularPaddleLaw::elevation(double x, double t, int order) const {
  const double tau = t - start_;
  if (tau < 0 || (duration_ > 0 && tau > duration_)) return 0.0;
  const double s = serie0_ + tau;
  double eta = serieElevation(x, s);
  if (order == 2) {
    if (!bound_) throw std::logic_error("IrregularPaddleLaw::elevation: the second order was not prepared");
    std::vector<std::complex<double>> phasors;
    phasors.reserve(waves_.size());
    for (const Wave& v : waves_) phasors.push_back(std::polar(1.0, v.omega * s - v.k * x + v.phase));
    eta += boundElevationSum(*bound_, phasors);
  }
  return (rampTime_ > 0 ? ramp(tau / rampTime_) : 1.0) * eta;
}

double IrregularPaddleLaw::peakAcceleration(double tEnd) const {
  double span = tEnd - start_;
  if (duration_ > 0) span = std::min(span, duration_);
  if (!(span > 0) || waves_.empty()) return 0.0;
  // The second order's acceleration, on a grid of its own: its frequencies are differences,
  // below fmax - fmin, and a linear interpolation every 1/25 of their shortest period is within
  // about 1% of a term a hundred times smaller than the first order's.
  std::vector<double> second;
  double h2 = 0;
  if (pairs_) {
    std::vector<SubharmonicPair> acceleration(*pairs_);
    for (SubharmonicPair& q : acceleration) q.coef *= -q.omega * q.omega;
    h2 = 1 / (25 * std::max(fmax_ - fmin_, 1e-3));
    second.resize(size_t(std::ceil(span / h2)) + 2);
    subharmonicGrid(acceleration, serie0_, h2, int(second.size()), second.data());
  }
  const double h = 1 / (100 * fmax_);
  const int64_t samples = int64_t(std::ceil(span / h)) + 1;
  double peak = 0;
#pragma omp parallel for reduction(max : peak) schedule(static)
  for (int64_t q = 0; q < samples; ++q) {
    const double tau = std::min(double(q) * h, span), s = serie0_ + tau;
    double a = 0;
    for (const Wave& v : waves_) a -= v.paddle * v.omega * v.omega * std::sin(v.omega * s + v.phase);
    if (!second.empty()) {
      const double u = tau / h2;
      const size_t i = std::min(size_t(u), second.size() - 2);
      a += second[i] + (second[i + 1] - second[i]) * (u - double(i));
    }
    peak = std::max(peak, std::abs(a));
  }
  return peak;
}

}  // namespace sph
