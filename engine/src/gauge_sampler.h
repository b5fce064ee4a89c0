// SPH interpolation at arbitrary points from a host snapshot of the particles, for the gauges.
// Only fluid particles contribute (as in DualSPHysics' gauges), each with volume V_j = m / rho_j
// and the case's kernel W of support 2h:
//   shepard(x) = sum_j V_j W(x - x_j)                       (1 inside the fluid, 0 in air)
//   f(x)       = sum_j V_j W(x - x_j) f_j / shepard(x)      velocity and pressure (Shepard-normalised)
//   mass(x)    = sum_j V_j W(x - x_j) m                     the swl gauge's kernel-summed mass
// In 2D the y coordinate is ignored (the particles lie in one plane).
//
// Cost per sample time: the run copies the particles to the host (Simulation::snapshot, O(N))
// and the grid bins the fluid particles in O(N) (two passes); each point then visits the 3x3(x3)
// cells around it, O(neighbours), so a swl line of P points costs O(P x neighbours), never
// O(P x N). Only the sample times pay: steps between them do nothing for the gauges.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "sph/case_gauges.h"
#include "sph/output.h"
#include "sph/physics_constants.h"

namespace sph {

struct GaugeKernel {
  KernelKind kind = KernelKind::Wendland;
  int dim = 3;
  double h = 0;          // smoothing length; the support is 2h
  double massFluid = 0;  // m of one fluid particle
};

// The fluid particles of one snapshot binned in a uniform grid of cells of (at least) 2h, by a
// counting sort. A grid can be rebuilt for each new snapshot, reusing its storage.
class FluidGrid {
 public:
  FluidGrid() = default;
  FluidGrid(const ParticleSnapshot& s, const GaugeKernel& k) { rebuild(s, k); }
  // Bins `s` (which must outlive the grid's use) afresh.
  void rebuild(const ParticleSnapshot& s, const GaugeKernel& k);

  // Calls f(particle index j, V_j W(x - x_j)) for every fluid particle within 2h of x.
  template <typename F>
  void forEachNeighbour(const GaugePoint& x, F&& f) const;

  const ParticleSnapshot& snapshot() const { return *s_; }
  const GaugeKernel& kernel() const { return k_; }

 private:
  double weight(double r) const;  // W(r), 0 beyond 2h

  const ParticleSnapshot* s_ = nullptr;
  GaugeKernel k_;
  double aD_ = 0, support2_ = 0, cell_ = 0;
  double lo_[3] = {0, 0, 0};
  int64_t n_[3] = {0, 0, 0};
  std::vector<uint32_t> cellStart_;  // n cells + 1 offsets into order_
  std::vector<uint32_t> order_;      // fluid particle indices sorted by cell
  std::vector<uint32_t> fill_;       // counting-sort cursor per cell
};

struct PointSample {
  double shepard = 0;            // sum_j V_j W
  double vel[3] = {0, 0, 0};     // m/s, 0 where shepard is 0
  double press = 0;              // Pa, 0 where shepard is 0
};

PointSample samplePoint(const FluidGrid& g, const GaugePoint& x);
double kernelMass(const FluidGrid& g, const GaugePoint& x);

// The swl gauge (DualSPHysics JGaugeSwl): walks the line from point0 to point2 in equal steps of
// about `pointDp` (the line is cut into round(length / pointDp) pieces, a remainder under a tenth
// of pointDp dropped) and returns where kernelMass first drops below `massLimit` after having
// been above it, interpolated linearly between the two points around the crossing. When the
// mass never drops below the limit after fluid was seen it returns point2; when no point is
// above the limit, point0.
GaugePoint surfaceAlongLine(const FluidGrid& g, const GaugePoint& p0, const GaugePoint& p2, double pointDp,
                            double massLimit);

// The number of pieces the swl line is cut into (at least 1).
int swlSegments(double length, double pointDp);

template <typename F>
void FluidGrid::forEachNeighbour(const GaugePoint& x, F&& f) const {
  if (order_.empty()) return;
  const double p[3] = {x.x, k_.dim == 2 ? 0.0 : x.y, x.z};
  int64_t c0[3], c1[3];
  for (int a = 0; a < 3; ++a) {
    const double rel = (p[a] - lo_[a]) / cell_;
    if (rel < -1 || rel > double(n_[a]) + 1) return;  // farther than one cell (2h) from every particle
    const int64_t c = int64_t(rel < 0 ? -1 : rel);
    c0[a] = c - 1 < 0 ? 0 : c - 1;
    c1[a] = c + 1 > n_[a] - 1 ? n_[a] - 1 : c + 1;
  }
  for (int64_t cz = c0[2]; cz <= c1[2]; ++cz)
    for (int64_t cy = c0[1]; cy <= c1[1]; ++cy)
      for (int64_t cx = c0[0]; cx <= c1[0]; ++cx) {
        const size_t cell = size_t((cz * n_[1] + cy) * n_[0] + cx);
        for (uint32_t q = cellStart_[cell]; q < cellStart_[cell + 1]; ++q) {
          const uint32_t j = order_[q];
          const double dx = p[0] - s_->pos[3 * j];
          const double dy = k_.dim == 2 ? 0.0 : p[1] - s_->pos[3 * j + 1];
          const double dz = p[2] - s_->pos[3 * j + 2];
          const double r2 = dx * dx + dy * dy + dz * dz;
          if (r2 >= support2_) continue;
          f(j, k_.massFluid / double(s_->rho[j]) * weight(std::sqrt(r2)));
        }
      }
}

}  // namespace sph
