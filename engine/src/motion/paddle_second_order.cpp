#include "motion/paddle_second_order.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "motion/paddle_regular_law.h"

namespace sph {
namespace {

double coth(double x) { return 1.0 / std::tanh(x); }

// The bound difference-frequency elevation per a_n a_m (w_n > w_m).
double boundElevation(double wn, double wm, double kn, double km, double h, double g) {
  const double rn = wn * wn / g, rm = wm * wm / g, b = g * g / (wn * wm);
  const double dw = wn - wm, dk = kn - km;
  const double qn = wn * wn * rn - g * kn * kn, qm = wm * wm * rm - g * km * km;
  const double f = b * ((kn * km + rn * rm) * dw + (wn * qm - wm * qn) / (2 * g));
  const double p = f / (g * dk * std::tanh(dk * h) - dw * dw);
  return -(p * dw + b * (0.5 * (kn * km + rn * rm) - wn * wm * (rn + rm) / (2 * g))) / g;
}

}  // namespace

std::vector<SubharmonicPair> subharmonicPairs(const SubharmonicInput& in) {
  const double h = in.depth, g = in.gravity, lever = h + in.draft;
  const double hinge = std::max(0.0, -in.draft);  // b: the hinge's height above the bottom
  const size_t n = in.f.size();
  std::vector<double> w(n), c(n);
  for (size_t i = 0; i < n; ++i) {
    w[i] = 2 * std::numbers::pi * in.f[i];
    const double k = in.k[i], kh = k * h, sh = std::sinh(kh);
    c[i] = in.flap ? 4 * sh * (sh - (std::cosh(kh) - std::cosh(k * hinge)) / (k * lever)) / (std::sinh(2 * kh) + 2 * kh)
                   : 2 * (std::cosh(2 * kh) - 1) / (std::sinh(2 * kh) + 2 * kh);
  }
  std::vector<SubharmonicPair> pairs(n * (n - 1) / 2);
#pragma omp parallel for schedule(dynamic, 16)
  for (int64_t jj = 1; jj < int64_t(n); ++jj) {
    const size_t j = size_t(jj);  // n: the higher frequency
    for (size_t i = 0; i < j; ++i) {
      const double wn = w[j], wm = w[i], kn = in.k[j], km = in.k[i];
      const double dw = wn - wm, dk = kn - km, big = waveNumber(2 * std::numbers::pi / dw, h, g);
      const double bound = boundElevation(wn, wm, kn, km, h, g);
      const double xb = bound * big * (dk * coth(big * h) - big * coth(dk * h)) / (dk * dk - big * big);
      const auto spurious = [&](double wv, double k, double cv, double m2) {
        return cv * k * k / (k * k - big * big) * (wv * wv - dw * dw + m2) * g / (2 * wv);
      };
      double f2;
      if (!in.flap) {
        const double e = big * big / (c[j] * c[i] * dw * dw * dw);
        f2 = e * (spurious(wn, kn, c[j], 0) + spurious(wm, km, c[i], 0)) + xb;
      } else {
        const double chK = std::cosh(big * h);
        const double m1 = g / (lever * dw * dw) * (std::cosh(big * hinge) / chK - 1);
        const double e = big * big / (c[j] * c[i] * dw * dw * dw * (1 + m1));
        const auto m2 = [&](double wv, double k) {
          const double chk = std::cosh(k * h);
          const double full = -(g / lever) * (big / k) / (k * k - big * big) *
                              (2 * k * big * (1 - 1 / (chk * chK)) - (k * k + big * big) * wv * wv * dw * dw / (g * g * k * big));
          if (hinge == 0) return full;
          return full + g / (lever * chk * chK) *
                            ((k * k + big * big) * (std::cosh(k * hinge) * std::cosh(big * hinge) - 1) -
                             2 * k * big * std::sinh(k * hinge) * std::sinh(big * hinge)) /
                            (k * k - big * big);
        };
        f2 = e * (spurious(wn, kn, c[j], m2(wn, kn)) + spurious(wm, km, c[i], m2(wm, km))) + xb / (1 + m1);
      }
      pairs[j * (j - 1) / 2 + i] = {in.a[i] * in.a[j] * f2, dw, in.phase[j] - in.phase[i]};
    }
  }
  return pairs;
}

std::vector<double> boundElevationCoefficients(const SubharmonicInput& in) {
  const size_t n = in.f.size();
  std::vector<double> coefficients(n * (n - 1) / 2);
  for (size_t j = 1; j < n; ++j) {
    const double wn = 2 * std::numbers::pi * in.f[j];
    for (size_t i = 0; i < j; ++i)
      coefficients[j * (j - 1) / 2 + i] =
          in.a[i] * in.a[j] * boundElevation(wn, 2 * std::numbers::pi * in.f[i], in.k[j], in.k[i], in.depth, in.gravity);
  }
  return coefficients;
}

double boundElevationSum(const std::vector<double>& coefficients, const std::vector<std::complex<double>>& phasors) {
  double eta = 0;
  const int64_t n = int64_t(phasors.size());
#pragma omp parallel for reduction(+ : eta) schedule(dynamic, 16) if (n > 256)
  for (int64_t j = 1; j < n; ++j) {
    const double* c = coefficients.data() + j * (j - 1) / 2;
    double re = 0, im = 0;  // sum over i < j of c_ij conj(z_i)
    for (int64_t i = 0; i < j; ++i) {
      re += c[i] * phasors[size_t(i)].real();
      im -= c[i] * phasors[size_t(i)].imag();
    }
    eta += phasors[size_t(j)].real() * re - phasors[size_t(j)].imag() * im;
  }
  return eta;
}

double subharmonicSum(const std::vector<SubharmonicPair>& pairs, double s) {
  double x = 0;
#pragma omp parallel for reduction(+ : x) schedule(static)
  for (int64_t k = 0; k < int64_t(pairs.size()); ++k) {
    const SubharmonicPair& p = pairs[size_t(k)];
    x += p.coef * std::sin(p.omega * s + p.phase);
  }
  return x;
}

void subharmonicGrid(const std::vector<SubharmonicPair>& pairs, double s0, double h, int count, double* out) {
  for (int q = 0; q < count; ++q) out[q] = 0;
#pragma omp parallel
  {
    std::vector<double> sum(size_t(count), 0.0);
#pragma omp for schedule(static)
    for (int64_t k = 0; k < int64_t(pairs.size()); ++k) {
      const SubharmonicPair& p = pairs[size_t(k)];
      std::complex<double> z = std::polar(p.coef, p.omega * s0 + p.phase);
      const std::complex<double> turn = std::polar(1.0, p.omega * h);
      for (int q = 0; q < count; ++q) {
        sum[size_t(q)] += z.imag();
        z *= turn;
      }
    }
#pragma omp critical
    for (int q = 0; q < count; ++q) out[q] += sum[size_t(q)];
  }
}

double SubharmonicTable::sample(int64_t i) {
  const int64_t block = i >= 0 ? i / kSubharmonicBlock : -((-i + kSubharmonicBlock - 1) / kSubharmonicBlock);
  auto it = blocks_.find(block);
  if (it == blocks_.end()) {
    std::vector<double> values(kSubharmonicBlock);
    subharmonicGrid(*pairs_, double(block * kSubharmonicBlock) * kSubharmonicSpacing, kSubharmonicSpacing,
                    kSubharmonicBlock, values.data());
    // A run moves forward: blocks well behind the one asked for are not needed again.
    while (!blocks_.empty() && blocks_.begin()->first < block - 1) blocks_.erase(blocks_.begin());
    it = blocks_.emplace(block, std::move(values)).first;
  }
  return it->second[size_t(i - block * kSubharmonicBlock)];
}

double SubharmonicTable::at(double s) {
  std::lock_guard<std::mutex> lock(mutex_);
  const double x = s / kSubharmonicSpacing;
  const int64_t i = int64_t(std::floor(x));
  const double u = x - double(i);
  const double y0 = sample(i - 1), y1 = sample(i), y2 = sample(i + 1), y3 = sample(i + 2);
  // Lagrange's cubic through the samples at -1, 0, 1, 2.
  return y0 * (-u * (u - 1) * (u - 2) / 6) + y1 * ((u + 1) * (u - 1) * (u - 2) / 2) +
         y2 * (-(u + 1) * u * (u - 2) / 2) + y3 * ((u + 1) * u * (u - 1) / 6);
}

}  // namespace sph
