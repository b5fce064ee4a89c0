// The imposed motion of one boundary particle, shared by the CPU loop and the CUDA kernel. The
// host computes each moving object's rigid transform over the step in double precision
// (motion/motion_kinematics.h); a particle of a moving object, recognised by the mk index in its code
// word (particles are reordered, so never by position in the arrays), gets
//   x' = R x + b,   v = (x' - x)/dt
// computed in double and rounded once to the run's precision. A pure translation imposes
// v = b/dt directly; a multi-layer piston moves each layer of its particles by its own amount
// (MotionTransform::layers). The density and the pressure (velrho.w, pos.w) are left to the
// integrator.
// mDBC's normal (when `normal` is given) turns with the object: n' = R n. mDBC2's wall
// acceleration (when `motionAce` is given) is the velocity's change over the step, (v' - v)/dt, as
// DualSPHysics' CopyMotionVelAce computes it. Single-precision runs move pos + posLo (when
// `posLo` is given; physics/position_split.h): a slow paddle far from the origin moves by less than half
// a float spacing in a step, and the float pos alone would not follow.
//
// Periodic axes (periodic.h): a particle that leaves [min, min + L) comes back in through the
// other side, as DualSPHysics' motion kernels do, so the strategies' contract holds. A rotation
// must see the object whole, not with some particles already wrapped: each particle is first
// taken to the image nearest the object's anchor (a point that moves with the object, its
// centroid at the start), which is exact while the object spans less than L/2 along the axis.
#pragma once

#include <cmath>
#include <cstdint>

#include "physics/position_split.h"
#include "sph/plugin/hd.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/periodic.h"
#include "sph/plugin/real4.h"

namespace sph {

struct MotionTransform {
  double r[9];       // row-major rotation
  double b[3];       // translation
  double invDt;      // 1/dt of the step
  double anchor[3];  // a point of the object at the start of the step (periodic runs)
  uint32_t linear;   // 1: r is the identity
  // A multi-layer piston (motion/ml_piston_law.h) instead, when layers > 0: a particle at (y, z)
  // is in cell (unsigned((y - layerY0) / layerDp), unsigned((z - layerZ0) / layerDp)) of
  // layersY x layers, its x moved by that cell's layerMov and its x velocity set to its layerVel
  // (the table's arrays from layerBase, column after column); above the top layer it stays.
  uint32_t layers = 0, layersY = 1, layerBase = 0;
  double layerY0 = 0, layerZ0 = 0, layerDp = 1;
};

struct MotionTableView {
  const int16_t* slotOfMk = nullptr;  // per mk index: index into transforms, or -1 (not moving)
  uint32_t nMk = 0;
  const MotionTransform* transforms = nullptr;
  PeriodicBox<double> box;            // the run's periodic axes (none: all open)
  const double* layerMov = nullptr;   // the multi-layer pistons' cells, where the particles live
  const double* layerVel = nullptr;
};

template <typename T>
SPH_HD SPH_FORCEINLINE void moveBoundaryParticle(uint32_t i, Real4<T>* pos, Real4<T>* velrho, const uint32_t* code,
                                                 const MotionTableView& m, Real4<T>* normal = nullptr,
                                                 Real4<T>* motionAce = nullptr, Real4<T>* posLo = nullptr) {
  const uint32_t c = code[i];
  if (!code::isBound(c)) return;
  const uint32_t mk = code::mkIndex(c);
  if (mk >= m.nMk) return;
  const int slot = m.slotOfMk[mk];
  if (slot < 0) return;
  const MotionTransform& t = m.transforms[slot];
  Real4<T> p = pos[i];
  Real4<T> v = velrho[i];
  Real4<T>* lo = positionLo(posLo, i);
  double x[3], moved[3];
  loadPosition(p, lo, x);
  if (t.layers) {
    const double dz = (x[2] - t.layerZ0) / t.layerDp, dy = (x[1] - t.layerY0) / t.layerDp;
    const uint32_t cz = dz > 0 ? uint32_t(dz) : 0u;
    uint32_t cy = dy > 0 ? uint32_t(dy) : 0u;
    if (cy >= t.layersY) cy = t.layersY - 1;
    const uint32_t cell = t.layerBase + cy * t.layers + cz;
    for (int k = 0; k < 3; ++k) moved[k] = x[k];
    if (cz < t.layers) moved[0] += m.layerMov[cell];
    v.x = T(cz < t.layers ? m.layerVel[cell] : 0.0);
  } else if (t.linear) {
    for (int k = 0; k < 3; ++k) moved[k] = x[k] + t.b[k];
    v.x = T(t.b[0] * t.invDt);
    v.y = T(t.b[1] * t.invDt);
    v.z = T(t.b[2] * t.invDt);
  } else {
    for (int k = 0; k < 3; ++k) x[k] = t.anchor[k] + minimumImage(x[k] - t.anchor[k], m.box.length[k]);
    for (int k = 0; k < 3; ++k) moved[k] = t.r[3 * k] * x[0] + t.r[3 * k + 1] * x[1] + t.r[3 * k + 2] * x[2] + t.b[k];
    v.x = T((moved[0] - x[0]) * t.invDt);
    v.y = T((moved[1] - x[1]) * t.invDt);
    v.z = T((moved[2] - x[2]) * t.invDt);
    if (normal) {
      const Real4<T> n = normal[i];
      const double d[3] = {double(n.x), double(n.y), double(n.z)};
      normal[i] = {T(t.r[0] * d[0] + t.r[1] * d[1] + t.r[2] * d[2]), T(t.r[3] * d[0] + t.r[4] * d[1] + t.r[5] * d[2]),
                   T(t.r[6] * d[0] + t.r[7] * d[1] + t.r[8] * d[2]), n.w};
    }
  }
  // Back into [min, min + L) by whole periods (a step moves far less than one).
  for (int k = 0; k < 3; ++k) {
    const double L = m.box.length[k];
    if (L > 0) moved[k] -= L * floor((moved[k] - m.box.min[k]) / L);
  }
  storePosition(p, lo, moved);
  if (motionAce) {
    const Real4<T> old = velrho[i];
    motionAce[i] = {T((double(v.x) - double(old.x)) * t.invDt), T((double(v.y) - double(old.y)) * t.invDt),
                    T((double(v.z) - double(old.z)) * t.invDt), T(0)};
  }
  pos[i] = p;
  velrho[i] = v;
}

}  // namespace sph
