// Constants of one simulation, precomputed once on the host and passed by value to every
// kernel (CPU loop or CUDA kernel). Plain data, no virtuals; the only pointers are those of the
// floating-body tables (floating_table.h), null in runs without floating bodies.
#pragma once

#include <cstdint>

#include "sph/plugin/floating_table.h"
#include "sph/plugin/periodic.h"

namespace sph {

enum class KernelKind : int32_t { Cubic = 1, Wendland = 2 };  // DualSPHysics `Kernel` values
enum class DensityDiffusion : int32_t {
  None = 0,
  Molteni = 1,        // Molteni & Colagrossi (2009); off for fluid particles next to a wall
  Fourtakas = 2,      // Fourtakas et al. (2019), dynamic part of density; off next to a wall ("inner")
  FourtakasFull = 3,  // as Fourtakas for every fluid particle, over its fluid neighbours ("all")
};

enum class Viscosity : int32_t {  // DualSPHysics `ViscoTreatment` values
  Artificial = 1,                  // Monaghan (1992), alpha = Visco
  LaminarSps = 2,                  // laminar (nu = Visco) plus the SPS turbulence model (sps_physics.h)
  Laminar = 3,                     // Lo & Shao (2002), kinematic viscosity nu = Visco
};

enum class BoundaryModel : int32_t {  // DualSPHysics `Boundary` and, for mDBC, `SlipMode`
  Dbc = 0,           // Boundary 1
  MdbcVel0 = 1,      // Boundary 2, SlipMode 1: wall densities extrapolated from the fluid
  MdbcNoSlip = 2,    // SlipMode 2 (mDBC2): plus pressure cloning and the ghost's mirrored velocity
  MdbcFreeSlip = 3,  // SlipMode 3 (mDBC2): plus pressure cloning and the ghost's velocity
};

enum class Shifting : int32_t {  // DualSPHysics `Shifting` values: which neighbours stop a particle's shift
  None = 0,
  NoBound = 1,  // a particle with any boundary neighbour is not shifted
  NoFixed = 2,  // a particle with a fixed-boundary neighbour is not shifted (moving ones count)
  Full = 3,     // every fluid particle is shifted; boundary neighbours count like fluid ones
};

template <typename T>
struct PhysicsConstants {
  int32_t dim = 3;                   // 2 or 3; in 2D the y coordinate is constant
  KernelKind kernel = KernelKind::Wendland;
  T h = 0;                           // smoothing length
  T support = 0;                     // kernel support radius 2h (the interaction radius)
  T support2 = 0;                    // (2h)^2
  T eta2 = 0;                        // 0.01 h^2, keeps 1/(r^2+eta^2) finite
  T kernelNorm = 0;                  // aD of the chosen kernel and dimension
  T cubicWdp = 0;                    // W(h/1.5) of the cubic kernel, for its tensile correction
  // Folded from the above by foldKernelConstants() (sph_kernels.h) so the pair loop has no
  // division by h: 1/h, the gradient prefactors and aD/W(h/1.5).
  T invH = 0, gradA = 0, gradB = 0, cubicWRatio = 0;
  T massFluid = 0;                   // rho0 dp^dim
  T massBound = 0;                   // DBC particles carry the fluid mass (DualSPHysics)
  T rho0 = 0;
  T gamma = 7;
  T invGamma = T(1) / T(7);
  T cteB = 0;                        // Tait B = c0^2 rho0 / gamma
  T c0 = 0;                          // speed of sound
  Viscosity viscosity = Viscosity::Artificial;
  T visco = 0;                       // Visco: alpha (artificial) or nu (laminar), fluid-fluid
  T viscoBound = 0;                  // Visco * ViscoBoundFactor, fluid-boundary
  T spsSmag = 0, spsBlin = 0;        // SPS model constants (LaminarSps; sps_physics.h)
  DensityDiffusion ddt = DensityDiffusion::None;
  T ddtCoef = 0;                     // 2 * delta * h * c0 (factor 2 of the diffusive flux psi)
  T ddtGz = 0;                       // -rho0 |g_z| / B, for the hydrostatic density difference
  // The walls (Boundary, SlipMode; mdbc_physics.h): with mDBC Molteni's density diffusion runs
  // over wall neighbours too (pair_physics.h), and with mDBC2 (no-slip, free slip) a wall
  // neighbour's mass and viscous velocity come from its correction (floating_pair_physics.h).
  BoundaryModel boundary = BoundaryModel::Dbc;
  T dp = 0;                          // particle spacing (mDBC2's condition number)
  T ddtSeries[5] = {};               // binomial coefficients of (1+u)^(1/gamma) - 1, see below
  T gx = 0, gy = 0, gz = 0;          // gravity
  // Particle shifting (physics/shifting_physics.h): the mode, ShiftCoef (negative: down the
  // concentration gradient), ShiftTFS (0: off) and the largest shift per step, dp/10.
  Shifting shifting = Shifting::None;
  T shiftCoef = -2, shiftTfs = 0, shiftMax = 0;
  PeriodicBox<T> periodic;           // periodic axes: minimum image in pairs, wrap in integrators
  FloatingPairTable<T> floating;     // floating bodies and DEM (floating_pair_physics.h)
};

// Fills c.ddtSeries with binom(1/gamma, k), k = 1..5, so that single precision evaluates
// (1+u)^(1/gamma) - 1 = sum_k binom(1/gamma, k) u^k without pow() or the cancellation of
// subtracting 1 (see hydrostaticDensityDifference in pair_physics.h).
template <typename T>
void setHydrostaticSeries(PhysicsConstants<T>& c, double gamma) {
  double coef = 1;
  for (int k = 1; k <= 5; ++k) {
    coef *= (1.0 / gamma - (k - 1)) / k;
    c.ddtSeries[k - 1] = T(coef);
  }
}

}  // namespace sph
