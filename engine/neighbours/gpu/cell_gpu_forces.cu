// CF-Forces on the GPU: one thread per particle, consecutive threads on consecutive (hence
// spatially close, mostly same-cell) sorted particles, so a warp walks nearly the same rows in
// step and its neighbour loads hit L1. Templated on precision and kernel only; boundary/fluid,
// density diffusion and viscosity are uniform run-time branches inside interactPair().
//
// The candidate loop filters on r^2 with positions alone and loads velocity/density only for
// the ~17% (cells of 2h) to ~29% (cells of h) of candidates in range. Two ways of running the
// physics with fuller warps were measured and dropped: queueing in-range indices in shared memory
// (several times slower) and holding up to 2-8 in registers with warp-wide draining (slower
// too); neighbouring lanes already agree on most in-range decisions. Block size: see kForceBlock.
#include "../interaction_variant.h"
#include "cell_gpu_launch.h"
#include "pair_once.cuh"
#include "sph/plugin/gpu/cuda_check.cuh"

namespace sph::cell::gpu {

namespace {

// Threads per block of the force kernel: 256 in single precision, 128 in double, the faster of
// 128 and 256 for each precision on DamBreak on Hopper GPUs. SPH_CELL_FORCE_BLOCK overrides both
// and SPH_CELL_FORCE_MIN_BLOCKS sets the launch bounds' minimum blocks per SM (a register cap),
// for experiments.
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
// The pair-once kernel's minimum blocks per SM (blocks of 256): 4 caps it at 64 registers, where
// it would take 66 and fit 3 blocks (occupancy 37.5% instead of 50%); 5 caps it at 48 (62.5%),
// which was faster from a few hundred thousand fluid particles and slower on small cases, where
// the spills cost more than the extra warps hide. Blocks of 128 (8 an SM) and 512 (2) were slower
// than 5 of 256. The sweep: tools/bench/RESULTS.md, "Four lanes a particle over half lists".
inline constexpr unsigned kOnceMinBlocks = kForceBlock<float> == 256 ? 4 : SPH_CELL_FORCE_MIN_BLOCKS;
inline constexpr unsigned kOnceMinBlocksLarge = kForceBlock<float> == 256 ? 5 : SPH_CELL_FORCE_MIN_BLOCKS;
inline constexpr uint32_t kOnceLargeFrom = 300000;  // fluid particles

// One instance per interaction variant (interaction_variant.h).
template <typename T, KernelKind K, bool Periodic, bool Coded, bool Shift, bool Sps>
__global__ void __launch_bounds__(kForceBlock<T>, SPH_CELL_FORCE_MIN_BLOCKS)
    cellForcesKernel(ForceInputs<T> in, PhysicsConstants<T> c, ForceOutputs<T> out) {
  const uint32_t a = blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= in.n) return;
  if (out.part != ForcePart::All && !sumsIn(out.part, loadReadOnly(in.code + a))) return;
  NoTally none;
  writeForces(a, particleForces<K, Periodic, Coded, Shift, Sps>(a, in, c, none), out);
}

// Each pair once (pair_once.cuh): one thread per fluid particle a, over the same rows as
// cellForcesKernel, taking the walls of every row and only the fluid particles after a in the
// sorted order (j > a: the rows of cells before a's own hold none, and come as empty ranges;
// not loading their fluid ranges at all was measured: no faster).
// Each fluid pair is then visited by the smaller index of the two, since the cells around a hold
// every particle within the support of a, and the walls, which scan nothing, get their density
// rate from their fluid neighbours. A split pass (ForcePart) computes a pair in the part of the
// particle that visits it: the outputs are cleared before its Interior, and the diffusion added
// after its Border.
template <KernelKind K, bool Periodic, unsigned MinBlocks>
__global__ void __launch_bounds__(kForceBlock<float>, MinBlocks)
    cellOnceForcesKernel(ForceInputs<float> in, PhysicsConstants<float> c, neighbours::gpu::PairOnceOutputs out,
                         ForcePart part) {
  const uint32_t a = in.nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (a >= in.n) return;
  if (part != ForcePart::All && !sumsIn(part, loadReadOnly(in.code + a))) return;
  const Real4<float> posA = loadReadOnly(in.pos + a), velA = loadReadOnly(in.velrho + a);
  PairAccum<float> acc;
  auto pair = [&](uint32_t j) {
    const Real4<float> posB = loadReadOnly(in.pos + j);
    if (distance2<Periodic>(posA, posB, c.periodic) < c.support2)
      neighbours::gpu::pairOnce<K, Periodic>(posA, velA, j, posB, loadReadOnly(in.velrho + j), in.nBound, c, acc, out);
  };
  forEachCandidateRow<Periodic>(in.lookup, loadReadOnly(in.lookup.keys + a), posA, false,
                                [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd) {
                                  for (uint32_t j = fBegin > a ? fBegin : a + 1; j < fEnd; ++j) pair(j);
                                  for (uint32_t j = bBegin; j < bEnd; ++j) pair(j);
                                });
  neighbours::gpu::finishPairsOnce(a, acc, out);
}

}  // namespace

void launchCellForcesOnce(const ForceInputs<float>& in, const PhysicsConstants<float>& c,
                          const ForceOutputs<float>& out, float* ddt, uint32_t* ddtOff) {
  if (!neighbours::pairOncePass(c, out, in.tangent != nullptr))
    throw RunError("cell neighbour search: each pair once in a pass that needs every pair from both sides");
  if (in.n == 0) return;
  const bool split = wallsCanSwitchOffDiffusion(c);
  const neighbours::gpu::PairOnceOutputs once{out.ace, out.viscdt, out.contacts, split ? ddt : nullptr, ddtOff};
  const bool first = out.part != ForcePart::Border, last = out.part != ForcePart::Interior;
  // Without fluid particles nothing is launched and the cleared outputs stand.
  if (first) neighbours::gpu::clearPairOnceOutputs(once, in.n, in.nBound);
  const bool large = in.n - in.nBound >= kOnceLargeFrom;
  auto* kernel = neighbours::dispatchInteraction(c, out, false, [large](auto v) {
    using V = decltype(v);
    // Never a coded variant here (checked above).
    return large ? &cellOnceForcesKernel<V::K, V::Periodic, kOnceMinBlocksLarge>
                 : &cellOnceForcesKernel<V::K, V::Periodic, kOnceMinBlocks>;
  });
  SPH_LAUNCH("computing forces once a pair (CF-Forces)", in.n - in.nBound, kForceBlock<float>, 0, kernel, in, c, once,
             out.part);
  if (last) neighbours::gpu::addPairOnceDiffusion(once, in.n, in.nBound);
}

template <typename T>
void launchCellForces(const ForceInputs<T>& in, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
  auto* kernel = neighbours::dispatchInteraction(c, out, in.tangent != nullptr, [](auto v) {
    using V = decltype(v);
    return &cellForcesKernel<T, V::K, V::Periodic, V::Coded, V::Shift, V::Sps>;
  });
  SPH_LAUNCH("computing forces (CF-Forces)", in.n, kForceBlock<T>, 0, kernel, in, c, out);
}

template void launchCellForces(const ForceInputs<float>&, const PhysicsConstants<float>&, const ForceOutputs<float>&);
template void launchCellForces(const ForceInputs<double>&, const PhysicsConstants<double>&,
                               const ForceOutputs<double>&);

}  // namespace sph::cell::gpu
