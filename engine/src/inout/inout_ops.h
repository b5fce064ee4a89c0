// The per-particle passes of inlet/outlet zones (physics/inout_physics.h): an OpenMP version in
// inout/inout_ops_cpu.cpp and CUDA kernels in gpu/inout_ops.cu. Every pointer points where the
// particles live.
#pragma once

#include <cstdint>
#include <memory>

#include "physics/inout_physics.h"
#include "physics/integrator_physics.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/real4.h"
#include "sph/plugin/sym_tensor.h"

namespace sph {

// The particle arrays the passes read and write (optional ones null when the run has none).
template <typename T>
struct InOutArrays {
  Real4<T>* pos = nullptr;
  Real4<T>* posLo = nullptr;  // single precision's position remainders
  Real4<T>* velrho = nullptr;
  Real4<T>* velrhoPre = nullptr;
  Real4<T>* posPre = nullptr;
  uint32_t* code = nullptr;
  uint32_t* id = nullptr;
  SymTensor<T>* spsTau = nullptr;
  Real4<T>* normal = nullptr;
  Real4<T>* tangent = nullptr;
  Real4<T>* motionAce = nullptr;
  uint32_t nBound = 0, n = 0;
};

// A buffer particle an inlet creates: where, of which zone and code (before code::toInOut), and
// its id. The passes that list crossing particles give the id of the particle that crossed, which
// orders the new ones (InOutOps::takeSpawners); the engine then numbers them.
struct InOutNewParticle {
  double x[3] = {0, 0, 0};
  uint32_t zone = 0;
  uint32_t code = 0;
  uint32_t id = 0;
  uint32_t unused = 0;  // keeps the size a multiple of 8 bytes on every compiler
};

// What one end-of-step pass did.
struct InOutCounts {
  uint32_t removed = 0;   // particles removed (buffer out through the back or above zsurf, fluid by input 2)
  uint32_t toFluid = 0;   // buffer particles that crossed into the domain
  uint32_t spawned = 0;   // of those, the ones that leave a new buffer particle (flagged kInOutSpawnBit)
  uint32_t toBuffer = 0;  // fluid converted into buffer
};

template <typename T>
class InOutOps {
 public:
  virtual ~InOutOps() = default;
  // inOutClassify() for every fluid particle of [nBound, n) that is not floating or parked, and
  // its action: removed particles are parked at slots parkedFirst, parkedFirst + 1, ... of `lot`
  // (only flagged kParkedBit when lot.axis < 0: the caller compacts them at once), crossing ones
  // become fluid and those to be replaced flagged with code::kInOutSpawnBit.
  virtual InOutCounts classify(const InOutArrays<T>& a, const InOutParams& p, const ParkingLot& lot,
                               uint32_t parkedFirst) = 0;
  // For k in [0, count): out[k] is the new buffer particle that crossing particle which[k] leaves
  // `width` behind it in its zone, with which[k]'s id; clears which[k]'s spawn flag. `which` and
  // `out` live where the particles do.
  virtual void takeSpawners(const InOutArrays<T>& a, const InOutParams& p, const uint32_t* which, uint32_t count,
                            InOutNewParticle* out) = 0;
  // The zones' velocity and density on every buffer particle of [nBound, n), with its pressure in
  // pos.w; also in velrhoPre when setPre (the Verlet integrator's previous values, as DualSPHysics'
  // UpdateVelrhopM1).
  virtual void impose(const InOutArrays<T>& a, const InOutParams& p, const PhysicsConstants<T>& c, bool setPre) = 0;
  // Advanced refilling (physics/inout_physics.h, inOutRefillReach): reach[k] = the largest reach at
  // refill point k (points: x, y, z each) of the buffer particles of [nBound, n) in its zone, 0
  // when none; points and reach live where the particles do.
  virtual void refillReach(const InOutArrays<T>& a, const InOutParams& p, const double* points, uint32_t nPoints,
                           double dp, double* reach) = 0;
  // New buffer particles n, n + 1, ... (a.n is the count before) from `list` (where the particles
  // live), at rest.
  virtual void place(const InOutArrays<T>& a, const InOutParams& p, const InOutNewParticle* list, uint32_t count) = 0;
  // The buffer particles of [nBound, n) whose zone extrapolates something (InOutZoneData::velocity
  // 1 or density 2), in `which`; returns how many.
  virtual uint32_t listExtrapolated(const InOutArrays<T>& a, const InOutParams& p, uint32_t* which) = 0;
};

template <typename T>
std::unique_ptr<InOutOps<T>> makeInOutCpuOps(int threads);
template <typename T>
std::unique_ptr<InOutOps<T>> makeInOutGpuOps();  // throws RunError in a CPU-only build

// The pieces both versions share.
// Applies `action` to particle i (removed: parked at `slot`).
template <typename T>
SPH_HD inline void applyInOutAction(uint32_t i, InOutAction action, uint32_t zone, const InOutArrays<T>& a,
                                    const ParkingLot& lot, uint32_t slot) {
  uint32_t c = a.code[i];
  switch (action) {
    case InOutAction::Remove:
      a.code[i] = code::fromInOut(c);
      if (lot.axis >= 0) parkParticle(i, slot, a.pos, a.posLo, a.velrho, a.velrhoPre, a.code, lot);
      else a.code[i] |= code::kParkedBit;
      break;
    case InOutAction::ToFluid:
      a.code[i] = code::fromInOut(c);
      break;
    case InOutAction::ToFluidSpawn:  // keeps its zone bits for takeSpawners(), which clears them
      a.code[i] = (c & ~code::kInOutBit) | code::kInOutSpawnBit;
      break;
    case InOutAction::ToBuffer:
      a.code[i] = code::toInOut(c, zone);
      break;
    case InOutAction::None:
      break;
  }
}

// Whether buffer particle code c belongs to a zone that extrapolates.
SPH_HD inline bool inOutExtrapolated(uint32_t c, const InOutParams& p) {
  if (!code::isInOut(c) || (c & code::kParkedBit)) return false;
  const InOutZoneData& z = p.zones[code::inOutZone(c)];
  return z.velocity == 1 || z.density == 2;
}

// Whether the end-of-step pass looks at particle i at all: fluid, not floating, not parked, and
// this rank's own (another rank decides for its particles whose copies this one holds).
SPH_HD inline bool inOutCandidate(uint32_t c) {
  return (c & (code::kBoundBit | code::kFloatingBit | code::kParkedBit | code::kExcludedBit | code::kHaloBit)) == 0;
}

// New buffer particle `to` as `n` says, at rest (the impose pass gives it its velocity and
// density), the other arrays cleared.
template <typename T>
SPH_HD inline void placeInOutParticle(uint32_t to, const InOutNewParticle& n, const InOutArrays<T>& a,
                                      const InOutParams& p) {
  Real4<T> q{T(0), T(0), T(0), T(0)};
  storePosition(q, positionLo(a.posLo, to), n.x);
  a.pos[to] = q;
  if (a.posPre) a.posPre[to] = q;
  const Real4<T> rest{T(0), T(0), T(0), T(p.rho0)};
  a.velrho[to] = rest;
  a.velrhoPre[to] = rest;
  a.code[to] = code::toInOut(n.code, n.zone);
  a.id[to] = n.id;
  if (a.spsTau) a.spsTau[to] = SymTensor<T>{};
  if (a.normal) a.normal[to] = Real4<T>{T(0), T(0), T(0), T(0)};
  if (a.tangent) a.tangent[to] = Real4<T>{T(0), T(0), T(0), T(0)};
  if (a.motionAce) a.motionAce[to] = Real4<T>{T(0), T(0), T(0), T(0)};
}

// The new buffer particle the crossing particle `from` leaves: the zone's width behind it, of its
// mk, with its id; `from` becomes plain fluid.
template <typename T>
SPH_HD inline InOutNewParticle takeInOutSpawner(uint32_t from, const InOutArrays<T>& a, const InOutParams& p) {
  const uint32_t c = a.code[from];
  InOutNewParticle n;
  n.zone = code::inOutZone(c);
  n.code = code::fromInOut(c);
  n.id = a.id[from];
  a.code[from] = n.code;
  loadPosition(a.pos[from], positionLo(static_cast<const Real4<T>*>(a.posLo), from), n.x);
  const InOutZoneData& z = p.zones[n.zone];
  for (int k = 0; k < 3; ++k) n.x[k] -= z.width * z.dir[k];
  return n;
}

// Whether particle code c is one of this rank's buffer particles of a zone with advanced refilling.
SPH_HD inline bool inOutRefilled(uint32_t c, const InOutParams& p) {
  return code::isInOut(c) && !(c & (code::kParkedBit | code::kExcludedBit | code::kHaloBit)) &&
         p.zones[code::inOutZone(c)].refillAdvanced;
}

template <typename T>
SPH_HD inline void imposeInOutParticle(uint32_t i, const InOutArrays<T>& a, const InOutParams& p,
                                       const PhysicsConstants<T>& c, bool setPre) {
  const uint32_t cd = a.code[i];
  if (!code::isInOut(cd) || (cd & code::kParkedBit)) return;
  const InOutZoneData& z = p.zones[code::inOutZone(cd)];
  Real4<T> q = a.pos[i];
  double x[3];
  loadPosition(q, positionLo(static_cast<const Real4<T>*>(a.posLo), i), x);
  double v[3], rho;
  inOutImposed(z, p, x, v, &rho);
  const Real4<T> old = a.velrho[i];
  const bool keepVel = z.velocity == 1, keepRho = z.density == 2;
  const Real4<T> vr{keepVel ? old.x : T(v[0]), keepVel ? old.y : T(v[1]), keepVel ? old.z : T(v[2]),
                    keepRho ? old.w : T(rho)};
  a.velrho[i] = vr;
  if (setPre) a.velrhoPre[i] = vr;
  a.pos[i].w = taitPressure(vr.w, c);
}

}  // namespace sph
