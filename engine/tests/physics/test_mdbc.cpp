// mDBC's density extrapolation (mdbc_physics.h): exact for a linear density field, with the
// Shepard and rho0 fallbacks where the fluid around the ghost node is too thin.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "physics/integrator_physics.h"
#include "sph/plugin/floating_pair_physics.h"
#include "sph/plugin/mdbc_physics.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/sph_kernels.h"

namespace sph {
namespace {

PhysicsConstants<double> constants(int dim, KernelKind kernel, double dp) {
  PhysicsConstants<double> c;
  c.dim = dim;
  c.kernel = kernel;
  c.h = std::sqrt(double(dim)) * dp;
  c.support = 2 * c.h;
  c.support2 = c.support * c.support;
  c.kernelNorm = kernelNormalisation(kernel, dim, c.h);
  c.rho0 = 1000;
  c.massFluid = c.rho0 * std::pow(dp, dim);
  return c;
}

// A jittered fluid lattice around the ghost node g, cut below the plane z = zCut (the wall),
// with density rho(x) = rhoG + grad . (x - g) and every particle of mass m = rho0 dp^dim.
struct Fluid {
  std::vector<Real4<double>> pos;
  std::vector<double> rho;
};

Fluid linearFluid(int dim, double dp, const double g[3], double rhoG, const double grad[3], double zCut) {
  Fluid f;
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> u(-0.2 * dp, 0.2 * dp);
  const int n = 6;
  for (int k = -n; k <= n; ++k)
    for (int j = dim == 3 ? -n : 0; j <= (dim == 3 ? n : 0); ++j)
      for (int i = -n; i <= n; ++i) {
        const double x[3] = {g[0] + i * dp + u(rng), g[1] + (dim == 3 ? j * dp + u(rng) : 0.0), g[2] + k * dp + u(rng)};
        if (x[2] < zCut) continue;
        f.pos.push_back({x[0], x[1], x[2], 0});
        f.rho.push_back(rhoG + grad[0] * (x[0] - g[0]) + grad[1] * (x[1] - g[1]) + grad[2] * (x[2] - g[2]));
      }
  return f;
}

double correctedDensity(const Fluid& f, const Real4<double>& b, const Real4<double>& normal,
                        const PhysicsConstants<double>& c) {
  const double g[3] = {b.x + normal.x, b.y + normal.y, b.z + normal.z};
  MdbcSums<double> s;
  for (size_t j = 0; j < f.pos.size(); ++j) {
    const double dx = g[0] - f.pos[j].x, dy = g[1] - f.pos[j].y, dz = g[2] - f.pos[j].z;
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 >= c.support2) continue;
    if (c.kernel == KernelKind::Cubic)
      mdbcAddFluid<KernelKind::Cubic>(s, dx, dy, dz, r2, Real4<double>{0, 0, 0, f.rho[j]}, c);
    else
      mdbcAddFluid<KernelKind::Wendland>(s, dx, dy, dz, r2, Real4<double>{0, 0, 0, f.rho[j]}, c);
  }
  return mdbcDensity(s, normal, c.dim, c.rho0);
}

// The first-order estimate reproduces a linear field at the boundary particle whatever the
// truncation of the ghost node's support by the wall: (rho, -grad rho) solves A x = b exactly
// when rho_j is linear (V_j rho_j = m). A hydrostatic gradient plus a horizontal one.
TEST(Mdbc, LinearDensityExtrapolatedExactly) {
  for (int dim : {2, 3}) {
    for (KernelKind kernel : {KernelKind::Wendland, KernelKind::Cubic}) {
      const double dp = 0.01;
      const auto c = constants(dim, kernel, dp);
      const Real4<double> b{0.3, dim == 3 ? 0.2 : 0.0, -0.5 * dp, 0};   // first wall layer
      const Real4<double> normal{0.2 * dp, dim == 3 ? -0.1 * dp : 0.0, dp, 0};  // ghost half a dp above the wall face
      const double g[3] = {b.x + normal.x, b.y + normal.y, b.z + normal.z};
      const double grad[3] = {3.0, dim == 3 ? -2.0 : 0.0, -9.81 * 1000 / (20 * 20)};  // ~ rho0 g / c0^2 scaled up
      const double rhoG = 1001.5;
      const Fluid f = linearFluid(dim, dp, g, rhoG, grad, 0.0);
      const double expected = rhoG - grad[0] * normal.x - grad[1] * normal.y - grad[2] * normal.z;
      EXPECT_NEAR(correctedDensity(f, b, normal, c), expected, 1e-9 * expected) << dim << "D kernel " << int(kernel);
    }
  }
}

// A ghost node with a single fluid neighbour: the matrix is singular (|det| < 1e-3), so the
// Shepard estimate rho_g / sum V W = the neighbour's density; with none, rho0.
TEST(Mdbc, ThinFluidFallsBackToShepardThenRho0) {
  const double dp = 0.01;
  const auto c = constants(3, KernelKind::Wendland, dp);
  const Real4<double> b{0, 0, 0, 0}, normal{0, 0, dp, 0};
  Fluid one;
  one.pos.push_back({0.1 * dp, 0, 1.5 * dp, 0});
  one.rho.push_back(1012.0);
  EXPECT_NEAR(correctedDensity(one, b, normal, c), 1012.0, 1e-9);
  EXPECT_EQ(correctedDensity(Fluid{}, b, normal, c), c.rho0);
}

// mDBC2's sums over a fluid set with velocities (vel per particle) around ghost node g.
MdbcSums<double> slipSums(const Fluid& f, const double g[3], const Real4<double>& vel, const PhysicsConstants<double>& c) {
  MdbcSums<double> s;
  for (size_t j = 0; j < f.pos.size(); ++j) {
    const double dx = g[0] - f.pos[j].x, dy = g[1] - f.pos[j].y, dz = g[2] - f.pos[j].z;
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 >= c.support2) continue;
    mdbcAddFluid<KernelKind::Wendland, true>(s, dx, dy, dz, r2, Real4<double>{vel.x, vel.y, vel.z, f.rho[j]}, c);
  }
  return s;
}

// mDBC2's wall below water at rest with the (linearised) hydrostatic density
// rho0 + rho0 |g| (zs - z)/c0^2: the ghost node's first-order density is exact for a linear field
// and the pressure cloned along the normal is the hydrostatic pressure at the wall particle, so
// rho_b = rho(z_b). Its tangential velocity: the ghost's mirrored (no-slip) or its own (free
// slip), without the normal part.
TEST(Mdbc, Mdbc2ClonesTheHydrostaticPressureAndMirrorsTheVelocity) {
  for (int dim : {2, 3}) {
    const double dp = 0.01;
    auto c = constants(dim, KernelKind::Wendland, dp);
    c.dp = dp;
    c.c0 = 20;
    c.gz = -9.81;
    const Real4<double> b{0.3, dim == 3 ? 0.2 : 0.0, -0.5 * dp, 0}, normal{0, 0, dp, 0};
    const double g[3] = {b.x, b.y, b.z + dp};
    const double zs = 0.2, k = c.rho0 * 9.81 / (c.c0 * c.c0);
    const double grad[3] = {0, 0, -k};
    const double rhoG = c.rho0 + k * (zs - g[2]);
    const Fluid f = linearFluid(dim, dp, g, rhoG, grad, 0.0);
    const Real4<double> u{0.4, dim == 3 ? -0.1 : 0.0, 0.05, 0}, wall{0, 0, 0, 1000};
    for (BoundaryModel m : {BoundaryModel::MdbcNoSlip, BoundaryModel::MdbcFreeSlip}) {
      c.boundary = m;
      const Mdbc2Wall<double> w = mdbc2Wall(slipSums(f, g, u, c), normal, wall, Real4<double>{}, c);
      EXPECT_FALSE(w.off);
      EXPECT_NEAR(w.rho, c.rho0 + k * (zs - b.z), 1e-9 * c.rho0) << dim << "D";
      // A wall accelerating upwards at 2 m/s^2 carries the water's weight plus that:
      // rho0 (g - a) . n (r_b - r_g) . n adds rho0 2 dp to the pressure.
      const Mdbc2Wall<double> up = mdbc2Wall(slipSums(f, g, u, c), normal, wall, Real4<double>{0, 0, 2, 0}, c);
      EXPECT_NEAR(up.rho - w.rho, c.rho0 * 2 * dp / (c.c0 * c.c0), 1e-9 * c.rho0) << dim << "D";
      const double sign = m == BoundaryModel::MdbcNoSlip ? -1 : 1;
      EXPECT_NEAR(w.tangent.x, sign * u.x, 1e-12) << dim << "D";
      EXPECT_NEAR(w.tangent.y, sign * u.y, 1e-12) << dim << "D";
      EXPECT_NEAR(w.tangent.z, 0.0, 1e-12) << dim << "D";
    }
  }
}

// No fluid within the support of the ghost node: the wall is switched off, at rho0, with the
// wall's own tangential velocity.
TEST(Mdbc, Mdbc2WallWithoutWaterIsSwitchedOff) {
  auto c = constants(3, KernelKind::Wendland, 0.01);
  c.dp = 0.01;
  c.c0 = 20;
  c.boundary = BoundaryModel::MdbcNoSlip;
  const Real4<double> normal{0, 0, 0.01, 0}, wall{0.3, 0, 0.2, 1003};
  const Mdbc2Wall<double> w = mdbc2Wall(MdbcSums<double>{}, normal, wall, Real4<double>{}, c);
  EXPECT_TRUE(w.off);
  EXPECT_EQ(w.rho, c.rho0);
  EXPECT_NEAR(w.tangent.x, 0.3, 1e-15);
  EXPECT_NEAR(w.tangent.z, 0.0, 1e-15);
}

// In the force pass an mDBC2 wall neighbour switched off has no mass (only the time step's
// v_ab . r_ab sees it), one switched on uses its tangential velocity in the viscous terms and
// its own velocity in continuity.
TEST(Mdbc, Mdbc2WallNeighbourInTheForcePass) {
  auto c = constants(3, KernelKind::Wendland, 0.01);
  c.c0 = 20;
  c.cteB = c.c0 * c.c0 * c.rho0 / 7;
  c.gamma = 7;
  c.invGamma = 1.0 / 7;
  c.eta2 = 0.01 * c.h * c.h;
  c.visco = c.viscoBound = 1e-3;
  c.viscosity = Viscosity::Laminar;
  c.massBound = c.massFluid;
  c.boundary = BoundaryModel::MdbcNoSlip;
  foldKernelConstants(c);
  const Real4<double> pa{0, 0, 0.012, taitPressure(1001.0, c)}, va{-0.1, 0, 0.1, 1001};  // separating
  const Real4<double> pw{0.003, 0, 0.0, taitPressure(1004.0, c)}, vw{0, 0, 0, 1004}, tangent{-0.2, 0, 0, 0};
  const uint32_t codeA = code::make(false, 0), onWall = code::make(true, 0) | code::kMdbc2Bit;
  PairAccum<double> off, on, asFluidVisc, asWallCont;
  interactPairCoded<KernelKind::Wendland>(pa, va, codeA, pw, vw, onWall | code::kMdbcOffBit, c, off, {}, &tangent);
  EXPECT_EQ(off.ax, 0.0);
  EXPECT_EQ(off.az, 0.0);
  EXPECT_EQ(off.arho, 0.0);
  EXPECT_GT(off.viscdt, 0.0);
  interactPairCoded<KernelKind::Wendland>(pa, va, codeA, pw, vw, onWall, c, on, {}, &tangent);
  // Viscous terms with the wall moving at the tangential velocity, continuity with it at rest.
  interactPairMass<KernelKind::Wendland>(pa, va, false, pw, Real4<double>{tangent.x, 0, 0, vw.w}, true,
                                         c.massBound, false, c, asFluidVisc);
  interactPairMass<KernelKind::Wendland>(pa, va, false, pw, vw, true, c.massBound, false, c, asWallCont);
  EXPECT_DOUBLE_EQ(on.ax, asFluidVisc.ax);
  EXPECT_DOUBLE_EQ(on.az, asFluidVisc.az);
  EXPECT_DOUBLE_EQ(on.viscdt, asFluidVisc.viscdt);
  EXPECT_DOUBLE_EQ(on.arho, asWallCont.arho);
  EXPECT_NE(on.arho, asFluidVisc.arho);
}

// The integrators keep an mDBC2 wall's density (its correction's), and integrate a DBC wall's.
TEST(Mdbc, IntegratorsKeepMdbc2WallDensities) {
  auto c = constants(3, KernelKind::Wendland, 0.01);
  c.cteB = 2e5;
  c.gamma = 7;
  Real4<double> pos[2] = {{0, 0, 0, 0}, {0.01, 0, 0, 0}};
  Real4<double> vr[2] = {{0, 0, 0, 1003}, {0, 0, 0, 1003}}, pre[2] = {{0, 0, 0, 1001}, {0, 0, 0, 1001}};
  Real4<double> posPre[2] = {pos[0], pos[1]};
  const Real4<double> ace[2] = {{0, 0, 0, 50}, {0, 0, 0, 50}};
  const uint32_t codes[2] = {code::make(true, 0) | code::kMdbc2Bit, code::make(true, 0)};
  const IntegratorArrays<double> a{pos, vr, pre, posPre, ace, 2, 2, codes, nullptr};
  symplecticPredictParticle(0, a, c, 1e-3);
  symplecticPredictParticle(1, a, c, 1e-3);
  EXPECT_EQ(vr[0].w, 1003);
  EXPECT_NEAR(vr[1].w, 1003 + 0.5e-3 * 50, 1e-9);
  vr[0].w = 1010;  // a correction before the corrector's pass
  symplecticCorrectParticle(0, a, c, 1e-3);
  EXPECT_EQ(vr[0].w, 1003);  // DualSPHysics keeps the predictor's
  // Verlet (not an Euler step): DualSPHysics' new value is the older one, (v, rho)^{n-1}.
  vr[0] = {0, 0, 0, 1005};
  pre[0] = {0, 0, 0, 1002};
  verletStepParticle(0, a, c, 1e-3, false);
  EXPECT_EQ(vr[0].w, 1002);
  EXPECT_EQ(pre[0].w, 1005);
}

}  // namespace
}  // namespace sph
