// Non-owning views of the engine's particle arrays, handed to neighbour strategies. Pointers
// are device pointers when the run is on the GPU and host pointers on the CPU.
#pragma once

#include <cstdint>

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

// Outputs of one force pass, written (not accumulated) for every particle in [0, n).
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
};

}  // namespace sph
