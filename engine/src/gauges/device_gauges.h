// The gauges of a GPU run evaluated on the device, where the particles are: only the sums at the
// gauge points come back to the host, never the particles. (Sampling on the host means copying
// the particles back and re-binning them at every sample: a tenth of DamBreak2D's wall time with
// verlet, tools/bench/RESULTS.md.)
//
// The fluid particles of [nBound, n) are cut into chunks of kGaugeChunk consecutive ones, each
// with a bounding box; each point, one warp, visits only the chunks whose box comes within 2h
// of it. Both neighbour strategies keep the particles sorted by cell, so a chunk is compact and a
// point visits a handful of chunks; the sums do not depend on the order, only the cost does.
// The sums (physics/gauge_physics.h) are in double, in a fixed order: runs repeat exactly.
//
// The same boxes serve the other gauges: a maxz line, one warp, visits the chunks whose box
// meets the cylinder's bounding box; a force gauge cuts the boundary particles [0, nBound) into
// chunks too, and each chunk holding particles of the target mk, one warp, visits the fluid
// chunks within 2h of the box of those particles. The chunks' partial forces are summed by one
// warp in a fixed order, so these repeat exactly as well.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "gauges/gauge_sampler.h"
#include "physics/gauge_physics.h"
#include "platform/device_array.h"
#include "sph/plugin/particle_view.h"

namespace sph {

inline constexpr uint32_t kGaugeChunk = 64;  // particles per bounding box: two per lane of a warp

struct GaugeChunkBox {
  double lo[3], hi[3];  // of the chunk's fluid particles; lo > hi when it has none
};

// GPU kernels (gpu/device_gauges.cu), all pointers on the device:
// the boxes of the chunks of [p.nBound, p.n) (gaugeChunkCount(p) of them);
template <typename T>
void gaugeBoxesGpu(const ParticleView<T>& p, int dim, GaugeChunkBox* boxes);
// the sums at the nPoints points (x, y, z each) into sums (kGaugeSumsPerPoint per point);
template <typename T>
void gaugeSumsGpu(const ParticleView<T>& p, const GaugeSumParams& k, const GaugeChunkBox* boxes, const double* points,
                  uint32_t nPoints, double* sums);
// the highest fluid particle near each of the nLines maxz lines into out (kNoMaxZ when none);
template <typename T>
void gaugeMaxZGpu(const ParticleView<T>& p, int dim, const GaugeChunkBox* boxes, const MaxZLine* lines,
                  uint32_t nLines, double* out);
// the force gauge's summed acceleration of the boundary particles of mk index `mkIndex` into
// out[0..2], with partial (3 per chunk of [0, p.nBound)) as scratch.
template <typename T>
void gaugeWallAceGpu(const ParticleView<T>& p, const GaugeSumParams& k, const GaugeChunkBox* boxes, uint32_t mkIndex,
                     double* partial, double* out);

template <typename T>
uint32_t gaugeChunkCount(const ParticleView<T>& p) {
  return (p.n - p.nBound + kGaugeChunk - 1) / kGaugeChunk;
}
template <typename T>
uint32_t gaugeBoundChunkCount(const ParticleView<T>& p) {
  return (p.nBound + kGaugeChunk - 1) / kGaugeChunk;
}

template <typename T>
class DeviceGaugeSource final : public GaugeSource {
 public:
  // `view` gives the particles as they are when a sample is taken (they move and are sorted).
  DeviceGaugeSource(std::function<ParticleView<T>()> view, const GaugeSumParams& k)
      : view_(std::move(view)), k_(k) {}
  void samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) override;
  void sample(const GaugeRequest& req, GaugeResults& out) override;
  void pointSums(const std::vector<GaugePoint>& points, std::vector<double>& sums) override;
  size_t deviceBytes() const {
    return points_.bytes() + boxes_.bytes() + sums_.bytes() + lines_.bytes() + maxZ_.bytes() + partial_.bytes() +
           ace_.bytes();
  }

 private:
  // The boxes of the particles as they are now.
  void bound(const ParticleView<T>& p);
  // The raw sums at the points (hostSums_) on p, whose boxes are made.
  void sumsOn(const ParticleView<T>& p, const std::vector<GaugePoint>& points);

  std::function<ParticleView<T>()> view_;
  GaugeSumParams k_;
  // Device buffers, grown when needed and kept between samples.
  DeviceArray<double> points_, sums_, maxZ_, partial_, ace_;
  DeviceArray<GaugeChunkBox> boxes_;
  DeviceArray<MaxZLine> lines_;
  std::vector<GaugePoint> uploaded_;  // what points_ holds: gauges due at different times differ
  std::vector<double> hostPoints_, hostSums_, hostAce_;
};

}  // namespace sph
