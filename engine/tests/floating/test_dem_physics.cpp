// The DEM contact of dem_physics.h against Hertz's static law, Coulomb's cap and the
// restitution and duration of a head-on impact integrated in double precision; and
// DualSPHysics' own contact (demContactDualSPHysics) against its formulas written out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sph/plugin/dem_physics.h"

namespace sph {
namespace {

constexpr double kDp = 0.01;
constexpr double kPi = 3.14159265358979323846;

DemMaterial<double> material(double young, double poisson, double e, double mu) {
  DemMaterial<double> m;
  m.tau = (1 - poisson * poisson) / young;
  m.restitution = e;
  m.friction = mu;
  return m;
}

// E* from Young's moduli and Poisson ratios, written out independently of the tau field.
double eStarOf(double ea, double nua, double eb, double nub) {
  return 1 / ((1 - nua * nua) / ea + (1 - nub * nub) / eb);
}

struct V3 {
  double x, y, z;
};
V3 operator*(double s, V3 v) { return {s * v.x, s * v.y, s * v.z}; }
V3 operator+(V3 a, V3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
V3 operator-(V3 a, V3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
double dot(V3 a, V3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double norm(V3 a) { return std::sqrt(dot(a, a)); }

// demContact on a from b, b at the origin and a at distance r along the unit vector n:
// r is passed as given (as the engine passes sqrt(r2)), so that the overlap dp - r the header
// forms is exactly the one the test forms, without the cancellation of subtracting positions.
DemContact<double> contact(V3 n, double r, V3 dv, double massEff, const DemMaterial<double>& a,
                           const DemMaterial<double>& b) {
  return demContact(r * n.x, r * n.y, r * n.z, r, dv.x, dv.y, dv.z, kDp, massEff, a, b);
}

const V3 kN{2.0 / 3, -1.0 / 3, 2.0 / 3};  // a unit normal off the axes, to exercise every component
const V3 kT{1.0 / 3, 2.0 / 3, 0.0};       // orthogonal to kN, |kT| = sqrt(5)/3

TEST(DemContact, NoForceAtOrBeyondOneDiameter) {
  const auto m = material(1e8, 0.3, 0.5, 0.3);
  for (double r : {kDp, 1.0000001 * kDp, 1.5 * kDp, 3 * kDp}) {
    // Approaching fast with sliding: would give a force if the overlap test were wrong.
    const auto k = contact(kN, r, -2.0 * kN + kT, 0.1, m, m);
    EXPECT_FALSE(k.touching) << "r/dp=" << r / kDp;
    EXPECT_EQ(k.fx, 0);
    EXPECT_EQ(k.fy, 0);
    EXPECT_EQ(k.fz, 0);
    EXPECT_EQ(k.rate, 0);
  }
  // Just inside one diameter it touches (the test above can fail).
  EXPECT_TRUE(contact(kN, 0.999 * kDp, {0, 0, 0}, 0.1, m, m).touching);
}

TEST(DemContact, StaticForceIsHertzAlongTheNormal) {
  // Two different materials: E* must combine both.
  const auto a = material(2e8, 0.25, 0.6, 0.2), b = material(5e7, 0.4, 0.8, 0.4);
  const double eStar = eStarOf(2e8, 0.25, 5e7, 0.4);
  const double rStar = kDp / 4;  // two spheres of radius dp/2
  const double kn = 4.0 / 3.0 * eStar * std::sqrt(rStar);
  const double massEff = 0.07;
  for (double overlapFrac : {1e-4, 1e-2, 0.05, 0.2}) {
    const double delta = overlapFrac * kDp, r = kDp - delta;
    const auto k = contact(kN, r, {0, 0, 0}, massEff, a, b);  // zero relative velocity
    ASSERT_TRUE(k.touching);
    const double fn = kn * std::pow(delta, 1.5);
    // A handful of operations in double: relative round-off ~1e-15; 1e-12 leaves margin but
    // catches any wrong factor, exponent or direction.
    const double tol = 1e-12 * fn;
    EXPECT_NEAR(k.fx, fn * kN.x, tol) << "delta/dp=" << overlapFrac;
    EXPECT_NEAR(k.fy, fn * kN.y, tol) << "delta/dp=" << overlapFrac;
    EXPECT_NEAR(k.fz, fn * kN.z, tol) << "delta/dp=" << overlapFrac;
    // At rest the rate is the contact's angular frequency sqrt(S_n/m*), S_n = 2 E* sqrt(R* delta).
    const double omega = std::sqrt(2 * eStar * std::sqrt(rStar * delta) / massEff);
    EXPECT_NEAR(k.rate, omega, 1e-12 * omega);
    // Newton's third law: b feels the opposite force.
    const auto kb = contact(-1.0 * kN, r, {0, 0, 0}, massEff, b, a);
    EXPECT_NEAR(kb.fx, -k.fx, tol);
    EXPECT_NEAR(kb.fz, -k.fz, tol);
  }
}

TEST(DemContact, NormalDampingIsTheTsujiDashpot) {
  // F_n = kn delta^1.5 - gamma_n v_n, gamma_n = -2 sqrt(5/6) beta sqrt(S_n m*),
  // beta = ln e / sqrt(ln^2 e + pi^2) with e the mean of the two materials' values.
  const auto a = material(1e8, 0.3, 0.4, 0.3), b = material(3e8, 0.2, 0.6, 0.3);
  const double eStar = eStarOf(1e8, 0.3, 3e8, 0.2), rStar = kDp / 4, massEff = 0.05, e = 0.5;
  const double beta = std::log(e) / std::sqrt(std::log(e) * std::log(e) + kPi * kPi);
  for (double vn : {-0.5, -0.01, 0.002}) {  // approaching, and separating slowly (no clamp)
    const double delta = 0.02 * kDp;
    const double sn = 2 * eStar * std::sqrt(rStar * delta);
    const double x = -std::log(e), clampFix = 1 + 0.2 * x + 0.1 * x * x;  // dem_physics.h
    const double gammaN = -2 * std::sqrt(5.0 / 6.0) * beta * clampFix * std::sqrt(sn * massEff);
    const double fn = 4.0 / 3.0 * eStar * std::sqrt(rStar) * std::pow(delta, 1.5) - gammaN * vn;
    ASSERT_GT(fn, 0);
    const auto k = contact(kN, kDp - delta, vn * kN, massEff, a, b);
    // Round-off of a few operations: 1e-12 relative.
    EXPECT_NEAR(dot({k.fx, k.fy, k.fz}, kN), fn, 1e-12 * fn) << "vn=" << vn;
    EXPECT_NEAR(norm(V3{k.fx, k.fy, k.fz} - dot({k.fx, k.fy, k.fz}, kN) * kN), 0, 1e-12 * fn);
  }
}

TEST(DemContact, NeverAttractive) {
  const auto m = material(1e8, 0.3, 0.3, 0.5);  // strong damping: e = 0.3
  const double massEff = 0.05, delta = 1e-4 * kDp;
  // Separating fast with a small overlap: the dashpot outweighs the spring, the force is zero
  // (exactly: the normal part is clamped and the tangential part is mu times it).
  const auto k = contact(kN, kDp - delta, 1.0 * kN + 0.5 * kT, massEff, m, m);
  EXPECT_TRUE(k.touching);
  EXPECT_EQ(k.fx, 0);
  EXPECT_EQ(k.fy, 0);
  EXPECT_EQ(k.fz, 0);
  // Over a sweep of normal velocities and overlaps the normal force is never negative.
  for (double overlapFrac : {1e-5, 1e-3, 0.05})
    for (double vn = -3; vn <= 3; vn += 0.25) {
      const auto s = contact(kN, kDp - overlapFrac * kDp, vn * kN, massEff, m, m);
      EXPECT_GE(dot({s.fx, s.fy, s.fz}, kN), 0) << "vn=" << vn << " delta/dp=" << overlapFrac;
    }
}

TEST(DemContact, FrictionOpposesSlidingWithinTheCoulombCap) {
  const auto a = material(1e8, 0.3, 0.5, 0.2), b = material(1e8, 0.3, 0.5, 0.4);
  const double mu = 0.3;  // the mean of the two
  const double eStar = eStarOf(1e8, 0.3, 1e8, 0.3), rStar = kDp / 4, massEff = 0.05;
  const double delta = 0.01 * kDp;
  const double fn = 4.0 / 3.0 * eStar * std::sqrt(rStar) * std::pow(delta, 1.5);  // vn = 0
  const double sn = 2 * eStar * std::sqrt(rStar * delta);
  const double gammaT = 2 * std::sqrt(massEff * 2.0 / 7.0 * sn);
  const V3 t = (1 / norm(kT)) * kT;
  const double vtCap = mu * fn / gammaT;  // the sliding speed where the dashpot reaches the cap
  bool sawViscous = false, sawCapped = false;
  for (double f : {1e-3, 0.1, 0.5, 0.99, 1.01, 2.0, 10.0, 1e3}) {
    const double vt = f * vtCap;
    const auto k = contact(kN, kDp - delta, vt * t, massEff, a, b);
    const V3 force{k.fx, k.fy, k.fz};
    const double fnGot = dot(force, kN);
    const V3 ft = force - fnGot * kN;
    // Round-off of a few operations on forces of size fn: 1e-12 relative.
    EXPECT_NEAR(fnGot, fn, 1e-12 * fn) << "a pure sliding velocity must not change the normal force";
    EXPECT_LT(dot(ft, t), 0) << "friction must oppose sliding, vt/vtCap=" << f;
    EXPECT_NEAR(norm(ft - dot(ft, t) * t), 0, 1e-12 * fn) << "friction must be along the sliding direction";
    EXPECT_LE(norm(ft), mu * fn * (1 + 1e-12)) << "Coulomb cap, vt/vtCap=" << f;
    const double expected = std::min(gammaT * vt, mu * fn);
    EXPECT_NEAR(norm(ft), expected, 1e-12 * expected) << "vt/vtCap=" << f;
    sawViscous |= f < 1;
    sawCapped |= f > 1;
  }
  EXPECT_TRUE(sawViscous && sawCapped);
  // With an approach speed too the cap follows the larger normal force.
  const double vn = -0.05;
  const auto k = contact(kN, kDp - delta, vn * kN + 100 * vtCap * t, massEff, a, b);
  const double fnDamped = dot({k.fx, k.fy, k.fz}, kN);
  EXPECT_GT(fnDamped, fn);
  const V3 ft = V3{k.fx, k.fy, k.fz} - fnDamped * kN;
  EXPECT_NEAR(norm(ft), mu * fnDamped, 1e-12 * fnDamped);
}

// A head-on impact of a particle of mass m (the reduced mass: the other particle is a fixed
// wall particle at the origin) at speed v0 along kN, integrated with classical RK4 in double
// at a fixed dt.
struct Impact {
  double restitution;    // rebound normal speed / impact speed
  double duration;       // time from first touch to separation
  double minRate;        // the smallest rate demContact gave during the contact
  double firstRate;      // its rate at first touch
  double tangential;     // largest |v - (v.n) n| seen: must stay 0 for a head-on impact
};

// unclamped: integrate instead kn delta^1.5 - gamma_n v_n as the header's comment writes it,
// without the F_n >= 0 clamp (for the report only; nothing is asserted on it).
Impact integrateImpact(const DemMaterial<double>& mat, double massEff, double v0, double dt, bool unclamped = false) {
  const double eStar = 1 / (2 * mat.tau), rStar = kDp / 4;
  auto accel = [&](V3 r, V3 v) -> V3 {
    if (unclamped) {
      const V3 d = r;
      const double dist = norm(d), delta = kDp - dist;
      if (!(delta > 0)) return {0, 0, 0};
      const V3 n = (1 / dist) * d;
      const double logE = std::log(mat.restitution);
      const double beta = logE / std::sqrt(logE * logE + kPi * kPi);
      const double sn = 2 * eStar * std::sqrt(rStar * delta);
      const double gammaN = -2 * std::sqrt(5.0 / 6.0) * beta * std::sqrt(sn * massEff);
      const double fn = 4.0 / 3.0 * eStar * std::sqrt(rStar) * std::pow(delta, 1.5) - gammaN * dot(v, n);
      return (fn / massEff) * n;
    }
    const double dist = norm(r);
    const auto k = contact((1 / dist) * r, dist, v, massEff, mat, mat);
    return (1 / massEff) * V3{k.fx, k.fy, k.fz};
  };
  Impact out{};
  V3 r = kDp * kN, v = -v0 * kN;  // touching, approaching
  out.firstRate = contact(kN, (1 - 1e-9) * kDp, v, massEff, mat, mat).rate;
  out.minRate = out.firstRate;
  double t = 0;
  for (long step = 0; step < 1000000; ++step) {
    const V3 k1r = v, k1v = accel(r, v);
    const V3 k2r = v + 0.5 * dt * k1v, k2v = accel(r + 0.5 * dt * k1r, v + 0.5 * dt * k1v);
    const V3 k3r = v + 0.5 * dt * k2v, k3v = accel(r + 0.5 * dt * k2r, v + 0.5 * dt * k2v);
    const V3 k4r = v + dt * k3v, k4v = accel(r + dt * k3r, v + dt * k3v);
    const V3 rNew = r + (dt / 6) * (k1r + 2.0 * k2r + 2.0 * k3r + k4r);
    const V3 vNew = v + (dt / 6) * (k1v + 2.0 * k2v + 2.0 * k3v + k4v);
    const double dOld = norm(r), dNew = norm(rNew);
    r = rNew;
    v = vNew;
    out.tangential = std::max(out.tangential, norm(v - dot(v, kN) * kN));
    if (dNew >= kDp && dot(v, kN) > 0) {
      // Separation inside this step: interpolate the crossing of r = dp linearly.
      t += dt * (kDp - dOld) / (dNew - dOld);
      break;
    }
    t += dt;
    const double dist = norm(r);
    const auto k = contact((1 / dist) * r, dist, v, massEff, mat, mat);
    if (k.touching) out.minRate = std::min(out.minRate, k.rate);
  }
  out.restitution = dot(v, kN) / v0;
  out.duration = t;
  return out;
}

double hertzDuration(double massEff, double eStar, double v0) {
  return 2.87 * std::pow(massEff * massEff / (kDp / 4 * eStar * eStar * v0), 0.2);
}

constexpr double kRestitutions[] = {0.3, 0.5, 0.8, 0.9};
constexpr double kSpeeds[] = {0.1, 1.0};
constexpr double kYoung = 1e8, kPoisson = 0.3, kMassEff = 0.05;

// The integration itself is converged (so that what the next tests measure is the model's):
// halving dt changes the restitution by far less than any tolerance used below.
TEST(DemContact, ImpactIntegrationIsConverged) {
  const double eStar = eStarOf(kYoung, kPoisson, kYoung, kPoisson);
  for (double e : kRestitutions)
    for (double v0 : kSpeeds) {
      const auto m = material(kYoung, kPoisson, e, 0.3);
      const double dt = hertzDuration(kMassEff, eStar, v0) / 2000;
      const auto a = integrateImpact(m, kMassEff, v0, dt), b = integrateImpact(m, kMassEff, v0, dt / 2);
      // RK4 on a force with a kink where the clamp sets in: at worst O(dt^2) ~ (1/2000)^2 of the
      // restitution; 1e-5 is far above that and far below the 5% checked below.
      EXPECT_NEAR(a.restitution, b.restitution, 1e-5) << "e=" << e << " v0=" << v0;
      EXPECT_NEAR(a.duration, b.duration, 1e-3 * b.duration) << "e=" << e << " v0=" << v0;
      // kN is not exact in binary: round-off of ~1e-16 v0 per step may leak sideways, no more.
      EXPECT_LT(a.tangential, 1e-11 * v0) << "a head-on impact must stay head-on";
    }
}

// The Tsuji damping of Hertz' contact is scale-free: the restitution cannot depend on the
// impact speed (or on E* and m*). Only round-off and the O(dt^2) integration error differ.
TEST(DemContact, RestitutionDoesNotDependOnSpeed) {
  for (double e : kRestitutions) {
    const auto m = material(kYoung, kPoisson, e, 0.3);
    const double eStar = eStarOf(kYoung, kPoisson, kYoung, kPoisson);
    const auto slow = integrateImpact(m, kMassEff, 0.1, hertzDuration(kMassEff, eStar, 0.1) / 2000);
    const auto fast = integrateImpact(m, kMassEff, 1.0, hertzDuration(kMassEff, eStar, 1.0) / 2000);
    const auto stiff = integrateImpact(material(2e11, kPoisson, e, 0.3), 0.3, 1.0,
                                       hertzDuration(0.3, eStarOf(2e11, kPoisson, 2e11, kPoisson), 1.0) / 2000);
    EXPECT_NEAR(slow.restitution, fast.restitution, 1e-5) << "e=" << e;
    EXPECT_NEAR(stiff.restitution, fast.restitution, 1e-5) << "e=" << e;
  }
}

// The restitution of a head-on impact against the coefficient e given in the material.
// Tolerance: 5% of e. The integration error is below 1e-5 (ImpactIntegrationIsConverged), so
// the whole tolerance is for the model; the header promises a restitution "close to e at every
// speed", and 5% is the least a DEM user can expect of the one number that sets the bounce.
//
// MEASURED (speed independent, see RestitutionDoesNotDependOnSpeed):
//   e given 0.3 -> 0.397 (+32%), 0.5 -> 0.550 (+10%), 0.8 -> 0.808 (+1.0%), 0.9 -> 0.902 (+0.2%).
// The Tsuji/Hertz-Mindlin damping coefficient is exact for the force kn delta^1.5 - gamma_n v_n
// as written (printed below as "unclamped": 0.3000, 0.5000, ...), but demContact clamps F_n at 0
// ("contacts push, never pull"): late in the rebound the dashpot would pull, the clamp removes
// that pull and the particle leaves faster than e says. This test therefore FAILS for e = 0.3
// and 0.5 until dem_physics.h corrects gamma_n for the clamp.
TEST(DemContact, RestitutionMatchesTheGivenCoefficient) {
  const double eStar = eStarOf(kYoung, kPoisson, kYoung, kPoisson);
  std::printf("  e given | v0 (m/s) | e measured | unclamped dashpot | contact time / Hertz t_c\n");
  for (double e : kRestitutions)
    for (double v0 : kSpeeds) {
      const auto m = material(kYoung, kPoisson, e, 0.3);
      const double tc = hertzDuration(kMassEff, eStar, v0);
      const auto got = integrateImpact(m, kMassEff, v0, tc / 2000);
      const auto free = integrateImpact(m, kMassEff, v0, tc / 2000, true);
      std::printf("  %7.2f | %8.2f | %10.4f | %17.4f | %.4f\n", e, v0, got.restitution, free.restitution,
                  got.duration / tc);
      EXPECT_NEAR(got.restitution, e, 0.05 * e) << "v0=" << v0 << " m/s";
    }
}

// The rate is what bounds the time step: dt <= CFL / rate (physics/time_step.h: h/(c0 + h rate)).
// With CFL 0.2, an impact must take at least ~10 steps even at the smallest rate met during
// the contact (the step is set from the rate of the step before). Measured: about 15 steps
// for every e and speed (t_c is 1.01 to 1.16 times Hertz' formula and the smallest rate is
// pi/t_c at the rebound speed or sqrt(S_n/m*) near the turning point).
TEST(DemContact, RateResolvesTheImpactInTenSteps) {
  const double eStar = eStarOf(kYoung, kPoisson, kYoung, kPoisson), cfl = 0.2;
  for (double e : kRestitutions)
    for (double v0 : kSpeeds) {
      const auto m = material(kYoung, kPoisson, e, 0.3);
      const double tc = hertzDuration(kMassEff, eStar, v0);
      const auto got = integrateImpact(m, kMassEff, v0, tc / 2000);
      // At first touch the rate is 2 pi over Hertz' duration at the impact speed (the angular
      // frequency sqrt(S_n/m*) is ~0 at zero overlap); relative 1e-6 covers the overlap of
      // 1e-9 dp used to touch.
      EXPECT_NEAR(got.firstRate, 2 * kPi / tc, 1e-6 * 2 * kPi / tc);
      const double steps = got.duration * got.minRate / cfl;
      std::printf("  e %.2f v0 %.1f: t_c %.4g s (Hertz %.4g s), min rate %.4g 1/s, %.1f steps per contact\n", e,
                  v0, got.duration, tc, got.minRate, steps);
      EXPECT_GE(steps, 10.0) << "e=" << e << " v0=" << v0;
    }
}

// ---------------------------------------------------------------------------------------------
// DualSPHysics' contact (demContactDualSPHysics), its formulas written out here term by term.

DemContactDualSPHysics<double> dsContact(V3 n, double r, V3 dv, double massEff, double pairMass, double dtDem,
                                         const DemMaterial<double>& a, const DemMaterial<double>& b) {
  return demContactDualSPHysics(r * n.x, r * n.y, r * n.z, r, dv.x, dv.y, dv.z, kDp, massEff, pairMass, dtDem, a, b);
}

TEST(DemContactDualSPHysics, NormalForceRateAndFrictionAsDualSPHysicsWritesThem) {
  const auto wood = material(1.23e10, 0.369, 0.55, 0.35), steel = material(2.1e11, 0.3, 0.65, 0.45);
  const double massEff = 0.23, pairMass = 1e-3, dtDem = 3e-5;
  const double overlap = 2e-5, r = kDp - overlap;
  const V3 dv = -0.4 * kN + 0.3 * kT;  // closing at 0.4 m/s, sliding at 0.3 |kT|
  const auto got = dsContact(kN, r, dv, massEff, pairMass, dtDem, wood, steel);
  ASSERT_TRUE(got.touching);
  const double kn = 4.0 / (3.0 * (wood.tau + steel.tau)) * std::sqrt(kDp / 4);
  const double vn = dot(dv, kN);
  EXPECT_NEAR(got.rate, 0.2 / (3.21 * (std::pow(massEff / kn, 0.4) * std::pow(std::abs(vn), -0.2)) / 40),
              1e-12 * got.rate);
  const double e = 0.5 * (0.55 + 0.65), le = std::log(e);
  const double gn = -2 * le * std::sqrt(massEff * kn) / std::sqrt(kPi + le * le);
  const double fn = kn * std::pow(overlap, 1.5) - gn * std::pow(overlap, 0.25) * vn;
  const V3 vt = dv - vn * kN;
  const double vtn = norm(vt);
  const double ft = std::min(0.5 * (0.35 + 0.45) * fn * std::tanh(8 * vtn), (kn * dtDem - gn) * vtn / 3.5);
  const V3 want = (fn / pairMass) * kN + (ft / pairMass / vtn) * vt;
  EXPECT_NEAR(got.ax, want.x, 1e-9 * norm(want));
  EXPECT_NEAR(got.ay, want.y, 1e-9 * norm(want));
  EXPECT_NEAR(got.az, want.z, 1e-9 * norm(want));
  EXPECT_NE(ft, 0);
  EXPECT_GT(fn, 0);
}

// Apart (r >= dp, or an overlap below 1e-6 dp: lattice neighbours, whose overlap is rounding)
// there is no force, but the pair still has its rate; a pair at rest has none.
TEST(DemContactDualSPHysics, ApartPairsHaveARateButNoForce) {
  const auto wood = material(1.23e10, 0.369, 0.55, 0.35);
  for (double r : {kDp * 1.5, kDp, kDp * (1 - 5e-7)}) {
    const auto got = dsContact(kN, r, -0.1 * kN, 0.2, 1e-3, 3e-5, wood, wood);
    EXPECT_FALSE(got.touching) << r;
    EXPECT_EQ(got.ax, 0);
    EXPECT_GT(got.rate, 0);
  }
  EXPECT_TRUE(dsContact(kN, kDp * (1 - 2e-6), -0.1 * kN, 0.2, 1e-3, 3e-5, wood, wood).touching);
  EXPECT_EQ(dsContact(kN, kDp * 0.9, V3{0, 0, 0}, 0.2, 1e-3, 3e-5, wood, wood).rate, 0);
}

}  // namespace
}  // namespace sph
