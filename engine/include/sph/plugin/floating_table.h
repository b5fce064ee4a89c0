// What the pair loop needs to know about floating bodies and DEM materials, reached from
// PhysicsConstants::floating. The tables live where the particles live (device memory in GPU
// runs) and are indexed by a particle's mk index (particle_code.h).
#pragma once

#include <cstdint>

#include "sph/plugin/dem_physics.h"

namespace sph {

template <typename T>
struct SolidInfo {
  int32_t body = -1;       // floating body of this mk; -1: not floating
  // Mass of one particle of the body in the pair terms, kg: rho0 dp^d, the fluid's reference
  // density times the volume the particle stands for (floating_pair_physics.h says why).
  T pairMass = 0;
  T bodyMass = 0;          // mass of the whole body, kg
  DemMaterial<T> material; // DEM: the mk's material (bodies and walls)
  int32_t hasMaterial = 0; // DEM: 1 when <properties> gives this mk a material
};

template <typename T>
struct FloatingPairTable {
  const SolidInfo<T>* solids = nullptr;     // by mk index; null: the case has no floating body
  const uint32_t* bodyContacts = nullptr;   // DEM: each body's contacts in the last force pass
  T dp = 0;                                 // DEM: particle diameter
  int32_t dem = 0;                          // 1: RigidAlgorithm=2, contacts between solids are DEM
  // 1: DualSPHysics' rules (FloatingMotion::DualSPHysics): pairs of particles of the same body
  // interact like any other without DEM, and DEM contacts are DualSPHysics' law
  // (demContactDualSPHysics); 0: the rigid rules, same-body pairs skipped, dem_physics.h's
  // Hertz law (floating_pair_physics.h).
  int32_t dualsphysics = 0;
  T demDt = 0;  // DualSPHysics' DEM: the step of this force pass (its DemDtForce)
  SPH_HD bool any() const { return solids != nullptr; }
};

}  // namespace sph
