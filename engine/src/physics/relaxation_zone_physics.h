// Relaxation zones (model/case_relaxation_zones.h) at the end of a step, as DualSPHysics 5.4 applies
// them (its host code is closed; its kernels, JRelaxZone_ker.cu, are open, and every rule below was
// checked particle by particle against its CPU build's output: engine/tests/validation/
// test_dualsphysics_agreement.cpp, RelaxZones2D and RelaxSpectrum2D):
//
//  * a fluid particle in a zone gets v = F u + (1 - F) v for each blended component, with
//    F = w(s) C, C = coefdt dt (not capped at 1; C = 1 when coefdt is 0), and the weight
//      w(s) = ((tanh((s + psi) beta) - tanh((s - psi) beta)) - sub) / div,
//      sub = tanh((1 + psi) beta) - tanh((1 - psi) beta), div = 2 tanh(psi beta) - sub,
//    which is 1 at the zone's centre (s = 0) and 0 at its edges (s = +-1);
//  * wave zones: s = (x - centerx) / (width / 2) for |s| <= 1, the whole height and width of the
//    flume; x and z are blended, with F times coefdir.x and coefdir.z; u is linear wave theory
//    (regular waves at first or second order, Stokes; irregular waves the sum of the spectrum's
//    components) with the phase measured from the zone's centre, xr = x - centerx, zr = z - swl:
//      u  = a w cosh(k (d + zr)) / sinh(k d) cos(theta),  theta = w tau + phase - k xr,
//      uz = -a w sinh(k (d + zr)) / sinh(k d) sin(theta),  a = H / 2,
//    minus, when asked, drift x the Stokes drift a^2 w k cosh(2 k (d + zr)) / (2 sinh^2(k d)) of
//    regular waves, all times the ramp of the paddles (motion/paddle_regular_law.h);
//  * uniform zones: inside the (turned) box, strictly; s = the distance from the box's centre
//    along its direction over half the box's length that way; all three components blended
//    towards the velocity along the direction;
//  * external zones (run/relaxation_zones.h): the band of wave zones, the target bilinear in the
//    data's grid of x and z (the end nodes' beyond it), x blended with F coefdir.x, z with
//    F coefdir.z when the data have z velocities;
//  * only fluid particles (not floating bodies, not excluded ones); the times are the step's start.
#pragma once

#include <cmath>
#include <cstdint>

#include "sph/plugin/hd.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/real4.h"

namespace sph {

enum class RelaxKind : uint32_t { Regular, Spectrum, Uniform, External };

// One zone as it acts during one step: the host works out the time-dependent terms.
struct RelaxZoneStep {
  RelaxKind kind = RelaxKind::Regular;
  double coefDt = 1000;                   // 0: F = w
  double psi = 0.9, beta = 1, sub = 0, div = 1;
  // Wave zones.
  double centerX = 0, widthHalf = 1, coefX = 1, coefZ = 1, swl = 0, depth = 1, ramp = 1;
  double k = 0, sinhKd = 1, aw = 0, theta0 = 0;  // regular: theta = theta0 - k xr
  double second = 0, sinhKd4 = 1;                // second-order amplitude (0: first order)
  double driftC = 0, driftK2 = 0;                // drift driftC cosh(driftK2 (d + zr)); 0: none
  // Spectrum: count waves of 4 doubles each (k, a w, w, phase), where the particles live;
  // theta_i = w_i tau - k_i xr + phase_i.
  const double* waves = nullptr;
  uint32_t count = 0;
  double tau = 0;
  // Uniform zones: the box from origin along unit axes with sizes; the weight's centre and
  // direction; the target velocity.
  double origin[3] = {0, 0, 0}, axes[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, size[3] = {0, 0, 0};
  double center[3] = {0, 0, 0}, dir[3] = {1, 0, 0}, velocity[3] = {0, 0, 0};
  // External data (rzwaves_external_1d): nodes (i, k) at (pxmin + i dpx, pzmin + k dpz), i up to
  // npx1, k up to npz1, at index i (npz1 + 1) + k of the tables extA and extB (x velocities; z
  // ones from extAz, extBz when useVelz), where the particles live, mixed at extF: the target is
  // A + extF (B - A), bilinear in x and z, the end nodes' beyond them (DualSPHysics'
  // KerCalcVelocityExternalXZ). centerX, widthHalf, coefX, coefZ as for wave zones.
  double pxmin = 0, pzmin = 0, dpx = 1, dpz = 1, extF = 0;
  uint32_t npx1 = 0, npz1 = 0, useVelz = 0;
  const double *extA = nullptr, *extB = nullptr, *extAz = nullptr, *extBz = nullptr;
};

namespace relax {

// sub and div of the weight for psi and beta.
inline void weightConstants(double psi, double beta, double& sub, double& div) {
  sub = std::tanh((1 + psi) * beta) - std::tanh((1 - psi) * beta);
  div = (std::tanh(psi * beta) - std::tanh(-psi * beta)) - sub;
}

SPH_HD inline double weight(const RelaxZoneStep& z, double s) {
  return ((tanh((s + z.psi) * z.beta) - tanh((s - z.psi) * z.beta)) - z.sub) / z.div;
}

// The wave zone's target (u, uz) at xr = x - centerx, zr = z - swl, before the ramp and drift.
SPH_HD inline void waveVelocity(const RelaxZoneStep& z, double xr, double zr, double& u, double& w) {
  const double dz = z.depth + zr;
  if (z.kind == RelaxKind::Regular) {
    const double th = z.theta0 - z.k * xr;
    u = z.aw * cosh(z.k * dz) * cos(th) / z.sinhKd;
    w = -z.aw * sinh(z.k * dz) * sin(th) / z.sinhKd;
    if (z.second != 0) {
      u += z.second * cosh(2 * z.k * dz) * cos(2 * th) / z.sinhKd4;
      w -= z.second * sinh(2 * z.k * dz) * sin(2 * th) / z.sinhKd4;
    }
    return;
  }
  u = 0;
  w = 0;
  for (uint32_t i = 0; i < z.count; ++i) {
    const double* c = z.waves + 4 * size_t(i);
    const double th = c[2] * z.tau - c[0] * xr + c[3];
    const double s = sinh(c[0] * z.depth);
    u += c[1] * cosh(c[0] * dz) * cos(th) / s;
    w -= c[1] * sinh(c[0] * dz) * sin(th) / s;
  }
}

// Along one axis of the external grid: the node below pos (n1 at most) and the weight of the
// next (DualSPHysics' KerGetInterpolationData).
SPH_HD inline uint32_t externalCell(double pos, double posmin, double dp, uint32_t n1, double* f) {
  double d = pos > posmin ? pos - posmin : 0.0;
  uint32_t c = uint32_t(d / dp);
  if (c > n1) {
    c = n1;
    d = 0;
  } else {
    d -= dp * c;
  }
  *f = d / dp;
  return c;
}

// The external target at (x, z) from the tables a and b mixed at f.
SPH_HD inline double externalVelocity(const RelaxZoneStep& z, const double* a, const double* b, double x, double zz) {
  uint32_t cx = 0, cz = 0;
  double fx = 0, fz = 0;
  if (z.npx1) cx = externalCell(x, z.pxmin, z.dpx, z.npx1, &fx);
  if (z.npz1) cz = externalCell(zz, z.pzmin, z.dpz, z.npz1, &fz);
  const uint32_t npz = z.npz1 + 1;
  const uint32_t p000 = cx * npz + cz;
  const uint32_t p100 = cx < z.npx1 ? p000 + npz : p000;
  const uint32_t p001 = cz < z.npz1 ? p000 + 1 : p000;
  const uint32_t p101 = cx < z.npx1 ? p001 + npz : p001;
  auto at = [&](uint32_t q) { return a[q] + z.extF * (b[q] - a[q]); };
  const double v000 = fz * at(p001) + (1. - fz) * at(p000);
  const double v100 = z.npx1 ? fz * at(p101) + (1. - fz) * at(p100) : v000;
  return z.npx1 ? fx * (v100 - v000) + v000 : v000;
}

}  // namespace relax

template <typename T>
SPH_HD SPH_FORCEINLINE void relaxParticle(uint32_t i, const Real4<T>* pos, Real4<T>* velrho, const uint32_t* code,
                                          const RelaxZoneStep& z, double dt) {
  const uint32_t c = code[i];
  if (code::isBound(c) || code::isFloating(c) || code::isParked(c) || code::isExcluded(c)) return;
  const double p[3] = {double(pos[i].x), double(pos[i].y), double(pos[i].z)};
  const double coef = z.coefDt != 0 ? z.coefDt * dt : 1.0;
  Real4<T> v = velrho[i];
  if (z.kind == RelaxKind::Uniform) {
    for (int a = 0; a < 3; ++a) {
      const double d = (p[0] - z.origin[0]) * z.axes[a][0] + (p[1] - z.origin[1]) * z.axes[a][1] +
                       (p[2] - z.origin[2]) * z.axes[a][2];
      if (!(d > 0 && d < z.size[a])) return;
    }
    const double s = ((p[0] - z.center[0]) * z.dir[0] + (p[1] - z.center[1]) * z.dir[1] +
                      (p[2] - z.center[2]) * z.dir[2]) / z.widthHalf;
    const double f = relax::weight(z, s) * coef;
    v.x = T(f * z.velocity[0] + (1 - f) * double(v.x));
    v.y = T(f * z.velocity[1] + (1 - f) * double(v.y));
    v.z = T(f * z.velocity[2] + (1 - f) * double(v.z));
    velrho[i] = v;
    return;
  }
  const double xr = p[0] - z.centerX;
  const double s = xr / z.widthHalf;
  if (!(s >= -1 && s <= 1)) return;
  const double f = relax::weight(z, s) * coef;
  if (z.kind == RelaxKind::External) {
    const double fx = f * z.coefX, fz = f * z.coefZ;
    v.x = T(fx * relax::externalVelocity(z, z.extA, z.extB, p[0], p[2]) + (1 - fx) * double(v.x));
    if (z.useVelz && z.coefZ != 0)
      v.z = T(fz * relax::externalVelocity(z, z.extAz, z.extBz, p[0], p[2]) + (1 - fz) * double(v.z));
    velrho[i] = v;
    return;
  }
  const double zr = p[2] - z.swl;
  double u, w;
  relax::waveVelocity(z, xr, zr, u, w);
  if (z.driftC != 0) u -= z.driftC * cosh(z.driftK2 * (z.depth + zr));
  u *= z.ramp;
  w *= z.ramp;
  const double fx = f * z.coefX, fz = f * z.coefZ;
  v.x = T(fx * u + (1 - fx) * double(v.x));
  v.z = T(fz * w + (1 - fz) * double(v.z));
  velrho[i] = v;
}

}  // namespace sph
