#include "gauges/device_gauges.h"

#include <algorithm>
#include <string>

#include "sph/plugin/errors.h"

namespace sph {

namespace {
// One warp per point or line: a launch covers 32 threads per item in 32 bits (GaugeRecorder
// keeps the points of a sample far below this).
constexpr size_t kMaxItems = size_t(1) << 26;
}  // namespace

template <typename T>
void DeviceGaugeSource<T>::bound(const ParticleView<T>& p) {
  const size_t chunks = gaugeChunkCount(p);
  if (boxes_.size() < chunks) boxes_.allocate(Device::Gpu, chunks + chunks / 8 + 16, "allocating the gauges' chunk boxes");
  gaugeBoxesGpu(p, k_.dim, boxes_.data());
}

template <typename T>
void DeviceGaugeSource<T>::samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) {
  out.resize(points.size());
  if (points.empty()) return;
  const ParticleView<T> p = view_();
  bound(p);
  sumsOn(p, points);
  pointSamplesFromSums(hostSums_, out);
}

template <typename T>
void DeviceGaugeSource<T>::pointSums(const std::vector<GaugePoint>& points, std::vector<double>& sums) {
  sums.clear();
  if (points.empty()) return;
  const ParticleView<T> p = view_();
  bound(p);
  sumsOn(p, points);
  sums = hostSums_;
}

template <typename T>
void DeviceGaugeSource<T>::sample(const GaugeRequest& req, GaugeResults& out) {
  out.points.resize(req.points.size());
  out.maxZ.resize(req.lines.size());
  out.ace.resize(req.targets.size());
  if (req.empty()) return;
  const ParticleView<T> p = view_();
  bound(p);
  if (!req.points.empty()) {
    sumsOn(p, req.points);
    pointSamplesFromSums(hostSums_, out.points);
  }
  if (!req.lines.empty()) {
    const size_t n = req.lines.size();
    if (n > kMaxItems) throw RunError("cannot evaluate " + std::to_string(n) + " maxz gauges in one sample on the GPU");
    if (lines_.size() < n) lines_.allocate(Device::Gpu, n, "allocating the maxz gauges' lines");
    if (maxZ_.size() < n) maxZ_.allocate(Device::Gpu, n, "allocating the maxz gauges' results");
    lines_.upload(req.lines, "uploading the maxz gauges' lines");
    gaugeMaxZGpu(p, k_.dim, boxes_.data(), lines_.data(), uint32_t(n), maxZ_.data());
    maxZ_.downloadTo(out.maxZ.data(), n, "downloading the maxz gauges' results");
  }
  if (!req.targets.empty()) {
    const size_t n = req.targets.size();
    const size_t partials = 3 * size_t(gaugeBoundChunkCount(p));
    if (partial_.size() < partials) partial_.allocate(Device::Gpu, partials + 48, "allocating the force gauges' partial sums");
    if (ace_.size() < 3 * n) ace_.allocate(Device::Gpu, 3 * n, "allocating the force gauges' results");
    for (size_t t = 0; t < n; ++t)
      gaugeWallAceGpu(p, k_, boxes_.data(), req.targets[t].mkIndex, partial_.data(), ace_.data() + 3 * t);
    hostAce_.resize(3 * n);
    ace_.downloadTo(hostAce_.data(), 3 * n, "downloading the force gauges' results");
    for (size_t t = 0; t < n; ++t) out.ace[t] = {hostAce_[3 * t], hostAce_[3 * t + 1], hostAce_[3 * t + 2]};
  }
}

template <typename T>
void DeviceGaugeSource<T>::sumsOn(const ParticleView<T>& p, const std::vector<GaugePoint>& points) {
  if (points.size() > kMaxItems)
    throw RunError("cannot evaluate " + std::to_string(points.size()) + " gauge points in one sample on the GPU");
  const uint32_t nPoints = uint32_t(points.size());
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
  gaugeSumsGpu(p, k_, boxes_.data(), points_.data(), nPoints, sums_.data());
  hostSums_.resize(size_t(nPoints) * kGaugeSumsPerPoint);
  sums_.downloadTo(hostSums_.data(), hostSums_.size(), "downloading the gauge sums");
}

template class DeviceGaugeSource<float>;
template class DeviceGaugeSource<double>;

}  // namespace sph
