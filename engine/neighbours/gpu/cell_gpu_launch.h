// Launchers of the cell search's kernels and CUB calls, shared among the gpu/*.cu files (which
// alone include this header). All work goes on the default stream; nothing here synchronises.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../cell_backend.h"
#include "../cell_grid.h"
#include "../cell_particle_ops.h"
#include "sph/plugin/particle_view.h"
#include "sph/plugin/periodic.h"
#include "sph/plugin/physics_constants.h"

namespace sph::cell::gpu {

// Threads per block of every kernel here: small blocks keep the tail of the irregular force
// loop short (the force kernel chooses its own block, cell_gpu_forces.cu).
inline constexpr unsigned kBlock = 128;

// NL-PreSort: keys[i] = cellKey(position i), index[i] = i.
template <typename T>
void launchCellKeys(const CellGrid& g, const Real4<T>* pos, uint32_t n, uint32_t nBound, uint32_t* keys,
                    uint32_t* index);

// NL-RadixSort: stable sort of (key, index) over the low `bits` key bits. keys[0]/index[0]
// hold the input; returns which of the two buffers holds the sorted data.
size_t radixSortTempBytes(uint32_t n, int bits);
int radixSort(void* temp, size_t tempBytes, uint32_t* keys[2], uint32_t* index[2], uint32_t n, int bits);

// NL-CellBegin: start[0 .. keyCount] from sorted keys (cellStartOf, one thread per entry).
void buildCellStart(const uint32_t* sortedKeys, uint32_t n, uint32_t keyCount, uint32_t* start);

// The halo's skin (CellBackend::followPlaces): dst[i] = the place of src[perm[i]] (w cleared).
template <typename T>
void launchGatherPlaces(const Real4<T>* src, const uint32_t* perm, uint32_t n, Real4<T>* dst);
// *result (device) = the largest squared displacement of pos from saved over [0, n), minimum
// image in `box`, parked particles left out, as the bits of a non-negative double.
template <typename T>
void launchMaxDisplacement2(const Real4<T>* pos, const Real4<T>* saved, const uint32_t* code, uint32_t n,
                            const PeriodicBox<double>& box, unsigned long long* result);

// *result (device) = the largest cellOutside() of the halo copies (code::kHaloBit) of [0, n) that
// are not parked, as the bits of a non-negative double.
template <typename T>
void launchHaloDrift(const CellLookup& l, const Real4<T>* pos, const uint32_t* code, uint32_t n,
                     unsigned long long* result);

// CF-Forces: one thread per particle; dispatches on c.kernel; with out.part Interior or Border
// only the particles whose sums that part computes (sumsIn).
template <typename T>
void launchCellForces(const ForceInputs<T>& in, const PhysicsConstants<T>& c, const ForceOutputs<T>& out);

// CF-Forces computing each pair once (pair_once.cuh), for plain single-precision passes (throws
// RunError for others); ddt and ddtOff: n entries of scratch each.
void launchCellForcesOnce(const ForceInputs<float>& in, const PhysicsConstants<float>& c,
                          const ForceOutputs<float>& out, float* ddt, uint32_t* ddtOff);

// mDBC: what every boundary particle with a normal takes from its ghost node (mdbc_physics.h,
// mdbcStoreWall; cell_particle_ops.h, ghostSums); `view` gives the arrays it writes.
template <typename T>
void launchBoundaryCorrection(const ForceInputs<T>& in, const ParticleView<T>& view, const PhysicsConstants<T>& c);

// Inlets/outlets: what every listed buffer particle takes from its ghost node
// (inout_extrapolation.h; cell_particle_ops.h, inOutSums).
template <typename T>
void launchInOutExtrapolation(const ForceInputs<T>& in, const ParticleView<T>& view, const PhysicsConstants<T>& c,
                              const InOutExtrapolation& x);

// Diagnostics (stats and tests). totals[0..2] (device, zeroed here) receive the sums of
// candidates, in-range pairs without self, and self visits.
template <typename T>
void launchCellTally(const CellLookup& l, const Real4<T>* pos, uint32_t n, uint32_t nBound, T radius2,
                     unsigned long long* totals);
template <typename T>
void launchPairCounts(const CellLookup& l, const Real4<T>* pos, uint32_t n, uint32_t nBound, T radius2,
                      uint32_t* counts);
template <typename T>
void launchPairWrite(const CellLookup& l, const Real4<T>* pos, uint32_t n, uint32_t nBound, T radius2,
                     const uint64_t* offsets, IndexPair* pairs);

}  // namespace sph::cell::gpu
