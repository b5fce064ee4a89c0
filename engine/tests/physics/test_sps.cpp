// The SPS turbulence model (sps_physics.h): tau/rho from 2S against the formulas written out,
// and the pair terms (the stress divergence and the 2S sum) against a single pair by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "sph/plugin/floating_pair_physics.h"
#include "sph/plugin/pair_physics.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/sps_physics.h"
#include "sph/plugin/sph_kernels.h"

namespace sph {
namespace {

constexpr double kDp = 0.01;

PhysicsConstants<double> constants() {
  PhysicsConstants<double> c;
  const double h = 1.2 * std::sqrt(3.0) * kDp;
  c.dim = 3;
  c.kernel = KernelKind::Wendland;
  c.h = h;
  c.support = 2 * h;
  c.support2 = 4 * h * h;
  c.eta2 = 0.01 * h * h;
  c.kernelNorm = kernelNormalisation(KernelKind::Wendland, 3, h);
  c.rho0 = 1000;
  c.massFluid = c.massBound = c.rho0 * kDp * kDp * kDp;
  c.c0 = 30;
  c.cteB = c.c0 * c.c0 * c.rho0 / 7;
  c.viscosity = Viscosity::LaminarSps;
  c.visco = c.viscoBound = 1e-6;
  const double dps = std::sqrt(3 * kDp * kDp) / 3;
  c.spsSmag = (2.0 / 3.0) * (0.12 * dps) * (0.12 * dps);
  c.spsBlin = (2.0 / 3.0) * 0.0066 * dps * dps;
  foldDerivedConstants(c);
  return c;
}

TEST(Sps, TauFromStrainIsSmagorinskyPlusBlin) {
  const auto c = constants();
  const SymTensor<double> s{0.3, -0.2, 0.1, -0.5, 0.4, 0.25};  // 2S
  const double rho = 1010;
  const SymTensor<double> t = spsTauOverRho(s, rho, c);
  const double norm2 = 2 * (0.3 * 0.3 + 0.5 * 0.5 + 0.25 * 0.25) + 0.2 * 0.2 + 0.1 * 0.1 + 0.4 * 0.4;
  const double nu = c.spsSmag * std::sqrt(norm2);
  const double iso = -(nu * (0.3 - 0.5 + 0.25) + c.spsBlin * norm2);
  EXPECT_NEAR(t.xx, (2 * nu * 0.3 + iso) / rho, 1e-15);
  EXPECT_NEAR(t.yy, (2 * nu * -0.5 + iso) / rho, 1e-15);
  EXPECT_NEAR(t.zz, (2 * nu * 0.25 + iso) / rho, 1e-15);
  EXPECT_NEAR(t.xy, nu * -0.2 / rho, 1e-15);
  EXPECT_NEAR(t.xz, nu * 0.1 / rho, 1e-15);
  EXPECT_NEAR(t.yz, nu * 0.4 / rho, 1e-15);
  // No strain, no stress.
  const SymTensor<double> zero = spsTauOverRho(SymTensor<double>{}, rho, c);
  EXPECT_EQ(zero.xx, 0.0);
  EXPECT_EQ(zero.xy, 0.0);
}

// One fluid pair: the stress term m_b (tau_a + tau_b) . grad W and the 2S sum, written out with
// grad_a W_ab = fac (r_a - r_b).
TEST(Sps, PairAddsTheStressDivergenceAndSumsTheVelocityGradient) {
  const auto c = constants();
  const Real4<double> posA{0, 0, 0, 0}, posB{0.6 * c.h, -0.2 * c.h, 0.3 * c.h, 0};
  const Real4<double> velA{0.1, 0.0, -0.2, 1000}, velB{-0.05, 0.1, 0.0, 1002};
  const SymTensor<double> tauA{1e-3, 2e-4, -3e-4, -1e-3, 5e-4, 2e-3};
  const SymTensor<double> tauB{-2e-3, 1e-4, 4e-4, 3e-4, -2e-4, 1e-3};
  PairAccum<double, false, true> sps;
  sps.tauA = tauA;
  interactPairCoded<KernelKind::Wendland>(posA, velA, code::make(false, 0), posB, velB, code::make(false, 0), c, sps,
                                          tauB);
  PairAccum<double> laminar;  // the same pair without the SPS terms
  interactPairCoded<KernelKind::Wendland>(posA, velA, code::make(false, 0), posB, velB, code::make(false, 0), c,
                                          laminar);
  const double dx = -posB.x, dy = -posB.y, dz = -posB.z;
  const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
  const double fac = kernelGradValue(KernelKind::Wendland, r, c.h, c.kernelNorm);  // (dW/dr)/r
  const double fr[3] = {fac * dx, fac * dy, fac * dz};
  const double m = c.massFluid;
  const double S[3][3] = {{tauA.xx + tauB.xx, tauA.xy + tauB.xy, tauA.xz + tauB.xz},
                          {tauA.xy + tauB.xy, tauA.yy + tauB.yy, tauA.yz + tauB.yz},
                          {tauA.xz + tauB.xz, tauA.yz + tauB.yz, tauA.zz + tauB.zz}};
  const double got[3] = {sps.ax - laminar.ax, sps.ay - laminar.ay, sps.az - laminar.az};
  for (int i = 0; i < 3; ++i) {
    const double want = m * (S[i][0] * fr[0] + S[i][1] * fr[1] + S[i][2] * fr[2]);
    EXPECT_NEAR(got[i], want, 1e-12 * std::abs(want) + 1e-18) << "component " << i;
  }
  // 2S_a = -V_b (v_a - v_b) (x) grad W, symmetrised off the diagonal.
  const double vol = m / velB.w;
  const double dv[3] = {velA.x - velB.x, velA.y - velB.y, velA.z - velB.z};
  auto g = [&](int i, int j) { return -vol * dv[i] * fr[j]; };
  EXPECT_NEAR(sps.strain.xx, g(0, 0), 1e-15);
  EXPECT_NEAR(sps.strain.yy, g(1, 1), 1e-15);
  EXPECT_NEAR(sps.strain.zz, g(2, 2), 1e-15);
  EXPECT_NEAR(sps.strain.xy, g(0, 1) + g(1, 0), 1e-15);
  EXPECT_NEAR(sps.strain.xz, g(0, 2) + g(2, 0), 1e-15);
  EXPECT_NEAR(sps.strain.yz, g(1, 2) + g(2, 1), 1e-15);
}

TEST(Sps, WallsAndFloatingParticlesCarryNoStress) {
  const auto c = constants();
  const SymTensor<double> strain[3] = {{0.1, 0.2, 0.3, 0.4, 0.5, 0.6}, {0.1, 0.2, 0.3, 0.4, 0.5, 0.6},
                                       {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}};
  const Real4<double> velrho[3] = {{0, 0, 0, 1000}, {0, 0, 0, 1000}, {0, 0, 0, 1000}};
  const uint32_t code[3] = {code::make(true, 0), code::makeFloating(1), code::make(false, 2)};
  SymTensor<double> tau[3];
  for (uint32_t i = 0; i < 3; ++i) spsTauParticle(i, strain, velrho, code, 1, tau, c);
  EXPECT_EQ(tau[0].xx, 0.0);
  EXPECT_EQ(tau[1].xx, 0.0);
  EXPECT_NE(tau[2].xx, 0.0);
  EXPECT_NEAR(tau[2].yz, spsTauOverRho(strain[2], 1000.0, c).yz, 1e-18);
}

}  // namespace
}  // namespace sph
