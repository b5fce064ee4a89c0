// External accelerations of <special><accinputs> (DualSPHysics' JDsAccInput): the accelerations of
// a frame that moves, imposed on the fluid particles of some mks or on the particles of floating
// bodies. For a selected particle at position r with velocity v, at a step that starts at time t
// inside the input's [start, end], with the input's linear acceleration A, angular acceleration
// dW (rad/s^2), and the linear and angular velocities V, W integrated from them (model/case_acc_inputs.h)
// at t, and c the input's centre:
//   a += A;  a -= g when the input's globalgravity is 0;
//   when dW != 0:  a += dW x (r - c) + W x (W x (r - c)) + Coriolis,
// the Coriolis term written as DualSPHysics 5.4 writes it, which takes the frame's velocity V off
// the particle's velocity in one component of each product only (see accInputParticle). The sum
// is done in double precision and rounded to the run's precision once, as DualSPHysics does.
// DualSPHysics adds this to the acceleration before the force pass; the engine adds it after (the
// sum is the same up to rounding) and before the time step is computed from the accelerations.
#pragma once

#include <cstdint>

#include "sph/plugin/hd.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/real4.h"

namespace sph {

// One input's values for the step (the host interpolates them in time: motion/acc_inputs.h).
struct AccInputValues {
  double accLin[3] = {}, accAng[3] = {}, velLin[3] = {}, velAng[3] = {}, centre[3] = {};
  uint32_t active = 0;         // start <= t <= end
  uint32_t globalGravity = 1;  // 0: the case's gravity is taken away
  uint32_t angular = 0;        // accAng != 0: the rotating frame's terms are added
};

// Where the inputs' values live for a pass (device memory in GPU runs).
struct AccInputTable {
  const int16_t* slotOfMk = nullptr;  // per mk index (code::mkIndex): the input, or -1
  uint32_t nMk = 0;
  const AccInputValues* inputs = nullptr;
  double gravity[3] = {};  // the gravity the integrators add, taken away with globalgravity 0
};

// Adds the acceleration of particle i's input, if any is active for its mk, to ace[i]. Fluid
// and floating particles only (their mks' inputs are fluid and floating ones: the reader checks
// it); parked and excluded ones are left alone.
template <typename T>
SPH_HD SPH_FORCEINLINE void accInputParticle(uint32_t i, const Real4<T>* pos, const Real4<T>* velrho,
                                             const uint32_t* code, Real4<T>* ace, const AccInputTable& t) {
  const uint32_t c = code[i];
  if (code::isBound(c) || code::isParked(c) || code::isExcluded(c)) return;
  const uint32_t mk = code::mkIndex(c);
  if (mk >= t.nMk) return;
  const int slot = t.slotOfMk[mk];
  if (slot < 0) return;
  const AccInputValues& v = t.inputs[slot];
  if (!v.active) return;
  const Real4<T> f = ace[i];
  double ax = double(f.x) + v.accLin[0], ay = double(f.y) + v.accLin[1], az = double(f.z) + v.accLin[2];
  if (!v.globalGravity) {
    ax -= t.gravity[0];
    ay -= t.gravity[1];
    az -= t.gravity[2];
  }
  if (v.angular) {
    const Real4<T> p = pos[i];
    const Real4<T> u = velrho[i];
    const double dx = double(p.x) - v.centre[0], dy = double(p.y) - v.centre[1], dz = double(p.z) - v.centre[2];
    const double* w = v.velAng;
    const double* dw = v.accAng;
    // dW x d: the frame's angular acceleration.
    ax += dw[1] * dz - dw[2] * dy;
    ay += dw[2] * dx - dw[0] * dz;
    az += dw[0] * dy - dw[1] * dx;
    // W x (W x d): centripetal.
    const double cx = w[1] * dz - w[2] * dy, cy = w[2] * dx - w[0] * dz, cz = w[0] * dy - w[1] * dx;
    ax += w[1] * cz - w[2] * cy;
    ay += w[2] * cx - w[0] * cz;
    az += w[0] * cy - w[1] * cx;
    // Coriolis, 2 W x (v - V), exactly as DualSPHysics 5.4 (JDsAccInput) writes it: the frame's
    // velocity is taken off only the second velocity component of each product. Kept so, since
    // this engine follows DualSPHysics.
    const double ux = double(u.x), uy = double(u.y), uz = double(u.z);
    ax += 2.0 * w[1] * uz - 2.0 * w[2] * (uy - v.velLin[1]);
    ay += 2.0 * w[2] * ux - 2.0 * w[0] * (uz - v.velLin[2]);
    az += 2.0 * w[0] * uy - 2.0 * w[1] * (ux - v.velLin[0]);
  }
  ace[i] = Real4<T>{T(ax), T(ay), T(az), f.w};
}

}  // namespace sph
