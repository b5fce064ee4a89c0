// The engine-owned particle arrays of one precision, with a spare set used as the target of
// reorders (gather into spare, then swap), and the ParticleReorderer service strategies call.
#pragma once

#include <cstdint>
#include <functional>

#include <fmt/format.h>

#include "output/checkpoint.h"
#include "platform/device_array.h"
#include "run/engine_ops.h"
#include "sph/plugin/errors.h"
#include "sph/plugin/neighbour_strategy.h"
#include "sph/plugin/particle_view.h"

namespace sph {

// The optional arrays a run needs.
struct ParticleArrayNeeds {
  bool posPre = false;  // the symplectic integrator
  bool shift = false;   // shifting
  bool sps = false;     // the SPS model
  bool normals = false; // mDBC
  bool tangents = false; // mDBC2
  bool motionAce = false; // mDBC2 with moving walls
  bool posLo = false;     // single precision: the positions' rounding remainders (physics/position_split.h)
};

template <typename T>
struct ParticleArraySet {
  DeviceArray<Real4<T>> pos, velrho, velrhoPre, posPre;
  DeviceArray<uint32_t> code, id;
  DeviceArray<SymTensor<T>> spsTau;  // runs with the SPS model only
  DeviceArray<Real4<T>> normal;      // runs with mDBC only
  DeviceArray<Real4<T>> tangent;     // runs with mDBC2 only (reordered: the corrector's pass reads the predictor's)
  DeviceArray<Real4<T>> motionAce;   // runs with mDBC2 and moving walls only
  DeviceArray<Real4<T>> posLo;       // single-precision runs only (physics/position_split.h)

  void allocate(Device d, uint32_t capacity, const ParticleArrayNeeds& needs) {
    pos.allocate(d, capacity, "particle positions");
    velrho.allocate(d, capacity, "particle velocities and densities");
    velrhoPre.allocate(d, capacity, "integrator history (velocity, density)");
    if (needs.posPre) posPre.allocate(d, capacity, "integrator history (position)");
    code.allocate(d, capacity, "particle codes");
    id.allocate(d, capacity, "particle ids");
    if (needs.sps) spsTau.allocate(d, capacity, "SPS stresses");
    if (needs.normals) normal.allocate(d, capacity, "boundary normals");
    if (needs.tangents) tangent.allocate(d, capacity, "mDBC2 wall tangential velocities");
    if (needs.motionAce) motionAce.allocate(d, capacity, "mDBC2 moving walls' accelerations");
    if (needs.posLo) posLo.allocate(d, capacity, "particle positions' rounding remainders");
  }
  size_t bytes() const {
    return pos.bytes() + velrho.bytes() + velrhoPre.bytes() + posPre.bytes() + code.bytes() + id.bytes() +
           spsTau.bytes() + normal.bytes() + tangent.bytes() + motionAce.bytes() + posLo.bytes();
  }
  ReorderArrays<T> reorderArrays() {
    return {pos.data(), velrho.data(), velrhoPre.data(), posPre.data(), code.data(), id.data(), spsTau.data(),
            normal.data(), tangent.data(), motionAce.data(), posLo.data()};
  }
  void swap(ParticleArraySet& o) {
    pos.swap(o.pos);
    velrho.swap(o.velrho);
    velrhoPre.swap(o.velrhoPre);
    posPre.swap(o.posPre);
    code.swap(o.code);
    id.swap(o.id);
    spsTau.swap(o.spsTau);
    normal.swap(o.normal);
    tangent.swap(o.tangent);
    motionAce.swap(o.motionAce);
    posLo.swap(o.posLo);
  }
};

template <typename T>
class ParticleState final : public ParticleReorderer {
 public:
  ParticleState(Device d, uint32_t capacity, const ParticleArrayNeeds& needs, EngineOps<T>* ops) : ops_(ops) {
    cur.allocate(d, capacity, needs);
    spare.allocate(d, capacity, needs);
    if (needs.sps) spsStrain.allocate(d, capacity, "SPS velocity gradients");
    ace.allocate(d, capacity, "particle accelerations");
    viscdt.allocate(d, capacity, "particle viscous dt terms");
    if (needs.shift) shift.allocate(d, capacity, "particle shifting sums");
    perm.allocate(d, capacity, "reorder permutation");
  }

  // Room for `capacity` particles (more than now): the arrays a step keeps are reallocated with
  // their particles [0, n) copied, the force passes' outputs and the spare set without. Pointers
  // into the arrays change (as after apply()).
  void grow(uint32_t capacity, const ParticleArrayNeeds& needs) {
    const Device d = cur.pos.device();
    ParticleArraySet<T> bigger;
    bigger.allocate(d, capacity, needs);
    copyArrays(cur, bigger, n);
    cur.swap(bigger);
    spare.allocate(d, capacity, needs);
    if (spsStrain.size() > 0) spsStrain.allocate(d, capacity, "SPS velocity gradients");
    ace.allocate(d, capacity, "particle accelerations");
    viscdt.allocate(d, capacity, "particle viscous dt terms");
    if (shift.size() > 0) shift.allocate(d, capacity, "particle shifting sums");
    perm.allocate(d, capacity, "reorder permutation");
    ++reorders;
  }

  void apply(const uint32_t* p, uint32_t count) override {
    ++reorders;
    ops_->gather(cur.reorderArrays(), spare.reorderArrays(), p, count);
    cur.swap(spare);
    if (reordered) reordered(p, count);
  }

  ParticleView<T> view() {
    return {cur.pos.data(), cur.velrho.data(), cur.code.data(), cur.id.data(), n, nBound, cur.spsTau.data(),
            cur.normal.data(), cur.tangent.data(), cur.motionAce.data(), cur.posLo.data()};
  }
  // shifted: the integrator step applies the shifting sums of the last force pass.
  IntegratorArrays<T> integratorArrays(bool shifted = false) {
    return {cur.pos.data(), cur.velrho.data(), cur.velrhoPre.data(), cur.posPre.data(), ace.data(), n, nBound,
            cur.code.data(), shifted ? shift.data() : nullptr, cur.posLo.data()};
  }
  // Checkpoints: the particles [0, n) of every array a step reads before writing it. The force
  // passes' outputs (ace, viscdt, shift, spsStrain) are not among them.
  void save(CheckpointWriter& w) const {
    w.putValue("particles.n", n);
    w.putValue("particles.nbound", nBound);
    checkpointArrays(*this, [&](const char* name, const auto& a) { w.putArray(name, a, n); });
  }
  void restore(const CheckpointReader& r) {
    const uint32_t count = r.value<uint32_t>("particles.n");
    if (count > cur.pos.size())
      throw InputError(fmt::format("{}: the checkpoint holds {} particles, more than the case's {}", r.path().string(),
                                   count, cur.pos.size()));
    n = count;
    nBound = r.value<uint32_t>("particles.nbound");
    checkpointArrays(*this, [&](const char* name, auto& a) { r.getArray(name, a, n); });
  }

  size_t bytes() const {
    return cur.bytes() + spare.bytes() + ace.bytes() + viscdt.bytes() + shift.bytes() + spsStrain.bytes() +
           perm.bytes();
  }

  ParticleArraySet<T> cur, spare;
  // Outputs of a force pass (ForceOutputs), used before the next one: never reordered.
  DeviceArray<Real4<T>> ace;
  DeviceArray<Real4<T>> shift;           // shifting sums (runs with shifting only)
  DeviceArray<SymTensor<T>> spsStrain;  // 2S of the SPS model (runs with ViscoTreatment 2 only)
  DeviceArray<T> viscdt;
  DeviceArray<uint32_t> perm;  // engine-side reorders (exclusion compaction)
  uint32_t n = 0, nBound = 0;
  uint64_t reorders = 0;  // apply() calls so far: whoever indexes particles by position re-indexes when it changes
  // Called after each apply() with its permutation (new i = old perm[i]), for index lists that
  // follow the particles (RankExchange's halo).
  std::function<void(const uint32_t* perm, uint32_t count)> reordered;

 private:
  // Each array of a checkpoint with its record name, for save() and restore() alike.
  template <typename Self, typename F>
  static void checkpointArrays(Self& s, F&& f) {
    f("particles.pos", s.cur.pos);
    f("particles.velrho", s.cur.velrho);
    f("particles.velrho_pre", s.cur.velrhoPre);
    f("particles.pos_pre", s.cur.posPre);
    f("particles.code", s.cur.code);
    f("particles.id", s.cur.id);
    f("particles.sps_tau", s.cur.spsTau);
    f("particles.normal", s.cur.normal);
    f("particles.tangent", s.cur.tangent);
    f("particles.motion_ace", s.cur.motionAce);
    f("particles.pos_lo", s.cur.posLo);
  }

  static void copyArrays(const ParticleArraySet<T>& from, ParticleArraySet<T>& to, uint32_t count) {
    const char* what = "growing the particle arrays";
    to.pos.copyFrom(from.pos, count, what);
    to.velrho.copyFrom(from.velrho, count, what);
    to.velrhoPre.copyFrom(from.velrhoPre, count, what);
    if (from.posPre.size()) to.posPre.copyFrom(from.posPre, count, what);
    to.code.copyFrom(from.code, count, what);
    to.id.copyFrom(from.id, count, what);
    if (from.spsTau.size()) to.spsTau.copyFrom(from.spsTau, count, what);
    if (from.normal.size()) to.normal.copyFrom(from.normal, count, what);
    if (from.tangent.size()) to.tangent.copyFrom(from.tangent, count, what);
    if (from.motionAce.size()) to.motionAce.copyFrom(from.motionAce, count, what);
    if (from.posLo.size()) to.posLo.copyFrom(from.posLo, count, what);
  }

  EngineOps<T>* ops_;
};

}  // namespace sph
