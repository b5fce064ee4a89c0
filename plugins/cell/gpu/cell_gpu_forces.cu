// CF-Forces on the GPU: one thread per particle, consecutive threads on consecutive (hence
// spatially close, mostly same-cell) sorted particles, so a warp walks nearly the same rows in
// step and its neighbour loads hit L1. Templated on precision and kernel only; boundary/fluid,
// density diffusion and viscosity are uniform run-time branches inside interactPair().
//
// The candidate loop filters on r^2 with positions alone and loads velocity/density only for
// the ~17% (cells of 2h) to ~29% (cells of h) of candidates in range. Measured on an H200
// (175,616 particles, 162 neighbours each, float, Wendland): 0.86 ms per pass with cells of 2h,
// 0.65 ms with cells of h. Two ways of running the physics with fuller warps were measured and
// dropped: queueing in-range indices in shared memory (3-4x slower) and holding up to 2-8 in
// registers with warp-wide draining (10-20% slower); neighbouring lanes already agree on most
// in-range decisions. Block size: see kForceBlock.
#include "cell_gpu_launch.h"
#include "sph/gpu/cuda_check.cuh"

namespace sph::cell::gpu {

namespace {

// Threads per block of the force kernel: 256 in single precision, 128 in double. Measured on an
// H100 (DamBreak, us per pass, cells of 2h / h): float 128: 551 / 416, 256: 549 / 399; double lost
// ~15% with 256 (session 1, H200). SPH_CELL_FORCE_BLOCK overrides both and
// SPH_CELL_FORCE_MIN_BLOCKS sets the launch bounds' minimum blocks per SM (a register cap), for
// experiments (tools/bench/README.md lists the variants measured).
#ifdef SPH_CELL_FORCE_BLOCK
template <typename T>
inline constexpr unsigned kForceBlock = SPH_CELL_FORCE_BLOCK;
#else
template <typename T>
inline constexpr unsigned kForceBlock = sizeof(T) == sizeof(float) ? 256 : 128;
#endif
#ifndef SPH_CELL_FORCE_MIN_BLOCKS
#define SPH_CELL_FORCE_MIN_BLOCKS 1
#endif

// Coded (with Periodic) is the variant for runs with floating bodies or mDBC2 walls (in.tangent);
// Shift and Sps (with Coded)
// for the passes that sum the shifting terms and those of the SPS model (cell_particle_ops.h).
template <typename T, KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps>
__global__ void __launch_bounds__(kForceBlock<T>, SPH_CELL_FORCE_MIN_BLOCKS)
    cellForcesKernel(ForceInputs<T> in, PhysicsConstants<T> c, ForceOutputs<T> out) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= in.n) return;
  NoTally none;
  writeForces(a, particleForces<K, Periodic, Coded, Shift, Sps>(a, in, c, none), out);
}

template <typename T, KernelKind K>
void launchWith(const ForceInputs<T>& in, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
  // Open boxes skip the minimum image per candidate (periodic.h, pairDeltaIf).
  auto* kernel = out.spsStrain ? (out.shift ? &cellForcesKernel<T, K, true, true, true, true>
                                            : &cellForcesKernel<T, K, true, true, false, true>)
                 : out.shift         ? &cellForcesKernel<T, K, true, true, true, false>
                 : c.floating.any() || in.tangent ? &cellForcesKernel<T, K, true, true, false, false>
                 : c.periodic.any()  ? &cellForcesKernel<T, K, true, false, false, false>
                                     : &cellForcesKernel<T, K, false, false, false, false>;
  SPH_LAUNCH("computing forces (CF-Forces)", in.n, kForceBlock<T>, 0, kernel, in, c, out);
}

}  // namespace

template <typename T>
void launchCellForces(const ForceInputs<T>& in, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
  if (c.kernel == KernelKind::Cubic)
    launchWith<T, KernelKind::Cubic>(in, c, out);
  else
    launchWith<T, KernelKind::Wendland>(in, c, out);
}

template void launchCellForces(const ForceInputs<float>&, const PhysicsConstants<float>&, const ForceOutputs<float>&);
template void launchCellForces(const ForceInputs<double>&, const PhysicsConstants<double>&,
                               const ForceOutputs<double>&);

}  // namespace sph::cell::gpu
