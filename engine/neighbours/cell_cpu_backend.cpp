#include "cell_cpu_backend.h"

#include <omp.h>

#include <algorithm>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "displacement.h"
#include "sph/plugin/errors.h"

namespace sph::cell {

namespace {

// Grows a vector to `n` elements, reserving headroom so that a slowly growing n does not
// reallocate every step.
void growTo(std::vector<uint32_t>& v, size_t n) {
  if (v.capacity() < n) v.reserve(withHeadroom(n));
  v.resize(n);
}

}  // namespace

std::unique_ptr<CellBackend> makeCellCpuBackend(int threads) {
  return std::make_unique<CellCpuBackend>(threads);
}

int CellCpuBackend::threadCount() const { return threads_ > 0 ? threads_ : omp_get_max_threads(); }

void CellCpuBackend::setGrid(const CellGrid& g) {
  grid_ = g;
  tablesReady_ = false;
  totals_.reset();
}

template <typename T>
void CellCpuBackend::computeKeysT(const ParticleView<T>& p) {
  tablesReady_ = false;
  n_ = p.n;
  growTo(keys_, n_);
  const CellGrid g = grid_;
  const Real4<T>* pos = p.pos;
  const uint32_t nBound = p.nBound;
  const int64_t n = n_;
#pragma omp parallel for schedule(static) num_threads(threadCount())
  for (int64_t i = 0; i < n; ++i)
    keys_[i] = cellKey(g, double(pos[i].x), double(pos[i].y), double(pos[i].z), uint32_t(i) < nBound);
}

template void CellCpuBackend::computeKeysT(const ParticleView<float>&);
template void CellCpuBackend::computeKeysT(const ParticleView<double>&);

template <typename T>
void CellCpuBackend::followPlacesT(const ParticleView<T>& p, bool reset) {
  SavedPlaces<T>& s = places<T>();
  if (!reset && (!s.valid || s.now.size() != p.n)) {
    s.valid = false;  // nothing to follow: the next check asks for an exchange
    return;
  }
  s.next.resize(p.n);
  const uint32_t* perm = perm_.data();
  Real4<T>* next = s.next.data();
  const int64_t n = p.n;
  if (reset) {
    const Real4<T>* pos = p.pos;
#pragma omp parallel for schedule(static) num_threads(threadCount())
    for (int64_t i = 0; i < n; ++i) next[i] = {pos[perm[i]].x, pos[perm[i]].y, pos[perm[i]].z, T(0)};
  } else {
    const Real4<T>* now = s.now.data();
#pragma omp parallel for schedule(static) num_threads(threadCount())
    for (int64_t i = 0; i < n; ++i) next[i] = now[perm[i]];
  }
  s.now.swap(s.next);
  s.valid = true;
}

template <typename T>
double CellCpuBackend::maxDisplacement2T(const ParticleView<T>& p) const {
  if (p.n == 0) return 0;  // nothing moved (and nothing was saved: prepare() sorts nothing)
  const SavedPlaces<T>& s = places<T>();
  if (!s.valid || s.now.size() != p.n) return std::numeric_limits<double>::infinity();
  const PeriodicBox<double> box = lookup().image<double>();
  const Real4<T>* saved = s.now.data();
  double m = 0;
#pragma omp parallel for num_threads(threadCount()) reduction(max : m) schedule(static)
  for (int64_t i = 0; i < int64_t(p.n); ++i) {
    const double d2 = neighbours::displacement2(p.pos[i], saved[i], p.code ? p.code[i] : 0u, box);
    m = d2 == d2 ? std::max(m, d2) : std::numeric_limits<double>::infinity();  // NaN: no bound
  }
  return m;
}

template <typename T>
float CellCpuBackend::haloDriftT(const ParticleView<T>& p) const {
  requireTables(p.n, "haloDrift()");
  const CellLookup l = lookup();
  float m = 0.0f;
#pragma omp parallel for num_threads(threadCount()) reduction(max : m) schedule(static)
  for (int64_t i = 0; i < int64_t(p.n); ++i)
    if (code::isHalo(p.code[i]) && !code::isParked(p.code[i])) {  // a parked copy is nobody's neighbour
      const float e = cellOutside(l, l.keys[i], p.pos[i]);
      if (e > m) m = e;  // a copy that is not a number is nobody's neighbour
    }
  return m;
}

template void CellCpuBackend::followPlacesT(const ParticleView<float>&, bool);
template void CellCpuBackend::followPlacesT(const ParticleView<double>&, bool);
template double CellCpuBackend::maxDisplacement2T(const ParticleView<float>&) const;
template double CellCpuBackend::maxDisplacement2T(const ParticleView<double>&) const;
template float CellCpuBackend::haloDriftT(const ParticleView<float>&) const;
template float CellCpuBackend::haloDriftT(const ParticleView<double>&) const;

void CellCpuBackend::sortKeys() {
  // Stable counting sort: histogram, exclusive scan, scatter in index order. Stability makes the
  // permutation identical to the GPU's (stable) radix sort for the same keys.
  const uint32_t nKeys = grid_.keyCount();
  offsets_.assign(size_t(nKeys) + 1, 0);
  for (uint32_t i = 0; i < n_; ++i) ++offsets_[keys_[i] + 1];
  for (uint32_t k = 0; k < nKeys; ++k) offsets_[k + 1] += offsets_[k];
  growTo(perm_, n_);
  growTo(sortedKeys_, n_);
  for (uint32_t i = 0; i < n_; ++i) {
    const uint32_t k = keys_[i];
    const uint32_t dst = offsets_[k]++;
    perm_[dst] = i;
    sortedKeys_[dst] = k;
  }
}

void CellCpuBackend::buildCellStart() {
  const uint32_t nKeys = grid_.keyCount();
  start_.resize(size_t(nKeys) + 1);
  const uint32_t* keys = sortedKeys_.data();
  uint32_t* start = start_.data();
  const uint32_t n = n_;
#pragma omp parallel for schedule(static) num_threads(threadCount())
  for (int64_t k = 0; k <= int64_t(nKeys); ++k) start[k] = cellStartOf(uint32_t(k), keys, n);
  tablesReady_ = true;
}

std::vector<uint8_t> packSavedPlaces(uint32_t n, uint32_t placeBytes, const void* data) {
  const SavedPlacesHeader h{n, placeBytes};
  std::vector<uint8_t> bytes(sizeof(h) + size_t(n) * placeBytes);
  std::memcpy(bytes.data(), &h, sizeof(h));
  if (n > 0) std::memcpy(bytes.data() + sizeof(h), data, size_t(n) * placeBytes);
  return bytes;
}

SavedPlacesHeader checkSavedPlaces(const std::vector<uint8_t>& bytes) {
  SavedPlacesHeader h;
  if (bytes.size() >= sizeof(h)) std::memcpy(&h, bytes.data(), sizeof(h));
  if (bytes.size() < sizeof(h) || (h.placeBytes != sizeof(Real4<float>) && h.placeBytes != sizeof(Real4<double>)) ||
      bytes.size() != sizeof(h) + size_t(h.n) * h.placeBytes)
    throw RunError(
        fmt::format("cell neighbour search: {} bytes are not saved places of the halo's skin", bytes.size()));
  return h;
}

std::vector<uint8_t> CellCpuBackend::savePlaces() const {
  if (placesD_.valid) return packSavedPlaces(uint32_t(placesD_.now.size()), sizeof(Real4<double>), placesD_.now.data());
  if (placesF_.valid) return packSavedPlaces(uint32_t(placesF_.now.size()), sizeof(Real4<float>), placesF_.now.data());
  return {};
}

void CellCpuBackend::restorePlaces(const std::vector<uint8_t>& bytes) {
  const SavedPlacesHeader h = checkSavedPlaces(bytes);
  auto restore = [&](auto& s) {
    s.now.resize(h.n);
    if (h.n > 0) std::memcpy(s.now.data(), bytes.data() + sizeof(h), size_t(h.n) * h.placeBytes);
    s.valid = true;
  };
  if (h.placeBytes == sizeof(Real4<double>))
    restore(placesD_);
  else
    restore(placesF_);
}

void throwNotPrepared(const char* what, uint32_t n, uint32_t preparedN) {
  throw RunError(fmt::format("cell neighbour search: {} needs prepare() on the same {} particles first "
                             "(prepared: {})",
                             what, n, preparedN));
}

void CellCpuBackend::requireTables(uint32_t n, const char* what) const {
  if (!tablesReady_ || n != n_) throwNotPrepared(what, n, tablesReady_ ? n_ : 0);
}

}  // namespace sph::cell
