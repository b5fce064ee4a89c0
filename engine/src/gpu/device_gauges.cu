// CUDA kernels of the GPU gauges (device_gauges.h): one warp per chunk for the boxes, one warp
// per point for the sums.
#include <cfloat>

#include "../device_gauges.h"
#include "sph/gpu/cuda_check.cuh"
#include "sph/gpu/warp_reduce.cuh"
#include "sph/particle_code.h"

namespace sph {
namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kBlock = 128;  // four warps
constexpr unsigned kFull = 0xffffffffu;

// The particles a gauge sums over: fluid, not floating, not parked (excluded).
SPH_HD SPH_FORCEINLINE bool gaugeParticle(uint32_t c) {
  return !code::isBound(c) && !code::isFloating(c) && !code::isParked(c);
}

template <typename T>
__global__ void __launch_bounds__(kBlock) boxKernel(ParticleView<T> p, int dim, GaugeChunkBox* boxes, uint32_t chunks) {
  const uint32_t chunk = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  const unsigned lane = threadIdx.x % kWarp;
  if (chunk >= chunks) return;  // whole warps leave together
  double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
  for (unsigned k = lane; k < kGaugeChunk; k += kWarp) {
    const uint32_t i = p.nBound + chunk * kGaugeChunk + k;
    if (i >= p.n || !gaugeParticle(p.code[i])) continue;
    const Real4<T> x = p.pos[i];
    const double v[3] = {double(x.x), dim == 2 ? 0.0 : double(x.y), double(x.z)};
    for (int a = 0; a < 3; ++a) {
      lo[a] = fmin(lo[a], v[a]);
      hi[a] = fmax(hi[a], v[a]);
    }
  }
  for (int a = 0; a < 3; ++a) {
    lo[a] = sph::gpu::groupMin(lo[a]);
    hi[a] = sph::gpu::groupMax(hi[a]);
  }
  if (lane == 0)
    for (int a = 0; a < 3; ++a) {
      boxes[chunk].lo[a] = lo[a];
      boxes[chunk].hi[a] = hi[a];
    }
}

// Squared distance from x to the box (0 inside); huge for an empty box (lo > hi).
__device__ SPH_FORCEINLINE double boxDistance2(const GaugeChunkBox& b, const double x[3]) {
  double d2 = 0;
  for (int a = 0; a < 3; ++a) {
    const double d = fmax(fmax(b.lo[a] - x[a], x[a] - b.hi[a]), 0.0);
    d2 += d * d;
  }
  return d2;
}

template <KernelKind K, typename T>
__global__ void __launch_bounds__(kBlock)
    sumKernel(ParticleView<T> p, GaugeSumParams k, const GaugeChunkBox* __restrict__ boxes, uint32_t chunks,
              const double* __restrict__ points, uint32_t nPoints, double* __restrict__ sums) {
  const uint32_t point = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  const unsigned lane = threadIdx.x % kWarp;
  if (point >= nPoints) return;  // whole warps leave together
  const double x[3] = {points[3 * point], k.dim == 2 ? 0.0 : points[3 * point + 1], points[3 * point + 2]};
  double s[kGaugeSumsPerPoint] = {0, 0, 0, 0, 0};
  for (uint32_t base = 0; base < chunks; base += kWarp) {
    const uint32_t mine = base + lane;
    const bool near = mine < chunks && boxDistance2(boxes[mine], x) < k.support2;
    for (unsigned m = __ballot_sync(kFull, near); m != 0; m &= m - 1) {
      const uint32_t chunk = base + unsigned(__ffs(int(m)) - 1);
      for (unsigned q = lane; q < kGaugeChunk; q += kWarp) {
        const uint32_t i = p.nBound + chunk * kGaugeChunk + q;
        if (i >= p.n || !gaugeParticle(p.code[i])) continue;
        const Real4<T> xj = p.pos[i];
        const double r2 = gaugeDistance2(x, double(xj.x), double(xj.y), double(xj.z), k.dim);
        if (r2 >= k.support2) continue;
        const Real4<T> vr = p.velrho[i];
        const double rho = double(vr.w);
        const double vw = gaugeVolumeWeight<K>(sqrt(r2), rho, k);
        s[0] += vw;
        s[1] += vw * double(vr.x);
        s[2] += vw * double(vr.y);
        s[3] += vw * double(vr.z);
        s[4] += vw * gaugeTaitPressure(rho, k);
      }
    }
  }
  for (unsigned a = 0; a < kGaugeSumsPerPoint; ++a) s[a] = sph::gpu::groupSum(s[a]);
  if (lane == 0)
    for (unsigned a = 0; a < kGaugeSumsPerPoint; ++a) sums[size_t(point) * kGaugeSumsPerPoint + a] = s[a];
}

}  // namespace

template <typename T>
void gaugeSumsGpu(const ParticleView<T>& p, const GaugeSumParams& k, const double* points, uint32_t nPoints,
                  GaugeChunkBox* boxes, double* sums) {
  const uint32_t chunks = (p.n - p.nBound + kGaugeChunk - 1) / kGaugeChunk;
  SPH_LAUNCH("bounding the particle chunks for the gauges", chunks * kWarp, kBlock, 0, boxKernel<T>, p, k.dim,
             boxes, chunks);
  const auto sum = k.kernel == KernelKind::Cubic ? sumKernel<KernelKind::Cubic, T> : sumKernel<KernelKind::Wendland, T>;
  SPH_LAUNCH("summing the gauges at their points", nPoints * kWarp, kBlock, 0, sum, p, k, boxes, chunks, points,
             nPoints, sums);
}

template void gaugeSumsGpu(const ParticleView<float>&, const GaugeSumParams&, const double*, uint32_t,
                           GaugeChunkBox*, double*);
template void gaugeSumsGpu(const ParticleView<double>&, const GaugeSumParams&, const double*, uint32_t,
                           GaugeChunkBox*, double*);

}  // namespace sph
