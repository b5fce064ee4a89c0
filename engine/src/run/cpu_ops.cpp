// CPU (OpenMP) implementation of the engine's per-particle passes.
#include <omp.h>

#include <algorithm>
#include <bit>

#include "run/engine_ops.h"
#include "sph/plugin/pair_physics.h"
#include "sph/plugin/particle_code.h"

namespace sph {
namespace {

template <typename T>
class CpuOps final : public EngineOps<T> {
 public:
  explicit CpuOps(int threads) : threads_(threads > 0 ? threads : omp_get_max_threads()) {}

  void computePressure(Real4<T>* pos, const Real4<T>* velrho, uint32_t n,
                       const PhysicsConstants<T>& c) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = 0; i < int64_t(n); ++i) pos[i].w = taitPressure(velrho[i].w, c);
  }

  void computeSpsTau(const SymTensor<T>* strain, const Real4<T>* velrho, const uint32_t* code, SymTensor<T>* tau,
                     uint32_t nBound, uint32_t n, const PhysicsConstants<T>& c) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = 0; i < int64_t(n); ++i) spsTauParticle(uint32_t(i), strain, velrho, code, nBound, tau, c);
  }

  void damp(const Real4<T>* pos, Real4<T>* velrho, const uint32_t* code, uint32_t nBound, uint32_t n,
            const DampingZone* zones, uint32_t count) override {
    const double dt = s_.dt;
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = nBound; i < int64_t(n); ++i) dampParticle(uint32_t(i), pos, velrho, code, zones, count, dt);
  }

  void relax(const Real4<T>* pos, Real4<T>* velrho, const uint32_t* code, uint32_t nBound, uint32_t n,
             const RelaxZoneStep& zone) override {
    const double dt = s_.dt;
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = nBound; i < int64_t(n); ++i) relaxParticle(uint32_t(i), pos, velrho, code, zone, dt);
  }

  void cancelShiftOutsideZones(Real4<T>* shift, const Real4<T>* pos, uint32_t nBound, uint32_t n,
                               const ShiftZone* zones, uint32_t count) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = nBound; i < int64_t(n); ++i) sph::cancelShiftOutsideZones(uint32_t(i), shift, pos, zones, count);
  }

  void addAccInputs(const Real4<T>* pos, const Real4<T>* velrho, const uint32_t* code, Real4<T>* ace, uint32_t nBound,
                    uint32_t n, const AccInputTable& table) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = nBound; i < int64_t(n); ++i) accInputParticle(uint32_t(i), pos, velrho, code, ace, table);
  }

  void wrapPeriodic(Real4<T>* pos, Real4<T>* posLo, uint32_t nBound, uint32_t n, const PeriodicBox<T>& box) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = nBound; i < int64_t(n); ++i) wrapPeriodicParticle(uint32_t(i), pos, posLo, box);
  }

  void computeDt(const Real4<T>* ace, const T* viscdt, const Real4<T>* velrho, uint32_t nBound, uint32_t n,
                 const DtRule& rule, DtPass pass, bool firstStep) override {
    double maxA = 0, maxV = 0, maxU = 0;
#pragma omp parallel for num_threads(threads_) reduction(max : maxA, maxV, maxU) schedule(static)
    for (int64_t i = 0; i < int64_t(n); ++i) {
      const DtTerms t = particleDtTerms(uint32_t(i), nBound, ace, viscdt, velrho, rule.velocityOfAll, rule.code);
      maxA = std::max(maxA, t.ace2);
      maxV = std::max(maxV, t.viscdt);
      maxU = std::max(maxU, t.vel2);
    }
    if (this->combineDtMaxima_) {
      double m[3] = {maxA, maxV, maxU};
      this->combineDtMaxima_(m);
      maxA = m[0], maxV = m[1], maxU = m[2];
    }
    if (pass != DtPass::Corrector) {  // a new step: its exclusion counts start at zero
      s_.excludedOutOfDomain = 0;
      s_.excludedDensity = 0;
    }
    s_.maxAce2Bits = std::bit_cast<unsigned long long>(maxA);
    s_.maxViscdtBits = std::bit_cast<unsigned long long>(maxV);
    s_.maxVel2Bits = std::bit_cast<unsigned long long>(maxU);
    uint32_t hit = 0;
    const double d = variableDt(maxA, maxV, maxU, rule, &hit);
    applyPassDt(s_, d, hit, pass, firstStep, rule);
  }

  void verletStep(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c, bool euler, uint32_t* code,
                  const ExclusionLimits<T>& l) override {
    const T dt = T(s_.dt);
    uint32_t out = 0, dens = 0;
#pragma omp parallel for num_threads(threads_) reduction(+ : out, dens) schedule(static)
    for (int64_t i = 0; i < int64_t(a.n); ++i) {
      verletStepParticle(uint32_t(i), a, c, dt, euler);
      const int r = markIfExcluded(uint32_t(i), a, code, l);
      out += r == 1;
      dens += r == 2;
    }
    s_.excludedOutOfDomain = out;
    s_.excludedDensity = dens;
  }
  void symplecticPredict(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c) override {
    const T dt = T(s_.dt);
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = 0; i < int64_t(a.n); ++i) symplecticPredictParticle(uint32_t(i), a, c, dt);
  }
  void symplecticCorrect(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c, uint32_t* code,
                         const ExclusionLimits<T>& l) override {
    const T dt = T(s_.dt);
    uint32_t out = 0, dens = 0;
#pragma omp parallel for num_threads(threads_) reduction(+ : out, dens) schedule(static)
    for (int64_t i = 0; i < int64_t(a.n); ++i) {
      symplecticCorrectParticle(uint32_t(i), a, c, dt);
      const int r = markIfExcluded(uint32_t(i), a, code, l);
      out += r == 1;
      dens += r == 2;
    }
    s_.excludedOutOfDomain = out;
    s_.excludedDensity = dens;
  }

  void queueStepScalars() override {}
  StepScalars waitStepScalars() override { return s_; }
  void restoreStepScalars(const StepScalars& s) override { s_ = s; }
  double stepDt() override { return s_.dt; }
  const double* dtLocation() const override { return &s_.dt; }

  uint32_t partitionByCode(const uint32_t* code, uint32_t n, uint32_t* perm, uint32_t mask, uint32_t value) override {
    uint32_t kept = 0;
    for (uint32_t i = 0; i < n; ++i)
      if ((code[i] & mask) == value) perm[kept++] = i;
    uint32_t k = kept;
    for (uint32_t i = 0; i < n; ++i)
      if ((code[i] & mask) != value) perm[k++] = i;
    return kept;
  }

  void markAlong(const Real4<T>* pos, const Real4<T>* posLo, uint32_t* code, uint32_t n, int axis, double below,
                 double above, uint32_t bit) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = 0; i < int64_t(n); ++i) markAlongParticle(uint32_t(i), pos, posLo, code, axis, below, above, bit);
  }

  void packRecords(const ReorderArrays<T>& a, const uint32_t* perm, uint32_t count, const RecordLayout& layout,
                   double shift, uint8_t* out) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t k = 0; k < int64_t(count); ++k) packParticleRecord(uint32_t(k), a, perm, layout, shift, out);
  }

  void unpackRecords(const uint8_t* in, uint32_t count, const RecordLayout& layout, const ReorderArrays<T>& a,
                     uint32_t first, const uint32_t* slots, bool halo) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t k = 0; k < int64_t(count); ++k) unpackParticleRecord(uint32_t(k), in, layout, a, first, slots, halo);
  }

  void invertPermutation(const uint32_t* perm, uint32_t n, uint32_t* inverse) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = 0; i < int64_t(n); ++i) inverse[perm[i]] = uint32_t(i);
  }

  void mapIndices(const uint32_t* inverse, uint32_t n, uint32_t* list, uint32_t count) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t k = 0; k < int64_t(count); ++k) list[k] = list[k] < n ? inverse[list[k]] : EngineOps<T>::kNoIndex;
  }

  void countLayers(const Real4<T>* pos, const Real4<T>* posLo, const uint32_t* code, uint32_t n, int axis,
                   double origin, double width, std::vector<double>& counts) override {
    const uint32_t layers = uint32_t(counts.size());
    std::fill(counts.begin(), counts.end(), 0.0);
    for (uint32_t i = 0; i < n; ++i) {
      const int64_t l = layerOfParticle(i, pos, posLo, code, axis, origin, width, layers);
      if (l >= 0) counts[size_t(l)] += 1.0;
    }
  }

  void park(const ReorderArrays<T>& a, const uint32_t* which, uint32_t count, uint32_t first,
            const ParkingLot& lot) override {
    for (uint32_t k = 0; k < count; ++k) parkParticle(which[k], first + k, a.pos, a.posLo, a.velrho, a.velrhoPre, a.code, lot);
  }

  void gather(const ReorderArrays<T>& s, const ReorderArrays<T>& d, const uint32_t* perm,
              uint32_t n) override {
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (int64_t i = 0; i < int64_t(n); ++i) gatherParticle(uint32_t(i), s, d, perm);
  }

 private:
  int threads_;
  StepScalars s_;
};

}  // namespace

template <typename T>
std::unique_ptr<EngineOps<T>> makeCpuOps(int threads) {
  return std::make_unique<CpuOps<T>>(threads);
}
template std::unique_ptr<EngineOps<float>> makeCpuOps<float>(int);
template std::unique_ptr<EngineOps<double>> makeCpuOps<double>(int);

}  // namespace sph
