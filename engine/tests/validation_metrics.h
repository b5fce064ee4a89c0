// The metrics of tools/validation/waves.py for the coarse validation tests against experiments:
// two time series resampled every 5 ms over a window, the amplitude ratio (standard deviations),
// the lag of the best correlation and the NRMSE (RMS difference over the reference's range).
#pragma once

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "case/loader.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph::test {

inline std::string validationData(const std::string& file) {
  return std::string(SPH_SOURCE_DIR) + "/engine/tests/data/validation/" + file;
}

// Runs data/validation/CASE on `device` (the CPU unless told) with `neighbours` into
// tempDir(folder)/neighbours, with its output files (gauges, floating.csv) but no VTK parts;
// returns that folder.
inline std::filesystem::path runValidationCase(const std::string& file, const std::string& neighbours,
                                               const std::string& folder, Device device = Device::Cpu) {
  RunOptions o;
  o.device = device;
  o.neighbours = neighbours;
  o.progress = false;
  o.writeVtk = false;
  o.outDir = (tempDir(folder) / neighbours).string();
  Simulation sim(loadCase(validationData(file)), o);
  sim.run();
  return o.outDir;
}

// Linear interpolation of (ts, vs) at t, the end values outside.
inline double interpolate(const std::vector<double>& ts, const std::vector<double>& vs, double t) {
  const auto it = std::lower_bound(ts.begin(), ts.end(), t);
  if (it == ts.begin()) return vs.front();
  if (it == ts.end()) return vs.back();
  const size_t k = size_t(it - ts.begin());
  const double span = ts[k] - ts[k - 1];
  return span > 0 ? vs[k - 1] + (vs[k] - vs[k - 1]) * (t - ts[k - 1]) / span : vs[k - 1];
}

inline double meanOf(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s / double(v.size());
}

inline double deviationOf(const std::vector<double>& v) {
  const double m = meanOf(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / double(v.size()));
}

struct Agreement {
  double amplitude = NAN;  // std(ours) / std(reference)
  double lag = 0;          // s, positive when ours is late
  double nrmse = NAN;      // RMS(ours - reference) / (max - min of the reference), ours unshifted
};

// Ours (ot, ov) against the reference (rt, rv) over [lo, hi]; the lag searched within +-maxLag.
inline Agreement compareSeries(const std::vector<double>& ot, const std::vector<double>& ov,
                               const std::vector<double>& rt, const std::vector<double>& rv, double lo, double hi,
                               double maxLag) {
  constexpr double dt = 0.005;
  const int n = int((hi - lo) / dt);
  std::vector<double> ref, ours;
  for (int k = 0; k <= n; ++k) {
    ref.push_back(interpolate(rt, rv, lo + k * dt));
    ours.push_back(interpolate(ot, ov, lo + k * dt));
  }
  Agreement a;
  const auto [refMin, refMax] = std::minmax_element(ref.begin(), ref.end());
  double sq = 0;
  for (int k = 0; k <= n; ++k) sq += (ours[k] - ref[k]) * (ours[k] - ref[k]);
  a.nrmse = std::sqrt(sq / double(n + 1)) / (*refMax - *refMin);
  a.amplitude = deviationOf(ours) / deviationOf(ref);
  const double refMean = meanOf(ref);
  double best = -1e300;
  for (int s = -int(maxLag / dt); s <= int(maxLag / dt); ++s) {
    std::vector<double> shifted;
    for (int k = 0; k <= n; ++k) shifted.push_back(interpolate(ot, ov, lo + k * dt + s * dt));
    const double m = meanOf(shifted);
    double c = 0;
    for (int k = 0; k <= n; ++k) c += (shifted[k] - m) * (ref[k] - refMean);
    if (c > best) best = c, a.lag = s * dt;
  }
  return a;
}

}  // namespace sph::test
