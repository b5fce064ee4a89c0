// CUDA kernels of the GPU gauges (gauges/device_gauges.h): one warp per chunk for the boxes, one warp
// per point for the sums, one warp per maxz line, one warp per boundary chunk for a force gauge.
// The boxes and maxz read positions to double accuracy (pos + posLo in single precision,
// physics/position_split.h), as the host's snapshots hold them; the kernel sums read the float pos, as
// the force passes do.
#include <cfloat>

#include "gauges/device_gauges.h"
#include "physics/position_split.h"
#include "sph/plugin/gpu/cuda_check.cuh"
#include "sph/plugin/gpu/warp_reduce.cuh"
#include "sph/plugin/particle_code.h"

namespace sph {
namespace {

constexpr unsigned kWarp = 32;
constexpr unsigned kBlock = 128;  // four warps
constexpr unsigned kFull = 0xffffffffu;

// The particles a gauge sums over: fluid, not floating, not parked (excluded), not another rank's
// (a halo copy: sums of the ranks add up).
SPH_HD SPH_FORCEINLINE bool gaugeParticle(uint32_t c) {
  return !code::isBound(c) && !code::isFloating(c) && !code::isParked(c) && !code::isHalo(c);
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
    double v[3];
    loadPosition(p.pos[i], positionLo(static_cast<const Real4<T>*>(p.posLo), i), v);
    if (dim == 2) v[1] = 0.0;
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

// Squared gap between box b and the box [lo, hi] (0 when they overlap); huge for an empty b.
__device__ SPH_FORCEINLINE double boxGap2(const GaugeChunkBox& b, const double lo[3], const double hi[3]) {
  double d2 = 0;
  for (int a = 0; a < 3; ++a) {
    const double d = fmax(fmax(b.lo[a] - hi[a], lo[a] - b.hi[a]), 0.0);
    d2 += d * d;
  }
  return d2;
}

template <typename T>
__global__ void __launch_bounds__(kBlock)
    maxZKernel(ParticleView<T> p, int dim, const GaugeChunkBox* __restrict__ boxes, uint32_t chunks,
               const MaxZLine* __restrict__ lines, uint32_t nLines, double* __restrict__ out) {
  const uint32_t line = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  const unsigned lane = threadIdx.x % kWarp;
  if (line >= nLines) return;  // whole warps leave together
  const MaxZLine l = lines[line];
  const double x0[3] = {l.point0.x, dim == 2 ? 0.0 : l.point0.y, l.point0.z};
  const double d = l.distLimit, d2 = d * d;
  // The box around the line's cylinder (in 2D the boxes' y is 0, as x0's).
  const double lo[3] = {x0[0] - d, dim == 2 ? 0.0 : x0[1] - d, x0[2]};
  const double hi[3] = {x0[0] + d, dim == 2 ? 0.0 : x0[1] + d, x0[2] + l.height};
  double zmax = kNoMaxZ;
  for (uint32_t base = 0; base < chunks; base += kWarp) {
    const uint32_t mine = base + lane;
    const bool near = mine < chunks && boxGap2(boxes[mine], lo, hi) == 0.0;
    for (unsigned m = __ballot_sync(kFull, near); m != 0; m &= m - 1) {
      const uint32_t chunk = base + unsigned(__ffs(int(m)) - 1);
      for (unsigned q = lane; q < kGaugeChunk; q += kWarp) {
        const uint32_t i = p.nBound + chunk * kGaugeChunk + q;
        if (i >= p.n || !gaugeParticle(p.code[i])) continue;
        double x[3];
        loadPosition(p.pos[i], positionLo(static_cast<const Real4<T>*>(p.posLo), i), x);
        if (x[2] > zmax && nearMaxZLine(x0, l.height, d2, x[0], x[1], x[2], dim)) zmax = x[2];
      }
    }
  }
  zmax = sph::gpu::groupMax(zmax);
  if (lane == 0) out[line] = zmax;
}

// The boundary particles a force gauge measures: fixed or moving ones of its mk.
SPH_HD SPH_FORCEINLINE bool wallTarget(uint32_t c, uint32_t mkIndex) {
  return code::isBound(c) && !code::isFloating(c) && code::mkIndex(c) == mkIndex;
}

// One warp per chunk of kGaugeChunk boundary particles: each lane holds two of them (those of the
// target mk), and the warp walks the fluid chunks within 2h of their box, every lane reading the
// same fluid particle at a time. partial[3 chunk ..] = the chunk's summed acceleration.
template <typename T>
__global__ void __launch_bounds__(kBlock)
    wallAceKernel(ParticleView<T> p, GaugeSumParams k, const GaugeChunkBox* __restrict__ boxes, uint32_t chunks,
                  uint32_t mkIndex, uint32_t boundChunks, double* __restrict__ partial) {
  constexpr unsigned kPerLane = kGaugeChunk / kWarp;
  const uint32_t chunk = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  const unsigned lane = threadIdx.x % kWarp;
  if (chunk >= boundChunks) return;  // whole warps leave together
  bool mine[kPerLane];
  double xa[kPerLane][3], pa[kPerLane], rhoa[kPerLane];
  double lo[3] = {DBL_MAX, DBL_MAX, DBL_MAX}, hi[3] = {-DBL_MAX, -DBL_MAX, -DBL_MAX};
  for (unsigned s = 0; s < kPerLane; ++s) {
    const uint32_t i = chunk * kGaugeChunk + s * kWarp + lane;
    mine[s] = i < p.nBound && wallTarget(p.code[i], mkIndex);
    if (!mine[s]) continue;
    const Real4<T> x = p.pos[i];
    xa[s][0] = double(x.x);
    xa[s][1] = k.dim == 2 ? 0.0 : double(x.y);
    xa[s][2] = double(x.z);
    rhoa[s] = double(p.velrho[i].w);
    pa[s] = gaugeTaitPressure(rhoa[s], k);
    for (int a = 0; a < 3; ++a) {
      lo[a] = fmin(lo[a], xa[s][a]);
      hi[a] = fmax(hi[a], xa[s][a]);
    }
  }
  for (int a = 0; a < 3; ++a) {
    lo[a] = sph::gpu::groupMin(lo[a]);
    hi[a] = sph::gpu::groupMax(hi[a]);
  }
  double ace[3] = {0, 0, 0};
  if (lo[0] <= hi[0]) {  // the same on every lane: the chunk holds particles of the mk
    for (uint32_t base = 0; base < chunks; base += kWarp) {
      const uint32_t fc = base + lane;
      const bool near = fc < chunks && boxGap2(boxes[fc], lo, hi) < k.support2;
      for (unsigned m = __ballot_sync(kFull, near); m != 0; m &= m - 1) {
        const uint32_t fluidChunk = base + unsigned(__ffs(int(m)) - 1);
        for (unsigned q = 0; q < kGaugeChunk; ++q) {
          const uint32_t j = p.nBound + fluidChunk * kGaugeChunk + q;
          if (j >= p.n) break;
          if (!gaugeParticle(p.code[j])) continue;
          const Real4<T> xj = p.pos[j];
          const double xb[3] = {double(xj.x), k.dim == 2 ? 0.0 : double(xj.y), double(xj.z)};
          const double rhob = double(p.velrho[j].w);
          const double pb = gaugeTaitPressure(rhob, k);
          for (unsigned s = 0; s < kPerLane; ++s) {
            if (!mine[s]) continue;
            const double dr[3] = {xa[s][0] - xb[0], xa[s][1] - xb[1], xa[s][2] - xb[2]};
            const double r2 = dr[0] * dr[0] + dr[1] * dr[1] + dr[2] * dr[2];
            if (r2 < k.support2) addWallPressureAce(dr, r2, pa[s], rhoa[s], pb, rhob, k, ace);
          }
        }
      }
    }
  }
  for (int a = 0; a < 3; ++a) ace[a] = sph::gpu::groupSum(ace[a]);
  if (lane == 0)
    for (int a = 0; a < 3; ++a) partial[3 * size_t(chunk) + a] = ace[a];
}

// One warp adds the n partial sums (3 each) in a fixed order into out[0..2].
__global__ void sumPartialsKernel(const double* __restrict__ partial, uint32_t n, double* __restrict__ out) {
  const unsigned lane = threadIdx.x;
  double s[3] = {0, 0, 0};
  for (uint32_t c = lane; c < n; c += kWarp)
    for (int a = 0; a < 3; ++a) s[a] += partial[3 * size_t(c) + a];
  for (int a = 0; a < 3; ++a) s[a] = sph::gpu::groupSum(s[a]);
  if (lane == 0)
    for (int a = 0; a < 3; ++a) out[a] = s[a];
}

template <KernelKind K, typename T>
__global__ void __launch_bounds__(kBlock)
    sumKernel(ParticleView<T> p, GaugeSumParams k, const GaugeChunkBox* __restrict__ boxes, uint32_t chunks,
              const double* __restrict__ points, uint32_t nPoints, double* __restrict__ sums) {
  const uint32_t point = (blockIdx.x * blockDim.x + threadIdx.x) / kWarp;
  const unsigned lane = threadIdx.x % kWarp;
  if (point >= nPoints) return;  // whole warps leave together
  const double x[3] = {points[3 * point], k.dim == 2 ? 0.0 : points[3 * point + 1], points[3 * point + 2]};
  double s[kGaugeSumsPerPoint] = {0, 0, 0, 0, 0, 0};
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
        s[5] += vw * rho;
      }
    }
  }
  for (unsigned a = 0; a < kGaugeSumsPerPoint; ++a) s[a] = sph::gpu::groupSum(s[a]);
  if (lane == 0)
    for (unsigned a = 0; a < kGaugeSumsPerPoint; ++a) sums[size_t(point) * kGaugeSumsPerPoint + a] = s[a];
}

}  // namespace

template <typename T>
void gaugeBoxesGpu(const ParticleView<T>& p, int dim, GaugeChunkBox* boxes) {
  const uint32_t chunks = gaugeChunkCount(p);
  SPH_LAUNCH("bounding the particle chunks for the gauges", chunks * kWarp, kBlock, 0, boxKernel<T>, p, dim, boxes,
             chunks);
}

template <typename T>
void gaugeSumsGpu(const ParticleView<T>& p, const GaugeSumParams& k, const GaugeChunkBox* boxes, const double* points,
                  uint32_t nPoints, double* sums) {
  const auto sum = k.kernel == KernelKind::Cubic ? sumKernel<KernelKind::Cubic, T> : sumKernel<KernelKind::Wendland, T>;
  SPH_LAUNCH("summing the gauges at their points", nPoints * kWarp, kBlock, 0, sum, p, k, boxes, gaugeChunkCount(p),
             points, nPoints, sums);
}

template <typename T>
void gaugeMaxZGpu(const ParticleView<T>& p, int dim, const GaugeChunkBox* boxes, const MaxZLine* lines,
                  uint32_t nLines, double* out) {
  SPH_LAUNCH("finding the highest fluid near the maxz gauges' lines", nLines * kWarp, kBlock, 0, maxZKernel<T>, p,
             dim, boxes, gaugeChunkCount(p), lines, nLines, out);
}

template <typename T>
void gaugeWallAceGpu(const ParticleView<T>& p, const GaugeSumParams& k, const GaugeChunkBox* boxes, uint32_t mkIndex,
                     double* partial, double* out) {
  const uint32_t boundChunks = gaugeBoundChunkCount(p);
  SPH_LAUNCH("summing a force gauge's pressure forces", boundChunks * kWarp, kBlock, 0, wallAceKernel<T>, p, k, boxes,
             gaugeChunkCount(p), mkIndex, boundChunks, partial);
  // One warp, launched even with no boundary chunk so that out is always written.
  SPH_LAUNCH("adding up a force gauge's partial sums", kWarp, kWarp, 0, sumPartialsKernel, partial, boundChunks, out);
}

template void gaugeBoxesGpu(const ParticleView<float>&, int, GaugeChunkBox*);
template void gaugeSumsGpu(const ParticleView<float>&, const GaugeSumParams&, const GaugeChunkBox*, const double*, uint32_t,
                           double*);
template void gaugeMaxZGpu(const ParticleView<float>&, int, const GaugeChunkBox*, const MaxZLine*, uint32_t, double*);
template void gaugeWallAceGpu(const ParticleView<float>&, const GaugeSumParams&, const GaugeChunkBox*, uint32_t, double*,
                              double*);
template void gaugeBoxesGpu(const ParticleView<double>&, int, GaugeChunkBox*);
template void gaugeSumsGpu(const ParticleView<double>&, const GaugeSumParams&, const GaugeChunkBox*, const double*, uint32_t,
                           double*);
template void gaugeMaxZGpu(const ParticleView<double>&, int, const GaugeChunkBox*, const MaxZLine*, uint32_t, double*);
template void gaugeWallAceGpu(const ParticleView<double>&, const GaugeSumParams&, const GaugeChunkBox*, uint32_t, double*,
                              double*);

}  // namespace sph
