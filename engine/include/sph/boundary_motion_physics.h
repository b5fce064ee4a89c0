// The imposed motion of one boundary particle, shared by the CPU loop and the CUDA kernel. The
// host computes each moving object's rigid transform over the step in double precision
// (motion_kinematics.h); a particle of a moving object, recognised by the mk index in its code
// word (particles are reordered, so never by position in the arrays), gets
//   x' = R x + b,   v = (x' - x)/dt
// computed in double and rounded once to the run's precision. A pure translation imposes
// v = b/dt directly. The density and the pressure (velrho.w, pos.w) are left to the integrator.
#pragma once

#include <cstdint>

#include "sph/hd.h"
#include "sph/particle_code.h"
#include "sph/real4.h"

namespace sph {

struct MotionTransform {
  double r[9];       // row-major rotation
  double b[3];       // translation
  double invDt;      // 1/dt of the step
  uint32_t linear;   // 1: r is the identity
};

struct MotionTableView {
  const int16_t* slotOfMk = nullptr;  // per mk index: index into transforms, or -1 (not moving)
  uint32_t nMk = 0;
  const MotionTransform* transforms = nullptr;
};

template <typename T>
SPH_HD SPH_FORCEINLINE void moveBoundaryParticle(uint32_t i, Real4<T>* pos, Real4<T>* velrho, const uint32_t* code,
                                                 const MotionTableView& m) {
  const uint32_t c = code[i];
  if (!code::isBound(c)) return;
  const uint32_t k = code::mkIndex(c);
  if (k >= m.nMk) return;
  const int slot = m.slotOfMk[k];
  if (slot < 0) return;
  const MotionTransform& t = m.transforms[slot];
  Real4<T> p = pos[i];
  Real4<T> v = velrho[i];
  if (t.linear) {
    p.x = T(double(p.x) + t.b[0]);
    p.y = T(double(p.y) + t.b[1]);
    p.z = T(double(p.z) + t.b[2]);
    v.x = T(t.b[0] * t.invDt);
    v.y = T(t.b[1] * t.invDt);
    v.z = T(t.b[2] * t.invDt);
  } else {
    const double x = double(p.x), y = double(p.y), z = double(p.z);
    const double nx = t.r[0] * x + t.r[1] * y + t.r[2] * z + t.b[0];
    const double ny = t.r[3] * x + t.r[4] * y + t.r[5] * z + t.b[1];
    const double nz = t.r[6] * x + t.r[7] * y + t.r[8] * z + t.b[2];
    p.x = T(nx);
    p.y = T(ny);
    p.z = T(nz);
    v.x = T((nx - x) * t.invDt);
    v.y = T((ny - y) * t.invDt);
    v.z = T((nz - z) * t.invDt);
  }
  pos[i] = p;
  velrho[i] = v;
}

}  // namespace sph
