// The motion of an irregular-wave paddle (<piston_spectrum>, <flap_spectrum>;
// model/case_wave_paddles.h) as a function of time, in double precision on the host, as DualSPHysics
// 5.4 computes it. Its wave generator is closed source; every rule below was found from the files
// it writes (WavePaddle_mkbNNNN.csv, _Serie.csv, _Energy.csv) and is checked against them by
// engine/tests/motion/test_irregular_paddles.cpp:
//
//  * spectra of significant height Hs and peak period Tp (fp = 1/Tp), S in m^2 s:
//      JONSWAP             S = beta Hs^2 Tp^-4 f^-5 exp(-1.25 (Tp f)^-4) gamma^exp(-(Tp f - 1)^2 / (2 s^2)),
//                          beta = 0.0624 / (0.230 + 0.0336 gamma - 0.185 / (1.9 + gamma)) (Goda's,
//                          without his correction factor), s = 0.07 below fp and 0.09 above;
//      Pierson-Moskowitz  S = 5/16 Hs^2 Tp^-4 f^-5 exp(-1.25 (Tp f)^-4);
//  * the frequency range: of the multiples of 0.005 Hz up to 5 Hz, fmin is the last below fp
//    where S is at most 1% of S(fp), fmax the last at or above fp where it is at least 1%;
//  * N bands of the range (df = (fmax - fmin) / N), wave i at f_i with amplitude
//    a_i = sqrt(2 S(f_i) df_i):
//      regular       equal bands, f_i at their centres;
//      random        inner edges fmin + (k - 1/2 + u_k) df, f_i at the band centres;
//      cosstretched  nl = int(N (fp - fmin) / (fmax - fmin)) waves from fmin to fp and the rest
//                    above, clustered at fp by a cosine; bands between the midpoints;
//      stretched     bands of about equal energy on a grid of 100 N cells, none wider than 2 df,
//                    taken from both ends of the range (stretchedBands in the .cpp);
//  * the random numbers: std::mt19937 seeded with <randomseed>, 37 outputs discarded, then
//    u = output / 2^32; wave i's phase is -2 pi u_i (i = 0..N-1, increasing frequency), and the
//    random bands take the next N - 1;
//  * the series: elevation eta(x, s) = sum a_i cos(w_i s - k_i x + phi_i) at the series time s,
//    the paddle X(s) = sum A_i sin(w_i s + phi_i) with A_i = a_i / TF_i, Biesel's transfer
//    functions of motion/paddle_regular_law.h (the flap's hinge l = <variabledraft> above the bottom), and
//    for the flap the angle A_i = atan(a_i / TF_i / (d - l)) wave by wave;
//  * at the simulation time t the paddle stands at X(s0 + t - start) r(t - start), the ramp
//    r(x) = x^2 (6 - 8x + 3x^2), x = (t - start) / ramptime (1 without ramp), measured from the
//    particles' places in the case: X(s0) is not subtracted;
//  * s0 = <serieini>, or with autofit="true" the first zero of X after it: X is sampled every
//    Tp/4 from serieini, the first interval whose ends differ in sign is bisected, and the zero
//    is rounded to 6 significant digits;
//  * <gainstroke> multiplies the paddle's motion; after <duration> the paddle stays;
//  * at <waveorder> 2 the difference-frequency terms of motion/paddle_second_order.h are added to the
//    series (autofit then looks for the zero of the whole motion);
//  * a focused group (<piston_focused>, checked against DualSPHysics' files by
//    engine/tests/motion/test_focused_paddle.cpp): the same waves, but a_i = (Hmax / 2) S_i df_i /
//    sum S df, Hmax = 0.706 Hs sqrt(ln Nw) (Nw = <maxwaveh nwaves>, or <maxwaveh time> / (Tp / 1.1)
//    when given), and phi_i = -w_i tf + k_i xf - fphase, tf = fpretime + xf / cg(fmax) (the linear
//    group velocity of the range's upper end): the paddle starts from the series' time 0 at its
//    start (no random phases, no serieini), is at rest before it (and at it only with a ramp), and
//    back at rest after fmovtime (from the start; after <duration> it stays), ramped down over
//    fmovramp before it (none when fmovramp > fmovtime); <gainstroke> multiplies the first order
//    only.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "model/case_wave_paddles.h"
#include "motion/paddle_second_order.h"

namespace sph {

// The spectrum's density S(f) (m^2 s) for the paddle's Hs (height) and Tp (period).
double spectrumDensity(const WavePaddle& p, double f);
// [fmin, fmax] as DualSPHysics cuts the spectrum.
std::pair<double, double> spectrumRange(const WavePaddle& p);

class IrregularPaddleLaw {
 public:
  struct Wave {
    double f = 0, df = 0;      // frequency (Hz) and band (Hz)
    double amplitude = 0;      // of the elevation (m)
    double phase = 0;          // rad
    double omega = 0, k = 0;   // rad/s, rad/m
    double paddle = 0;         // the paddle's amplitude: m (piston) or rad (flap)
  };

  explicit IrregularPaddleLaw(const WavePaddle& p);

  // The piston's displacement along its direction (m) or the flap's angle (rad) at the absolute
  // time t.
  double at(double t) const;
  double end() const {
    double span = duration_ > 0 ? duration_ : std::numeric_limits<double>::infinity();
    if (focus_ && moveTime_ > 0) span = std::min(span, moveTime_);
    return start_ + span;
  }
  // A focused group's maximum wave height and focus time (from the start).
  double maxHeight() const { return maxHeight_; }
  double focusTime() const { return focusTime_; }

  const std::vector<Wave>& waves() const { return waves_; }
  double fmin() const { return fmin_; }
  double fmax() const { return fmax_; }
  double serieStart() const { return serie0_; }  // s0, after autofit
  // The series at the series time s: the paddle's motion (without ramp; with the second order
  // at <waveorder> 2) and the first-order elevation at x.
  double serieMotion(double s) const;
  double serieElevation(double x, double s) const;
  // serieMotion at s0, s0 + h, ... (count values): the output's samples, the second order summed
  // exactly however many waves.
  std::vector<double> serieMotionGrid(double s0, double h, int count) const;
  // The second order's pairs (empty at first order).
  size_t pairs() const { return pairs_ ? pairs_->size() : 0; }
  // The waves as the second order's sums take them (motion/paddle_second_order.h).
  SubharmonicInput subharmonicInput(const WavePaddle& p) const;

  // The theory's elevation (m from the still-water level) at the distance x in front of the
  // paddle's rest position at the absolute time t, as DualSPHysics computes the target of active
  // absorption (motion/paddle_awas.h) and the Elevation_o1/o2 columns of WavePaddle_mkbNNNN.csv:
  // serieElevation at s = s0 + t - start, at order 2 plus the bound difference-frequency waves
  // (boundElevationCoefficients), times the ramp; without <gainstroke>; 0 before the start and
  // after the end of the motion. Order 2 needs the law made with awas->elevationOrder 2.
  double elevation(double x, double t, int order) const;
  // The largest |d^2 X / dt^2| of the paddle's motion (the series with <gainstroke>, without the
  // ramp) from the start to tEnd or the end of the motion: the "peak theoretical" acceleration
  // that caps active absorption. Sampled every 1/(100 fmax), at most 5e-4 of it below the true
  // maximum (DualSPHysics' own value lies up to 3e-4 below the true maximum, its sampling
  // unknown).
  double peakAcceleration(double tEnd) const;

 private:
  double firstOrder(double s) const;

  std::vector<Wave> waves_;
  double fmin_ = 0, fmax_ = 0, serie0_ = 0;
  double start_, duration_, rampTime_, gain_;
  bool focus_ = false;
  double moveTime_ = 0, moveRamp_ = 0, maxHeight_ = 0, focusTime_ = 0;
  std::shared_ptr<const std::vector<SubharmonicPair>> pairs_;  // <waveorder> 2
  std::shared_ptr<SubharmonicTable> table_;                     // the second order a run reads
  // boundElevationCoefficients, made when the paddle's absorption aims at the second order.
  std::shared_ptr<const std::vector<double>> bound_;
  // The last at(): a step asks for its start, which the step before asked for as its end.
  mutable double cachedT_ = std::numeric_limits<double>::quiet_NaN(), cachedX_ = 0;
};

}  // namespace sph
