// OpenMP loops of the CPU backend: the force pass and the diagnostic pair enumeration, both
// one particle per iteration through the shared per-particle functions.
#include <omp.h>

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
  neighbours::dispatchInteraction(c, out, p.tangent != nullptr, [&](auto v) { forceLoop<decltype(v)>(p, c, out); });
}

template <typename V, typename T>
void CellCpuBackend::forceLoop(const ParticleView<T>& p, const PhysicsConstants<T>& c,
                               const ForceOutputs<T>& out) {
  const ForceInputs<T> in = forceInputs(p, lookup());
  const int64_t n = p.n;
  uint64_t candidates = 0, inRange = 0;
#pragma omp parallel for schedule(dynamic, kChunk) num_threads(threadCount()) reduction(+ : candidates, inRange)
  for (int64_t a = 0; a < n; ++a) {
    Tally tally;
    writeForces(uint32_t(a), particleForces<V::K, V::Periodic, V::Coded, V::Shift, V::Sps>(uint32_t(a), in, c, tally),
                out);
    candidates += tally.t.candidates;
    inRange += tally.t.inRange;
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
