#include "gauge_sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sph/sph_kernels.h"

namespace sph {

void FluidGrid::rebuild(const ParticleSnapshot& s, const GaugeKernel& k) {
  s_ = &s;
  k_ = k;
  order_.clear();
  sums_ = makeGaugeSumParams(k.kind, k.dim, k.h, k.massFluid);
  cell_ = 2 * k.h;
  const size_t n = s.count();
  double hi[3];
  for (int a = 0; a < 3; ++a) {
    lo_[a] = std::numeric_limits<double>::max();
    hi[a] = -lo_[a];
  }
  size_t fluid = 0;
  for (size_t i = 0; i < n; ++i) {
    if (s.type[i] != 1) continue;
    ++fluid;
    for (int a = 0; a < 3; ++a) {
      const double v = (k.dim == 2 && a == 1) ? 0.0 : s.pos[3 * i + a];
      lo_[a] = std::min(lo_[a], v);
      hi[a] = std::max(hi[a], v);
    }
  }
  if (fluid == 0) return;
  // Cells of 2h, made coarser when the fluid is so spread out (a few splashes far away) that the
  // grid would hold many more cells than particles; any cell of at least 2h keeps the search to
  // the neighbouring cells correct.
  const double maxCells = std::max(8.0 * double(fluid), 65536.0);
  for (;;) {
    double cells = 1;
    for (int a = 0; a < 3; ++a) cells *= std::floor((hi[a] - lo_[a]) / cell_) + 1;
    if (cells <= maxCells) break;
    cell_ *= 2;
  }
  for (int a = 0; a < 3; ++a) n_[a] = int64_t((hi[a] - lo_[a]) / cell_) + 1;
  auto cellOf = [&](size_t i) {
    int64_t c[3];
    for (int a = 0; a < 3; ++a) {
      const double v = (k.dim == 2 && a == 1) ? 0.0 : s.pos[3 * i + a];
      c[a] = std::min(int64_t((v - lo_[a]) / cell_), n_[a] - 1);
    }
    return size_t((c[2] * n_[1] + c[1]) * n_[0] + c[0]);
  };
  const size_t cells = size_t(n_[0] * n_[1] * n_[2]);
  cellStart_.assign(cells + 1, 0);
  for (size_t i = 0; i < n; ++i)
    if (s.type[i] == 1) ++cellStart_[cellOf(i) + 1];
  for (size_t c = 0; c < cells; ++c) cellStart_[c + 1] += cellStart_[c];
  order_.resize(fluid);
  fill_.assign(cellStart_.begin(), cellStart_.end() - 1);
  for (size_t i = 0; i < n; ++i)
    if (s.type[i] == 1) order_[fill_[cellOf(i)]++] = uint32_t(i);
}

PointSample pointSampleFromSums(double shepard, const double velSum[3], double pressSum) {
  PointSample out;
  out.shepard = shepard;
  if (shepard > 0) {
    for (int a = 0; a < 3; ++a) out.vel[a] = velSum[a] / shepard;
    out.press = pressSum / shepard;
  }
  return out;
}

PointSample samplePoint(const FluidGrid& g, const GaugePoint& x) {
  const ParticleSnapshot& s = g.snapshot();
  double shepard = 0, v[3] = {0, 0, 0}, p = 0;
  g.forEachNeighbour(x, [&](uint32_t j, double vw) {
    shepard += vw;
    for (int a = 0; a < 3; ++a) v[a] += vw * s.vel[3 * j + a];
    p += vw * s.press[j];
  });
  return pointSampleFromSums(shepard, v, p);
}

void SnapshotGaugeSource::samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) {
  out.resize(points.size());
  if (points.empty()) return;
  grid_.rebuild(take_(), k_);
  for (size_t k = 0; k < points.size(); ++k) out[k] = samplePoint(grid_, points[k]);
}

double kernelMass(const FluidGrid& g, const GaugePoint& x) {
  double sum = 0;
  g.forEachNeighbour(x, [&](uint32_t, double vw) { sum += vw; });
  return sum * g.kernel().massFluid;
}

int swlSegments(double length, double pointDp) {
  const double whole = std::floor(length / pointDp);
  int n = int(std::min(whole, 1e8));  // a line of 1e8 points is a typo, not a gauge
  if (length - whole * pointDp >= 0.1 * pointDp) ++n;
  return std::max(n, 1);
}

GaugePoint swlPointAt(const GaugePoint& p0, const GaugePoint& p2, int pieces, double k) {
  const double f = k / pieces;
  return {p0.x + f * (p2.x - p0.x), p0.y + f * (p2.y - p0.y), p0.z + f * (p2.z - p0.z)};
}

int swlPieces(const GaugePoint& p0, const GaugePoint& p2, double pointDp) {
  const double d[3] = {p2.x - p0.x, p2.y - p0.y, p2.z - p0.z};
  return swlSegments(std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), pointDp);
}

std::vector<GaugePoint> swlPoints(const GaugePoint& p0, const GaugePoint& p2, double pointDp) {
  const int pieces = swlPieces(p0, p2, pointDp);
  std::vector<GaugePoint> out(size_t(pieces) + 1);
  for (int k = 0; k <= pieces; ++k) out[size_t(k)] = swlPointAt(p0, p2, pieces, k);
  return out;
}

GaugePoint surfaceAlongLine(const FluidGrid& g, const GaugePoint& p0, const GaugePoint& p2, double pointDp,
                            double massLimit) {
  const int pieces = swlPieces(p0, p2, pointDp);
  return swlCrossing(p0, p2, pieces, massLimit,
                     [&](int k) { return kernelMass(g, swlPointAt(p0, p2, pieces, k)); });
}

}  // namespace sph
