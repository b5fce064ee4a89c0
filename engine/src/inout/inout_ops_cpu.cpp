// CPU passes of inlet/outlet zones (inout/inout_ops.h). The classification runs in parallel;
// the slots of removed particles are given in particle order, so that runs repeat exactly
// whatever the thread count.
#include <omp.h>

#include <algorithm>
#include <vector>

#include "inout/inout_ops.h"

namespace sph {
namespace {

template <typename T>
class InOutCpuOps final : public InOutOps<T> {
 public:
  explicit InOutCpuOps(int threads) : threads_(threads > 0 ? threads : omp_get_max_threads()) {}

  InOutCounts classify(const InOutArrays<T>& a, const InOutParams& p, const ParkingLot& lot,
                       uint32_t parkedFirst) override {
    const int64_t n = a.n, first = a.nBound;
    actions_.assign(size_t(n - first), uint8_t(InOutAction::None));
    zones_.resize(size_t(n - first));
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = first; i < n; ++i) {
      const uint32_t c = a.code[i];
      if (!inOutCandidate(c)) continue;
      Real4<T> q = a.pos[i];
      double x[3];
      loadPosition(q, positionLo(static_cast<const Real4<T>*>(a.posLo), uint32_t(i)), x);
      uint32_t zone = 0;
      actions_[size_t(i - first)] = uint8_t(inOutClassify(c, x[0], x[1], x[2], p, &zone));
      zones_[size_t(i - first)] = uint8_t(zone);
    }
    InOutCounts counts;
    for (int64_t i = first; i < n; ++i) {
      const auto act = InOutAction(actions_[size_t(i - first)]);
      if (act == InOutAction::None) continue;
      applyInOutAction(uint32_t(i), act, zones_[size_t(i - first)], a, lot, parkedFirst + counts.removed);
      counts.removed += act == InOutAction::Remove;
      counts.toFluid += act == InOutAction::ToFluid || act == InOutAction::ToFluidSpawn;
      counts.spawned += act == InOutAction::ToFluidSpawn;
      counts.toBuffer += act == InOutAction::ToBuffer;
    }
    return counts;
  }

  void takeSpawners(const InOutArrays<T>& a, const InOutParams& p, const uint32_t* which, uint32_t count,
                    InOutNewParticle* out) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t k = 0; k < int64_t(count); ++k) out[k] = takeInOutSpawner(which[k], a, p);
  }

  // In particle order: the maxima do not depend on it.
  void refillReach(const InOutArrays<T>& a, const InOutParams& p, const double* points, uint32_t nPoints, double dp,
                   double* reach) override {
    std::fill(reach, reach + nPoints, 0.0);
    for (uint32_t i = a.nBound; i < a.n; ++i) {
      const uint32_t c = a.code[i];
      if (!inOutRefilled(c, p)) continue;
      const InOutZoneData& z = p.zones[code::inOutZone(c)];
      Real4<T> q = a.pos[i];
      double x[3];
      loadPosition(q, positionLo(static_cast<const Real4<T>*>(a.posLo), i), x);
      for (uint32_t k = z.refillFirst; k < z.refillFirst + z.refillCount; ++k)
        reach[k] = std::max(reach[k], inOutRefillReach(z, x, points + 3 * size_t(k), dp));
    }
  }

  void place(const InOutArrays<T>& a, const InOutParams& p, const InOutNewParticle* list, uint32_t count) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t k = 0; k < int64_t(count); ++k) placeInOutParticle(a.n + uint32_t(k), list[k], a, p);
  }

  uint32_t listExtrapolated(const InOutArrays<T>& a, const InOutParams& p, uint32_t* which) override {
    uint32_t k = 0;
    for (uint32_t i = a.nBound; i < a.n; ++i)
      if (inOutExtrapolated(a.code[i], p)) which[k++] = i;
    return k;
  }

  void impose(const InOutArrays<T>& a, const InOutParams& p, const PhysicsConstants<T>& c, bool setPre) override {
    const int64_t n = a.n;
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = a.nBound; i < n; ++i) imposeInOutParticle(uint32_t(i), a, p, c, setPre);
  }

 private:
  int threads_;
  std::vector<uint8_t> actions_, zones_;
};

}  // namespace

template <typename T>
std::unique_ptr<InOutOps<T>> makeInOutCpuOps(int threads) {
  return std::make_unique<InOutCpuOps<T>>(threads);
}
template std::unique_ptr<InOutOps<float>> makeInOutCpuOps(int);
template std::unique_ptr<InOutOps<double>> makeInOutCpuOps(int);

}  // namespace sph
