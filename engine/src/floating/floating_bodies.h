// The floating bodies of a run (<floatings>; DualSPHysics RigidAlgorithm 1 and 2). Every mkbound
// of a <floating> is one rigid body, as in DualSPHysics. Their particles are placed after the
// fixed and moving boundaries, in the fluid index range, with consecutive ids per body
// (planParticleOrder); the pair loops treat them as floating_pair_physics.h says, the
// integrators leave their positions alone, and after each force pass this class sums the forces
// per body, advances the bodies and moves their particles rigidly (physics/floating_body_physics.h).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "floating/floating_ops.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "output/checkpoint.h"
#include "platform/device_array.h"

namespace sph {

// Where the case's particles go in the engine's arrays.
struct ParticleOrder {
  // For each engine index, the case particle; empty when they are the same (no floating body
  // moves particles: a case of hundreds of millions then needs no table).
  std::vector<uint32_t> caseIndex;
  uint32_t nBound = 0;     // fixed and moving boundary particles, first
  uint32_t nFloating = 0;  // then the floating ones, ids [nBound, nBound + nFloating)

  uint32_t caseOf(uint32_t i) const { return caseIndex.empty() ? i : caseIndex[i]; }
  bool floating(uint32_t i) const { return i >= nBound && i - nBound < nFloating; }
};

// One floating body as the case defines it, with its derived mass properties.
struct FloatingBodyDef {
  int mkBound = 0;        // its local mkbound
  uint16_t mkIndex = 0;   // index into CaseDefinition::mks
  uint32_t first = 0, count = 0;  // its slots (id - nBound)
  double mass = 0;
  Vec3d center, velIni, omegaIni;
  // GenCase's inertia about the centre (xx, yy, zz, xy, xz, yz): sum_p (M/N) (|d|^2 1 - d d^T), or
  // the case's <inertia>.
  double inertia[6] = {0, 0, 0, 0, 0, 0};
  // Each particle's mass in the pair terms and force sums: rho0 dp^d, or the case's <masspart>.
  double pairMass = 0;
  std::string material;   // DEM: the resolved property names
  // What the case imposes (physics/floating_body_physics.h, BodyDrive): velocities and external
  // force and torque over time, and the restricted axes.
  std::optional<TimeSeries3> linearVel, angularVel, linearForce, angularForce;
  uint8_t fixedMove = 0, fixedTurn = 0;
  bool driven() const {
    return linearVel || angularVel || linearForce || angularForce || fixedMove || fixedTurn;
  }
  // The drive at time t (DualSPHysics evaluates it at the step's start time).
  BodyDrive driveAt(double t) const;
};

ParticleOrder planParticleOrder(const CaseDefinition& c);
// Throws InputError naming the <floating> for a body without particles or a DEM body or wall
// without a material.
std::vector<FloatingBodyDef> floatingBodies(const CaseDefinition& c, const SimParameters& p, const ParticleOrder& o);

// The state of one body for OUT/floating.csv.
struct FloatingBodyState {
  int mkBound = 0;
  double center[3], vel[3], omega[3];
};

// The bodies' centres, in their order.
inline std::vector<Vec3d> centresOf(const std::vector<FloatingBodyState>& bodies) {
  std::vector<Vec3d> out;
  for (const FloatingBodyState& b : bodies) out.push_back(Vec3d{b.center[0], b.center[1], b.center[2]});
  return out;
}

template <typename T>
class FloatingBodies {
 public:
  FloatingBodies(const CaseDefinition& c, const SimParameters& p, const ParticleOrder& o, Device d, uint32_t capacity,
                 int threads);

  // For PhysicsConstants::floating and ForceOutputs::contacts (null without DEM).
  FloatingPairTable<T> pairTable() const;
  uint32_t* particleContacts() const { return contacts_.data(); }
  // The particle arrays grew to `capacity` (inlets, ranks): the per-particle DEM contacts too
  // (outputs of a force pass, nothing to keep).
  void growParticles(uint32_t capacity) {
    if (dem_ && capacity > contacts_.size())
      contacts_.allocate(contacts_.device(), capacity, "DEM contacts per particle");
  }
  // After every prepare() of the strategy (which may reorder particles) and before advance().
  void index(const ParticleView<T>& p);
  // Over several ranks each holds some of a body's particles: `combine` gets this rank's sums per
  // body and leaves the sums over every rank in their place, the same on every rank, so that
  // every rank moves the bodies alike.
  using SumCombiner = std::function<void(std::vector<BodySums>&)>;
  void combineSumsWith(SumCombiner combine) { combine_ = std::move(combine); }
  // Sums the last force pass per body, advances the bodies over the step *dt as `kind` says
  // (physics/floating_body_physics.h) and moves their particles from src and srcVel (pos and velrho, or
  // the symplectic corrector's posPre and velrhoPre). `time`: the step's start, when the
  // imposed velocities and external forces are taken.
  void advance(const ParticleView<T>& p, const Real4<T>* ace, const Real4<T>* src, const Real4<T>* srcVel,
               const double* dt, BodyStep kind, bool paused, double time);
  std::vector<FloatingBodyState> states() const;
  // Checkpoints: the bodies, their last motions and centres, and the DEM contacts of the last
  // force pass, which the next one reads.
  void save(CheckpointWriter& w) const;
  void restore(const CheckpointReader& r);
  size_t bytes() const;
  uint32_t count() const { return uint32_t(defs_.size()); }
  const std::vector<FloatingBodyDef>& definitions() const { return defs_; }

 private:
  FloatingPass<T> pass() const;
  void uploadDrives(double time);
  // Each array of a checkpoint with its record name and length, for save() and restore() alike.
  template <typename Self, typename F>
  static void checkpointArrays(Self& s, F&& f);

  Device device_;
  int threads_;
  std::vector<FloatingBodyDef> defs_;
  FloatingPass<T> shape_;  // everything but the pointers
  bool dem_ = false;
  T dp_ = 0;
  DeviceArray<FloatingBody> bodies_;
  DeviceArray<BodyDrive> drives_;  // empty when no body is driven
  bool timeDriven_ = false;        // some drive changes with time: uploaded every advance
  double drivesTime_ = -1;         // the time of the drives uploaded last
  DeviceArray<BodyMotion> motions_;
  DeviceArray<double> centerNow_;
  DeviceArray<uint32_t> bodyContacts_, slotIndex_, contacts_;
  DeviceArray<BodySums> sums_;
  SumCombiner combine_;  // null on one rank
  DeviceArray<SolidInfo<T>> solids_;
};

}  // namespace sph
