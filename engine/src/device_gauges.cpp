#include "device_gauges.h"

#include <algorithm>
#include <string>

#include "sph/errors.h"

namespace sph {

template <typename T>
void DeviceGaugeSource<T>::samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) {
  out.resize(points.size());
  if (points.empty()) return;
  // One warp per point: the launch covers 32 threads per point in 32 bits (GaugeRecorder keeps
  // the points of a sample far below this).
  if (points.size() > (size_t(1) << 26))
    throw RunError("cannot evaluate " + std::to_string(points.size()) + " gauge points in one sample on the GPU");
  const ParticleView<T> p = view_();
  const uint32_t nPoints = uint32_t(points.size());
  const size_t chunks = (size_t(p.n - p.nBound) + kGaugeChunk - 1) / kGaugeChunk;
  if (boxes_.size() < chunks) boxes_.allocate(Device::Gpu, chunks + chunks / 8 + 16, "allocating the gauges' chunk boxes");
  if (sums_.size() < size_t(nPoints) * kGaugeSumsPerPoint)
    sums_.allocate(Device::Gpu, size_t(nPoints) * kGaugeSumsPerPoint, "allocating the gauges' sums");
  // The points change only when a different set of gauges is due: upload them then.
  const bool same = uploaded_.size() == points.size() &&
                    std::equal(points.begin(), points.end(), uploaded_.begin(), [](const GaugePoint& a, const GaugePoint& b) {
                      return a.x == b.x && a.y == b.y && a.z == b.z;
                    });
  if (!same) {
    if (points_.size() < 3 * size_t(nPoints)) points_.allocate(Device::Gpu, 3 * size_t(nPoints), "allocating the gauge points");
    hostPoints_.resize(3 * size_t(nPoints));
    for (uint32_t k = 0; k < nPoints; ++k) {
      hostPoints_[3 * k] = points[k].x;
      hostPoints_[3 * k + 1] = points[k].y;
      hostPoints_[3 * k + 2] = points[k].z;
    }
    gpu::copyToDevice(points_.data(), hostPoints_.data(), hostPoints_.size() * sizeof(double), "uploading the gauge points");
    uploaded_ = points;
  }
  gaugeSumsGpu(p, k_, points_.data(), nPoints, boxes_.data(), sums_.data());
  hostSums_.resize(size_t(nPoints) * kGaugeSumsPerPoint);
  sums_.downloadTo(hostSums_.data(), hostSums_.size(), "downloading the gauge sums");
  for (uint32_t k = 0; k < nPoints; ++k) {
    const double* s = &hostSums_[size_t(k) * kGaugeSumsPerPoint];
    out[k] = pointSampleFromSums(s[0], s + 1, s[4]);
  }
}

template class DeviceGaugeSource<float>;
template class DeviceGaugeSource<double>;

}  // namespace sph
