// CUDA implementation of the engine's per-particle passes (see engine_ops.h). Each kernel is a
// thin loop body around the shared header-only physics.
#include <cstdint>

#include "../engine_ops.h"
#include "sph/gpu/cuda_check.cuh"
#include "sph/gpu/device_buffer.cuh"
#include "sph/pair_physics.h"
#include "sph/particle_code.h"

namespace sph {
namespace {

constexpr unsigned kBlock = 256;

template <typename T>
__global__ void pressureKernel(Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ velrho,
                               uint32_t n, PhysicsConstants<T> c) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) pos[i].w = taitPressure(velrho[i].w, c);
}

__device__ inline double warpMax(double v) {
  for (int o = 16; o > 0; o >>= 1) v = fmax(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}

// Non-negative doubles order like their bit patterns, so atomicMax on the bits is a max.
__device__ inline void atomicMaxNonNegative(unsigned long long* dst, double v) {
  atomicMax(dst, static_cast<unsigned long long>(__double_as_longlong(v)));
}

template <typename T>
__global__ void dtTermsKernel(const Real4<T>* __restrict__ ace, const T* __restrict__ viscdt,
                              uint32_t nBound, uint32_t n, PhysicsConstants<T> c,
                              unsigned long long* __restrict__ out) {
  __shared__ double sA[kBlock / 32], sV[kBlock / 32];
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  double a2 = 0, v = 0;
  if (i < n) {
    v = fmax(0.0, double(viscdt[i]));
    if (i >= nBound) {
      const double ax = ace[i].x + c.gx, ay = ace[i].y + c.gy, az = ace[i].z + c.gz;
      a2 = ax * ax + ay * ay + az * az;
    }
  }
  a2 = warpMax(a2);
  v = warpMax(v);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) {
    sA[warp] = a2;
    sV[warp] = v;
  }
  __syncthreads();
  if (warp == 0) {
    a2 = lane < int(kBlock / 32) ? sA[lane] : 0.0;
    v = lane < int(kBlock / 32) ? sV[lane] : 0.0;
    a2 = warpMax(a2);
    v = warpMax(v);
    if (lane == 0) {
      atomicMaxNonNegative(&out[0], a2);
      atomicMaxNonNegative(&out[1], v);
    }
  }
}

template <typename T>
__global__ void verletKernel(IntegratorArrays<T> a, PhysicsConstants<T> c, T dt, bool euler) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) verletStepParticle(i, a, c, dt, euler);
}
template <typename T>
__global__ void predictKernel(IntegratorArrays<T> a, PhysicsConstants<T> c, T dt) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) symplecticPredictParticle(i, a, c, dt);
}
template <typename T>
__global__ void correctKernel(IntegratorArrays<T> a, PhysicsConstants<T> c, T dt) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) symplecticCorrectParticle(i, a, c, dt);
}

template <typename T>
__global__ void exclusionKernel(const Real4<T>* __restrict__ pos, const Real4<T>* __restrict__ velrho,
                                uint32_t* __restrict__ code, uint32_t nBound, uint32_t n,
                                ExclusionLimits<T> l, uint32_t* __restrict__ counts) {
  const uint32_t i = nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int r = exclusionReason(pos[i], velrho[i].w, l);
  if (r == 0) return;
  code[i] |= code::kExcludedBit;
  atomicAdd(&counts[r - 1], 1u);
}

template <typename T>
__global__ void gatherKernel(ReorderArrays<T> s, ReorderArrays<T> d, const uint32_t* __restrict__ perm,
                             uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) gatherParticle(i, s, d, perm);
}

template <typename T>
class GpuOps final : public EngineOps<T> {
 public:
  GpuOps() : scratch_(2, "allocating the dt reduction slots"), counts_(2, "allocating exclusion counters") {}

  void computePressure(Real4<T>* pos, const Real4<T>* velrho, uint32_t n,
                       const PhysicsConstants<T>& c) override {
    SPH_LAUNCH("computing pressures", n, kBlock, 0, pressureKernel<T>, pos, velrho, n, c);
  }

  DtTerms dtTerms(const Real4<T>* ace, const T* viscdt, uint32_t nBound, uint32_t n,
                  const PhysicsConstants<T>& c) override {
    SPH_CUDA_CHECK(cudaMemsetAsync(scratch_.data(), 0, 2 * sizeof(unsigned long long), 0),
                   "clearing the dt reduction");
    SPH_LAUNCH("reducing time-step terms", n, kBlock, 0, dtTermsKernel<T>, ace, viscdt, nBound, n, c,
               scratch_.data());
    unsigned long long h[2];
    SPH_CUDA_CHECK(cudaMemcpy(h, scratch_.data(), sizeof(h), cudaMemcpyDeviceToHost),
                   "reading the time-step terms");
    DtTerms t;
    t.maxAce2 = __builtin_bit_cast(double, h[0]);
    t.maxViscdt = __builtin_bit_cast(double, h[1]);
    return t;
  }

  void verletStep(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c, T dt, bool euler) override {
    SPH_LAUNCH("integrating a Verlet step", a.n, kBlock, 0, verletKernel<T>, a, c, dt, euler);
  }
  void symplecticPredict(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c, T dt) override {
    SPH_LAUNCH("integrating the symplectic predictor", a.n, kBlock, 0, predictKernel<T>, a, c, dt);
  }
  void symplecticCorrect(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c, T dt) override {
    SPH_LAUNCH("integrating the symplectic corrector", a.n, kBlock, 0, correctKernel<T>, a, c, dt);
  }

  ExclusionCounts markExclusions(const Real4<T>* pos, const Real4<T>* velrho, uint32_t* code,
                                 uint32_t nBound, uint32_t n, const ExclusionLimits<T>& l) override {
    SPH_CUDA_CHECK(cudaMemsetAsync(counts_.data(), 0, 2 * sizeof(uint32_t), 0), "clearing exclusion counters");
    if (n > nBound)
      SPH_LAUNCH("checking particle exclusion", n - nBound, kBlock, 0, exclusionKernel<T>, pos, velrho, code,
                 nBound, n, l, counts_.data());
    uint32_t h[2];
    SPH_CUDA_CHECK(cudaMemcpy(h, counts_.data(), sizeof(h), cudaMemcpyDeviceToHost),
                   "reading exclusion counters");
    return {h[0], h[1]};
  }

  void gather(const ReorderArrays<T>& s, const ReorderArrays<T>& d, const uint32_t* perm,
              uint32_t n) override {
    SPH_LAUNCH("reordering particle arrays", n, kBlock, 0, gatherKernel<T>, s, d, perm, n);
  }

 private:
  gpu::DeviceBuffer<unsigned long long> scratch_;
  gpu::DeviceBuffer<uint32_t> counts_;
};

}  // namespace

template <typename T>
std::unique_ptr<EngineOps<T>> makeGpuOps() {
  return std::make_unique<GpuOps<T>>();
}
template std::unique_ptr<EngineOps<float>> makeGpuOps<float>();
template std::unique_ptr<EngineOps<double>> makeGpuOps<double>();

}  // namespace sph
