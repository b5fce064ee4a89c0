// Per-particle code word: particle type, exclusion flag and the index of its mk in the case's
// mk table. Boundary particles always occupy indices [0, nBound) of the particle arrays (the
// generator emits them first and every sort keeps boundary keys below fluid keys), so kernels
// normally test `i < nBound`; the code word is what output and exclusion use.
#pragma once

#include <cstdint>

#include "sph/plugin/hd.h"

namespace sph::code {

inline constexpr uint32_t kBoundBit = 1u << 31;
inline constexpr uint32_t kExcludedBit = 1u << 30;
// Particles of a floating body (<floatings>): boundary particles in the case file, but they sit
// in the fluid index range [nBound, n) and are moved as rigid bodies (physics/floating_body_physics.h).
inline constexpr uint32_t kFloatingBit = 1u << 29;
// A fluid particle excluded at the end of an earlier step and parked far outside the domain
// until the engine next compacts its arrays (physics/integrator_physics.h, parkParticle).
inline constexpr uint32_t kParkedBit = 1u << 28;
// A boundary particle of an object with imposed motion (<motion>), DualSPHysics' "moving" as
// opposed to "fixed" boundary; the shifting mode NoFixed asks for the difference.
inline constexpr uint32_t kMovingBit = 1u << 27;
// mDBC2 (SlipMode 2, 3; mdbc_physics.h): a wall particle with a normal, whose density and
// velocity the correction sets and the integrators keep; and such a particle switched off for
// the force pass (no fluid near its ghost node).
inline constexpr uint32_t kMdbc2Bit = 1u << 26;
inline constexpr uint32_t kMdbcOffBit = 1u << 25;
// Inlet/outlet (<special><inout>, engine/src/inout): a fluid particle of an in/out zone's buffer,
// whose velocity and density the zone imposes (physics/inout_physics.h) and which the integrators
// only move; the zone's index in bits 20-23 (16 zones, as DualSPHysics). kInOutSpawnBit marks,
// within the engine's in/out pass only, a particle that has just left a zone and leaves a new
// buffer particle behind it.
inline constexpr uint32_t kInOutBit = 1u << 24;
inline constexpr uint32_t kInOutZoneShift = 20;
inline constexpr uint32_t kInOutZoneMask = 0xFu << kInOutZoneShift;
inline constexpr uint32_t kInOutZones = 16;
inline constexpr uint32_t kInOutSpawnBit = 1u << 19;
// A run over several ranks (engine/src/parallel): a copy of a particle that another rank owns,
// within reach of this rank's slab. Force passes see it as a neighbour; nothing advances it, no
// time step or exclusion counts it, no output writes it; it is replaced before each pass.
inline constexpr uint32_t kHaloBit = 1u << 18;
// Within the engine's exchange between ranks only (never seen by a force pass): a particle that
// leaves for another rank, or whose copy goes to one.
inline constexpr uint32_t kRankSendBit = 1u << 17;
// A run over several ranks whose halo is refreshed between exchanges (Verlet lists): one of this
// rank's particles close enough to a slab boundary (the halo's reach, at the last exchange) that
// its neighbours may include halo copies until the next one, so that in a force pass split
// around the halo's refresh (ForcePart, particle_view.h) its sums wait for the refreshed halo.
// Only such passes read it.
inline constexpr uint32_t kNearHaloBit = 1u << 16;
inline constexpr uint32_t kMkIndexMask = 0xFFFFu;

SPH_HD inline bool isBound(uint32_t c) { return (c & kBoundBit) != 0; }
SPH_HD inline bool isExcluded(uint32_t c) { return (c & kExcludedBit) != 0; }
SPH_HD inline bool isFloating(uint32_t c) { return (c & kFloatingBit) != 0; }
SPH_HD inline bool isParked(uint32_t c) { return (c & kParkedBit) != 0; }
SPH_HD inline bool isMoving(uint32_t c) { return (c & kMovingBit) != 0; }
SPH_HD inline uint32_t mkIndex(uint32_t c) { return c & kMkIndexMask; }
SPH_HD inline bool isInOut(uint32_t c) { return (c & kInOutBit) != 0; }
SPH_HD inline bool isHalo(uint32_t c) { return (c & kHaloBit) != 0; }
// A halo copy, or a particle that may have one as a neighbour (kNearHaloBit).
SPH_HD inline bool readsHalo(uint32_t c) { return (c & (kHaloBit | kNearHaloBit)) != 0; }
SPH_HD inline uint32_t inOutZone(uint32_t c) { return (c & kInOutZoneMask) >> kInOutZoneShift; }
// c as a buffer particle of zone `zone` (its mk kept).
SPH_HD inline uint32_t toInOut(uint32_t c, uint32_t zone) {
  return (c & ~kInOutZoneMask) | kInOutBit | ((zone << kInOutZoneShift) & kInOutZoneMask);
}
// c as an ordinary fluid particle again.
SPH_HD inline uint32_t fromInOut(uint32_t c) { return c & ~(kInOutBit | kInOutZoneMask | kInOutSpawnBit); }
SPH_HD inline uint32_t make(bool bound, uint32_t mkIndex) {
  return (bound ? kBoundBit : 0u) | (mkIndex & kMkIndexMask);
}
SPH_HD inline uint32_t makeFloating(uint32_t mkIndex) { return kFloatingBit | (mkIndex & kMkIndexMask); }

}  // namespace sph::code
