// The motion of a solitary-wave piston (<piston_solitary>, model/case_wave_paddles.h) as a function
// of time, in double precision on the host, as DualSPHysics 5.4 computes it (Dominguez et al.
// 2019, "Towards a more complete tool for coastal engineering: solitary wave generation,
// propagation and breaking in an SPH-based model", Coastal Engineering Journal 61(1)).
//
// A wave of height H in water of depth d, eps = H/d, has the profile eta = H sech^2(k (x - c t))
// (DualSPHysics' WaveLength is 2 pi / k) with
//  * Boussinesq (Goring 1978) and KdV: k = sqrt(3 H / (4 d^3));
//    Rayleigh (Serre 1953):            k = sqrt(3 H / (4 d^2 (d + H)));
//  * c = sqrt(g (d + H)) (DualSPHysics' Celerity), and the KdV celerity
//    cK = sqrt(g d) (1 + eps/2).
// The piston pushes the water under the wave, so its whole travel is the wave's volume over the
// depth, 2 H / (k d). Counting time tau from the middle of the motion:
//  * Boussinesq (Goring's procedure: the piston moves at the depth-averaged velocity of the wave
//    at the piston, u = c eta / (d + eta)):
//      X(tau) = H / (k d) tanh(theta),  theta + eps tanh(theta) = k c tau,
//    theta = k (c tau - X) being the wave's phase at the piston;
//  * Rayleigh: X(tau) = H / (k d) tanh(theta) with theta + F(tanh theta) = k c tau, where
//      F(y) = ln(1 + 2 eps y^2) / (2y) - (2/3) eps^3 y^3 (1 - y^2) / (1 + 2 eps y^2)^(5/2)
//    in place of Goring's eps y. DualSPHysics' law is closed; what was measured from its output
//    (H/d 0.02-0.6, depths 0.2-10 m, durationcoef 1 and 1.3) is that its motion has this form,
//    depends only on eps and k c tau, is odd about the middle and one curve cut at +-T/2, with F
//    odd, F'(0) = eps (Goring's velocity at the crest), F(1) = ln(1 + 2 eps)/2 and
//    F = eps y - eps^2 y^3 + eps^3 (2 y^5 - 2/3 y^3) + O(eps^4). The last term above, with its
//    exponent 5/2, is fitted: the law is within 1.6e-5 of the stroke of DualSPHysics' at
//    H/d = 0.3 and 8.5e-5 at 0.6 (Goring's law was 0.65% and 2% off);
//  * KdV (the wave's phase taken at the piston's rest position):
//      X(tau) = H / (k d) tanh(k cK tau).
// The motion lasts T = durationcoef * 2 (3.8 + eps) / (k c') (Goring's duration, eta/H = 0.002
// at theta = 3.8 plus the piston's own travel), c' = c for Boussinesq and cK for the others,
// and starts at tau = -T/2: DualSPHysics moves the Boussinesq piston by X(tau) - X(-T/2), so it
// starts at 0 and its stroke is X(T/2) - X(-T/2); the other two by H/(k d) + X(tau), which is
// about 1e-4 m at the start, and their stroke is the whole 2 H / (k d). After T the piston stays.
//
// Several waves (<waves>): wave n starts startcoefN T_(n-1) after wave n-1 and adds its motion to
// the strokes of the waves before it. Where wave n starts before wave n-1 has ended, the position
// is blended linearly, over that overlap, from the motion of the waves before to the strokes of
// the waves before plus wave n's motion; three waves may not overlap.
//
// Every constant and the blending were checked against the WavePaddle_mkb*.csv that DualSPHysics
// 5.4 writes (engine/tests/data/dualsphysics/wave_paddles/solitary_*.csv) to its 6 decimals for
// Boussinesq and KdV, and Rayleigh's to the differences above (engine/tests/motion/test_solitary_paddles.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "model/case_wave_paddles.h"

namespace sph {

class SolitaryPaddleLaw {
 public:
  // The constants of one wave, as DualSPHysics prints them in its log and <savemotion> header.
  struct Wave {
    double height = 0;
    double waveNumber = 0;  // k (rad/m); the wave length is 2 pi / k
    double celerity = 0;    // c = sqrt(g (d + H))
    double durationCoef = 1;
    double duration = 0;  // generation time T
    double stroke = 0;
    double start = 0;  // since the paddle's <start>
  };

  explicit SolitaryPaddleLaw(const WavePaddle& p);

  // The piston's displacement along its direction (m) at the absolute time t: 0 before <start>.
  double at(double t) const;
  // When the last wave's motion ends; the piston stays where it is after it.
  double end() const { return start_ + end_; }

  const std::vector<Wave>& waves() const { return waves_; }

 private:
  // The displacement that wave i alone makes s seconds after its own start.
  double waveMotion(std::size_t i, double s) const;
  // The centred displacement X(tau) of wave i.
  double centred(std::size_t i, double tau) const;

  SolitaryTheory theory_;
  double start_, depth_, gravity_;
  std::vector<Wave> waves_;
  std::vector<double> before_;  // sum of the strokes of the waves before each
  double end_ = 0;
};

}  // namespace sph
