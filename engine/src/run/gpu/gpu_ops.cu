// CUDA implementation of the engine's per-particle passes (see run/engine_ops.h). Each kernel is a
// thin loop body around the shared header-only physics.
#include <bit>
#include <cstddef>
#include <cstdint>

#include <cub/device/device_partition.cuh>

#include "run/engine_ops.h"
#include "sph/plugin/gpu/cuda_check.cuh"
#include "sph/plugin/gpu/device_buffer.cuh"
#include "sph/plugin/gpu/warp_reduce.cuh"
#include "sph/plugin/pair_physics.h"
#include "sph/plugin/particle_code.h"

namespace sph {
namespace {

using gpu::atomicMaxNonNegative;
using gpu::doubleFromBits;
using gpu::finishedLast;
using gpu::groupMax;

constexpr unsigned kBlock = 256;

template <typename T>
__global__ void pressureKernel(Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ velrho,
                               uint32_t n, PhysicsConstants<T> c) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) pos[i].w = taitPressure(velrho[i].w, c);
}

// The step's dt in one launch: every block reduces its particles' terms into the scalars; the
// last block to finish (counted after a fence, so it sees every block's atomics) computes dt,
// leaves it on the device for the integrator, and clears the terms for the next pass (and, at
// a step's first pass, this step's exclusion counts). One launch and no memset per step: at
// DamBreak2D's 21k particles a step is bound by launches, not by the device.
// maximaOnly (runs over several ranks): the last block leaves the maxima for the host to combine
// with the other ranks' and finishDtKernel computes dt from them.
__device__ void finishPassDt(StepScalars* __restrict__ out, const DtRule& rule, DtPass pass, bool firstStep);

template <typename T>
__global__ void dtKernel(const Real4<T>* __restrict__ ace, const T* __restrict__ viscdt,
                         const Real4<T>* __restrict__ velrho, uint32_t nBound, uint32_t n, DtRule rule, DtPass pass,
                         bool firstStep, bool maximaOnly, StepScalars* __restrict__ out) {
  __shared__ double sA[kBlock / 32], sV[kBlock / 32], sU[kBlock / 32];
  __shared__ bool last;
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double a2 = 0, v = 0, u2 = 0;
  if (i < n) {
    const DtTerms t = particleDtTerms(i, nBound, ace, viscdt, velrho, rule.velocityOfAll, rule.code);
    a2 = t.ace2;
    v = t.viscdt;
    u2 = t.vel2;
  }
  a2 = groupMax(a2);
  v = groupMax(v);
  u2 = groupMax(u2);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    sA[warp] = a2;
    sV[warp] = v;
    sU[warp] = u2;
  }
  __syncthreads();
  if (warp == 0) {
    a2 = lane < int(kBlock / 32) ? sA[lane] : 0.0;
    v = lane < int(kBlock / 32) ? sV[lane] : 0.0;
    u2 = lane < int(kBlock / 32) ? sU[lane] : 0.0;
    a2 = groupMax(a2);
    v = groupMax(v);
    u2 = groupMax(u2);
    if (lane == 0) {
      atomicMaxNonNegative(&out->maxAce2Bits, a2);
      atomicMaxNonNegative(&out->maxViscdtBits, v);
      atomicMaxNonNegative(&out->maxVel2Bits, u2);
      last = finishedLast(&out->dtBlocksDone);
    }
  }
  __syncthreads();
  if (!last || threadIdx.x != 0) return;
  if (maximaOnly) {
    out->dtBlocksDone = 0;
    return;
  }
  finishPassDt(out, rule, pass, firstStep);
}

// dt from the maxima in `out` set where `pass` says; the maxima cleared for the next pass.
__device__ void finishPassDt(StepScalars* __restrict__ out, const DtRule& rule, DtPass pass, bool firstStep) {
  // Volatile reads: the other blocks' atomics are in L2, not in this SM's L1.
  const volatile StepScalars* s = out;
  const auto bits = [](unsigned long long b) { return doubleFromBits(b); };
  uint32_t hit = 0;
  const double d = variableDt(bits(s->maxAce2Bits), bits(s->maxViscdtBits), bits(s->maxVel2Bits), rule, &hit);
  StepScalars r;
  r.dt = s->dt;
  r.dtPredictor = s->dtPredictor;
  r.dtNext = s->dtNext;
  r.dtMinHit = s->dtMinHit;
  applyPassDt(r, d, hit, pass, firstStep, rule);
  out->dt = r.dt;
  out->dtPredictor = r.dtPredictor;
  out->dtNext = r.dtNext;
  out->dtMinHit = r.dtMinHit;
  out->maxAce2Bits = 0;
  out->maxViscdtBits = 0;
  out->maxVel2Bits = 0;
  if (pass != DtPass::Corrector) {
    out->excludedOutOfDomain = 0;
    out->excludedDensity = 0;
  }
  out->dtBlocksDone = 0;
}

__global__ void finishDtKernel(DtRule rule, DtPass pass, bool firstStep, StepScalars* __restrict__ out) {
  finishPassDt(out, rule, pass, firstStep);
}

template <typename T>
__global__ void wrapKernel(Real4<T>* __restrict__ pos, Real4<T>* __restrict__ posLo, uint32_t nBound, uint32_t n,
                           PeriodicBox<T> box) {
  const uint32_t i = nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) wrapPeriodicParticle(i, pos, posLo, box);
}

template <typename T>
__global__ void dampKernel(const Real4<T>* __restrict__ pos, Real4<T>* __restrict__ velrho,
                           const uint32_t* __restrict__ code, uint32_t nBound, uint32_t n,
                           const DampingZone* __restrict__ zones, uint32_t count, const StepScalars* s) {
  const uint32_t i = nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dampParticle(i, pos, velrho, code, zones, count, s->dt);
}

template <typename T>
__global__ void relaxKernel(const Real4<T>* __restrict__ pos, Real4<T>* __restrict__ velrho,
                            const uint32_t* __restrict__ code, uint32_t nBound, uint32_t n, RelaxZoneStep zone,
                            const StepScalars* s) {
  const uint32_t i = nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) relaxParticle(i, pos, velrho, code, zone, s->dt);
}

template <typename T>
__global__ void shiftZonesKernel(Real4<T>* __restrict__ shift, const Real4<T>* __restrict__ pos, uint32_t nBound,
                                 uint32_t n, const ShiftZone* __restrict__ zones, uint32_t count) {
  const uint32_t i = nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) cancelShiftOutsideZones(i, shift, pos, zones, count);
}

template <typename T>
__global__ void accInputKernel(const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ velrho,
                               const uint32_t* __restrict__ code, Real4<T>* __restrict__ ace, uint32_t nBound,
                               uint32_t n, AccInputTable table) {
  const uint32_t i = nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) accInputParticle(i, pos, velrho, code, ace, table);
}

// The exclusion count of a step-ending kernel (one atomic per excluded particle: rare).
__device__ inline void countExclusion(int reason, StepScalars* s) {
  if (reason != 0) atomicAdd(reason == 1 ? &s->excludedOutOfDomain : &s->excludedDensity, 1u);
}

template <typename T>
__global__ void verletKernel(IntegratorArrays<T> a, PhysicsConstants<T> c, StepScalars* s, bool euler,
                             uint32_t* __restrict__ code, ExclusionLimits<T> l) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= a.n) return;
  verletStepParticle(i, a, c, T(s->dt), euler);
  countExclusion(markIfExcluded(i, a, code, l), s);
}
template <typename T>
__global__ void predictKernel(IntegratorArrays<T> a, PhysicsConstants<T> c, const StepScalars* s) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) symplecticPredictParticle(i, a, c, T(s->dt));
}
template <typename T>
__global__ void correctKernel(IntegratorArrays<T> a, PhysicsConstants<T> c, StepScalars* s,
                              uint32_t* __restrict__ code, ExclusionLimits<T> l) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= a.n) return;
  symplecticCorrectParticle(i, a, c, T(s->dt));
  countExclusion(markIfExcluded(i, a, code, l), s);
}


// Input of the exclusion partition: the particle index and whether it stays.
__global__ void keepFlagsKernel(const uint32_t* __restrict__ code, uint32_t n, uint32_t mask, uint32_t value,
                                uint32_t* __restrict__ index, unsigned char* __restrict__ keep) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  index[i] = i;
  keep[i] = (code[i] & mask) == value ? 1 : 0;
}

template <typename T>
__global__ void markAlongKernel(const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ posLo,
                                uint32_t* __restrict__ code, uint32_t n, int axis, double below, double above,
                                uint32_t bit) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) markAlongParticle(i, pos, posLo, code, axis, below, above, bit);
}

template <typename T>
__global__ void parkKernel(ReorderArrays<T> a, const uint32_t* __restrict__ which, uint32_t count, uint32_t first,
                           ParkingLot lot) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) parkParticle(which[k], first + k, a.pos, a.posLo, a.velrho, a.velrhoPre, a.code, lot);
}

template <typename T>
__global__ void spsTauKernel(const SymTensor<T>* __restrict__ strain, const Real4<T>* __restrict__ velrho,
                             const uint32_t* __restrict__ code, SymTensor<T>* __restrict__ tau, uint32_t nBound,
                             uint32_t n, PhysicsConstants<T> c) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) spsTauParticle(i, strain, velrho, code, nBound, tau, c);
}

template <typename T>
__global__ void gatherKernel(ReorderArrays<T> s, ReorderArrays<T> d, const uint32_t* __restrict__ perm,
                             uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) gatherParticle(i, s, d, perm);
}

template <typename T>
__global__ void packRecordsKernel(ReorderArrays<T> a, const uint32_t* __restrict__ perm, uint32_t count,
                                  RecordLayout layout, double shift, uint8_t* __restrict__ out) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) packParticleRecord(k, a, perm, layout, shift, out);
}

template <typename T>
__global__ void unpackRecordsKernel(const uint8_t* __restrict__ in, uint32_t count, RecordLayout layout,
                                    ReorderArrays<T> a, uint32_t first, const uint32_t* __restrict__ slots, bool halo) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) unpackParticleRecord(k, in, layout, a, first, slots, halo);
}

__global__ void invertPermutationKernel(const uint32_t* __restrict__ perm, uint32_t n, uint32_t* __restrict__ inverse) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) inverse[perm[i]] = i;
}

__global__ void mapIndicesKernel(const uint32_t* __restrict__ inverse, uint32_t n, uint32_t* __restrict__ list,
                                 uint32_t count) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) list[k] = list[k] < n ? inverse[list[k]] : 0xFFFFFFFFu;
}

template <typename T>
__global__ void countLayersKernel(const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ posLo,
                                  const uint32_t* __restrict__ code, uint32_t n, int axis, double origin, double width,
                                  uint32_t layers, uint32_t* __restrict__ counts) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int64_t l = layerOfParticle(i, pos, posLo, code, axis, origin, width, layers);
  if (l >= 0) atomicAdd(counts + l, 1u);
}

template <typename T>
class GpuOps final : public EngineOps<T> {
 public:
  GpuOps() : scalars_(1, "allocating the step scalars") {
    // dtKernel clears the scalars after each use; they start cleared.
    SPH_CUDA_CHECK(cudaMemset(scalars_.data(), 0, sizeof(StepScalars)), "clearing the step scalars");
    SPH_CUDA_CHECK(cudaMallocHost(&host_, sizeof(StepScalars)), "allocating pinned memory for the step scalars");
  }
  ~GpuOps() override { cudaFreeHost(host_); }
  GpuOps(const GpuOps&) = delete;
  GpuOps& operator=(const GpuOps&) = delete;

  void computePressure(Real4<T>* pos, const Real4<T>* velrho, uint32_t n,
                       const PhysicsConstants<T>& c) override {
    SPH_LAUNCH("computing pressures", n, kBlock, 0, pressureKernel<T>, pos, velrho, n, c);
  }

  void computeSpsTau(const SymTensor<T>* strain, const Real4<T>* velrho, const uint32_t* code, SymTensor<T>* tau,
                     uint32_t nBound, uint32_t n, const PhysicsConstants<T>& c) override {
    if (n > 0)
      SPH_LAUNCH("computing the SPS stresses", n, kBlock, 0, spsTauKernel<T>, strain, velrho, code, tau, nBound, n, c);
  }

  void damp(const Real4<T>* pos, Real4<T>* velrho, const uint32_t* code, uint32_t nBound, uint32_t n,
            const DampingZone* zones, uint32_t count) override {
    if (n > nBound && count > 0)
      SPH_LAUNCH("damping the fluid in the damping zones (SU-Damping)", n - nBound, kBlock, 0, dampKernel<T>, pos,
                 velrho, code, nBound, n, zones, count, scalars_.data());
  }

  void relax(const Real4<T>* pos, Real4<T>* velrho, const uint32_t* code, uint32_t nBound, uint32_t n,
             const RelaxZoneStep& zone) override {
    if (n > nBound)
      SPH_LAUNCH("pulling the fluid towards the relaxation zone's velocity (SU-RelaxZone)", n - nBound, kBlock, 0,
                 relaxKernel<T>, pos, velrho, code, nBound, n, zone, scalars_.data());
  }

  void cancelShiftOutsideZones(Real4<T>* shift, const Real4<T>* pos, uint32_t nBound, uint32_t n,
                               const ShiftZone* zones, uint32_t count) override {
    if (n > nBound && count > 0)
      SPH_LAUNCH("cancelling the shift outside the shifting zones", n - nBound, kBlock, 0, shiftZonesKernel<T>, shift,
                 pos, nBound, n, zones, count);
  }

  void addAccInputs(const Real4<T>* pos, const Real4<T>* velrho, const uint32_t* code, Real4<T>* ace, uint32_t nBound,
                    uint32_t n, const AccInputTable& table) override {
    if (n > nBound)
      SPH_LAUNCH("adding the external accelerations of <accinputs> (SU-AccInput)", n - nBound, kBlock, 0,
                 accInputKernel<T>, pos, velrho, code, ace, nBound, n, table);
  }

  void wrapPeriodic(Real4<T>* pos, Real4<T>* posLo, uint32_t nBound, uint32_t n, const PeriodicBox<T>& box) override {
    if (n > nBound)
      SPH_LAUNCH("wrapping particles across periodic boundaries (SU-Periodic)", n - nBound, kBlock, 0, wrapKernel<T>,
                 pos, posLo, nBound, n, box);
  }

  void computeDt(const Real4<T>* ace, const T* viscdt, const Real4<T>* velrho, uint32_t nBound, uint32_t n,
                 const DtRule& rule, DtPass pass, bool firstStep) override {
    // At least one block, so that dt is computed (and the scalars cleared) without particles too.
    const bool combined = bool(this->combineDtMaxima_);
    SPH_LAUNCH("computing the time step", n > 0 ? n : 1, kBlock, 0, dtKernel<T>, ace, viscdt, velrho, nBound, n, rule,
               pass, firstStep, combined, scalars_.data());
    if (!combined) return;
    // The maxima to the host, combined with the other ranks', and back: a wait for the device at
    // each force pass, which a run over several ranks pays anyway for its halo.
    static_assert(offsetof(StepScalars, maxVel2Bits) == 2 * sizeof(unsigned long long), "the maxima are adjacent");
    StepScalars* s = scalars_.data();
    SPH_CUDA_CHECK(cudaMemcpyAsync(&host_->maxAce2Bits, &s->maxAce2Bits, 3 * sizeof(unsigned long long),
                                   cudaMemcpyDeviceToHost, 0),
                   "reading the time-step maxima");
    SPH_CUDA_CHECK(cudaStreamSynchronize(0), "waiting for the time-step maxima");
    double m[3] = {std::bit_cast<double>(host_->maxAce2Bits), std::bit_cast<double>(host_->maxViscdtBits),
                   std::bit_cast<double>(host_->maxVel2Bits)};
    this->combineDtMaxima_(m);
    host_->maxAce2Bits = std::bit_cast<unsigned long long>(m[0]);
    host_->maxViscdtBits = std::bit_cast<unsigned long long>(m[1]);
    host_->maxVel2Bits = std::bit_cast<unsigned long long>(m[2]);
    SPH_CUDA_CHECK(
        cudaMemcpy(&s->maxAce2Bits, &host_->maxAce2Bits, 3 * sizeof(unsigned long long), cudaMemcpyHostToDevice),
        "writing the combined time-step maxima");
    SPH_LAUNCH("computing the time step from every rank's maxima", 1, 1, 0, finishDtKernel, rule, pass, firstStep, s);
  }

  void verletStep(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c, bool euler, uint32_t* code,
                  const ExclusionLimits<T>& l) override {
    SPH_LAUNCH("integrating a Verlet step", a.n, kBlock, 0, verletKernel<T>, a, c, scalars_.data(), euler, code, l);
  }
  void symplecticPredict(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c) override {
    SPH_LAUNCH("integrating the symplectic predictor", a.n, kBlock, 0, predictKernel<T>, a, c, scalars_.data());
  }
  void symplecticCorrect(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c, uint32_t* code,
                         const ExclusionLimits<T>& l) override {
    SPH_LAUNCH("integrating the symplectic corrector", a.n, kBlock, 0, correctKernel<T>, a, c, scalars_.data(), code, l);
  }

  void queueStepScalars() override {
    SPH_CUDA_CHECK(cudaMemcpyAsync(host_, scalars_.data(), sizeof(StepScalars), cudaMemcpyDeviceToHost, 0),
                   "reading the step scalars (dt, exclusion counts)");
  }
  StepScalars waitStepScalars() override {
    SPH_CUDA_CHECK(cudaStreamSynchronize(0), "finishing a time step");
    return *host_;
  }

  void restoreStepScalars(const StepScalars& s) override {
    SPH_CUDA_CHECK(cudaMemcpy(scalars_.data(), &s, sizeof(StepScalars), cudaMemcpyHostToDevice),
                   "restoring the step scalars from a checkpoint");
  }

  double stepDt() override {
    SPH_CUDA_CHECK(cudaMemcpyAsync(&host_->dt, &scalars_.data()->dt, sizeof(double), cudaMemcpyDeviceToHost, 0),
                   "reading the step's dt");
    SPH_CUDA_CHECK(cudaStreamSynchronize(0), "waiting for the step's dt");
    return host_->dt;
  }

  const double* dtLocation() const override { return &scalars_.data()->dt; }

  // CUB's stable partition: kept particles first in order, excluded ones after (reversed).
  uint32_t partitionByCode(const uint32_t* code, uint32_t n, uint32_t* perm, uint32_t mask, uint32_t value) override {
    if (n == 0) return 0;
    index_.resize(n, "allocating the exclusion partition");
    keep_.resize(n, "allocating the exclusion partition");
    SPH_LAUNCH("flagging particles for a partition", n, kBlock, 0, keepFlagsKernel, code, n, mask, value, index_.data(),
               keep_.data());
    size_t bytes = 0;
    SPH_CUDA_CHECK(cub::DevicePartition::Flagged(nullptr, bytes, index_.data(), keep_.data(), perm, kept_.data(),
                                                 n, cudaStream_t(0)),
                   "sizing the exclusion partition");
    temp_.resize(bytes, "allocating the exclusion partition");
    SPH_CUDA_CHECK(cub::DevicePartition::Flagged(temp_.data(), bytes, index_.data(), keep_.data(), perm,
                                                 kept_.data(), n, cudaStream_t(0)),
                   "partitioning excluded particles");
    uint32_t kept = 0;
    SPH_CUDA_CHECK(cudaMemcpy(&kept, kept_.data(), sizeof(kept), cudaMemcpyDeviceToHost),
                   "reading the number of kept particles");
    return kept;
  }

  void markAlong(const Real4<T>* pos, const Real4<T>* posLo, uint32_t* code, uint32_t n, int axis, double below,
                 double above, uint32_t bit) override {
    SPH_LAUNCH("marking particles for the ranks' exchange", n, kBlock, 0, markAlongKernel<T>, pos, posLo, code, n, axis,
               below, above, bit);
  }

  void gather(const ReorderArrays<T>& s, const ReorderArrays<T>& d, const uint32_t* perm,
              uint32_t n) override {
    SPH_LAUNCH("reordering particle arrays", n, kBlock, 0, gatherKernel<T>, s, d, perm, n);
  }

  void packRecords(const ReorderArrays<T>& a, const uint32_t* perm, uint32_t count, const RecordLayout& layout,
                   double shift, uint8_t* out) override {
    SPH_LAUNCH("packing the particles that go to other ranks", count, kBlock, 0, packRecordsKernel<T>, a, perm, count,
               layout, shift, out);
  }

  void unpackRecords(const uint8_t* in, uint32_t count, const RecordLayout& layout, const ReorderArrays<T>& a,
                     uint32_t first, const uint32_t* slots, bool halo) override {
    SPH_LAUNCH("unpacking the particles that came from other ranks", count, kBlock, 0, unpackRecordsKernel<T>, in,
               count, layout, a, first, slots, halo);
  }

  void invertPermutation(const uint32_t* perm, uint32_t n, uint32_t* inverse) override {
    if (n > 0) SPH_LAUNCH("inverting a reorder", n, kBlock, 0, invertPermutationKernel, perm, n, inverse);
  }

  void mapIndices(const uint32_t* inverse, uint32_t n, uint32_t* list, uint32_t count) override {
    if (count > 0)
      SPH_LAUNCH("moving the halo's index lists with a reorder", count, kBlock, 0, mapIndicesKernel, inverse, n, list,
                 count);
  }

  void countLayers(const Real4<T>* pos, const Real4<T>* posLo, const uint32_t* code, uint32_t n, int axis,
                   double origin, double width, std::vector<double>& counts) override {
    const uint32_t layers = uint32_t(counts.size());
    layerCounts_.resize(layers, "allocating the layer counts");
    SPH_CUDA_CHECK(cudaMemset(layerCounts_.data(), 0, layers * sizeof(uint32_t)), "clearing the layer counts");
    SPH_LAUNCH("counting the particles of each layer", n, kBlock, 0, countLayersKernel<T>, pos, posLo, code, n, axis,
               origin, width, layers, layerCounts_.data());
    std::vector<uint32_t> host(layers);
    SPH_CUDA_CHECK(cudaMemcpy(host.data(), layerCounts_.data(), layers * sizeof(uint32_t), cudaMemcpyDeviceToHost),
                   "reading the layer counts");
    std::copy(host.begin(), host.end(), counts.begin());
  }

  void park(const ReorderArrays<T>& a, const uint32_t* which, uint32_t count, uint32_t first,
            const ParkingLot& lot) override {
    SPH_LAUNCH("parking excluded particles", count, kBlock, 0, parkKernel<T>, a, which, count, first, lot);
  }

 private:
  gpu::DeviceBuffer<StepScalars> scalars_;
  StepScalars* host_ = nullptr;  // pinned
  gpu::DeviceBuffer<uint32_t> index_, kept_{1, "allocating the exclusion partition"};
  gpu::DeviceBuffer<uint32_t> layerCounts_;
  gpu::DeviceBuffer<unsigned char> keep_, temp_;
};

}  // namespace

template <typename T>
std::unique_ptr<EngineOps<T>> makeGpuOps() {
  return std::make_unique<GpuOps<T>>();
}
template std::unique_ptr<EngineOps<float>> makeGpuOps<float>();
template std::unique_ptr<EngineOps<double>> makeGpuOps<double>();

}  // namespace sph
