#include "motion/ml_piston_law.h"

#include <algorithm>
#include <cmath>

namespace sph {
namespace {

// The row's velocity at height z from its levels (model/case_ml_pistons.h): linear between
// levels, the ends' beyond them; one level: its value at or below it, 0 above. Levels found in
// order from the first, as DualSPHysics does (descending levels give the first level's value at
// or below it and the last's above).
double profileAt(const double* z, const double* v, uint32_t n, double incz, double at) {
  if (n == 1) return at <= z[0] + incz ? v[0] : 0.0;
  if (at <= z[0] + incz) return v[0];
  for (uint32_t i = 0; i + 1 < n; ++i) {
    const double a = z[i] + incz, b = z[i + 1] + incz;
    if (a <= at && at < b) return v[i] + (v[i + 1] - v[i]) * ((at - a) / (b - a));
  }
  return v[n - 1];
}

// The mean of the values k - s..k + s of `x` that exist, for every k.
std::vector<double> smooth(const std::vector<double>& x, int s) {
  if (s <= 0) return x;
  const int n = int(x.size());
  std::vector<double> out(x.size());
  for (int k = 0; k < n; ++k) {
    const int a = std::max(0, k - s), b = std::min(n - 1, k + s);
    double sum = 0;
    for (int q = a; q <= b; ++q) sum += x[size_t(q)];
    out[size_t(k)] = sum / double(b - a + 1);
  }
  return out;
}

// Linear in y between the columns' posy, the first's or last's beyond them.
double acrossColumns(const std::vector<double>& posy, const std::vector<double>& v, double y) {
  const size_t n = posy.size();
  if (n == 1 || y <= posy[0]) return v[0];
  for (size_t i = 0; i + 1 < n; ++i)
    if (y < posy[i + 1]) return v[i] + (v[i + 1] - v[i]) * ((y - posy[i]) / (posy[i + 1] - posy[i]));
  return v[n - 1];
}

}  // namespace

MlPistonLaw::MlPistonLaw(const MlPiston& p, double dp, double zmin, double zmax, double ymin, double ymax,
                         double timeMax)
    : zmin_(zmin), ymin_(ymin), dp_(dp), smoothY_(p.smoothY) {
  nz_ = uint32_t(std::lround((zmax - zmin) / dp)) + 1;
  ny_ = p.twoD ? uint32_t(std::lround((ymax - ymin) / dp)) + 1 : 1;
  for (const MlPistonColumn& c : p.columns) {
    posy_.push_back(c.posy);
    Column col;
    const MlPistonData& d = c.data;
    const uint32_t n = d.levels;
    for (size_t r = 0; r < d.times.size(); ++r) {
      const double T = d.times[r];
      if (!(T >= c.timeDataIni && T <= timeMax + c.timeDataIni)) continue;
      std::vector<double> v(nz_);
      const double* z = d.z.data() + r * n;
      const double* vel = d.v.data() + r * n;
      for (uint32_t k = 0; k < nz_; ++k) v[k] = n == 3 ? vel[2] : profileAt(z, vel, n, p.incz, zmin + double(k) * dp);
      v = smooth(v, p.smoothZ);
      if (col.times.empty()) std::fill(v.begin(), v.end(), 0.0);  // the piston starts at rest
      col.times.push_back(T - c.timeDataIni);
      col.vel.insert(col.vel.end(), v.begin(), v.end());
    }
    // The displacement at each row: the trapezoids of the linear velocity.
    col.cumul.assign(col.vel.size(), 0.0);
    for (size_t r = 1; r < col.times.size(); ++r) {
      const double h = col.times[r] - col.times[r - 1];
      for (uint32_t k = 0; k < nz_; ++k)
        col.cumul[r * nz_ + k] =
            col.cumul[(r - 1) * nz_ + k] + 0.5 * h * (col.vel[(r - 1) * nz_ + k] + col.vel[r * nz_ + k]);
    }
    columns_.push_back(std::move(col));
  }
}

std::vector<double> MlPistonLaw::columnsToCells(const std::vector<std::vector<double>>& perColumn) const {
  if (ny_ == 1 && perColumn.size() == 1) return perColumn[0];
  std::vector<double> cells(size_t(ny_) * nz_);
  std::vector<double> at(perColumn.size()), line(ny_);
  for (uint32_t k = 0; k < nz_; ++k) {
    for (uint32_t j = 0; j < ny_; ++j) {
      for (size_t c = 0; c < perColumn.size(); ++c) at[c] = perColumn[c][k];
      line[j] = acrossColumns(posy_, at, ymin_ + double(j) * dp_);
    }
    line = smooth(line, smoothY_);
    for (uint32_t j = 0; j < ny_; ++j) cells[size_t(j) * nz_ + k] = line[j];
  }
  return cells;
}

std::vector<double> MlPistonLaw::velocity(double s) const {
  std::vector<std::vector<double>> perColumn;
  for (const Column& c : columns_) {
    std::vector<double> v(nz_, 0.0);
    const size_t rows = c.times.size();
    if (rows >= 2 && s <= c.times.back()) {
      size_t i = 0;  // the segment: the first extended before the first row
      while (i + 2 < rows && s > c.times[i + 1]) ++i;
      const double f = (s - c.times[i]) / (c.times[i + 1] - c.times[i]);
      for (uint32_t k = 0; k < nz_; ++k) {
        const double a = c.vel[i * nz_ + k], b = c.vel[(i + 1) * nz_ + k];
        v[k] = a + (b - a) * f;
      }
    }
    perColumn.push_back(std::move(v));
  }
  return columnsToCells(perColumn);
}

std::vector<double> MlPistonLaw::displacement(double s) const {
  std::vector<std::vector<double>> perColumn;
  for (const Column& c : columns_) {
    std::vector<double> x(nz_, 0.0);
    const size_t rows = c.times.size();
    if (rows >= 2) {
      if (s >= c.times.back()) {
        std::copy(c.cumul.end() - nz_, c.cumul.end(), x.begin());
      } else {
        size_t i = 0;
        while (i + 2 < rows && s > c.times[i + 1]) ++i;
        const double h = s - c.times[i], f = h / (c.times[i + 1] - c.times[i]);
        for (uint32_t k = 0; k < nz_; ++k) {
          const double a = c.vel[i * nz_ + k], b = c.vel[(i + 1) * nz_ + k];
          x[k] = c.cumul[i * nz_ + k] + 0.5 * h * (a + (a + (b - a) * f));
        }
      }
    }
    perColumn.push_back(std::move(x));
  }
  return columnsToCells(perColumn);
}

}  // namespace sph
