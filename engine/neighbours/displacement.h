// How far a particle has moved from a saved place, for the checks that keep what was built from
// the particles' places while they move less than half a skin: the Verlet lists' rebuild and the
// halo a run over several ranks keeps between exchanges (the cell plugin's). The CPU loops and
// the CUDA kernels of both take it from here.
#pragma once

#include <cstdint>

#include "sph/plugin/hd.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/periodic.h"
#include "sph/plugin/real4.h"

namespace sph::neighbours {

// The squared distance from `saved` to `now`, in double: a particle that wrapped around a
// periodic axis moved by its minimum image. A parked particle (excluded, far outside the domain:
// the engine's parkParticle) is no one's neighbour wherever it is, and has moved 0.
template <typename A, typename B>
SPH_HD SPH_FORCEINLINE double displacement2(const Real4<A>& now, const Real4<B>& saved, uint32_t code,
                                            const PeriodicBox<double>& box) {
  if (code::isParked(code)) return 0.0;
  double dx, dy, dz;
  pairDelta(Real4<double>{double(now.x), double(now.y), double(now.z), 0.0},
            Real4<double>{double(saved.x), double(saved.y), double(saved.z), 0.0}, box, dx, dy, dz);
  return dx * dx + dy * dy + dz * dz;
}

}  // namespace sph::neighbours
