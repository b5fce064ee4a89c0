#include "gauges/gauge_sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sph/plugin/errors.h"
#include "sph/plugin/sph_kernels.h"

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

PointSample pointSampleFromSums(double shepard, const double velSum[3], double pressSum, double rhoSum) {
  PointSample out;
  out.shepard = shepard;
  if (shepard > 0) {
    for (int a = 0; a < 3; ++a) out.vel[a] = velSum[a] / shepard;
    out.press = pressSum / shepard;
    out.rho = rhoSum / shepard;
  }
  return out;
}

void pointSamplesFromSums(const std::vector<double>& sums, std::vector<PointSample>& out) {
  out.resize(sums.size() / kGaugeSumsPerPoint);
  for (size_t k = 0; k < out.size(); ++k) {
    const double* s = &sums[k * kGaugeSumsPerPoint];
    out[k] = pointSampleFromSums(s[0], s + 1, s[4], s[5]);
  }
}

void pointSums(const FluidGrid& g, const GaugePoint& x, double sums[kGaugeSumsPerPoint]) {
  const ParticleSnapshot& s = g.snapshot();
  std::fill(sums, sums + kGaugeSumsPerPoint, 0.0);
  g.forEachNeighbour(x, [&](uint32_t j, double vw) {
    sums[0] += vw;
    for (int a = 0; a < 3; ++a) sums[1 + a] += vw * s.vel[3 * j + a];
    sums[4] += vw * s.press[j];
    sums[5] += vw * s.rho[j];
  });
}

PointSample samplePoint(const FluidGrid& g, const GaugePoint& x) {
  double s[kGaugeSumsPerPoint];
  pointSums(g, x, s);
  return pointSampleFromSums(s[0], s + 1, s[4], s[5]);
}

void SnapshotGaugeSource::pointSums(const std::vector<GaugePoint>& points, std::vector<double>& sums) {
  sums.assign(points.size() * kGaugeSumsPerPoint, 0.0);
  if (points.empty()) return;
  grid_.rebuild(take_(), k_);
  for (size_t k = 0; k < points.size(); ++k) sph::pointSums(grid_, points[k], &sums[k * kGaugeSumsPerPoint]);
}

void SnapshotGaugeSource::samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) {
  pointSums(points, sums_);
  pointSamplesFromSums(sums_, out);
}

void GaugeSource::pointSums(const std::vector<GaugePoint>&, std::vector<double>&) {
  throw RunError("this gauge source gives samples only, not the sums they come from");
}

void GaugeSource::sample(const GaugeRequest& req, GaugeResults& out) {
  if (!req.lines.empty() || !req.targets.empty())
    throw RunError("this gauge source interpolates at points only: it cannot run maxz or force gauges");
  samplePoints(req.points, out.points);
  out.maxZ.clear();
  out.ace.clear();
}

void SnapshotGaugeSource::sample(const GaugeRequest& req, GaugeResults& out) {
  out.points.resize(req.points.size());
  out.maxZ.resize(req.lines.size());
  out.ace.resize(req.targets.size());
  if (req.empty()) return;
  const ParticleSnapshot& s = take_();
  if (!req.points.empty() || !req.targets.empty()) grid_.rebuild(s, k_);
  for (size_t k = 0; k < req.points.size(); ++k) out.points[k] = samplePoint(grid_, req.points[k]);
  maxZOverFluid(s, k_.dim, req.lines, out.maxZ.data());
  for (size_t k = 0; k < req.targets.size(); ++k) out.ace[k] = wallPressureAce(grid_, req.targets[k].mk);
}

void maxZOverFluid(const ParticleSnapshot& s, int dim, const std::vector<MaxZLine>& lines, double* out) {
  std::fill(out, out + lines.size(), kNoMaxZ);
  if (lines.empty()) return;
  for (size_t i = 0; i < s.count(); ++i) {
    if (s.type[i] != 1) continue;
    const double* x = &s.pos[3 * i];
    for (size_t k = 0; k < lines.size(); ++k) {
      const MaxZLine& l = lines[k];
      const double x0[3] = {l.point0.x, l.point0.y, l.point0.z};
      if (x[2] > out[k] && nearMaxZLine(x0, l.height, l.distLimit * l.distLimit, x[0], x[1], x[2], dim)) out[k] = x[2];
    }
  }
}

std::array<double, 3> wallPressureAce(const FluidGrid& g, int mk) {
  const ParticleSnapshot& s = g.snapshot();
  const int dim = g.kernel().dim;
  std::array<double, 3> sum = {0, 0, 0};
  for (size_t a = 0; a < s.count(); ++a) {
    if (s.type[a] != 0 || s.mk[a] != mk) continue;
    const double* xa = &s.pos[3 * a];
    const double pa = s.press[a], rhoa = s.rho[a];
    double ace[3] = {0, 0, 0};
    g.forEachFluidWithin({xa[0], xa[1], xa[2]}, [&](uint32_t b, double r2) {
      const double* xb = &s.pos[3 * size_t(b)];
      const double dr[3] = {xa[0] - xb[0], dim == 2 ? 0.0 : xa[1] - xb[1], xa[2] - xb[2]};
      addWallPressureAce(dr, r2, pa, rhoa, double(s.press[b]), double(s.rho[b]), g.sums(), ace);
    });
    for (int c = 0; c < 3; ++c) sum[size_t(c)] += ace[c];
  }
  return sum;
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
