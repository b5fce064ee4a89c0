// The motion of a regular-wave paddle (model/case_wave_paddles.h) as a function of time, in double
// precision on the host, as DualSPHysics 5.4 computes it (Altomare et al. 2017, "Long-crested
// wave generation and absorption for SPH-based DualSPHysics model", Coastal Engineering 127):
//
//  * the wave number k solves the linear dispersion relation w^2 = g k tanh(k d), w = 2 pi / T;
//  * the first-order stroke S (peak to peak at the still-water level) comes from Biesel's
//    transfer functions H/S: piston 2 (cosh 2kd - 1) / (sinh 2kd + 2kd); flap hinged at the
//    height l = <variabledraft> above the bottom
//      4 sinh(kd) (sinh(kd) - (cosh(kd) - cosh(kl)) / (k (d - l))) / (sinh 2kd + 2kd)
//    (l = 0: the usual bottom-hinged flap); S is then multiplied by <gainstroke>;
//  * the piston moves by S/2 sin(w tau + phase) and the flap turns by
//    atan(S / (2 (d - l))) sin(w tau + phase), tau being the time since <start>;
//  * second order adds Madsen's (1971) second harmonic
//      e2 = H^2 / (32 d) (3 cosh(kd) / sinh^3(kd) - 2 / m1) sin(2 w tau + 2 phase),
//    m1 = H/S of the paddle (without the gain): metres along the piston's direction, and for
//    the flap an angle of 2 e2 radians. The flap's factor is DualSPHysics' (matched to its
//    output); with a hinge off the bottom (l != 0) its second order is not reproduced, so the
//    reader refuses that combination;
//  * over the first <ramp> periods both harmonics are multiplied by the ramp
//    r(x) = x^2 (6 - 8x + 3x^2), x = tau / (ramp T), which rises from 0 to 1 with zero slope
//    at both ends and zero curvature at x = 1;
//  * after <duration> the paddle stays where it is.
// Every constant above was checked against the WavePaddle_mkb*.csv that DualSPHysics 5.4 writes
// (engine/tests/data/wave_paddles/).
#pragma once

#include <limits>

#include "model/case_wave_paddles.h"

namespace sph {

// The wave number k (rad/m) of the linear dispersion relation for that period, depth and gravity.
double waveNumber(double period, double depth, double gravity);

// DualSPHysics' ramp of waves: 0 at x = 0 and 1 from x = 1 on, with zero slope at both ends.
double waveRamp(double x);

class RegularPaddleLaw {
 public:
  explicit RegularPaddleLaw(const WavePaddle& p);

  // The piston's displacement along its direction (m) or the flap's angle (rad) at the absolute
  // time t, counted from its rest position at <start>.
  double at(double t) const;
  // When the paddle stops for good (its <duration>; infinity: it moves to the end of the run).
  double end() const { return duration_ > 0 ? start_ + duration_ : std::numeric_limits<double>::infinity(); }

  double waveLength() const { return waveLength_; }
  double stroke() const { return stroke_; }           // with the gain
  double amplitude() const { return amplitude_; }     // of the first harmonic: m (piston), rad (flap)
  double secondOrder() const { return second_; }      // of the second harmonic; 0 at first order

  // The theory's free-surface elevation (m, from the still-water level) at the distance x in
  // front of the paddle's rest position at the time t, of first or second order, ramped as the
  // paddle is: eta = H/2 cos(a) + H^2 k cosh(kd) (2 + cosh 2kd) / (16 sinh^3 kd) cos(2a),
  // a = w tau + phase - k x (Stokes' second order; a crest in front of the paddle when it moves
  // forward fastest). The target of active absorption (motion/paddle_awas.h).
  double elevation(double x, double t, int order) const;

 private:
  double rampAt(double tau) const;

  double start_, duration_, omega_, phase_, rampTime_;
  double waveLength_ = 0, stroke_ = 0, amplitude_ = 0, second_ = 0;
  double height_ = 0, k_ = 0, elevation2_ = 0;  // H, k and the second-order elevation's amplitude
};

}  // namespace sph
