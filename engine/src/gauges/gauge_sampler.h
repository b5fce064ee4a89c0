// SPH interpolation at arbitrary points from a host snapshot of the particles, for the gauges.
// Only fluid particles contribute (as in DualSPHysics' gauges), each with volume V_j = m / rho_j
// and the case's kernel W of support 2h:
//   shepard(x) = sum_j V_j W(x - x_j)                       (1 inside the fluid, 0 in air)
//   f(x)       = sum_j V_j W(x - x_j) f_j / shepard(x)      velocity, pressure, density (Shepard-normalised)
//   mass(x)    = sum_j V_j W(x - x_j) m                     the swl gauge's kernel-summed mass
// In 2D the y coordinate is ignored (the particles lie in one plane). The maxz and force gauges
// are not interpolations: the highest fluid particle near a line, and the pressure force of the
// fluid on the particles of one boundary mk (physics/gauge_physics.h says how both are defined).
//
// The sums themselves are in physics/gauge_physics.h, shared with the GPU gauges (gauges/device_gauges.h).
//
// Cost per sample time on the host: the run copies the particles to the host (O(N)) and the
// grid bins the fluid particles in O(N) (two passes); each point then visits the 3x3(x3) cells
// around it, O(neighbours), so a swl line of P points costs O(P x neighbours), never O(P x N).
// A force gauge visits the cells around each particle of its mk the same way; the maxz gauges
// take one pass over the particles, O(N x lines).
// Only the sample times pay: steps between them do nothing for the gauges. GPU runs evaluate the
// points on the device instead and copy back only the sums.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "model/case_gauges.h"
#include "output/output.h"
#include "physics/gauge_physics.h"
#include "sph/plugin/physics_constants.h"

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
  // Calls f(particle index j, squared distance r2) for every fluid particle with r2 < (2h)^2.
  template <typename F>
  void forEachFluidWithin(const GaugePoint& x, F&& f) const;

  const ParticleSnapshot& snapshot() const { return *s_; }
  const GaugeKernel& kernel() const { return k_; }
  const GaugeSumParams& sums() const { return sums_; }

 private:
  const ParticleSnapshot* s_ = nullptr;
  GaugeKernel k_;
  GaugeSumParams sums_;
  double cell_ = 0;
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
  double rho = 0;                // kg/m^3, 0 where shepard is 0
};

// The raw sums at a point: sum V W, sum V W v (3), sum V W p, sum V W rho. Sums over disjoint sets
// of particles (the ranks' own) add up to the sums over them all.
inline constexpr uint32_t kGaugeSumsPerPoint = 6;

PointSample samplePoint(const FluidGrid& g, const GaugePoint& x);
void pointSums(const FluidGrid& g, const GaugePoint& x, double sums[kGaugeSumsPerPoint]);
double kernelMass(const FluidGrid& g, const GaugePoint& x);

// A sample from the raw sums at a point (sum V W, sum V W v, sum V W p, sum V W rho): velocity,
// pressure and density Shepard-normalised, 0 where no fluid is near.
PointSample pointSampleFromSums(double shepard, const double velSum[3], double pressSum, double rhoSum);
// out[k] from sums[kGaugeSumsPerPoint * k ...], for every point of the sums.
void pointSamplesFromSums(const std::vector<double>& sums, std::vector<PointSample>& out);

// A maxz gauge's line with its sizes in metres.
struct MaxZLine {
  GaugePoint point0;
  double height = 0, distLimit = 0;
};

// A force gauge's target: the boundary particles of one mk, by its global number (the snapshot's
// mk) and by its index in the case's mks (the particles' code on the device).
struct ForceTarget {
  int mk = -1;
  uint32_t mkIndex = 0;
};

// Everything the gauges due at one time ask for, taken from one state of the particles.
struct GaugeRequest {
  std::vector<GaugePoint> points;
  std::vector<MaxZLine> lines;
  std::vector<ForceTarget> targets;
  bool empty() const { return points.empty() && lines.empty() && targets.empty(); }
};

// No fluid particle near a maxz line: the lowest double (the recorder writes the domain's floor).
inline constexpr double kNoMaxZ = std::numeric_limits<double>::lowest();

struct GaugeResults {
  std::vector<PointSample> points;          // at request.points
  std::vector<double> maxZ;                 // per line: the z of its highest fluid particle, or kNoMaxZ
  std::vector<std::array<double, 3>> ace;   // per target: sum over its particles of a_a (m/s^2)
};

// Where a gauge sample's values come from: the SPH sums above at a set of points, for the state
// at one time. The host bins a snapshot (SnapshotGaugeSource); GPU runs evaluate the points on
// the device (gauges/device_gauges.h).
class GaugeSource {
 public:
  virtual ~GaugeSource() = default;
  // out[k] = the sample at points[k] (out is resized to points.size()).
  virtual void samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) = 0;
  // Every part of `req` from the same state (out's vectors are resized to req's). A source that
  // only interpolates at points (a test's stand-in) answers points and refuses the rest.
  virtual void sample(const GaugeRequest& req, GaugeResults& out);
  // The raw sums at each point (kGaugeSumsPerPoint a point) over the fluid particles the source
  // holds, halo copies of another rank's left out. A source without them refuses.
  virtual void pointSums(const std::vector<GaugePoint>& points, std::vector<double>& sums);
};

// The host's source: bins the snapshot `take` returns (taken when needed), once per call.
class SnapshotGaugeSource final : public GaugeSource {
 public:
  SnapshotGaugeSource(std::function<const ParticleSnapshot&()> take, const GaugeKernel& k)
      : take_(std::move(take)), k_(k) {}
  void samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) override;
  void sample(const GaugeRequest& req, GaugeResults& out) override;
  void pointSums(const std::vector<GaugePoint>& points, std::vector<double>& sums) override;

 private:
  std::function<const ParticleSnapshot&()> take_;
  std::vector<double> sums_;
  GaugeKernel k_;
  FluidGrid grid_;  // storage kept between samples
};

// The maxz gauge for each line over the fluid particles of s, in one pass: out[k] for lines[k].
void maxZOverFluid(const ParticleSnapshot& s, int dim, const std::vector<MaxZLine>& lines, double* out);

// The force gauge's sum over the boundary particles of global mk `mk` of their acceleration a_a
// (physics/gauge_physics.h), their fluid neighbours from g, the pressures those of the snapshot.
std::array<double, 3> wallPressureAce(const FluidGrid& g, int mk);

// DualSPHysics JGaugeSystem: the swl mass limit is this fraction of a fluid particle's mass when
// <masslimit> is not given. In 3D half the mass marks the surface; in 2D the kernel sum
// overestimates the mass near the surface and 0.4 matched experiments (DualSPHysics forum,
// "Regarding free surface elevation post-processing").
inline double defaultSwlMassLimitCoef(int dim) { return dim == 2 ? 0.4 : 0.5; }

// The swl gauge (DualSPHysics JGaugeSwl) walks the line from point0 to point2 in equal steps of
// about `pointDp`: the line is cut into swlSegments(length, pointDp) pieces (round(length /
// pointDp), a remainder under a tenth of pointDp dropped), whose ends are swlPoints().
int swlSegments(double length, double pointDp);
int swlPieces(const GaugePoint& p0, const GaugePoint& p2, double pointDp);  // of the line p0-p2
std::vector<GaugePoint> swlPoints(const GaugePoint& p0, const GaugePoint& p2, double pointDp);
// The point k pieces (possibly fractional) from p0 on a line cut into `pieces`.
GaugePoint swlPointAt(const GaugePoint& p0, const GaugePoint& p2, int pieces, double k);

// Where the kernel-summed mass along the line, massAt(k) at point k of pieces + 1, first drops
// below `massLimit` after having been above it, interpolated linearly between the two points
// around the crossing. When the mass never drops below the limit after fluid was seen it returns
// point2; when no point is above the limit, point0.
template <typename MassAt>
GaugePoint swlCrossing(const GaugePoint& p0, const GaugePoint& p2, int pieces, double massLimit, MassAt&& massAt) {
  double previous = 0;  // mass at the previous point, when that point was above the limit
  bool wet = false;
  for (int k = 0; k <= pieces; ++k) {
    const double m = massAt(k);
    if (m < massLimit && wet) return swlPointAt(p0, p2, pieces, k - 1 + (massLimit - previous) / (m - previous));
    wet = wet || m >= massLimit;
    previous = m;
  }
  return wet ? p2 : p0;
}

// swlCrossing with kernelMass evaluated along the line (only up to the crossing).
GaugePoint surfaceAlongLine(const FluidGrid& g, const GaugePoint& p0, const GaugePoint& p2, double pointDp,
                            double massLimit);

template <typename F>
void FluidGrid::forEachNeighbour(const GaugePoint& x, F&& f) const {
  forEachFluidWithin(x, [&](uint32_t j, double r2) {
    f(j, gaugeVolumeWeightValue(std::sqrt(r2), double(s_->rho[j]), sums_));
  });
}

template <typename F>
void FluidGrid::forEachFluidWithin(const GaugePoint& x, F&& f) const {
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
          const double r2 = gaugeDistance2(p, s_->pos[3 * j], s_->pos[3 * j + 1], s_->pos[3 * j + 2], k_.dim);
          if (r2 >= sums_.support2) continue;
          f(j, r2);
        }
      }
}

}  // namespace sph
