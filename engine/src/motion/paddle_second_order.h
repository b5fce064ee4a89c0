// The second-order part of an irregular paddle's motion (<waveorder> 2 of <piston_spectrum>,
// <flap_spectrum>) as DualSPHysics 5.4 computes it: only difference frequencies, one term per pair
// of waves i < j (f_i < f_j),
//     X2(s) = sum a_i a_j F2_ij sin((w_j - w_i) s + phi_j - phi_i),
// no sum frequencies and no mean. F2 is Schaffer's (1996) sub-harmonic transfer function with the
// progressive mode only (no evanescent modes), its bound-wave part replaced by the horizontal
// velocity of a linear wave of the bound elevation projected on the free long wave. For a pair
// (n the higher frequency, m the lower), dw = w_n - w_m, dk = k_n - k_m, K the free wave number of
// dw (dw^2 = g K tanh Kh), h the depth:
//   bound elevation  R = w^2/g, Q = w^2 R - g k^2, B = g^2 / (w_n w_m),
//                    F = B [(k_n k_m + R_n R_m) dw + (w_n Q_m - w_m Q_n) / (2g)],
//                    P = F / (g dk tanh(dk h) - dw^2),
//                    G = -[P dw + B ((k_n k_m + R_n R_m)/2 - w_n w_m (R_n + R_m)/(2g))] / g;
//   bound-wave part  XB = G K [dk coth(Kh) - K coth(dk h)] / (dk^2 - K^2);
//   piston           c = 2 (cosh 2kh - 1) / (sinh 2kh + 2kh), E = K^2 / (c_n c_m dw^3),
//                    S = E c k^2/(k^2 - K^2) (w^2 - dw^2) g / (2w) for n and for m,
//                    F2 = S_n + S_m + XB;
//   flap             lever L = h + l (l = <variabledraft>, hinge l below the bottom in these
//                    terms, while the first order takes it above: DualSPHysics' own disagreement);
//                    for l < 0 the hinge stands b = -l above the bottom and the paddle's profile is
//                    zero below it (b = 0 for l >= 0):
//                    c = 4 sinh kh [sinh kh - (cosh kh - cosh kb) / (kL)] / (sinh 2kh + 2kh),
//                    M1 = g / (L dw^2) (cosh Kb / cosh Kh - 1), E = K^2 / (c_n c_m dw^3 (1 + M1)),
//                    M2 = -(g/L) (K/k) / (k^2 - K^2) [2kK (1 - 1/(cosh kh cosh Kh)) - (k^2 + K^2) w^2 dw^2 / (g^2 k K)]
//                         + g / (L cosh kh cosh Kh) [(k^2 + K^2)(cosh kb cosh Kb - 1) - 2kK sinh kb sinh Kb] / (k^2 - K^2),
//                    S = E c k^2/(k^2 - K^2) (w^2 - dw^2 + M2) g / (2w), F2 = S_n + S_m + XB / (1 + M1),
//                    the stroke at the still-water level, which DualSPHysics adds to the flap's angle
//                    in radians as it is (no lever, no atan). With b > 0 the profile is cut at the
//                    hinge in c, M1 and M2's terms of the profile itself, while M2's term of its
//                    slope keeps the whole depth (the profile's slope 1/L from the bottom), as
//                    DualSPHysics has it.
// These were found from DualSPHysics' series (each pair's coefficient to 1e-7 of it over depths of
// 0.01-50 m; for l < 0, its coefficients pair by pair from a least-squares fit of its series, to
// 3e-5 of them) and reproduce its motion files to their 6 decimals (engine/tests/
// test_irregular_paddles.cpp).
//
// A run evaluates X2 at every step; with N waves a direct sum is N^2/2 terms (half a million for
// DualSPHysics' 1024), so the law samples it every kSubharmonicSpacing seconds in blocks (each
// pair's phasor turned from sample to sample) and interpolates between samples by a cubic: the
// differences are below fmax - fmin (about 1 Hz), which a cubic on 0.01 s follows to 1e-7 of X2.
#pragma once

#include <complex>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace sph {

struct SubharmonicPair {
  double coef;   // a_i a_j F2_ij: m (piston) or rad (flap)
  double omega;  // w_j - w_i
  double phase;  // phi_j - phi_i
};

// The waves' frequencies f (Hz), amplitudes a (m), phases phi and wave numbers k, in increasing f.
struct SubharmonicInput {
  std::vector<double> f, a, phase, k;
  double depth = 0, gravity = 9.81;
  bool flap = false;
  double draft = 0;  // flap: <variabledraft> (> -depth)
};

std::vector<SubharmonicPair> subharmonicPairs(const SubharmonicInput& in);

// X2 at the time s, summed directly.
double subharmonicSum(const std::vector<SubharmonicPair>& pairs, double s);
// X2 at s0, s0 + h, ..., count values into out, each pair's phasor turned by w h from one to the next.
void subharmonicGrid(const std::vector<SubharmonicPair>& pairs, double s0, double h, int count, double* out);

// The bound difference-frequency elevation of the waves' pairs (the G of the bound elevation
// above, per a_i a_j), the second-order part of the theory's elevation that active absorption
// (motion/paddle_awas.h) aims at with <elevation> 2, as DualSPHysics writes it (Elevation_o2 of
// WavePaddle_mkbNNNN.csv, matched to its 6 decimals):
//     eta2(x, s) = sum over i < j of a_i a_j G_ij cos((w_j - w_i) s - (k_j - k_i) x + phi_j - phi_i),
// no sum frequencies. Stored as the coefficients a_i a_j G_ij, pair (i, j) at j (j - 1) / 2 + i.
std::vector<double> boundElevationCoefficients(const SubharmonicInput& in);
// eta2 from those coefficients and each wave's phasor exp(i (w s - k x + phi)): the cosine of a
// pair is Re(z_j conj(z_i)), so a step costs N sines and N^2 / 2 multiply-adds instead of N^2 / 2
// cosines.
double boundElevationSum(const std::vector<double>& coefficients, const std::vector<std::complex<double>>& phasors);

inline constexpr double kSubharmonicSpacing = 0.01;  // s
inline constexpr int kSubharmonicBlock = 1024;        // samples computed at once

// X2 sampled on the grid i kSubharmonicSpacing, blocks computed when first needed, and a cubic
// through the four samples around s. Shared by the copies of a law (the samples do not change).
class SubharmonicTable {
 public:
  explicit SubharmonicTable(std::shared_ptr<const std::vector<SubharmonicPair>> pairs) : pairs_(std::move(pairs)) {}
  double at(double s);

 private:
  double sample(int64_t i);

  std::shared_ptr<const std::vector<SubharmonicPair>> pairs_;
  std::mutex mutex_;
  std::map<int64_t, std::vector<double>> blocks_;
};

}  // namespace sph
