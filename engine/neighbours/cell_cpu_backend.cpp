#include "cell_cpu_backend.h"

#include <omp.h>

#include <fmt/format.h>

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

void throwNotPrepared(const char* what, uint32_t n, uint32_t preparedN) {
  throw RunError(fmt::format("cell neighbour search: {} needs prepare() on the same {} particles first "
                             "(prepared: {})",
                             what, n, preparedN));
}

void CellCpuBackend::requireTables(uint32_t n, const char* what) const {
  if (!tablesReady_ || n != n_) throwNotPrepared(what, n, tablesReady_ ? n_ : 0);
}

}  // namespace sph::cell
