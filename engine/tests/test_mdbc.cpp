// mDBC's density extrapolation (mdbc_physics.h): exact for a linear density field, with the
// Shepard and rho0 fallbacks where the fluid around the ghost node is too thin.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "sph/mdbc_physics.h"
#include "sph/physics_constants.h"
#include "sph/sph_kernels.h"

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
      mdbcAddFluid<KernelKind::Cubic>(s, dx, dy, dz, r2, f.rho[j], c);
    else
      mdbcAddFluid<KernelKind::Wendland>(s, dx, dy, dz, r2, f.rho[j], c);
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

}  // namespace
}  // namespace sph
