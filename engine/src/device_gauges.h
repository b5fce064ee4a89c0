// The gauges of a GPU run evaluated on the device, where the particles are: only the sums at the
// gauge points come back to the host, never the particles. (Sampling on the host means copying
// the particles back and re-binning them at every sample: a tenth of DamBreak2D's wall time with
// verlet, tools/bench/RESULTS.md.)
//
// The fluid particles of [nBound, n) are cut into chunks of kGaugeChunk consecutive ones, each
// with a bounding box; each point, one warp, visits only the chunks whose box comes within 2h
// of it. Both neighbour strategies keep the particles sorted by cell, so a chunk is compact and a
// point visits a handful of chunks; the sums do not depend on the order, only the cost does.
// The sums (sph/gauge_physics.h) are in double, in a fixed order: runs repeat exactly.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "device_array.h"
#include "gauge_sampler.h"
#include "sph/gauge_physics.h"
#include "sph/particle_view.h"

namespace sph {

inline constexpr uint32_t kGaugeChunk = 64;  // particles per bounding box: two per lane of a warp

struct GaugeChunkBox {
  double lo[3], hi[3];  // of the chunk's fluid particles; lo > hi when it has none
};

// The five sums per point: sum V W, sum V W v (3), sum V W p.
inline constexpr uint32_t kGaugeSumsPerPoint = 5;

// GPU kernels (gpu/device_gauges.cu): the boxes of the chunks of [p.nBound, p.n), then the sums
// at the nPoints points (x, y, z each) into sums (kGaugeSumsPerPoint per point). Device pointers.
template <typename T>
void gaugeSumsGpu(const ParticleView<T>& p, const GaugeSumParams& k, const double* points, uint32_t nPoints,
                  GaugeChunkBox* boxes, double* sums);

template <typename T>
class DeviceGaugeSource final : public GaugeSource {
 public:
  // `view` gives the particles as they are when a sample is taken (they move and are sorted).
  DeviceGaugeSource(std::function<ParticleView<T>()> view, const GaugeSumParams& k)
      : view_(std::move(view)), k_(k) {}
  void samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) override;
  size_t deviceBytes() const { return points_.bytes() + boxes_.bytes() + sums_.bytes(); }

 private:
  std::function<ParticleView<T>()> view_;
  GaugeSumParams k_;
  // Device buffers, grown when needed and kept between samples.
  DeviceArray<double> points_, sums_;
  DeviceArray<GaugeChunkBox> boxes_;
  std::vector<GaugePoint> uploaded_;  // what points_ holds: gauges due at different times differ
  std::vector<double> hostPoints_, hostSums_;
};

}  // namespace sph
