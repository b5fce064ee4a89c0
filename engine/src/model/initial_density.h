// GenCase 5.4's initial densities (<casedef><initials>: densityuniform, densitygradient,
// densitydepth), kept as operations because the hydrostatic one needs the case's Tait constant B,
// which only the derived parameters know. initialDensity() (model/sim_parameters.h) applies them in
// order over <rhopgradient>'s densities when a run starts from a _Def.xml; GenCase's output holds
// the densities it computed instead.
#pragma once

#include <optional>

#include "model/particle_selection.h"
#include "model/vec3d.h"

namespace sph {

struct InitialDensityOp {
  enum class Kind { Uniform, Gradient, Depth };
  Kind kind = Kind::Uniform;
  ParticleSelection selection;  // fluid mks
  // Uniform: rho everywhere.
  double rho = 0;
  // Gradient: linear along the line from `from` (density rhoFrom) to `to` (rhoTo), by the
  // projection onto it, and beyond its ends as its continuation.
  Vec3d from, to;
  double rhoFrom = 0, rhoTo = 0;
  // Depth: hydrostatic below the free surface through `surface` (without it: the selected
  // particle highest against gravity), rho0 (1 + rho0 |g| depth / B)^(1/gamma), rho0 above it;
  // each constant the case's when not given.
  std::optional<Vec3d> surface, gravity;
  std::optional<double> rho0, gamma, b;
};

}  // namespace sph
