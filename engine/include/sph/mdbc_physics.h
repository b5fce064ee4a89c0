// Modified dynamic boundary conditions (mDBC; English et al. 2022), DualSPHysics' `Boundary` 2
// with `SlipMode` 1 ("DBC vel=0"), as DualSPHysics 5.4 computes it (JSphCpu_mdbc.cpp).
//
// Every boundary particle b that has a normal (the vector from b to its ghost node, twice the
// distance from b to the boundary surface, GenCase's normals doubled; see case_normals.h) gets,
// before a force pass, the density the fluid around its ghost node g = r_b + n_b extrapolates to
// it. Over the fluid particles j within the support of g (walls and floating bodies excluded):
//
//   rho_g = sum m_j W_gj            grad rho_g = sum m_j grad W_gj
//   A = sum V_j [1, x_gj]^T (x) [W_gj, grad W_gj]     (V_j = m_j / rho_j; x_gj = r_g - r_j)
//
// a 4x4 matrix in 3D (1, x, y, z) and 3x3 in 2D (1, x, z). With |det A| >= 1e-3 the corrected
// first-order estimate (rho, -grad rho) = A^-1 (rho_g, grad rho_g) is extrapolated back to b,
// rho_b = rho + grad rho . (r_b - r_g); with a smaller determinant the Shepard estimate
// rho_g / A_00 (when A_00 > 0); with no fluid around the ghost, rho0. The 1e-3 limit is absolute
// (DualSPHysics' `determlimit`), so it depends on the case's units as DualSPHysics' does.
//
// Nothing else changes: the force pass is DBC's (the boundary particles' continuity equation
// still runs, and the integrators still keep their density at or above rho0), the correction
// runs before every force pass except the symplectic corrector's, and boundary velocities stay
// those of the wall (zero, or the imposed motion).
#pragma once

#include <cmath>

#include "sph/hd.h"
#include "sph/pair_physics.h"
#include "sph/physics_constants.h"
#include "sph/real4.h"
#include "sph/sph_kernels.h"

namespace sph {

// DualSPHysics' determinant limit for the first-order (matrix) estimate.
inline constexpr double kMdbcDeterminantLimit = 1e-3;

// The sums over the ghost node's fluid neighbours. Density and gradient in the particles'
// precision, the matrix in double (DualSPHysics' tmatrix4d, whose terms it adds in float).
// Row/column 0 is the constant term, then x, y, z; 2D runs leave row and column 2 (y) empty.
template <typename T>
struct MdbcSums {
  T rho = 0;
  T grad[3] = {T(0), T(0), T(0)};
  double a[4][4] = {};
};

// Adds fluid particle j, seen from the ghost node: d = r_g - r_j, r2 = |d|^2 < support^2.
template <KernelKind K, typename T>
SPH_HD SPH_FORCEINLINE void mdbcAddFluid(MdbcSums<T>& s, T dx, T dy, T dz, T r2, T rhoJ,
                                         const PhysicsConstants<T>& c) {
  const T r = sqrt(r2);
  const T w = kernelW<K>(r, c.h, c.kernelNorm);
  // F(0) is finite for both kernels (sph_kernels.h): a fluid particle on the ghost node counts.
  const T f = kernelGradFactor<K>(r, c.h, c.kernelNorm);
  const T g[3] = {f * dx, f * dy, f * dz};
  const T m = c.massFluid;
  const T vol = m / rhoJ;
  s.rho += m * w;
  for (int k = 0; k < 3; ++k) s.grad[k] += m * g[k];
  const T row[4] = {w * vol, g[0] * vol, g[1] * vol, g[2] * vol};
  const T col[4] = {T(1), dx, dy, dz};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s.a[i][j] += double(col[j] * row[i]);
}

namespace mdbc_detail {

SPH_HD inline double det3(const double m[3][3]) {
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

// The minor of m without row r and column c.
SPH_HD inline void minor4(const double m[4][4], int r, int c, double out[3][3]) {
  for (int i = 0, oi = 0; i < 4; ++i) {
    if (i == r) continue;
    for (int j = 0, oj = 0; j < 4; ++j) {
      if (j == c) continue;
      out[oi][oj++] = m[i][j];
    }
    ++oi;
  }
}

}  // namespace mdbc_detail

// The corrected density of a boundary particle from its ghost node's sums; `normal` is r_g - r_b.
// rho0 when no fluid particle was near the ghost node.
template <typename T>
SPH_HD inline T mdbcDensity(const MdbcSums<T>& s, const Real4<T>& normal, int dim, T rho0) {
  using mdbc_detail::det3;
  // Indices of the matrix's rows in use: (1, x, z) in 2D, (1, x, y, z) in 3D.
  const int idx2[3] = {0, 1, 3};
  const double b[4] = {double(s.rho), double(s.grad[0]), double(s.grad[1]), double(s.grad[2])};
  const double dpos[3] = {-double(normal.x), -double(normal.y), -double(normal.z)};
  if (dim == 2) {
    double m[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m[i][j] = s.a[idx2[i]][idx2[j]];
    const double det = det3(m);
    if (fabs(det) >= kMdbcDeterminantLimit) {
      // inv = adj(m) / det; the cyclic index form carries the cofactors' signs.
      double inv[3][3];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
          const int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
          inv[i][j] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
        }
      const double rhoGhost = inv[0][0] * b[0] + inv[0][1] * b[1] + inv[0][2] * b[3];
      const double gx = -(inv[1][0] * b[0] + inv[1][1] * b[1] + inv[1][2] * b[3]);
      const double gz = -(inv[2][0] * b[0] + inv[2][1] * b[1] + inv[2][2] * b[3]);
      return T(rhoGhost + gx * dpos[0] + gz * dpos[2]);
    }
    return s.a[0][0] > 0 ? T(b[0] / s.a[0][0]) : rho0;
  }
  // 3D: the inverse's rows from the cofactors, C_ji / det.
  double minor[3][3];
  double cof[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      mdbc_detail::minor4(s.a, i, j, minor);
      cof[i][j] = ((i + j) % 2 ? -1.0 : 1.0) * det3(minor);
    }
  const double det = s.a[0][0] * cof[0][0] + s.a[0][1] * cof[0][1] + s.a[0][2] * cof[0][2] + s.a[0][3] * cof[0][3];
  if (fabs(det) >= kMdbcDeterminantLimit) {
    double sol[4];
    for (int i = 0; i < 4; ++i) sol[i] = (cof[0][i] * b[0] + cof[1][i] * b[1] + cof[2][i] * b[2] + cof[3][i] * b[3]) / det;
    return T(sol[0] - sol[1] * dpos[0] - sol[2] * dpos[1] - sol[3] * dpos[2]);
  }
  return s.a[0][0] > 0 ? T(b[0] / s.a[0][0]) : rho0;
}

// True for a boundary particle that takes part: one with a normal.
template <typename T>
SPH_HD SPH_FORCEINLINE bool hasNormal(const Real4<T>& n) {
  return n.x != T(0) || n.y != T(0) || n.z != T(0);
}

// Writes the corrected density and its pressure (pos.w, which the force pass reads).
template <typename T>
SPH_HD SPH_FORCEINLINE void mdbcStore(uint32_t b, T rho, Real4<T>* pos, Real4<T>* velrho,
                                      const PhysicsConstants<T>& c) {
  velrho[b].w = rho;
  pos[b].w = taitPressure(rho, c);
}

}  // namespace sph
