// OpenMP loops of the CPU backend: the force pass (every pair from both sides, one particle per
// iteration through the shared per-particle functions, or each pair once) and the diagnostic
// pair enumeration.
#include <omp.h>

#include <type_traits>

#include "cell_cpu_backend.h"
#include "cell_particle_ops.h"
#include "interaction_variant.h"

namespace sph::cell {

namespace {

// Particles per scheduling chunk: enough to amortise the scheduler, small enough to balance
// clustered particle sets across threads.
constexpr int kChunk = 256;

}  // namespace

template <typename T>
void CellCpuBackend::interactT(const ParticleView<T>& p, const PhysicsConstants<T>& c,
                               const ForceOutputs<T>& out) {
  requireTables(p.n, "interact()");
  if (pairsOnce_ && neighbours::pairOncePass(c, out, p.tangent != nullptr)) {
    onceLoop(p, c, out);
    return;
  }
  lastOnce_ = {};
  neighbours::dispatchInteraction(c, out, p.tangent != nullptr, [&](auto v) { forceLoop<decltype(v)>(p, c, out); });
}

// Each pair once (pair_once_cpu.h): fluid particle a takes the walls of every row and the fluid
// after it, the rows before its own coming as empty ranges, as the GPU's kernel does.
template <typename T>
void CellCpuBackend::onceLoop(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
  const CellLookup l = lookup();
  auto& once = once_.of<T>();
  // A plain pass: the kernel and the periodicity are all that vary (dispatchInOut's choice).
  neighbours::dispatchInOut(c, [&](auto k, auto periodic) {
    constexpr bool Periodic = decltype(periodic)::value;
    once.template run<decltype(k)::value, Periodic>(p, c, out, threadCount(), [&](uint32_t a, auto&& pair) {
      forEachCandidateRow<Periodic>(l, l.keys[a], p.pos[a], false,
                                    [&](uint32_t fBegin, uint32_t fEnd, uint32_t bBegin, uint32_t bEnd)
                                        SPH_LAMBDA_INLINE {
                                          for (uint32_t j = fBegin > a ? fBegin : a + 1; j < fEnd; ++j) pair(j);
                                          for (uint32_t j = bBegin; j < bEnd; ++j) pair(j);
                                        });
    });
  });
  if (out.part != ForcePart::Interior) ++passesOnce_;  // a split pass counts once
  totals_.reset();
  lastOnce_ = {p.pos, std::is_same_v<T, double>, p.n, p.nBound, double(c.support2)};
}

// The candidates of the last pass's particles as a pass over every pair visits them.
template <typename T>
CandidateTotals CellCpuBackend::tallyLastPass(const Real4<T>* pos) const {
  const CellLookup l = lookup();
  const int64_t n = lastOnce_.n;
  const uint32_t nBound = lastOnce_.nBound;
  const T r2 = T(lastOnce_.support2);
  uint64_t candidates = 0, inRange = 0;
#pragma omp parallel for schedule(dynamic, kChunk) num_threads(threadCount()) reduction(+ : candidates, inRange)
  for (int64_t a = 0; a < n; ++a) {
    const CandidateTally t = particleTally(uint32_t(a), l, pos, nBound, r2);
    candidates += t.candidates;
    inRange += t.inRange;
  }
  return CandidateTotals{uint64_t(n), candidates, inRange};
}

std::optional<CandidateTotals> CellCpuBackend::candidateTotals() const {
  if (totals_ || !lastOnce_.pos || !tablesReady_ || n_ != lastOnce_.n) return totals_;
  totals_ = lastOnce_.isDouble ? tallyLastPass(static_cast<const Real4<double>*>(lastOnce_.pos))
                               : tallyLastPass(static_cast<const Real4<float>*>(lastOnce_.pos));
  return totals_;
}

template <typename V, typename T>
void CellCpuBackend::forceLoop(const ParticleView<T>& p, const PhysicsConstants<T>& c,
                               const ForceOutputs<T>& out) {
  const ForceInputs<T> in = forceInputs(p, lookup());
  const int64_t n = p.n;
  uint64_t candidates = 0, inRange = 0;
#pragma omp parallel for schedule(dynamic, kChunk) num_threads(threadCount()) reduction(+ : candidates, inRange)
  for (int64_t a = 0; a < n; ++a) {
    if (out.part != ForcePart::All && !sumsIn(out.part, p.code[a])) continue;
    Tally tally;
    writeForces(uint32_t(a), particleForces<V::K, V::Periodic, V::Coded, V::Shift, V::Sps>(uint32_t(a), in, c, tally),
                out);
    candidates += tally.t.candidates;
    inRange += tally.t.inRange;
  }
  // A split pass (ForcePart) counts its two calls' candidates together, over all particles.
  if (out.part == ForcePart::Border && totals_) {
    candidates += totals_->candidates;
    inRange += totals_->inRange;
  }
  totals_ = CandidateTotals{uint64_t(n), candidates, inRange};
}

template <typename T>
void CellCpuBackend::correctBoundariesT(const ParticleView<T>& p, const PhysicsConstants<T>& c) {
  requireTables(p.n, "correctBoundaries()");
  const ForceInputs<T> in = forceInputs(p, lookup());
  const int64_t nb = p.nBound;
  neighbours::dispatchCorrection(c, [&](auto v) {
    using V = decltype(v);
    // Writes only boundary particles' density, pressure, code and tangent; reads only fluid ones.
#pragma omp parallel for schedule(dynamic, kChunk) num_threads(threadCount())
    for (int64_t b = 0; b < nb; ++b) {
      const Real4<T> n = p.normal[b];
      if (!hasNormal(n)) continue;
      const uint32_t i = uint32_t(b);
      const MdbcSums<T> s = ghostSums<V::K, V::Periodic, V::Slip>(i, n, in, c);
      mdbcStoreWall(i, s, n, p.pos, p.velrho, p.code, p.tangent, p.motionAce, c);
    }
  });
}

template <typename T>
void CellCpuBackend::extrapolateInOutT(const ParticleView<T>& p, const PhysicsConstants<T>& c,
                                       const InOutExtrapolation& x) {
  requireTables(p.n, "extrapolateInOut()");
  const ForceInputs<T> in = forceInputs(p, lookup());
  const int64_t count = x.count;
  neighbours::dispatchInOut(c, [&](auto k, auto periodic) {
    constexpr KernelKind K = decltype(k)::value;
    constexpr bool Periodic = decltype(periodic)::value;
    // Writes only the listed buffer particles; reads only fluid that is not buffer.
#pragma omp parallel for schedule(dynamic, kChunk) num_threads(threadCount())
    for (int64_t k2 = 0; k2 < count; ++k2) {
      const uint32_t i = x.which[k2];
      const InOutMirror& m = x.zones[code::inOutZone(p.code[i])];
      const Real4<T> g = inOutGhostNode(p.pos[i], m);
      inOutStoreExtrapolated(i, inOutSums<K, Periodic>(g, in, c), g, m, x.determLimit, p.pos, p.velrho, c);
    }
  });
}

template <typename T>
std::vector<IndexPair> CellCpuBackend::pairsWithinT(const ParticleView<T>& p, double radius) const {
  requireTables(p.n, "pairsWithin()");
  const T r2 = T(radius) * T(radius);
  const CellLookup l = lookup();
  const int64_t n = p.n;
  std::vector<uint64_t> offset(size_t(n) + 1, 0);
#pragma omp parallel for schedule(dynamic, kChunk) num_threads(threadCount())
  for (int64_t a = 0; a < n; ++a) {
    const CandidateTally t = particleTally(uint32_t(a), l, p.pos, p.nBound, r2);
    offset[a + 1] = t.inRange + t.self;
  }
  for (int64_t a = 0; a < n; ++a) offset[a + 1] += offset[a];
  std::vector<IndexPair> pairs(offset[n]);
#pragma omp parallel for schedule(dynamic, kChunk) num_threads(threadCount())
  for (int64_t a = 0; a < n; ++a) {
    uint64_t k = offset[a];
    particleNeighbours(uint32_t(a), l, p.pos, p.nBound, r2,
                       [&](uint32_t j) { pairs[k++] = IndexPair{uint32_t(a), j}; });
  }
  return pairs;
}

template <typename T>
uint64_t CellCpuBackend::countPairsWithinT(const ParticleView<T>& p, double radius) const {
  requireTables(p.n, "countPairsWithin()");
  const T r2 = T(radius) * T(radius);
  const CellLookup l = lookup();
  const int64_t n = p.n;
  uint64_t total = 0;
#pragma omp parallel for schedule(dynamic, kChunk) num_threads(threadCount()) reduction(+ : total)
  for (int64_t a = 0; a < n; ++a) {
    const CandidateTally t = particleTally(uint32_t(a), l, p.pos, p.nBound, r2);
    total += t.inRange + t.self;
  }
  return total;
}

template void CellCpuBackend::interactT(const ParticleView<float>&, const PhysicsConstants<float>&,
                                        const ForceOutputs<float>&);
template void CellCpuBackend::interactT(const ParticleView<double>&, const PhysicsConstants<double>&,
                                        const ForceOutputs<double>&);
template void CellCpuBackend::correctBoundariesT(const ParticleView<float>&, const PhysicsConstants<float>&);
template void CellCpuBackend::extrapolateInOutT(const ParticleView<float>&, const PhysicsConstants<float>&,
                                                const InOutExtrapolation&);
template void CellCpuBackend::extrapolateInOutT(const ParticleView<double>&, const PhysicsConstants<double>&,
                                                const InOutExtrapolation&);
template void CellCpuBackend::correctBoundariesT(const ParticleView<double>&, const PhysicsConstants<double>&);
template std::vector<IndexPair> CellCpuBackend::pairsWithinT(const ParticleView<float>&, double) const;
template std::vector<IndexPair> CellCpuBackend::pairsWithinT(const ParticleView<double>&, double) const;
template uint64_t CellCpuBackend::countPairsWithinT(const ParticleView<float>&, double) const;
template uint64_t CellCpuBackend::countPairsWithinT(const ParticleView<double>&, double) const;

}  // namespace sph::cell
