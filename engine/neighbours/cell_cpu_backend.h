// The CPU backend: keys in parallel, a stable counting sort (the CPU's radix sort: keys are
// small integers), the start table, and OpenMP loops over forEachCandidate() (or, each pair once,
// over the rows of pair_once_cpu.h's parts).
#pragma once

#include <optional>
#include <vector>

#include "cell_backend.h"
#include "cell_iteration.h"
#include "pair_once_cpu.h"

namespace sph::cell {

class CellCpuBackend final : public CellBackendFor<CellCpuBackend> {
 public:
  explicit CellCpuBackend(int threads) : threads_(threads) {}

  void setGrid(const CellGrid& g) override;
  void sortKeys() override;
  const uint32_t* sortedIndex() const override { return perm_.data(); }
  void buildCellStart() override;

  std::optional<CandidateTotals> candidateTotals() const override;
  void setPairsOnce(bool once) override {
    pairsOnce_ = once;
    passesOnce_ = 0;
  }
  uint64_t passesPairsOnce() const override { return passesOnce_; }

  void setHaloDrift(float drift) override { drift_ = drift; }

  std::vector<uint8_t> savePlaces() const override;
  void restorePlaces(const std::vector<uint8_t>& bytes) override;

  size_t deviceBytes() const override { return 0; }
  size_t peakDeviceBytes() const override { return 0; }

 private:
  friend class CellBackendFor<CellCpuBackend>;
  template <typename T>
  void computeKeysT(const ParticleView<T>& p);
  template <typename T>
  void followPlacesT(const ParticleView<T>& p, bool reset);
  template <typename T>
  double maxDisplacement2T(const ParticleView<T>& p) const;
  template <typename T>
  float haloDriftT(const ParticleView<T>& p) const;
  template <typename T>
  void interactT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out);
  template <typename Variant, typename T>  // interaction_variant.h
  void forceLoop(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out);
  template <typename T>
  void onceLoop(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out);
  template <typename T>
  CandidateTotals tallyLastPass(const Real4<T>* pos) const;
  template <typename T>
  void correctBoundariesT(const ParticleView<T>& p, const PhysicsConstants<T>& c);
  template <typename T>
  void extrapolateInOutT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x);
  template <typename T>
  std::vector<IndexPair> pairsWithinT(const ParticleView<T>& p, double radius) const;
  template <typename T>
  uint64_t countPairsWithinT(const ParticleView<T>& p, double radius) const;

  void requireTables(uint32_t n, const char* what) const;
  CellLookup lookup() const override { return makeLookup(grid_, start_.data(), sortedKeys_.data(), drift_); }
  int threadCount() const;

  int threads_ = 0;
  CellGrid grid_;
  uint32_t n_ = 0;
  bool tablesReady_ = false;
  float drift_ = 0.0f;                // setHaloDrift
  std::vector<uint32_t> keys_;        // unsorted, from computeKeys
  std::vector<uint32_t> sortedKeys_;  // key of particle i after the reorder
  std::vector<uint32_t> perm_;        // sortedIndex
  std::vector<uint32_t> offsets_;     // counting-sort scatter positions, keyCount + 1
  std::vector<uint32_t> start_;       // start table, keyCount + 1
  mutable std::optional<CandidateTotals> totals_;
  // The halo skin's saved places (CellBackend::followPlaces), in the precision of the run.
  template <typename T>
  struct SavedPlaces {
    std::vector<Real4<T>> now, next;
    bool valid = false;
  };
  SavedPlaces<float> placesF_;
  SavedPlaces<double> placesD_;
  template <typename T>
  SavedPlaces<T>& places() {
    if constexpr (sizeof(T) == sizeof(float))
      return placesF_;
    else
      return placesD_;
  }
  template <typename T>
  const SavedPlaces<T>& places() const {
    return const_cast<CellCpuBackend*>(this)->places<T>();
  }
  // Each pair once (CellPairs once): the pass's scratch per precision, and what the statistics
  // need to count the last pass's candidates as a pass over every pair would (only on request).
  bool pairsOnce_ = true;
  uint64_t passesOnce_ = 0;
  neighbours::PairOnceCpuScratch once_;
  struct LastOncePass {
    const void* pos = nullptr;
    bool isDouble = false;
    uint32_t n = 0, nBound = 0;
    double support2 = 0;
  } lastOnce_;
};

}  // namespace sph::cell
