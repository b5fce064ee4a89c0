// Drives the imposed motion of a run: the kinematics of the case's <motion> objects on the host
// (motion/motion_kinematics.h) and, each step, one pass over the boundary particles that moves those of
// moving objects (physics/boundary_motion_physics.h), on the CPU or the GPU.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "gauges/gauge_sampler.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "motion/boundary_motion_ops.h"
#include "motion/ml_piston_law.h"
#include "motion/motion_kinematics.h"
#include "motion/paddle_awas.h"
#include "platform/device_array.h"

namespace sph {

template <typename T>
class BoundaryMotion {
 public:
  BoundaryMotion(const CaseDefinition& c, const SimParameters& p, Device d, int threads);

  // Moves every moving object's particles by its motion over [t, t + dt] and sets their
  // velocity to the displacement over dt (zero for an object at rest: once it stops, its
  // velocity is cleared on the next step and then left alone). Pistons with active absorption
  // measure the surface with `gauges` first (required when absorbs()).
  void apply(double t, double dt, const ParticleView<T>& p, GaugeSource* gauges = nullptr);

  // Whether a paddle absorbs (motion/paddle_awas.h): apply() then needs the gauges every step.
  bool absorbs() const { return !awasObjects_.empty(); }
  // The absorbing pistons: their objects' paddles and what their last step did.
  struct Absorber {
    const WavePaddle* paddle;
    const PaddleAwasControl* control;
  };
  std::vector<Absorber> absorbers() const;

  // Checkpoints: the kinematics' chains, the objects' anchors and whether they moved last step.
  void save(CheckpointWriter& w) const;
  void restore(const CheckpointReader& r);

 private:
  MotionKinematics kinematics_;
  std::vector<std::optional<PaddleAwasControl>> awas_;  // per object
  std::vector<size_t> awasObjects_;                     // the objects that absorb
  std::vector<double> paddleExtra_;                     // per object, this step
  Device device_;
  int threads_;
  uint32_t nMk_ = 0;
  DeviceArray<int16_t> slotOfMk_;
  DeviceArray<MotionTransform> transforms_;
  std::vector<MotionTransform> host_;
  std::vector<std::array<double, 3>> anchor_;  // per object: its centroid, moved with it (not wrapped)
  // Multi-layer pistons: per object its law (if any) and where its cells start in the layer
  // arrays; the cells' moves and velocities of this step.
  std::vector<std::optional<MlPistonLaw>> mlLaws_;
  std::vector<uint32_t> mlBase_;
  std::vector<double> layerMovHost_, layerVelHost_;
  DeviceArray<double> layerMov_, layerVel_;
  PeriodicBox<double> box_;
  bool movedLastStep_ = false;
};

}  // namespace sph
