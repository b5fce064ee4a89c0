// CUDA passes of inlet/outlet zones (inout/inout_ops.h): one thread per fluid particle. The
// counts come back with one small copy; removed particles take their parking slots in whatever
// order the threads reach them, which moves nothing but where they wait to be compacted away.
#include "inout/inout_ops.h"
#include "sph/plugin/gpu/cuda_check.cuh"

namespace sph {
namespace {

constexpr unsigned kBlock = 256;

template <typename T>
__global__ void classifyKernel(InOutArrays<T> a, InOutParams p, ParkingLot lot, uint32_t parkedFirst,
                               InOutCounts* counts) {
  const uint32_t i = a.nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= a.n) return;
  const uint32_t c = a.code[i];
  if (!inOutCandidate(c)) return;
  Real4<T> q = a.pos[i];
  double x[3];
  loadPosition(q, positionLo(static_cast<const Real4<T>*>(a.posLo), i), x);
  uint32_t zone = 0;
  const InOutAction act = inOutClassify(c, x[0], x[1], x[2], p, &zone);
  if (act == InOutAction::None) return;
  uint32_t slot = 0;
  if (act == InOutAction::Remove) slot = parkedFirst + atomicAdd(&counts->removed, 1u);
  if (act == InOutAction::ToFluid || act == InOutAction::ToFluidSpawn) atomicAdd(&counts->toFluid, 1u);
  if (act == InOutAction::ToFluidSpawn) atomicAdd(&counts->spawned, 1u);
  if (act == InOutAction::ToBuffer) atomicAdd(&counts->toBuffer, 1u);
  applyInOutAction(i, act, zone, a, lot, slot);
}

template <typename T>
__global__ void takeSpawnersKernel(InOutArrays<T> a, InOutParams p, const uint32_t* which, uint32_t count,
                                   InOutNewParticle* out) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) out[k] = takeInOutSpawner(which[k], a, p);
}

template <typename T>
__global__ void imposeKernel(InOutArrays<T> a, InOutParams p, PhysicsConstants<T> c, bool setPre) {
  const uint32_t i = a.nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n) imposeInOutParticle(i, a, p, c, setPre);
}

// One thread per particle; a refilled buffer particle takes the maximum at each point of its zone
// (the reaches are >= 0, so their bits order as unsigned integers).
template <typename T>
__global__ void refillReachKernel(InOutArrays<T> a, InOutParams p, const double* points, double dp,
                                  unsigned long long* reach) {
  const uint32_t i = a.nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= a.n) return;
  const uint32_t c = a.code[i];
  if (!inOutRefilled(c, p)) return;
  const InOutZoneData& z = p.zones[code::inOutZone(c)];
  Real4<T> q = a.pos[i];
  double x[3];
  loadPosition(q, positionLo(static_cast<const Real4<T>*>(a.posLo), i), x);
  for (uint32_t k = z.refillFirst; k < z.refillFirst + z.refillCount; ++k) {
    const double r = inOutRefillReach(z, x, points + 3 * size_t(k), dp);
    if (r > 0) atomicMax(&reach[k], static_cast<unsigned long long>(__double_as_longlong(r)));
  }
}

template <typename T>
__global__ void placeKernel(InOutArrays<T> a, InOutParams p, const InOutNewParticle* list, uint32_t count) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < count) placeInOutParticle(a.n + k, list[k], a, p);
}

template <typename T>
__global__ void listKernel(InOutArrays<T> a, InOutParams p, uint32_t* which, uint32_t* count) {
  const uint32_t i = a.nBound + blockIdx.x * blockDim.x + threadIdx.x;
  if (i < a.n && inOutExtrapolated(a.code[i], p)) which[atomicAdd(count, 1u)] = i;
}

template <typename T>
class InOutGpuOps final : public InOutOps<T> {
 public:
  InOutGpuOps() {
    SPH_CUDA_CHECK(cudaMalloc(&counts_, sizeof(InOutCounts)), "allocating the inlet/outlet counters");
  }
  ~InOutGpuOps() override { cudaFree(counts_); }

  InOutCounts classify(const InOutArrays<T>& a, const InOutParams& p, const ParkingLot& lot,
                       uint32_t parkedFirst) override {
    SPH_CUDA_CHECK(cudaMemsetAsync(counts_, 0, sizeof(InOutCounts), cudaStream_t(0)),
                   "clearing the inlet/outlet counters");
    if (a.n > a.nBound)
      SPH_LAUNCH("applying the inlet/outlet zones' rules (SU-InOut)", a.n - a.nBound, kBlock, 0, classifyKernel<T>, a,
                 p, lot, parkedFirst, counts_);
    InOutCounts out;
    SPH_CUDA_CHECK(cudaMemcpy(&out, counts_, sizeof(out), cudaMemcpyDeviceToHost), "reading the inlet/outlet counters");
    return out;
  }

  void takeSpawners(const InOutArrays<T>& a, const InOutParams& p, const uint32_t* which, uint32_t count,
                    InOutNewParticle* out) override {
    if (count > 0)
      SPH_LAUNCH("listing the buffer particles the crossing ones leave (SU-InOut)", count, kBlock, 0,
                 takeSpawnersKernel<T>, a, p, which, count, out);
  }

  void refillReach(const InOutArrays<T>& a, const InOutParams& p, const double* points, uint32_t nPoints, double dp,
                   double* reach) override {
    SPH_CUDA_CHECK(cudaMemsetAsync(reach, 0, sizeof(double) * nPoints, cudaStream_t(0)),
                   "clearing the advanced refilling's reaches");
    if (a.n > a.nBound)
      SPH_LAUNCH("measuring the inlet/outlet columns to refill (SU-InOut)", a.n - a.nBound, kBlock, 0,
                 refillReachKernel<T>, a, p, points, dp, reinterpret_cast<unsigned long long*>(reach));
  }

  void place(const InOutArrays<T>& a, const InOutParams& p, const InOutNewParticle* list, uint32_t count) override {
    if (count > 0)
      SPH_LAUNCH("creating inlet/outlet buffer particles (SU-InOut)", count, kBlock, 0, placeKernel<T>, a, p, list,
                 count);
  }

  // In whatever order the threads reach them: each particle's extrapolation writes it alone.
  uint32_t listExtrapolated(const InOutArrays<T>& a, const InOutParams& p, uint32_t* which) override {
    uint32_t* count = &counts_->removed;  // a counter of classify()'s, free between its calls
    SPH_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(uint32_t), cudaStream_t(0)), "clearing the extrapolation list");
    if (a.n > a.nBound)
      SPH_LAUNCH("listing the extrapolated inlet/outlet particles (SU-InOut)", a.n - a.nBound, kBlock, 0,
                 listKernel<T>, a, p, which, count);
    uint32_t out = 0;
    SPH_CUDA_CHECK(cudaMemcpy(&out, count, sizeof(out), cudaMemcpyDeviceToHost),
                   "reading the number of extrapolated inlet/outlet particles");
    return out;
  }

  void impose(const InOutArrays<T>& a, const InOutParams& p, const PhysicsConstants<T>& c, bool setPre) override {
    if (a.n > a.nBound)
      SPH_LAUNCH("imposing the inlet/outlet zones' velocity and density (SU-InOut)", a.n - a.nBound, kBlock, 0,
                 imposeKernel<T>, a, p, c, setPre);
  }

 private:
  InOutCounts* counts_ = nullptr;
};

}  // namespace

template <typename T>
std::unique_ptr<InOutOps<T>> makeInOutGpuOps() {
  return std::make_unique<InOutGpuOps<T>>();
}
template std::unique_ptr<InOutOps<float>> makeInOutGpuOps();
template std::unique_ptr<InOutOps<double>> makeInOutGpuOps();

}  // namespace sph
