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
  aD_ = kernelNormalisation(k.kind, k.dim, k.h);
  cell_ = 2 * k.h;
  support2_ = cell_ * cell_;
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

double FluidGrid::weight(double r) const { return kernelWValue(k_.kind, r, k_.h, aD_); }

PointSample samplePoint(const FluidGrid& g, const GaugePoint& x) {
  const ParticleSnapshot& s = g.snapshot();
  PointSample out;
  double v[3] = {0, 0, 0}, p = 0;
  g.forEachNeighbour(x, [&](uint32_t j, double vw) {
    out.shepard += vw;
    for (int a = 0; a < 3; ++a) v[a] += vw * s.vel[3 * j + a];
    p += vw * s.press[j];
  });
  if (out.shepard > 0) {
    for (int a = 0; a < 3; ++a) out.vel[a] = v[a] / out.shepard;
    out.press = p / out.shepard;
  }
  return out;
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

GaugePoint surfaceAlongLine(const FluidGrid& g, const GaugePoint& p0, const GaugePoint& p2, double pointDp,
                            double massLimit) {
  const double d[3] = {p2.x - p0.x, p2.y - p0.y, p2.z - p0.z};
  const double length = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  const int pieces = swlSegments(length, pointDp);
  auto at = [&](double k) {  // the point k pieces (possibly fractional) from p0
    const double f = k / pieces;
    return GaugePoint{p0.x + f * d[0], p0.y + f * d[1], p0.z + f * d[2]};
  };
  double previous = 0;  // mass at the previous point, when that point was above the limit
  bool wet = false;
  for (int k = 0; k <= pieces; ++k) {
    const double m = kernelMass(g, at(k));
    if (m < massLimit && wet) return at(k - 1 + (massLimit - previous) / (m - previous));
    wet = wet || m >= massLimit;
    previous = m;
  }
  return wet ? p2 : p0;
}

}  // namespace sph
