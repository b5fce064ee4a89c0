// The engine's own per-particle passes (pressure, time-step reduction, integration, exclusion,
// reordering), with one implementation looping on the CPU (run/cpu_ops.cpp) and one launching CUDA
// kernels (gpu/gpu_ops.cu). Both call the same header-only physics.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "physics/acc_input_physics.h"
#include "physics/damping_physics.h"
#include "physics/relaxation_zone_physics.h"
#include "physics/integrator_physics.h"
#include "physics/position_split.h"
#include "physics/shifting_zones.h"
#include "physics/time_step.h"
#include "run/particle_records.h"
#include "sph/plugin/physics_constants.h"
#include "sph/plugin/real4.h"
#include "sph/plugin/sps_physics.h"

namespace sph {

// Every per-particle array a reorder must move.
template <typename T>
struct ReorderArrays {
  Real4<T>* pos;
  Real4<T>* velrho;
  Real4<T>* velrhoPre;
  Real4<T>* posPre;  // may be null (Verlet integrator)
  uint32_t* code;
  uint32_t* id;
  SymTensor<T>* spsTau = nullptr;  // the SPS model's tau/rho (runs with ViscoTreatment 2), else null
  Real4<T>* normal = nullptr;      // mDBC's boundary normals (runs with Boundary 2), else null
  Real4<T>* tangent = nullptr;     // mDBC2's wall tangential velocities (SlipMode 2, 3), else null
  Real4<T>* motionAce = nullptr;   // mDBC2's moving walls' accelerations, else null
  Real4<T>* posLo = nullptr;       // single precision's position remainders (physics/position_split.h), else null
};

// One particle of a reorder, shared by the CPU loop and the CUDA kernel.
template <typename T>
SPH_HD SPH_FORCEINLINE void gatherParticle(uint32_t i, const ReorderArrays<T>& s, const ReorderArrays<T>& d,
                                           const uint32_t* perm) {
  const uint32_t k = perm[i];
  d.pos[i] = s.pos[k];
  d.velrho[i] = s.velrho[k];
  d.velrhoPre[i] = s.velrhoPre[k];
  if (s.posPre) d.posPre[i] = s.posPre[k];
  d.code[i] = s.code[k];
  d.id[i] = s.id[k];
  if (s.spsTau) d.spsTau[i] = s.spsTau[k];
  if (s.normal) d.normal[i] = s.normal[k];
  if (s.tangent) d.tangent[i] = s.tangent[k];
  if (s.motionAce) d.motionAce[i] = s.motionAce[k];
  if (s.posLo) d.posLo[i] = s.posLo[k];
}

// One particle of EngineOps::markAlong().
template <typename T>
SPH_HD SPH_FORCEINLINE void markAlongParticle(uint32_t i, const Real4<T>* pos, const Real4<T>* posLo, uint32_t* code,
                                              int axis, double below, double above, uint32_t bit) {
  uint32_t c = code[i] & ~bit;
  if (!(c & (code::kHaloBit | code::kParkedBit))) {
    double x[3];
    loadPosition(pos[i], posLo ? posLo + i : nullptr, x);
    if (x[axis] < below || x[axis] >= above) c |= bit;
  }
  code[i] = c;
}

// The layer of particle i for EngineOps::countLayers(): floor((x - origin) / width) along `axis`,
// clamped to [0, layers); -1 for a halo copy or a parked particle.
template <typename T>
SPH_HD SPH_FORCEINLINE int64_t layerOfParticle(uint32_t i, const Real4<T>* pos, const Real4<T>* posLo,
                                               const uint32_t* code, int axis, double origin, double width,
                                               uint32_t layers) {
  if (code[i] & (code::kHaloBit | code::kParkedBit)) return -1;
  double x[3];
  loadPosition(pos[i], posLo ? posLo + i : nullptr, x);
  const double l = floor((x[axis] - origin) / width);
  return !(l >= 0.0) ? 0 : l >= double(layers) ? int64_t(layers) - 1 : int64_t(l);
}

struct ExclusionCounts {
  uint32_t outOfDomain = 0;
  uint32_t density = 0;
  uint32_t total() const { return outOfDomain + density; }
};

template <typename T>
class EngineOps {
 public:
  virtual ~EngineOps() = default;
  // pos.w = Tait pressure of velrho.w, for [0, n).
  virtual void computePressure(Real4<T>* pos, const Real4<T>* velrho, uint32_t n,
                               const PhysicsConstants<T>& c) = 0;
  // One step's scalars (see physics/time_step.h) stay where the particles are until finishStep():
  // on the GPU nothing below waits for the device except finishStep(), once per step.
  // Reduces the time-step terms of the last force pass (and the velocities it saw) and sets the
  // dts that `pass` sets (physics/time_step.h). The first pass of a step also clears the step's
  // exclusion counters.
  virtual void computeDt(const Real4<T>* ace, const T* viscdt, const Real4<T>* velrho, uint32_t nBound, uint32_t n,
                         const DtRule& rule, DtPass pass, bool firstStep) = 0;
  // The integrators advance by the dt of the last computeDt(). The two that end a step
  // (verletStep, symplecticCorrect) also set code::kExcludedBit on fluid particles that left the
  // domain or the density range (markIfExcluded) and count them into the step's scalars.
  virtual void verletStep(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c, bool euler, uint32_t* code,
                          const ExclusionLimits<T>& l) = 0;
  virtual void symplecticPredict(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c) = 0;
  virtual void symplecticCorrect(const IntegratorArrays<T>& a, const PhysicsConstants<T>& c, uint32_t* code,
                                 const ExclusionLimits<T>& l) = 0;
  // The SPS model's pass after every force pass of a run with ViscoTreatment 2: spsTauParticle()
  // for [0, n) (sps_physics.h).
  virtual void computeSpsTau(const SymTensor<T>* strain, const Real4<T>* velrho, const uint32_t* code,
                             SymTensor<T>* tau, uint32_t nBound, uint32_t n, const PhysicsConstants<T>& c) = 0;
  // The damping zones (physics/damping_physics.h) over the fluid range [nBound, n) at the end of a step
  // of the last computeDt()'s dt; `zones` live where the particles are.
  virtual void damp(const Real4<T>* pos, Real4<T>* velrho, const uint32_t* code, uint32_t nBound, uint32_t n,
                    const DampingZone* zones, uint32_t count) = 0;
  // One relaxation zone (physics/relaxation_zone_physics.h) over the fluid range [nBound, n) at the
  // end of a step, with the step's dt (as damp); its waves live where the particles are.
  virtual void relax(const Real4<T>* pos, Real4<T>* velrho, const uint32_t* code, uint32_t nBound, uint32_t n,
                     const RelaxZoneStep& zone) = 0;
  // Shifting zones (physics/shifting_zones.h) over [nBound, n) after a force pass that summed the
  // shifting terms: the sums of particles outside every zone are cleared; `zones` live where the
  // particles are.
  virtual void cancelShiftOutsideZones(Real4<T>* shift, const Real4<T>* pos, uint32_t nBound, uint32_t n,
                                       const ShiftZone* zones, uint32_t count) = 0;
  // The acceleration inputs (physics/acc_input_physics.h) over [nBound, n) after a force pass: adds to
  // ace; the table lives where the particles are.
  virtual void addAccInputs(const Real4<T>* pos, const Real4<T>* velrho, const uint32_t* code, Real4<T>* ace,
                            uint32_t nBound, uint32_t n, const AccInputTable& table) = 0;
  // The periodic pass after every integrator call of a run with periodic axes:
  // wrapPeriodicParticle() over the fluid index range [nBound, n); posLo null after the
  // symplectic predictor.
  virtual void wrapPeriodic(Real4<T>* pos, Real4<T>* posLo, uint32_t nBound, uint32_t n,
                            const PeriodicBox<T>& box) = 0;
  // perm = the particles of [0, n) whose code has (code & mask) == value, in their order, then the
  // others (in any order); returns how many come first. Runs where the particles are.
  virtual uint32_t partitionByCode(const uint32_t* code, uint32_t n, uint32_t* perm, uint32_t mask, uint32_t value) = 0;
  // The particles without any bit of `flags` first (kept), the flagged ones after.
  uint32_t partitionFlagged(const uint32_t* code, uint32_t n, uint32_t* perm, uint32_t flags) {
    return partitionByCode(code, n, perm, flags, 0);
  }
  // Runs over several ranks (run/rank_domain.h): sets `bit` in the code of every particle of
  // [0, n) that is neither a halo copy nor parked and whose coordinate along `axis` (pos + posLo)
  // is below `below` or at or above `above`, and clears it in every other.
  virtual void markAlong(const Real4<T>* pos, const Real4<T>* posLo, uint32_t* code, uint32_t n, int axis, double below,
                         double above, uint32_t bit) = 0;
  // Runs over several ranks (run/particle_records.h): packParticleRecord() for k in [0, count)
  // into `out`, and unpackParticleRecord() of the `count` records of `in` into the particles from
  // `first` on, or into particles slots[0], slots[1], ... (not null); the records and the slots
  // live where the particles do.
  virtual void packRecords(const ReorderArrays<T>& a, const uint32_t* perm, uint32_t count, const RecordLayout& layout,
                           double shift, uint8_t* out) = 0;
  virtual void unpackRecords(const uint8_t* in, uint32_t count, const RecordLayout& layout, const ReorderArrays<T>& a,
                             uint32_t first, const uint32_t* slots, bool halo) = 0;
  // Index lists that follow the particles through a reorder (ParticleState::apply): inverse[perm[i]]
  // = i for i in [0, n); then list[k] = inverse[list[k]] for k in [0, count), an entry not below n
  // (a particle the reorder dropped) becoming kNoIndex. Where the particles live.
  static constexpr uint32_t kNoIndex = 0xFFFFFFFFu;
  virtual void invertPermutation(const uint32_t* perm, uint32_t n, uint32_t* inverse) = 0;
  virtual void mapIndices(const uint32_t* inverse, uint32_t n, uint32_t* list, uint32_t count) = 0;
  // Runs over several ranks (dynamic rebalancing): counts[l] = the particles of [0, n) in layer l
  // (layerOfParticle(); halo copies and parked particles are not counted), on the host, for the
  // counts.size() layers.
  virtual void countLayers(const Real4<T>* pos, const Real4<T>* posLo, const uint32_t* code, uint32_t n, int axis,
                           double origin, double width, std::vector<double>& counts) = 0;
  // parkParticle(which[k], first + k) for k in [0, count): `which` lists particle indices
  // (where the particles live).
  virtual void park(const ReorderArrays<T>& a, const uint32_t* which, uint32_t count, uint32_t first,
                    const ParkingLot& lot) = 0;
  // The step's scalars on the host (GPU: the one wait for the device per step), in two halves
  // so that a recorded step (run/step_graphs.h) holds the copy but not the wait.
  virtual void queueStepScalars() = 0;
  virtual StepScalars waitStepScalars() = 0;
  StepScalars finishStep() {
    queueStepScalars();
    return waitStepScalars();
  }
  // A resumed run (output/checkpoint.h): the scalars as the step before the checkpoint left them (the
  // symplectic integrator's next dt is among them).
  virtual void restoreStepScalars(const StepScalars& s) = 0;
  // The dt of the last computeDt() on the host before the step ends (GPU: a second wait, paid
  // only by runs with imposed motion, whose transform the host computes from dt).
  virtual double stepDt() = 0;
  // Where the dt of the last computeDt() lives (device memory in GPU runs), for passes that read
  // it without the host waiting (floating bodies).
  virtual const double* dtLocation() const = 0;
  // dst[i] = src[perm[i]] for every array; those null in src are skipped.
  virtual void gather(const ReorderArrays<T>& src, const ReorderArrays<T>& dst, const uint32_t* perm,
                      uint32_t n) = 0;

  // Runs over several ranks: computeDt() hands the maxima of its pass's terms (|f|^2, the viscous
  // term, |v|^2; physics/time_step.h) to `f`, which replaces them in place by those of every rank,
  // before it computes dt from them; so every rank takes the run's dt (a maximum is exact: the
  // same dt as on one rank). Unset: this rank's maxima are the run's.
  using DtMaximaCombiner = std::function<void(double maxima[3])>;
  void combineDtMaximaWith(DtMaximaCombiner f) { combineDtMaxima_ = std::move(f); }

 protected:
  DtMaximaCombiner combineDtMaxima_;
};

template <typename T>
std::unique_ptr<EngineOps<T>> makeCpuOps(int threads);
template <typename T>
std::unique_ptr<EngineOps<T>> makeGpuOps();  // throws RunError in a CPU-only build

}  // namespace sph
