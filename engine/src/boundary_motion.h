// Drives the imposed motion of a run: the kinematics of the case's <motion> objects on the host
// (motion_kinematics.h) and, each step, one pass over the boundary particles that moves those of
// moving objects (boundary_motion_physics.h), on the CPU or the GPU.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "boundary_motion_ops.h"
#include "device_array.h"
#include "motion_kinematics.h"
#include "sph/case_model.h"
#include "sph/sim_parameters.h"

namespace sph {

template <typename T>
class BoundaryMotion {
 public:
  BoundaryMotion(const CaseDefinition& c, const SimParameters& p, Device d, int threads);

  // Moves every moving object's particles by its motion over [t, t + dt] and sets their
  // velocity to the displacement over dt (zero for an object at rest: once it stops, its
  // velocity is cleared on the next step and then left alone).
  void apply(double t, double dt, const ParticleView<T>& p);

  // Checkpoints: the kinematics' chains, the objects' anchors and whether they moved last step.
  void save(CheckpointWriter& w) const;
  void restore(const CheckpointReader& r);

 private:
  MotionKinematics kinematics_;
  Device device_;
  int threads_;
  uint32_t nMk_ = 0;
  DeviceArray<int16_t> slotOfMk_;
  DeviceArray<MotionTransform> transforms_;
  std::vector<MotionTransform> host_;
  std::vector<std::array<double, 3>> anchor_;  // per object: its centroid, moved with it (not wrapped)
  PeriodicBox<double> box_;
  bool movedLastStep_ = false;
};

}  // namespace sph
