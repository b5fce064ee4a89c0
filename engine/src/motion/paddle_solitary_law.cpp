#include "motion/paddle_solitary_law.h"

#include <algorithm>
#include <cmath>

namespace sph {
namespace {

// Goring's (1978) duration: the wave is cut where eta/H = sech^2(theta) falls to 0.002 (theta =
// acosh(sqrt(500)) = 3.80) on either side; the piston's travel adds eps to k c T / 2.
constexpr double kGoringCutPhase = 3.8;

// theta + eps tanh(theta) = b. The left side rises with a slope between 1 and 1 + eps, so
// Newton's method converges from theta = b - eps tanh(b), which is exact far from the crest.
double goringPhase(double b, double eps) {
  double th = b - eps * std::tanh(b);
  for (int i = 0; i < 100; ++i) {
    const double t = std::tanh(th);
    const double step = (th + eps * t - b) / (1 + eps * (1 - t * t));
    th -= step;
    if (std::abs(step) <= 1e-15 * std::max(1.0, std::abs(th))) break;
  }
  return th;
}

// DualSPHysics' Rayleigh phase relation k c tau = theta + F(tanh theta) (motion/paddle_solitary_law.h):
// F(y) = ln(1 + 2 eps y^2) / (2y) - (2/3) eps^3 y^3 (1 - y^2) / (1 + 2 eps y^2)^(5/2), odd in y,
// with its derivative dF/dy.
double rayleighF(double y, double eps) {
  const double x = 2 * eps * y * y, q = 1 + x;
  // ln(1 + x)/(2y) loses digits for tiny x: its series there.
  const double logTerm = std::abs(x) < 1e-4 ? eps * y * (1 - x / 2 + x * x / 3) : std::log1p(x) / (2 * y);
  return logTerm - 2.0 / 3.0 * eps * eps * eps * y * y * y * (1 - y * y) / std::pow(q, 2.5);
}

double rayleighDF(double y, double eps) {
  const double x = 2 * eps * y * y, q = 1 + x;
  const double dlog = std::abs(x) < 1e-4 ? eps * (1 - 3 * x / 2 + 5 * x * x / 3)
                                         : 2 * eps / q - std::log1p(x) / (2 * y * y);
  const double e3 = 2.0 / 3.0 * eps * eps * eps;
  const double dcorr = e3 * ((3 * y * y - 5 * y * y * y * y) / std::pow(q, 2.5) -
                             y * y * y * (1 - y * y) * 10 * eps * y / std::pow(q, 3.5));
  return dlog - dcorr;
}

// theta + F(tanh theta) = b: the left side rises (slope 1 + F'(y)(1 - y^2) > 0 for the heights of
// solitary waves), so Newton's method from Goring's start converges; bisection guards it.
double rayleighPhase(double b, double eps) {
  double lo = b - 1, hi = b + 1;  // |F| <= ln(1 + 2 eps)/2 < 1
  double th = b - rayleighF(std::tanh(b), eps);
  for (int i = 0; i < 100; ++i) {
    const double y = std::tanh(th), f = th + rayleighF(y, eps) - b;
    if (f > 0) hi = th; else lo = th;
    double next = th - f / (1 + rayleighDF(y, eps) * (1 - y * y));
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    const bool done = std::abs(next - th) <= 1e-15 * std::max(1.0, std::abs(th));
    th = next;
    if (done) break;
  }
  return th;
}

}  // namespace

SolitaryPaddleLaw::SolitaryPaddleLaw(const WavePaddle& p)
    : theory_(p.theory), start_(p.start), depth_(p.depth), gravity_(p.gravity) {
  const double d = depth_, g = gravity_;
  double begin = 0;
  for (size_t i = 0; i < p.solitary.size(); ++i) {
    const SolitaryWave& s = p.solitary[i];
    Wave w;
    w.height = s.height;
    w.durationCoef = s.durationCoef;
    const double H = s.height, eps = H / d;
    w.waveNumber = theory_ == SolitaryTheory::Rayleigh ? std::sqrt(3 * H / (4 * d * d * (d + H)))
                                                       : std::sqrt(3 * H / (4 * d * d * d));
    w.celerity = std::sqrt(g * (d + H));
    const double kdv = std::sqrt(g * d) * (1 + eps / 2);
    const double c = theory_ == SolitaryTheory::Boussinesq ? w.celerity : kdv;
    w.duration = s.durationCoef * 2 * (kGoringCutPhase + eps) / (w.waveNumber * c);
    if (i > 0) begin += s.startCoef * waves_.back().duration;
    w.start = begin;
    waves_.push_back(w);
    const double half = w.duration / 2;
    waves_.back().stroke =
        theory_ == SolitaryTheory::Boussinesq ? centred(i, half) - centred(i, -half) : 2 * H / (w.waveNumber * d);
  }
  double sum = 0;
  for (const Wave& w : waves_) {
    before_.push_back(sum);
    sum += w.stroke;
    end_ = std::max(end_, w.start + w.duration);
  }
}

double SolitaryPaddleLaw::centred(size_t i, double tau) const {
  const Wave& w = waves_[i];
  const double k = w.waveNumber, eps = w.height / depth_, half = w.height / (k * depth_);
  if (theory_ == SolitaryTheory::KdV) return half * std::tanh(k * std::sqrt(gravity_ * depth_) * (1 + eps / 2) * tau);
  if (theory_ == SolitaryTheory::Rayleigh) return half * std::tanh(rayleighPhase(k * w.celerity * tau, eps));
  return half * std::tanh(goringPhase(k * w.celerity * tau, eps));
}

double SolitaryPaddleLaw::waveMotion(size_t i, double s) const {
  const Wave& w = waves_[i];
  const double tau = std::clamp(s, 0.0, w.duration) - w.duration / 2;
  if (theory_ == SolitaryTheory::Boussinesq) return centred(i, tau) - centred(i, -w.duration / 2);
  return w.height / (w.waveNumber * depth_) + centred(i, tau);
}

double SolitaryPaddleLaw::at(double t) const {
  const double s = t - start_;
  if (s < 0 || waves_.empty()) return 0.0;
  double x = waveMotion(0, s);
  for (size_t i = 1; i < waves_.size() && s >= waves_[i].start; ++i) {
    const double alone = before_[i] + waveMotion(i, s - waves_[i].start);
    const double previousEnd = waves_[i - 1].start + waves_[i - 1].duration;
    if (s < previousEnd) {
      const double w = (s - waves_[i].start) / (previousEnd - waves_[i].start);
      x = (1 - w) * x + w * alone;
    } else {
      x = alone;
    }
  }
  return x;
}

}  // namespace sph
