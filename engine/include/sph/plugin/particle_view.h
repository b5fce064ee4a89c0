// Non-owning views of the engine's particle arrays, handed to neighbour strategies. Pointers
// are device pointers when the run is on the GPU and host pointers on the CPU.
#pragma once

#include <cstdint>

#include "sph/plugin/hd.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/real4.h"
#include "sph/plugin/sym_tensor.h"

namespace sph {

template <typename T>
struct ParticleView {
  Real4<T>* pos = nullptr;     // x, y, z and, during an interaction, the pressure in w
  Real4<T>* velrho = nullptr;  // vx, vy, vz, density
  uint32_t* code = nullptr;    // sph::code word (type, exclusion, mk index)
  uint32_t* id = nullptr;      // particle id, stable across sorts
  uint32_t n = 0;              // active particles; boundary ones are [0, nBound)
  uint32_t nBound = 0;
  // tau/rho of every particle from the last force pass (sps_physics.h), in runs with the SPS
  // model (ViscoTreatment 2) only; null otherwise.
  SymTensor<T>* spsTau = nullptr;
  // mDBC (mdbc_physics.h): per particle the vector from a boundary particle to its ghost node,
  // zero for particles without one (fluid, floating, walls deeper than GenCase's reach); in runs
  // with Boundary 2 only, null otherwise.
  Real4<T>* normal = nullptr;
  // mDBC2 (SlipMode 2, 3): per wall particle the tangential velocity its correction gives the
  // viscous terms of its fluid neighbours (mdbc_physics.h, mdbc2Wall); null otherwise.
  Real4<T>* tangent = nullptr;
  // mDBC2 with moving walls: per wall particle the acceleration of its imposed motion over the
  // last step (its velocity change over dt; physics/boundary_motion_physics.h), which enters its cloned
  // pressure; null otherwise.
  Real4<T>* motionAce = nullptr;
  // Single-precision runs: what rounding left of each position, pos + posLo being the position
  // to double accuracy (physics/position_split.h); null in double precision. The engine's passes that
  // move particles keep it; a strategy only reads pos, and reorders it with the rest (the
  // engine's ParticleReorderer does).
  Real4<T>* posLo = nullptr;
};

// Which part of a force pass one interact() call does. A run over several ranks may split a pass
// around the refresh of its halo (the copies of other ranks' particles, code::kHaloBit), so that
// the messages travel while the particles far from the halo interact:
// - Interior, first, while the halo is being refreshed: it must not read a halo copy (its place,
//   velocity, anything). Only the particles that code::readsHalo() may have one within the
//   support: the copies themselves and the particles marked code::kNearHaloBit. The call may
//   do any part of the work that reads no copy (sums of the other particles, terms that pairs
//   of two such particles give a marked one), or nothing at all.
// - Border, once the halo is refreshed: the rest of the work, so that the outputs are then those
//   of one call with All.
// A strategy that computes every particle's sums at once may thus ignore Interior, and do the
// whole pass at Border.
enum class ForcePart { All, Interior, Border };

// Whether a particle with code word `code` (particle_code.h) is among those whose own sums a
// call for `part` computes, for strategies that split by particle: at Interior those that read
// no halo copy, at Border the others.
SPH_HD inline bool sumsIn(ForcePart part, uint32_t code) {
  return part == ForcePart::All || (part == ForcePart::Border) == code::readsHalo(code);
}

// Outputs of one force pass, written (not accumulated) for every particle in [0, n): once the
// Border part of a split pass is done, as by one call for All.
template <typename T>
struct ForceOutputs {
  Real4<T>* ace = nullptr;  // ax, ay, az (gravity excluded), drho/dt in w
  // max_b v_ab.r_ab/(r^2+eta^2) per particle, for the time step, which takes the largest over all
  // particles: a pass that computes each pair once gives a pair's value to one of its particles.
  T* viscdt = nullptr;
  // DEM contacts per particle (PairAccum::contacts); set only in runs with floating bodies, and
  // then written for every particle.
  uint32_t* contacts = nullptr;
  // Shifting sums per particle (ShiftAccum::shiftSums, physics/shifting_physics.h): requested (non-null)
  // only in the passes whose shifts are applied, and then written for every particle.
  Real4<T>* shift = nullptr;
  // 2S per particle (sps_physics.h): requested (non-null) in every pass of runs with the SPS
  // model, and then written for every particle.
  SymTensor<T>* spsStrain = nullptr;
  ForcePart part = ForcePart::All;
};

}  // namespace sph
