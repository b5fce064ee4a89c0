// The CPU's force pass that computes each pair once, whoever finds the pairs (the cell search's
// rows, the Verlet plugin's half lists): the same pairs and physics as the GPU's
// (gpu/pair_once.cuh): fluid particle a owns its pairs with every wall and with the fluid
// particles after it in the sorted order, keeps its own sums and gives the neighbour its terms
// (interactPairMass's mirror, pair_physics.h); walls own no pair.
//
// Why: the pair physics is what the pass spends its time on; computed once, it is half.
//
// Without atomics, and so that a run repeats bit for bit on the same number of threads: the fluid
// particles are cut into contiguous parts (kPartsPerThread a thread), each taken by one thread in
// order. A part
// adds the terms of its own particles in place; those of particles after its range (fluid j > a
// reaches a few cell layers further) and of walls go to the part's own spill windows. After the
// parts, each particle adds the windows that hold it in part order. The result depends on the
// number of parts (rounding), never on the schedule.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "interaction_variant.h"
#include "particle_ops.h"
#include "sph/plugin/pair_physics.h"
#include "sph/plugin/particle_view.h"
#include "sph/plugin/physics_constants.h"

namespace sph::neighbours {

// A part's sums for particles outside its range: a dense window [base, base + size) of the
// particle indices, grown on demand at either end. Entries are zero outside a pass (the
// reduction clears what it reads), so moving the window costs nothing.
template <typename V>
class SpillWindow {
 public:
  V& at(uint32_t j) {
    if (v_.empty()) {
      base_ = j;
      v_.assign(kMinSize, V{});
    } else if (j < base_) {
      const uint32_t grow = std::max<uint32_t>(base_ - j, uint32_t(v_.size()));
      const uint32_t newBase = base_ > grow ? base_ - grow : 0;
      v_.insert(v_.begin(), base_ - newBase, V{});
      base_ = newBase;
    } else if (j - base_ >= v_.size()) {
      v_.resize(std::max<size_t>(size_t(j - base_) + 1, 2 * v_.size()), V{});
    }
    return v_[j - base_];
  }
  // Takes (and clears) the entry of particle j, if the window holds it.
  bool take(uint32_t j, V& out) {
    if (j < base_ || j - base_ >= v_.size()) return false;
    out = v_[j - base_];
    v_[j - base_] = V{};
    return true;
  }
  size_t bytes() const { return v_.capacity() * sizeof(V); }

 private:
  static constexpr size_t kMinSize = 1024;
  uint32_t base_ = 0;
  std::vector<V> v_;
};

template <typename T>
class PairOnceCpu {
 public:
  // Parts per thread: one each leaves the threads waiting for the slowest part (particles at the
  // surface or by a wall have fewer pairs); many more spill more (each part's window reaches the
  // same few cell layers past its end). Four measured best (tools/bench/RESULTS.md).
  static constexpr int kPartsPerThread = 4;

  // The pass over particles p (walls first, then fluid) on `threads` threads: pairs(a, pair)
  // calls pair(j) for every j that fluid particle a owns (its walls, and fluid j > a) among its
  // candidates; pairs beyond the support are skipped here. Writes every particle's outputs. A
  // split pass (out.part, particle_view.h) clears them at Interior and takes the pairs of the
  // owners of each part in its call; the diffusion joins at Border.
  template <KernelKind K, bool Periodic, typename Pairs>
  void run(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out, int threads,
           Pairs&& pairs) {
    const uint32_t n = p.n, nBound = p.nBound, nFluid = n - nBound;
    threads = std::max(1, threads);
    const int parts = std::max(1, std::min<int>(threads * kPartsPerThread, int(std::max<uint32_t>(nFluid, 1))));
    const bool split = wallsCanSwitchOffDiffusion(c);
    if (split) {
      ddt_.resize(n);
      ddtOff_.resize(n);
    }
    fluidSpill_.resize(size_t(parts));
    wallSpill_.resize(size_t(parts));
    T* ddt = split ? ddt_.data() : nullptr;
    const bool first = out.part != ForcePart::Border, last = out.part != ForcePart::Interior;
    uint32_t* ddtOff = ddtOff_.data();
#pragma omp parallel num_threads(threads)
    {
#pragma omp for schedule(dynamic, 1)
      for (int q = 0; q < parts; ++q) {
        const uint32_t begin = nBound + uint32_t(uint64_t(nFluid) * uint32_t(q) / uint32_t(parts));
        const uint32_t end = nBound + uint32_t(uint64_t(nFluid) * uint32_t(q + 1) / uint32_t(parts));
        SpillWindow<FluidTerms>& fluidSpill = fluidSpill_[size_t(q)];
        SpillWindow<T>& wallSpill = wallSpill_[size_t(q)];
        if (first)
          for (uint32_t a = begin; a < end; ++a) {
            out.ace[a] = Real4<T>{};
            if (split) ddt[a] = T(0);
          }
        for (uint32_t a = begin; a < end; ++a) {
          if (out.part != ForcePart::All && !sumsIn(out.part, p.code[a])) continue;
          const Real4<T> posA = p.pos[a], velA = p.velrho[a];
          PairAccum<T> acc;
          // The pair physics, apart from the distance test below: most candidates of the cell
          // search fail it, and a call per candidate would cost more than the test.
          auto inRange = [&](uint32_t j, const Real4<T>& posB) {
            const bool wallB = j < nBound;
            MirrorSums<T> m;
            interactPairMass<K, Periodic, true>(posA, velA, false, posB, p.velrho[j], wallB,
                                                wallB ? c.massBound : c.massFluid, false, c, acc, false, SymTensor<T>{},
                                                static_cast<const Real4<T>*>(nullptr), &m);
            if (wallB) {
              wallSpill.at(j) += m.arho;
            } else if (j < end) {
              add(out.ace[j], ddt, j, m.ax, m.ay, m.az, m.arho, m.ddt);
            } else {
              FluidTerms& s = fluidSpill.at(j);
              s.ax += m.ax;
              s.ay += m.ay;
              s.az += m.az;
              s.arho += m.arho;
              s.ddt += m.ddt;
            }
          };
          pairs(a, [&](uint32_t j) SPH_LAMBDA_INLINE {
            const Real4<T> posB = p.pos[j];
            if (distance2<Periodic>(posA, posB, c.periodic) < c.support2) inRange(j, posB);
          });
          add(out.ace[a], ddt, a, acc.ax, acc.ay, acc.az, acc.arho, acc.ddt);
          out.viscdt[a] = acc.viscdt;
          if (out.contacts) out.contacts[a] = 0;
          if (split) ddtOff[a] = acc.ddtOff;
        }
      }
      // Every particle adds the windows that hold it, in part order.
#pragma omp for schedule(static)
      for (int64_t i = 0; i < int64_t(n); ++i) {
        const uint32_t j = uint32_t(i);
        if (j < nBound) {
          T arho = 0, w;
          for (int q = 0; q < parts; ++q)
            if (wallSpill_[size_t(q)].take(j, w)) arho += w;
          if (!first) {
            out.ace[j].w += arho;
            continue;
          }
          out.ace[j] = Real4<T>{T(0), T(0), T(0), arho};
          out.viscdt[j] = T(0);
          if (out.contacts) out.contacts[j] = 0;
          continue;
        }
        FluidTerms s;
        for (int q = 0; q < parts; ++q)
          if (fluidSpill_[size_t(q)].take(j, s)) add(out.ace[j], ddt, j, s.ax, s.ay, s.az, s.arho, s.ddt);
        if (last && split && !PairAccum<T>::ddtSwitchedOff(ddtOff[j])) out.ace[j].w += ddt[j];
      }
    }
  }

  // Host bytes the pass keeps between passes.
  size_t bytes() const {
    size_t b = ddt_.capacity() * sizeof(T) + ddtOff_.capacity() * sizeof(uint32_t);
    for (const auto& w : fluidSpill_) b += w.bytes();
    for (const auto& w : wallSpill_) b += w.bytes();
    return b;
  }

 private:
  struct FluidTerms {
    T ax = 0, ay = 0, az = 0, arho = 0, ddt = 0;
  };
  // Adds a pair's terms to particle j's sums: the diffusion apart where walls can switch it off.
  static void add(Real4<T>& ace, T* ddt, uint32_t j, T ax, T ay, T az, T arho, T d) {
    ace.x += ax;
    ace.y += ay;
    ace.z += az;
    if (ddt) {
      ace.w += arho;
      ddt[j] += d;
    } else {
      ace.w += arho + d;
    }
  }

  std::vector<T> ddt_;
  std::vector<uint32_t> ddtOff_;
  std::vector<SpillWindow<FluidTerms>> fluidSpill_;
  std::vector<SpillWindow<T>> wallSpill_;
};

// A backend's pair-once scratch for both precisions.
class PairOnceCpuScratch {
 public:
  template <typename T>
  PairOnceCpu<T>& of() {
    if constexpr (std::is_same_v<T, float>)
      return float_;
    else
      return double_;
  }

 private:
  PairOnceCpu<float> float_;
  PairOnceCpu<double> double_;
};

}  // namespace sph::neighbours
