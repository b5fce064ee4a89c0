// The per-step passes of floating bodies (physics/floating_body_physics.h): an OpenMP/serial version in
// floating/floating_ops_cpu.cpp and CUDA kernels in gpu/floating_ops.cu. Every pointer points where the
// particles live.
#pragma once

#include <cstdint>

#include "physics/floating_body_physics.h"
#include "sph/plugin/floating_table.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/particle_view.h"
#include "sph/plugin/periodic.h"

namespace sph {

// slotIndex of a floating particle this rank does not own (another rank's, or a halo copy of it:
// run/rank_domain.h); every slot holds an index on one rank.
inline constexpr uint32_t kNoSlot = 0xFFFFFFFFu;

template <typename T>
struct FloatingPass {
  FloatingBody* bodies = nullptr;
  const BodyDrive* drives = nullptr;  // per body, when the case imposes anything on a body (else null)
  BodyMotion* motions = nullptr;    // per body: the motion of the last advance
  double* centerNow = nullptr;      // per body, 3 each: the centre of the particles as they are now
  uint32_t* bodyContacts = nullptr; // per body: DEM contacts of the last force pass (written here)
  BodySums* sums = nullptr;         // per body: the sums of the last force pass over its particles
  uint32_t nBodies = 0;
  uint32_t* slotIndex = nullptr;  // per floating particle (id - idFirst): its index in the arrays, or kNoSlot
  uint32_t nFloating = 0, idFirst = 0;
  const SolidInfo<T>* solids = nullptr;
  const uint32_t* particleContacts = nullptr;  // per particle, DEM only (null otherwise)
  PeriodicBox<T> box;
  double gravity[3] = {0, 0, 0};
  int dim = 3;
  FloatingMotion motion = FloatingMotion::DualSPHysics;
};

// slotIndex[id - idFirst] = i for every floating particle i of [0, p.n) but halo copies; kNoSlot for
// the others.
template <typename T>
void indexFloatingCpu(const ParticleView<T>& p, const FloatingPass<T>& f, int threads);
// Sums the last force pass per body over the particles in slotIndex, into f.sums.
template <typename T>
void sumFloatingCpu(const ParticleView<T>& p, const Real4<T>* ace, const Real4<T>* src, const FloatingPass<T>& f);
// Advances each body from f.sums over the step *dt (dt where the particles live) as `kind` says and
// moves its particles in slotIndex from src and srcVel (their place and velocity at the start of the
// step: pos and velrho, or the symplectic corrector's posPre and velrhoPre) to their new place.
template <typename T>
void advanceFloatingCpu(const ParticleView<T>& p, const Real4<T>* src, const Real4<T>* srcVel, const FloatingPass<T>& f,
                        const double* dt, BodyStep kind, bool paused, int threads);

// The same in CUDA (they throw without it).
template <typename T>
void indexFloatingGpu(const ParticleView<T>& p, const FloatingPass<T>& f);
template <typename T>
void sumFloatingGpu(const ParticleView<T>& p, const Real4<T>* ace, const Real4<T>* src, const FloatingPass<T>& f);
template <typename T>
void advanceFloatingGpu(const ParticleView<T>& p, const Real4<T>* src, const Real4<T>* srcVel, const FloatingPass<T>& f,
                        const double* dt, BodyStep kind, bool paused);

// The pieces both versions share: one body's sums from its particles, and its advance.
// Where the arms of the sums start: DualSPHysics' rules take the particles and the centre at the
// start of the step, the rigid ones as they are now (the symplectic corrector: at the half step).
template <typename T>
SPH_HD inline const Real4<T>* sumPositions(const ParticleView<T>& p, const Real4<T>* src, const FloatingPass<T>& f) {
  return f.motion == FloatingMotion::DualSPHysics ? src : p.pos;
}
template <typename T>
SPH_HD inline const double* sumCenter(uint32_t b, const FloatingPass<T>& f) {
  return f.motion == FloatingMotion::DualSPHysics ? f.bodies[b].center : f.centerNow + 3 * b;
}

// Adds the particle of slot `slot` when this rank owns it.
template <typename T>
SPH_HD inline void addParticleToBody(BodySums& s, uint32_t slot, const Real4<T>* pos, const Real4<T>* ace,
                                     const double center[3], const FloatingPass<T>& f) {
  const uint32_t i = f.slotIndex[slot];
  if (i == kNoSlot) return;
  double d[3];
  offsetFromCenter(pos[i], center, f.box, d);
  const Real4<T> a = ace[i];
  addToBodySums(s, d[0], d[1], d[2], double(a.x), double(a.y), double(a.z),
                f.particleContacts ? f.particleContacts[i] : 0u);
}

template <typename T>
SPH_HD inline void finishBody(uint32_t b, const BodySums& s, const FloatingPass<T>& f, double stepDt, bool paused,
                              BodyStep kind) {
  const BodyDrive* drive = f.drives ? f.drives + b : nullptr;
  const BodyMotion m = f.motion == FloatingMotion::DualSPHysics
                           ? advanceBodyDualSPHysics(f.bodies[b], s, stepDt, f.gravity, f.dim, paused, kind, drive)
                           : advanceBody(f.bodies[b], s, stepDt, f.gravity, f.dim, paused, kind, drive);
  f.motions[b] = m;
  for (int k = 0; k < 3; ++k) f.centerNow[3 * b + k] = m.to[k];
  f.bodyContacts[b] = s.contacts;
}

// Single precision (physics/position_split.h): src + posLo is the start of the step in every kind (the
// symplectic predictor leaves posLo alone), and the new remainder is written except by the
// predictor.
template <typename T>
SPH_HD inline void moveBodyParticle(uint32_t slot, const ParticleView<T>& p, const Real4<T>* src,
                                    const Real4<T>* srcVel, const FloatingPass<T>& f, BodyStep kind) {
  const uint32_t i = f.slotIndex[slot];
  if (i == kNoSlot) return;
  const int32_t b = f.solids[code::mkIndex(p.code[i])].body;
  const Real4<T>* srcLo = positionLo(static_cast<const Real4<T>*>(p.posLo), i);
  Real4<T>* lo = kind == BodyStep::Predictor ? nullptr : positionLo(p.posLo, i);
  if (f.motion == FloatingMotion::DualSPHysics)
    moveFloatingParticleLinear(src[i], srcVel[i], f.motions[b], f.box, p.pos[i], p.velrho[i], srcLo, lo);
  else
    moveFloatingParticle(src[i], f.motions[b], f.box, p.pos[i], p.velrho[i], srcLo, lo);
}

}  // namespace sph
