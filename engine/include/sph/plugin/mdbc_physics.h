// Modified dynamic boundary conditions (mDBC; English et al. 2022), DualSPHysics' `Boundary` 2,
// with `SlipMode` 1 ("DBC vel=0") and 2, 3 (mDBC2: no-slip, free slip; mdbc2Wall below), as
// DualSPHysics 5.4 computes them (JSphCpu_mdbc.cpp).
//
// Every boundary particle b that has a normal (the vector from b to its ghost node, twice the
// distance from b to the boundary surface, GenCase's normals doubled; see geometry/boundary_normals.h) gets,
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
// those of the wall (zero, or the imposed motion). mDBC2 (SlipMode 2, 3; mdbc2Wall below) also
// corrects before the corrector's pass, and the integrators keep its walls' densities.
#pragma once

#include <cmath>

#include "sph/plugin/hd.h"
#include "sph/plugin/pair_physics.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/real4.h"
#include "sph/plugin/sph_kernels.h"

namespace sph {

// DualSPHysics' determinant limit for the first-order (matrix) estimate.
inline constexpr double kMdbcDeterminantLimit = 1e-3;

// The sums over the ghost node's fluid neighbours. Density and gradient in the particles'
// precision, the matrix in double (DualSPHysics' tmatrix4d, whose terms it adds in float).
// Row/column 0 is the constant term, then x, y, z; 2D runs leave row and column 2 (y) empty.
// mDBC2 (Slip) also sums the Shepard weight and velocity and the submersion measure.
template <typename T>
struct MdbcSums {
  T rho = 0;
  T grad[3] = {T(0), T(0), T(0)};
  double a[4][4] = {};
  T sumW = 0;                  // Slip: sum V W
  T submerged = 0;             // Slip: -sum V r . grad W, > 0 with any fluid in the support
  double vel[3] = {0, 0, 0};   // Slip: sum V W v
};

// Adds fluid particle j, seen from the ghost node: d = r_g - r_j, r2 = |d|^2 < support^2;
// velrhoJ its velocity and density.
template <KernelKind K, bool Slip = false, typename T>
SPH_HD SPH_FORCEINLINE void mdbcAddFluid(MdbcSums<T>& s, T dx, T dy, T dz, T r2, const Real4<T>& velrhoJ,
                                         const PhysicsConstants<T>& c) {
  const T r = sqrt(r2);
  const T w = kernelW<K>(r, c.h, c.kernelNorm);
  // F(0) is finite for both kernels (sph_kernels.h): a fluid particle on the ghost node counts.
  const T f = kernelGradFactor<K>(r, c.h, c.kernelNorm);
  const T g[3] = {f * dx, f * dy, f * dz};
  const T m = c.massFluid;
  const T vol = m / velrhoJ.w;
  s.rho += m * w;
  for (int k = 0; k < 3; ++k) s.grad[k] += m * g[k];
  const T row[4] = {w * vol, g[0] * vol, g[1] * vol, g[2] * vol};
  const T col[4] = {T(1), dx, dy, dz};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s.a[i][j] += double(col[j] * row[i]);
  if constexpr (Slip) {
    s.submerged -= vol * (dx * g[0] + dy * g[1] + dz * g[2]);
    s.sumW += row[0];
    s.vel[0] += double(row[0] * velrhoJ.x);
    s.vel[1] += double(row[0] * velrhoJ.y);
    s.vel[2] += double(row[0] * velrhoJ.z);
  }
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

// The determinant of the moment matrix over the dimension's rows (1, x, z in 2D; 1, x, y, z in
// 3D) and, when it is not zero, its inverse, as a 4x4 whose row and column 2 are zero in 2D.
SPH_HD inline double mdbcInverse(const double a[4][4], int dim, double inv[4][4]) {
  using mdbc_detail::det3;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) inv[i][j] = 0;
  if (dim == 2) {
    const int idx[3] = {0, 1, 3};
    double m[3][3];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) m[i][j] = a[idx[i]][idx[j]];
    const double det = det3(m);
    if (det == 0) return det;
    // inv = adj(m) / det; the cyclic index form carries the cofactors' signs.
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const int r0 = (j + 1) % 3, r1 = (j + 2) % 3, c0 = (i + 1) % 3, c1 = (i + 2) % 3;
        inv[idx[i]][idx[j]] = (m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]) / det;
      }
    return det;
  }
  double minor[3][3], cof[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      mdbc_detail::minor4(a, i, j, minor);
      cof[i][j] = ((i + j) % 2 ? -1.0 : 1.0) * det3(minor);
    }
  const double det = a[0][0] * cof[0][0] + a[0][1] * cof[0][1] + a[0][2] * cof[0][2] + a[0][3] * cof[0][3];
  if (det == 0) return det;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) inv[i][j] = cof[j][i] / det;
  return det;
}

// The corrected density of a boundary particle from its ghost node's sums; `normal` is r_g - r_b.
// rho0 when no fluid particle was near the ghost node.
template <typename T>
SPH_HD inline T mdbcDensity(const MdbcSums<T>& s, const Real4<T>& normal, int dim, T rho0) {
  const double b[4] = {double(s.rho), double(s.grad[0]), double(s.grad[1]), double(s.grad[2])};
  double inv[4][4];
  const double det = mdbcInverse(s.a, dim, inv);
  if (fabs(det) >= kMdbcDeterminantLimit) {
    double sol[4];
    for (int i = 0; i < 4; ++i) sol[i] = inv[i][0] * b[0] + inv[i][1] * b[1] + inv[i][2] * b[2] + inv[i][3] * b[3];
    // rho_ghost + grad rho . (r_b - r_g), with grad rho = -sol[1..3] and r_b - r_g = -normal.
    return T(sol[0] + sol[1] * double(normal.x) + sol[2] * double(normal.y) + sol[3] * double(normal.z));
  }
  return s.a[0][0] > 0 ? T(b[0] / s.a[0][0]) : rho0;
}

// mDBC2 (SlipMode 2 no-slip, 3 free slip; DualSPHysics' InteractionMdbc2CorrectionT2): what a
// wall particle takes from its ghost node's sums.
//  - No fluid within the support of the ghost node (submerged <= 0): the particle is switched
//    off: density rho0, no mass in the force pass, tangential velocity that of the wall.
//  - Otherwise the ghost node's density: the first-order estimate (row 0 of A^-1 (rho, grad
//    rho)) when |det A| >= 1e-3 and the scaled condition number dp^2 |A|_inf |A^-1|_inf <= 50,
//    else the Shepard estimate; when sum V W < 0.1 the Shepard estimate, at least rho0. Then
//    the pressure is cloned to the wall along the normal: p_b = c0^2 (rho_g - rho0) + rho0 (g -
//    a_wall) . n (r_b - r_g) . n (n the unit normal, a_wall the acceleration of the wall's
//    imposed motion), and rho_b = rho0 + p_b / c0^2.
//  - The ghost's velocity is the Shepard sum; the wall's velocity in the viscous terms is the
//    tangential part of 2 v_wall - v_ghost (no-slip) or of v_ghost (free slip). The wall's own
//    velocity (velrho) stays the wall's.
template <typename T>
struct Mdbc2Wall {
  T rho;
  bool off;
  Real4<T> tangent;  // the tangential velocity the force pass uses for this wall particle
};

template <typename T>
SPH_HD inline Real4<T> mdbcTangential(const Real4<T>& normal, T vx, T vy, T vz) {
  const T len = sqrt(normal.x * normal.x + normal.y * normal.y + normal.z * normal.z);
  const T nx = normal.x / len, ny = normal.y / len, nz = normal.z / len;
  const T dot = vx * nx + vy * ny + vz * nz;
  return {vx - dot * nx, vy - dot * ny, vz - dot * nz, T(0)};
}

template <typename T>
SPH_HD inline Mdbc2Wall<T> mdbc2Wall(const MdbcSums<T>& s, const Real4<T>& normal, const Real4<T>& wallVel,
                                     const Real4<T>& wallAce, const PhysicsConstants<T>& c) {
  if (!(s.submerged > T(0))) return {c.rho0, true, mdbcTangential(normal, wallVel.x, wallVel.y, wallVel.z)};
  const T shepard = T(double(s.rho) / s.a[0][0]);
  T rhoGhost;
  if (s.sumW < T(0.1)) {
    rhoGhost = shepard > c.rho0 ? shepard : c.rho0;  // DualSPHysics: avoids too negative pressures
  } else {
    double inv[4][4];
    const double det = mdbcInverse(s.a, c.dim, inv);
    rhoGhost = shepard;
    if (fabs(det) >= kMdbcDeterminantLimit) {
      double normA = 0, normInv = 0;  // infinity norms (rows' absolute sums)
      for (int i = 0; i < 4; ++i) {
        double ra = 0, ri = 0;
        for (int j = 0; j < 4; ++j) {
          ra += fabs(s.a[i][j]);
          ri += fabs(inv[i][j]);
        }
        normA = ra > normA ? ra : normA;
        normInv = ri > normInv ? ri : normInv;
      }
      const T cond = T(double(c.dp) * double(c.dp)) * T(normA) * T(normInv);
      if (cond <= T(50))
        rhoGhost = T(inv[0][0] * double(s.rho) + inv[0][1] * double(s.grad[0]) + inv[0][2] * double(s.grad[1]) +
                     inv[0][3] * double(s.grad[2]));
    }
  }
  // Pressure cloning along the unit normal (2D: its x and z).
  const double c02 = double(c.c0) * double(c.c0);
  const T ny = c.dim == 2 ? T(0) : normal.y;
  const T len = sqrt(normal.x * normal.x + ny * ny + normal.z * normal.z);
  const T nx = normal.x / len, nyu = ny / len, nz = normal.z / len;
  const T along = -(normal.x * nx + ny * nyu + normal.z * nz);  // (r_b - r_g) . n
  const T pGhost = T(c02 * (double(rhoGhost) - double(c.rho0)));
  const T fx = c.gx - wallAce.x, fy = c.gy - wallAce.y, fz = c.gz - wallAce.z;
  const T pressure = pGhost + c.rho0 * (fx * nx + (c.dim == 2 ? T(0) : fy * nyu) + fz * nz) * along;
  const T rho = c.rho0 + T(double(pressure) / c02);
  const double a00 = s.a[0][0];
  T vx = T(s.vel[0] / a00), vy = c.dim == 2 ? T(0) : T(s.vel[1] / a00), vz = T(s.vel[2] / a00);
  if (c.boundary == BoundaryModel::MdbcNoSlip) {
    vx = wallVel.x + wallVel.x - vx;
    vy = wallVel.y + wallVel.y - vy;
    vz = wallVel.z + wallVel.z - vz;
  }
  return {rho, false, mdbcTangential(normal, vx, vy, vz)};
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

// What a wall particle with a normal takes from its ghost node's sums: mDBC's density (Vel0), or
// mDBC2's density, on/off state (code::kMdbcOffBit) and tangential velocity (tangent[b]); its
// velocity (velrho.xyz) stays the wall's; motionAce (may be null: fixed walls) is the wall's
// acceleration.
template <typename T>
SPH_HD SPH_FORCEINLINE void mdbcStoreWall(uint32_t b, const MdbcSums<T>& s, const Real4<T>& normal, Real4<T>* pos,
                                          Real4<T>* velrho, uint32_t* code, Real4<T>* tangent,
                                          const Real4<T>* motionAce, const PhysicsConstants<T>& c) {
  if (c.boundary == BoundaryModel::MdbcNoSlip || c.boundary == BoundaryModel::MdbcFreeSlip) {
    const Mdbc2Wall<T> w = mdbc2Wall(s, normal, velrho[b], motionAce ? motionAce[b] : Real4<T>{}, c);
    mdbcStore(b, w.rho, pos, velrho, c);
    code[b] = w.off ? (code[b] | code::kMdbcOffBit) : (code[b] & ~code::kMdbcOffBit);
    tangent[b] = w.tangent;
    return;
  }
  mdbcStore(b, mdbcDensity(s, normal, c.dim, c.rho0), pos, velrho, c);
}

}  // namespace sph
