// The GPU backend: owns the cell search's device buffers (keys and indices, double-buffered for the
// radix sort; the start table; CUB's temporary storage) and queues all work on stream 0.
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "cell_gpu_launch.h"
#include "pair_once.cuh"
#include "sph/plugin/gpu/device_buffer.cuh"

namespace sph::cell {

namespace {

using sph::gpu::DeviceBuffer;

class CellGpuBackend final : public CellBackendFor<CellGpuBackend> {
 public:
  void setGrid(const CellGrid& g) override {
    grid_ = g;
    tablesReady_ = false;
    last_.valid = false;
    cachedTotals_.reset();
  }

  void sortKeys() override {
    const size_t bytes = gpu::radixSortTempBytes(n_, keyBits(grid_));
    grow(temp_, bytes, "allocating radix sort storage");
    uint32_t* keys[2] = {keys_[0].data(), keys_[1].data()};
    uint32_t* index[2] = {index_[0].data(), index_[1].data()};
    sorted_ = gpu::radixSort(temp_.data(), bytes, keys, index, n_, keyBits(grid_));
  }
  const uint32_t* sortedIndex() const override { return index_[sorted_].data(); }

  void setPairsOnce(bool once) override {
    pairsOnce_ = once;
    passesOnce_ = 0;
  }
  uint64_t passesPairsOnce() const override { return passesOnce_; }

  void buildCellStart() override {
    const uint32_t keyCount = grid_.keyCount();
    grow(start_, size_t(keyCount) + 1, "allocating the cell start table");
    gpu::buildCellStart(keys_[sorted_].data(), n_, keyCount, start_.data());
    tablesReady_ = true;
  }

  std::optional<CandidateTotals> candidateTotals() const override {
    if (cachedTotals_ || !last_.valid) return cachedTotals_;
    const unsigned long long* t =
        last_.isDouble ? tally(static_cast<const Real4<double>*>(last_.pos), last_.n, last_.nBound, last_.support2)
                       : tally(static_cast<const Real4<float>*>(last_.pos), last_.n, last_.nBound,
                               float(last_.support2));
    cachedTotals_ = CandidateTotals{last_.n, t[0], t[1]};
    return cachedTotals_;
  }

  size_t deviceBytes() const override {
    return keys_[0].bytes() + keys_[1].bytes() + index_[0].bytes() + index_[1].bytes() + start_.bytes() +
           temp_.bytes() + totals_.bytes() + onceDdt_.bytes() + onceFlags_.bytes() + placesF_.bytes() +
           placesD_.bytes() + displacement_.bytes();
  }
  size_t peakDeviceBytes() const override { return peak_; }

 private:
  friend class CellBackendFor<CellGpuBackend>;
  template <typename V>
  void grow(DeviceBuffer<V>& b, size_t needed, const char* what) const {
    if (b.size() >= needed) return;
    b.resize(withHeadroom(needed), what);
    peak_ = std::max(peak_, deviceBytes());
  }

  template <typename T>
  void computeKeysT(const ParticleView<T>& p) {
    tablesReady_ = false;
    last_.valid = false;  // the reorder that follows moves the arrays the last view pointed to
    n_ = p.n;
    for (int b = 0; b < 2; ++b) {
      grow(keys_[b], n_, "allocating cell keys");
      grow(index_[b], n_, "allocating sort indices");
    }
    gpu::launchCellKeys(grid_, p.pos, n_, p.nBound, keys_[0].data(), index_[0].data());
  }

  // The halo skin's saved places (CellBackend::followPlaces), double-buffered for the gather.
  template <typename T>
  struct SavedPlaces {
    DeviceBuffer<Real4<T>> at[2];
    int now = 0;
    uint32_t n = 0;
    bool valid = false;
    size_t bytes() const { return at[0].bytes() + at[1].bytes(); }
  };
  template <typename T>
  SavedPlaces<T>& places() {
    if constexpr (std::is_same_v<T, float>)
      return placesF_;
    else
      return placesD_;
  }

  template <typename T>
  void followPlacesT(const ParticleView<T>& p, bool reset) {
    SavedPlaces<T>& s = places<T>();
    if (!reset && (!s.valid || s.n != p.n)) {
      s.valid = false;  // nothing to follow: the next check asks for an exchange
      return;
    }
    const int next = 1 - s.now;
    grow(s.at[next], p.n, "allocating the halo skin's saved places");
    gpu::launchGatherPlaces(reset ? p.pos : s.at[s.now].data(), sortedIndex(), p.n, s.at[next].data());
    s.now = next;
    s.n = p.n;
    s.valid = true;
  }

  template <typename T>
  double maxDisplacement2T(const ParticleView<T>& p) {
    if (p.n == 0) return 0;  // nothing moved (and nothing was saved: prepare() sorts nothing)
    SavedPlaces<T>& s = places<T>();
    if (!s.valid || s.n != p.n) return HUGE_VAL;
    grow(displacement_, 1, "allocating the largest displacement");
    gpu::launchMaxDisplacement2(p.pos, s.at[s.now].data(), p.code, p.n, lookup().image<double>(), displacement_.data());
    unsigned long long bits = 0;
    SPH_CUDA_CHECK(cudaMemcpy(&bits, displacement_.data(), sizeof(bits), cudaMemcpyDeviceToHost),
                   "reading the largest displacement since the halo's exchange");
    return __builtin_bit_cast(double, bits);
  }

  std::vector<uint8_t> savePlaces() const override {
    auto save = [](const auto& s, uint32_t placeBytes) {
      std::vector<uint8_t> host(size_t(s.n) * placeBytes);
      if (s.n > 0)
        SPH_CUDA_CHECK(cudaMemcpy(host.data(), s.at[s.now].data(), host.size(), cudaMemcpyDeviceToHost),
                       "reading the halo skin's saved places for a checkpoint");
      return packSavedPlaces(s.n, placeBytes, host.data());
    };
    if (placesD_.valid) return save(placesD_, sizeof(Real4<double>));
    if (placesF_.valid) return save(placesF_, sizeof(Real4<float>));
    return {};
  }
  void restorePlaces(const std::vector<uint8_t>& bytes) override {
    const SavedPlacesHeader h = checkSavedPlaces(bytes);
    auto restore = [&](auto& s) {
      grow(s.at[s.now], h.n, "allocating the halo skin's saved places");
      if (h.n > 0)
        SPH_CUDA_CHECK(cudaMemcpy(s.at[s.now].data(), bytes.data() + sizeof(h), size_t(h.n) * h.placeBytes,
                                  cudaMemcpyHostToDevice),
                       "restoring the halo skin's saved places");
      s.n = h.n;
      s.valid = true;
    };
    if (h.placeBytes == sizeof(Real4<double>))
      restore(placesD_);
    else
      restore(placesF_);
  }

  void requireTables(uint32_t n, const char* what) const {
    if (!tablesReady_ || n != n_) throwNotPrepared(what, n, tablesReady_ ? n_ : 0);
  }

  CellLookup lookup() const override { return makeLookup(grid_, start_.data(), keys_[sorted_].data(), drift_); }

  template <typename T>
  float haloDriftT(const ParticleView<T>& p) {
    requireTables(p.n, "haloDrift()");
    grow(haloDrift_, 1, "allocating the halo's drift");
    gpu::launchHaloDrift(lookup(), p.pos, p.code, p.n, haloDrift_.data());
    unsigned long long bits = 0;
    SPH_CUDA_CHECK(cudaMemcpy(&bits, haloDrift_.data(), sizeof(bits), cudaMemcpyDeviceToHost),
                   "reading how far the halo's copies left their cells");
    return float(__builtin_bit_cast(double, bits));
  }
  void setHaloDrift(float drift) override { drift_ = drift; }

  template <typename T>
  ForceInputs<T> inputs(const ParticleView<T>& p) const {
    return forceInputs(p, lookup());
  }

  template <typename T>
  void interactT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
    requireTables(p.n, "interact()");
    bool once = false;
    if constexpr (std::is_same_v<T, float>) {
      once = pairsOnce_ && neighbours::pairOncePass(c, out, p.tangent != nullptr);
      if (once && wallsCanSwitchOffDiffusion(c)) {
        // Only the diffusion that walls can switch off needs them. The cell search's passes are
        // never recorded into a replayed step (replayToken 0), so they may allocate.
        grow(onceDdt_, p.n, "allocating the pair-once diffusion sums");
        grow(onceFlags_, p.n, "allocating the pair-once diffusion flags");
      }
      if (once) gpu::launchCellForcesOnce(inputs(p), c, out, onceDdt_.data(), onceFlags_.data());
    }
    if (once) {
      if (out.part != ForcePart::Interior) ++passesOnce_;  // a split pass counts once
    } else
      gpu::launchCellForces(inputs(p), c, out);
    last_ = LastPass{true, sizeof(T) == sizeof(double), p.pos, p.n, p.nBound, double(c.support2)};
    cachedTotals_.reset();
  }

  template <typename T>
  void correctBoundariesT(const ParticleView<T>& p, const PhysicsConstants<T>& c) {
    requireTables(p.n, "correctBoundaries()");
    gpu::launchBoundaryCorrection(inputs(p), p, c);
  }

  template <typename T>
  void extrapolateInOutT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x) {
    requireTables(p.n, "extrapolateInOut()");
    gpu::launchInOutExtrapolation(inputs(p), p, c, x);
  }

  // Runs the tally kernel and returns its three totals (host copy, synchronous).
  template <typename T>
  const unsigned long long* tally(const Real4<T>* pos, uint32_t n, uint32_t nBound, T radius2) const {
    grow(totals_, 3, "allocating candidate counters");
    gpu::launchCellTally(lookup(), pos, n, nBound, radius2, totals_.data());
    SPH_CUDA_CHECK(cudaMemcpy(hostTotals_, totals_.data(), sizeof(hostTotals_), cudaMemcpyDeviceToHost),
                   "reading candidate counters");
    return hostTotals_;
  }

  template <typename T>
  uint64_t countPairsWithinT(const ParticleView<T>& p, double radius) const {
    requireTables(p.n, "countPairsWithin()");
    const unsigned long long* t = tally(p.pos, p.n, p.nBound, T(radius) * T(radius));
    return t[1] + t[2];
  }

  template <typename T>
  std::vector<IndexPair> pairsWithinT(const ParticleView<T>& p, double radius) const {
    requireTables(p.n, "pairsWithin()");
    const uint32_t n = p.n;
    const T r2 = T(radius) * T(radius);
    if (n == 0) return {};
    DeviceBuffer<uint32_t> counts(n, "allocating pair counts");
    gpu::launchPairCounts(lookup(), p.pos, n, p.nBound, r2, counts.data());
    std::vector<uint32_t> hostCounts(n);
    SPH_CUDA_CHECK(cudaMemcpy(hostCounts.data(), counts.data(), n * sizeof(uint32_t), cudaMemcpyDeviceToHost),
                   "reading pair counts");
    std::vector<uint64_t> offsets(size_t(n) + 1, 0);
    for (uint32_t a = 0; a < n; ++a) offsets[a + 1] = offsets[a] + hostCounts[a];
    const uint64_t total = offsets[n];
    std::vector<IndexPair> pairs(total);
    if (total == 0) return pairs;
    DeviceBuffer<uint64_t> devOffsets(offsets.size(), "allocating pair offsets");
    DeviceBuffer<IndexPair> devPairs(total, "allocating the pair list");
    SPH_CUDA_CHECK(cudaMemcpy(devOffsets.data(), offsets.data(), offsets.size() * sizeof(uint64_t),
                              cudaMemcpyHostToDevice),
                   "writing pair offsets");
    gpu::launchPairWrite(lookup(), p.pos, n, p.nBound, r2, devOffsets.data(), devPairs.data());
    SPH_CUDA_CHECK(cudaMemcpy(pairs.data(), devPairs.data(), total * sizeof(IndexPair), cudaMemcpyDeviceToHost),
                   "reading the pair list");
    return pairs;
  }

  // What stats() needs to count candidates of the last pass without being handed a view.
  struct LastPass {
    bool valid = false;
    bool isDouble = false;
    const void* pos = nullptr;
    uint32_t n = 0, nBound = 0;
    double support2 = 0;
  };

  CellGrid grid_;
  uint32_t n_ = 0;
  int sorted_ = 0;  // which of the double buffers holds the sorted keys and indices
  bool tablesReady_ = false;
  DeviceBuffer<uint32_t> keys_[2], index_[2];
  DeviceBuffer<uint32_t> start_;
  DeviceBuffer<unsigned char> temp_;
  bool pairsOnce_ = false;
  uint64_t passesOnce_ = 0;
  DeviceBuffer<float> onceDdt_;       // the pair-once passes' diffusion sums
  DeviceBuffer<uint32_t> onceFlags_;  // and each particle's PairAccum::ddtOff
  SavedPlaces<float> placesF_;
  SavedPlaces<double> placesD_;
  DeviceBuffer<unsigned long long> displacement_;
  DeviceBuffer<unsigned long long> haloDrift_;
  float drift_ = 0.0f;  // setHaloDrift
  mutable DeviceBuffer<unsigned long long> totals_;
  mutable unsigned long long hostTotals_[3] = {0, 0, 0};
  mutable size_t peak_ = 0;
  LastPass last_;
  mutable std::optional<CandidateTotals> cachedTotals_;
};

}  // namespace

std::unique_ptr<CellBackend> makeCellGpuBackend() { return std::make_unique<CellGpuBackend>(); }

}  // namespace sph::cell
