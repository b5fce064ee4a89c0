// Validation: a 2D piston wave flume driven by mvrectsinu against linear wave-maker
// theory (Biesel 1951; Dean & Dalrymple, "Water Wave Mechanics for Engineers and Scientists",
// section 6.2): a piston of stroke S (twice the amplitude) in water of depth d makes progressive
// waves of height
//   H = S 2 (cosh 2kd - 1) / (sinh 2kd + 2kd),   omega^2 = g k tanh(kd).
//
// Case (sized for CI: 3,856 fluid particles, ~13,000 Verlet steps, about 45 s of one core, so
// ~25-30 s on CI's two): depth d = 0.2 m, period T = 1 s (kd = 1.04, wavelength 1.21 m), target
// H = 0.15 d = 0.03 m (steepness H/L = 0.025, Ursell number 5: weakly nonlinear, so the first
// harmonic is the linear wave), dp = d/16 (H/dp = 2.4), coefh 1.2, Wendland, artificial
// viscosity 0.01, Fourtakas density diffusion, coefsound 10 (c0 = 14 m/s, a hundred times the
// fastest flow; it halves the steps and the artificial viscosity, which scales with c0). The
// flume is 2.5 wavelengths long with a vertical wall at its end.
//
// Measurement: the free surface (the engine's swl gauge, below) at gauges x = 1.5d ... 2.5d from the piston's mean position (the
// piston's evanescent modes, ~5% of the wave at the paddle for this kd, decay as exp(-2.9 x/d):
// below 0.1% there), sampled 40 times a period over t = 2T..4T (the wave front passes the
// gauges before T; the first reflection from the far wall, even at the shallow-water speed
// sqrt(gd), returns after 4.2 s); at each gauge the first harmonic is fitted by least squares
// (with a linear drift of the mean level) and H is twice its amplitude; the gauges are averaged.
//
// Measured (this engine, CPU): -6.3% (H = 0.0281 m vs 0.0300 m) at dp = d/16 with pointmin on the
// lattice of the piston and the water (-8.2% when the lattice was shifted by a fraction of dp
// against them); -10.2% at d/12 and -6.8% at d/20 (gauges 1d..3d averaged, shifted lattice):
// SPH's wave is low by a deficit that shrinks with
// resolution and grows slowly with the distance from the piston (numerical dissipation;
// ~-5% right at the paddle). Bound: 10%, the validation's target.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <numbers>
#include <vector>

#include <fmt/format.h>

#include "case/loader.h"
#include "gauges/gauge_sampler.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kG = 9.81;

// Wave number of the linear dispersion relation omega^2 = g k tanh(kd), by Newton's method from
// the deep-water guess.
double waveNumber(double omega, double d) {
  double k = omega * omega / kG;
  for (int i = 0; i < 50; ++i) {
    const double th = std::tanh(k * d);
    const double f = kG * k * th - omega * omega;
    const double df = kG * (th + k * d * (1 - th * th));
    k -= f / df;
  }
  return k;
}

double bieselHeightOverStroke(double kd) {
  return 2 * (std::cosh(2 * kd) - 1) / (std::sinh(2 * kd) + 2 * kd);
}

struct Flume {
  double depth, dp, period, stroke, length, gauge, coefh, coefsound;
  int stepAlgorithm;
  // When not empty: the <piston> of <special><wavepaddles> that drives mkbound 1 (whose motion is
  // then an <mvnull>) instead of the mvrectsinu of `stroke` and `period`.
  std::string paddle;
};

std::string flumeXml(const Flume& f) {
  const double dp = f.dp, d = f.depth, wall = d + 0.6 * d;
  const std::string movement =
      f.paddle.empty() ? fmt::format(R"(<mvrectsinu id="1" duration="1000" anglesunits="degrees">
          <freq x="{}" y="0" z="0" /><ampl x="{}" y="0" z="0" /><phase x="0" y="0" z="0" /></mvrectsinu>)",
                                     1 / f.period, f.stroke / 2)
                       : std::string(R"(<mvnull id="1" />)");
  const std::string special = f.paddle.empty() ? "" : "<special><wavepaddles>" + f.paddle + "</wavepaddles></special>";
  return fmt::format(R"(<?xml version="1.0" encoding="UTF-8" ?>
<case>
  <casedef>
    <constantsdef>
      <gravity x="0" y="0" z="-9.81" />
      <rhop0 value="1000" />
      <rhopgradient value="2" />
      <hswl value="0" auto="true" />
      <gamma value="7" />
      <speedsystem value="0" auto="true" />
      <coefsound value="{cs}" />
      <speedsound value="0" auto="true" />
      <coefh value="{coefh}" />
      <cflnumber value="0.2" />
    </constantsdef>
    <mkconfig boundcount="240" fluidcount="9" />
    <geometry>
      <definition dp="{dp}">
        <pointmin x="{xmin}" y="0" z="{zmin}" />
        <pointmax x="{xmax}" y="0" z="{zmax}" />
      </definition>
      <commands>
        <mainlist>
          <setdrawmode mode="full" />
          <setmkfluid mk="0" />
          <drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="{len}" y="2" z="{d}" /></drawbox>
          <setmkbound mk="0" />
          <drawbox><boxfill>bottom | right</boxfill><point x="{floorx}" y="-1" z="0" /><size x="{floorlen}" y="2" z="{wall}" /></drawbox>
          <setmkbound mk="1" />
          <drawbox><boxfill>solid</boxfill><point x="{px}" y="-1" z="{dp}" /><size x="{pw}" y="2" z="{ph}" /></drawbox>
        </mainlist>
      </commands>
    </geometry>
    <motion>
      <objreal ref="1">
        <begin mov="1" start="0" />
        {movement}
      </objreal>
    </motion>
  </casedef>
  <execution>
    {special}
    <parameters>
      <parameter key="StepAlgorithm" value="{alg}" />
      <parameter key="Kernel" value="2" />
      <parameter key="Visco" value="0.01" />
      <parameter key="DensityDT" value="2" />
      <parameter key="DensityDTvalue" value="0.1" />
      <parameter key="TimeMax" value="1000" />
      <parameter key="TimeOut" value="1000" />
      <simulationdomain>
        <posmin x="default" y="default" z="default" />
        <posmax x="default" y="default" z="default + 50%" />
      </simulationdomain>
    </parameters>
  </execution>
</case>
)",
                     fmt::arg("alg", f.stepAlgorithm), fmt::arg("cs", f.coefsound), fmt::arg("coefh", f.coefh), fmt::arg("dp", dp),
                     fmt::arg("xmin", -dp * std::ceil(4 + f.stroke / dp)), fmt::arg("zmin", -dp), fmt::arg("xmax", f.length + dp),
                     fmt::arg("zmax", wall + dp), fmt::arg("len", f.length), fmt::arg("d", d),
                     fmt::arg("floorx", -3 * dp - f.stroke), fmt::arg("floorlen", f.length + 3 * dp + f.stroke),
                     fmt::arg("wall", wall), fmt::arg("px", -2 * dp), fmt::arg("pw", 2 * dp), fmt::arg("ph", wall - dp),
                     fmt::arg("movement", movement), fmt::arg("special", special));
}

// Free-surface elevation at x: the engine's swl gauge (gauges/gauge_sampler.h) on a vertical line from
// zLow (in the water) to zHigh: where the kernel sum of fluid volumes
// sum_j (m/rho_j) W(|x_j - (x, z)|) falls below one half (the mass limit 0.5 m), points dp/20
// apart, interpolated between the last wet and the first dry one.
double surfaceAt(const FluidGrid& g, double x, double dp, double mass, double zLow, double zHigh) {
  return surfaceAlongLine(g, {x, 0, zLow}, {x, 0, zHigh}, dp / 20, 0.5 * mass).z;
}

struct HarmonicFit {
  double amplitude;  // of the first harmonic
  double second;     // of the second harmonic
  double residual;   // RMS of what the fit leaves, relative to the first harmonic's amplitude
};

// Least squares of eta(t) = c0 + c1 (t - tm) + a1 cos(omega t) + b1 sin(omega t)
// + a2 cos(2 omega t) + b2 sin(2 omega t): the harmonics' amplitudes sqrt(a^2 + b^2), a slow
// drift of the mean level left out.
HarmonicFit fitHarmonics(const std::vector<double>& t, const std::vector<double>& eta, double omega) {
  constexpr int n = 6;
  double tm = 0;
  for (double v : t) tm += v;
  tm /= double(t.size());
  auto basis = [&](double ti, double* phi) {
    phi[0] = 1;
    phi[1] = ti - tm;
    phi[2] = std::cos(omega * ti);
    phi[3] = std::sin(omega * ti);
    phi[4] = std::cos(2 * omega * ti);
    phi[5] = std::sin(2 * omega * ti);
  };
  double m[n][n + 1] = {};
  for (size_t i = 0; i < t.size(); ++i) {
    double phi[n];
    basis(t[i], phi);
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) m[r][c] += phi[r] * phi[c];
      m[r][n] += phi[r] * eta[i];
    }
  }
  for (int c = 0; c < n; ++c) {  // Gauss-Jordan; the system is well conditioned over whole periods
    for (int r = 0; r < n; ++r) {
      if (r == c) continue;
      const double f = m[r][c] / m[c][c];
      for (int k = c; k <= n; ++k) m[r][k] -= f * m[c][k];
    }
  }
  double coef[n];
  for (int r = 0; r < n; ++r) coef[r] = m[r][n] / m[r][r];
  double ss = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    double phi[n];
    basis(t[i], phi);
    double e = eta[i];
    for (int r = 0; r < n; ++r) e -= coef[r] * phi[r];
    ss += e * e;
  }
  const double amp = std::hypot(coef[2], coef[3]);
  return {amp, std::hypot(coef[4], coef[5]), std::sqrt(ss / double(t.size())) / amp};
}

// The free surface at `gauges` every period/40 over [t0, t1] of a flume run (CPU).
struct GaugeRecord {
  std::vector<double> ts;
  std::vector<std::vector<double>> etas;  // per gauge
  unsigned long long steps = 0;
};

GaugeRecord recordFlume(const CaseDefinition& c, const Flume& f, const std::vector<double>& gauges, double t0,
                        double t1, double zLow, double zHigh) {
  RunOptions o;
  o.device = Device::Cpu;
  o.writeOutput = false;
  o.progress = false;
  o.timeMax = t1 + 0.01 * f.period;
  Simulation sim(c, o);
  const double h = sim.parameters().h, mass = sim.parameters().massFluid;
  GaugeRecord r;
  r.etas.resize(gauges.size());
  double next = t0;
  while (!sim.finished() && sim.time() < t1) {
    sim.step();
    if (sim.time() >= next) {
      r.ts.push_back(sim.time());
      const ParticleSnapshot snap = sim.snapshot();
      const FluidGrid grid(snap, GaugeKernel{KernelKind::Wendland, 2, h, mass});
      for (size_t g = 0; g < gauges.size(); ++g)
        r.etas[g].push_back(surfaceAt(grid, gauges[g], f.dp, mass, zLow, zHigh));
      next += f.period / 40;
    }
  }
  r.steps = sim.steps();
  return r;
}

TEST(WavemakerValidation, PistonWaveHeightFollowsLinearTheory) {
  Flume f;
  f.depth = 0.2;
  f.dp = f.depth / 16;
  f.period = 1.0;
  f.coefh = 1.2;
  f.coefsound = 10;
  f.stepAlgorithm = 1;
  const double omega = 2 * kPi / f.period;
  const double k = waveNumber(omega, f.depth), kd = k * f.depth, lambda = 2 * kPi / k;
  const double hTarget = 0.15 * f.depth;
  f.stroke = hTarget / bieselHeightOverStroke(kd);
  f.length = 2.5 * lambda;
  const double t0 = 2 * f.period, t1 = 4 * f.period;
  const int samplesPerPeriod = 40;
  std::vector<double> gauges;
  for (double g : {1.5, 1.75, 2.0, 2.25, 2.5}) gauges.push_back(g * f.depth);

  const auto dir = test::tempDir("wavemaker_validation");
  const CaseDefinition c = loadCase(test::writeFile(dir / "PistonFlume_Def.xml", flumeXml(f)));
  std::printf("kd %.3f, wavelength %.3f m, stroke %.4f m, target H %.4f m (H/dp %.1f), %u fluid particles\n", kd,
              lambda, f.stroke, hTarget, hTarget / f.dp, c.nFluid);
  const GaugeRecord rec = recordFlume(c, f, gauges, t0, t1, f.depth - 3 * hTarget, f.depth + 3 * hTarget);
  const std::vector<double>& ts = rec.ts;
  const std::vector<std::vector<double>>& etas = rec.etas;
  ASSERT_GE(ts.size(), size_t(2 * samplesPerPeriod));
  double sum = 0;
  for (size_t g = 0; g < gauges.size(); ++g) {
    const HarmonicFit fit = fitHarmonics(ts, etas[g], omega);
    sum += 2 * fit.amplitude;
    std::printf("gauge x = %.3f m: H = %.4f m (%+.1f%%), residual %.2f of the amplitude\n", gauges[g],
                2 * fit.amplitude, 100 * (2 * fit.amplitude - hTarget) / hTarget, fit.residual);
    // A clean periodic wave: noise or a wave not yet established would leave much more.
    EXPECT_LT(fit.residual, 0.3) << "gauge " << gauges[g];
  }
  const double hSph = sum / double(gauges.size());
  const double rel = (hSph - hTarget) / hTarget;
  std::printf("%zu samples over t = %.2f..%.2f s, %llu steps: H = %.4f m, theory %.4f m (%+.1f%%)\n", ts.size(), t0,
              t1, rec.steps, hSph, hTarget, 100 * rel);
  EXPECT_LT(std::abs(rel), 0.10);
}


// The wave paddle of <special><wavepaddles> (motion/paddle_regular_law.h) at second order in the same flume:
// a steeper wave, H = d/4 (steepness H/L 0.041, Ursell number 9: second-order Stokes waves), whose
// second harmonic is Stokes' bound wave a2 = (k H^2 / 16) cosh kd (2 + cosh 2kd) / sinh^3 kd,
// 16% of the first here. Same gauges, window and resolution as above; H/dp = 4, a2 is a third of
// dp and the swl gauge finds the surface to a few hundredths of dp.
// Bounds: the first harmonic within 10% of H/2 (as above); the second within 35% of Stokes'.
// Measured (CPU): -7.9% and +1.6%. These gauges, 1.5-2.5 d from the paddle, are too close to it to
// tell Madsen's correction apart (a first-order paddle gave -8.4% and +3.3%): the free second
// harmonic it suppresses separates from the bound one over its beat length, ~1.1 m here; the law
// itself is checked against DualSPHysics in test_wave_paddles.cpp.
TEST(WavemakerValidation, SecondOrderPaddleFollowsStokes) {
  Flume f;
  f.depth = 0.2;
  f.dp = f.depth / 16;
  f.period = 1.0;
  f.coefh = 1.2;
  f.coefsound = 10;
  f.stepAlgorithm = 1;
  const double omega = 2 * kPi / f.period;
  const double k = waveNumber(omega, f.depth), kd = k * f.depth, lambda = 2 * kPi / k;
  const double height = 0.25 * f.depth;
  f.stroke = 1.2 * height / bieselHeightOverStroke(kd);  // room behind the piston, second harmonic included
  f.length = 2.5 * lambda;
  f.paddle = fmt::format(R"(<piston><mkbound value="1" /><waveorder value="2" /><depth value="{}" />
<waveheight value="{}" /><waveperiod value="{}" /><ramp value="0.5" /></piston>)",
                         f.depth, height, f.period);
  std::vector<double> gauges;
  for (double g : {1.5, 1.75, 2.0, 2.25, 2.5}) gauges.push_back(g * f.depth);
  const auto dir = test::tempDir("wavemaker_validation_order2");
  const CaseDefinition c = loadCase(test::writeFile(dir / "PaddleFlume_Def.xml", flumeXml(f)));
  const double t0 = 2 * f.period, t1 = 4 * f.period;
  const GaugeRecord rec = recordFlume(c, f, gauges, t0, t1, f.depth - 3 * height, f.depth + 3 * height);
  ASSERT_GE(rec.ts.size(), size_t(80));
  const double a1 = height / 2;
  const double a2 = k * height * height / 16 * std::cosh(kd) * (2 + std::cosh(2 * kd)) / std::pow(std::sinh(kd), 3);
  double sum1 = 0, sum2 = 0;
  for (size_t g = 0; g < gauges.size(); ++g) {
    const HarmonicFit fit = fitHarmonics(rec.ts, rec.etas[g], omega);
    sum1 += fit.amplitude;
    sum2 += fit.second;
    std::printf("gauge x = %.3f m: first %.4f m (%+.1f%%), second %.5f m (%+.1f%% of Stokes' %.5f m)\n", gauges[g],
                fit.amplitude, 100 * (fit.amplitude / a1 - 1), fit.second, 100 * (fit.second / a2 - 1), a2);
  }
  const double first = sum1 / double(gauges.size()), second = sum2 / double(gauges.size());
  std::printf("%llu steps: first harmonic %+.1f%% of H/2, second %+.1f%% of Stokes\n", rec.steps,
              100 * (first / a1 - 1), 100 * (second / a2 - 1));
  EXPECT_LT(std::abs(first / a1 - 1), 0.10);
  EXPECT_LT(std::abs(second / a2 - 1), 0.35);
}

}  // namespace
}  // namespace sph
