// Inlet/outlet zones with an extrapolated velocity or density (DualSPHysics' <imposevelocity
// mode="2">, <imposerhop mode="2">; its JSphCpu::InteractionInOutExtrap, after Tafuni et al. 2018):
// each buffer particle p of such a zone takes the value the fluid around its ghost node gives,
// the node mirrored across the zone's plane into the domain, g = r_p + 2 d dir (d its distance
// behind the plane). Over the fluid particles j (not buffer, boundary or floating ones) with
// 0 < |r_g - r_j| <= 2h, V_j = m / rho_j:
//
//   rho_g = sum m W_gj, grad rho_g = sum m grad W_gj;  v_g = sum V_j v_j W_gj, grad v_g = sum V_j v_j (x) grad W_gj
//   A = sum V_j [1, x_gj]^T (x) [W_gj, grad W_gj]  (mdbc_physics.h's moment matrix)
//
// With |det A| >= the zone set's determlimit, the first-order estimate f_g, grad f = A^-1 (f,
// grad f sums) (the gradient's sign flipped, as for mDBC) is carried back to the particle, f_p =
// f_g + grad f . (r_p - r_g); below it, with A_00 > 0, the Shepard value f / A_00; with no fluid
// around the node, the particle keeps what it had. DualSPHysics' default determlimit 1e3 makes
// the Shepard value the usual one. In 2D the velocity's y stays 0. The sums are in double here
// (DualSPHysics' extrapolatemode 3; its single-precision modes 1 and 2 differ from it by
// round-off only).
//
// The engine calls the neighbour strategy (NeighbourStrategy::extrapolateInOut) once a step,
// after its first prepare(), for the listed buffer particles; the strategy iterates the
// candidates near each ghost node and calls the functions below.
#pragma once

#include <cmath>
#include <cstdint>

#include "sph/plugin/hd.h"
#include "sph/plugin/mdbc_physics.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/real4.h"
#include "sph/plugin/sph_kernels.h"

namespace sph {

// One zone's plane, where the particles live.
struct InOutMirror {
  double plane[3] = {0, 0, 0};  // a point on it
  double dir[3] = {0, 0, 0};    // unit normal, into the domain
  uint32_t density = 0;         // 1: the zone's density is extrapolated
  uint32_t velocity = 0;        // 1: its velocity
};

struct InOutExtrapolation {
  const InOutMirror* zones = nullptr;  // indexed by the particles' zone (code::inOutZone)
  const uint32_t* which = nullptr;     // the buffer particles to extrapolate, where the particles live
  uint32_t count = 0;
  double determLimit = 1e3;
};

struct InOutSums {
  double rho = 0, gradRho[3] = {0, 0, 0};
  double vel[3] = {0, 0, 0};
  double gradVel[3][3] = {};  // [component][direction]
  double a[4][4] = {};
};

// Buffer particle p's ghost node.
template <typename T>
SPH_HD SPH_FORCEINLINE Real4<T> inOutGhostNode(const Real4<T>& p, const InOutMirror& m) {
  const double behind = -(m.dir[0] * (double(p.x) - m.plane[0]) + m.dir[1] * (double(p.y) - m.plane[1]) +
                          m.dir[2] * (double(p.z) - m.plane[2]));
  const double d = 2 * fabs(behind);
  return {T(double(p.x) + d * m.dir[0]), T(double(p.y) + d * m.dir[1]), T(double(p.z) + d * m.dir[2]), T(0)};
}

// Whether particle code `c` is fluid that the extrapolation reads.
SPH_HD SPH_FORCEINLINE bool inOutSource(uint32_t c) {
  return (c & (code::kBoundBit | code::kFloatingBit | code::kExcludedBit | code::kParkedBit | code::kInOutBit)) == 0;
}

// Adds fluid particle j seen from the ghost node: d = r_g - r_j, r2 = |d|^2.
template <KernelKind K, typename T>
SPH_HD SPH_FORCEINLINE void inOutAddFluid(InOutSums& s, T dx, T dy, T dz, T r2, const Real4<T>& velrhoJ,
                                          const PhysicsConstants<T>& c) {
  if (!(r2 <= c.support2) || r2 < T(1e-18)) return;
  const double r = sqrt(double(r2));
  const double w = double(kernelW<K>(T(r), c.h, c.kernelNorm));
  const double f = double(kernelGradFactor<K>(T(r), c.h, c.kernelNorm));
  const double d[3] = {double(dx), double(dy), double(dz)};
  const double g[3] = {f * d[0], f * d[1], f * d[2]};
  const double m = double(c.massFluid), vol = m / double(velrhoJ.w);
  const double v[3] = {double(velrhoJ.x), double(velrhoJ.y), double(velrhoJ.z)};
  s.rho += m * w;
  for (int k = 0; k < 3; ++k) {
    s.gradRho[k] += m * g[k];
    s.vel[k] += vol * w * v[k];
    for (int l = 0; l < 3; ++l) s.gradVel[k][l] += vol * g[l] * v[k];
  }
  const double row[4] = {w * vol, g[0] * vol, g[1] * vol, g[2] * vol};
  const double col[4] = {1, d[0], d[1], d[2]};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) s.a[i][j] += col[j] * row[i];
}

// Writes the extrapolated density (and its pressure, pos.w) and velocity of buffer particle p,
// whose ghost node is g, as its zone asks.
template <typename T>
SPH_HD inline void inOutStoreExtrapolated(uint32_t p, const InOutSums& s, const Real4<T>& g, const InOutMirror& m,
                                          double determLimit, Real4<T>* pos, Real4<T>* velrho,
                                          const PhysicsConstants<T>& c) {
  Real4<T> vr = velrho[p];
  const Real4<T> x = pos[p];
  const double dpos[3] = {double(x.x) - double(g.x), double(x.y) - double(g.y), double(x.z) - double(g.z)};
  double inv[4][4];
  const double det = mdbcInverse(s.a, c.dim, inv);
  // The first-order value at the particle from one field's sums (b = value, gradient).
  auto firstOrder = [&](const double b[4]) {
    double sol[4];
    for (int i = 0; i < 4; ++i) sol[i] = inv[i][0] * b[0] + inv[i][1] * b[1] + inv[i][2] * b[2] + inv[i][3] * b[3];
    return sol[0] - (sol[1] * dpos[0] + sol[2] * dpos[1] + sol[3] * dpos[2]);
  };
  if (fabs(det) >= determLimit) {
    if (m.density) {
      const double b[4] = {s.rho, s.gradRho[0], s.gradRho[1], s.gradRho[2]};
      vr.w = T(firstOrder(b));
    }
    if (m.velocity) {
      double v[3];
      for (int k = 0; k < 3; ++k) {
        const double b[4] = {s.vel[k], s.gradVel[k][0], s.gradVel[k][1], s.gradVel[k][2]};
        v[k] = firstOrder(b);
      }
      vr.x = T(v[0]);
      vr.y = c.dim == 2 ? T(0) : T(v[1]);
      vr.z = T(v[2]);
    }
  } else if (s.a[0][0] > 0) {
    if (m.density) vr.w = T(s.rho / s.a[0][0]);
    if (m.velocity) {
      vr.x = T(s.vel[0] / s.a[0][0]);
      vr.y = c.dim == 2 ? T(0) : T(s.vel[1] / s.a[0][0]);
      vr.z = T(s.vel[2] / s.a[0][0]);
    }
  }
  velrho[p] = vr;
  pos[p].w = taitPressure(vr.w, c);
}

}  // namespace sph
