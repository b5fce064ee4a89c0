// The per-step pass of the imposed boundary motion over particles [0, p.nBound) (boundary
// particles always come first): an OpenMP loop here, a CUDA kernel in gpu/boundary_motion_ops.cu.
// Both wrap moveBoundaryParticle(); `m` points where the particles live.
#pragma once

#include "physics/boundary_motion_physics.h"
#include "sph/plugin/particle_view.h"

namespace sph {

template <typename T>
void moveBoundariesCpu(const ParticleView<T>& p, const MotionTableView& m, int threads);
template <typename T>
void moveBoundariesGpu(const ParticleView<T>& p, const MotionTableView& m);  // throws without CUDA

}  // namespace sph
