// When a run writes its output (VTK parts, floating.csv, the gauges' files): every TimeOut, or, with
// DualSPHysics' <special><timeout>, an interval that changes at given times (its
// JDsOutputTime::GetNextTime): from each row's time on, multiples of that row's interval counted
// from it, the next row's time always an output time.
#pragma once

#include <cfloat>
#include <cmath>
#include <vector>

namespace sph {

struct OutputInterval {
  double time = 0;      // from this time on (s; >= 0, increasing row to row)
  double interval = 0;  // seconds between outputs (> 0)
};

// Whether t, a sum of time steps, has reached `target`, an output time of a run whose TimeOut is
// timeOut: within 1e-12 TimeOut before it counts (RunOutput writes its parts by this).
inline bool reachedOutputTime(double t, double target, double timeOut) { return t >= target - 1e-12 * timeOut; }

// Whether t has reached the end of the run, TimeMax: with the same tolerance as an output time,
// so that a run whose steps land on TimeMax only to round-off (DtFixed 1e-4 ten thousand times
// with TimeOut 0.1) ends there with that part written, not a step later with its last state
// unwritten. A TimeOut beyond TimeMax (only the first part written) makes TimeMax no output
// time; the tolerance then scales with TimeMax, never ending a run early by more than round-off.
inline bool reachedEndTime(double t, double timeMax, double timeOut) {
  return reachedOutputTime(t, timeMax, timeOut < timeMax ? timeOut : timeMax);
}

// The first output time after t. `rows` empty: the next multiple of timeOut. A time within a
// millionth of a millionth of an interval before a multiple counts as that multiple (steps land
// on output times only to round-off).
inline double nextOutputTime(const std::vector<OutputInterval>& rows, double timeOut, double t) {
  auto nextMultiple = [&](double base, double step) {
    const double k = std::floor((t - base) / step + 1e-12) + 1;
    return std::max(base + k * step, std::nextafter(t, HUGE_VAL));
  };
  if (rows.empty()) return nextMultiple(0, timeOut);
  if (t < rows.front().time) return rows.front().time;
  size_t k = 0;
  while (k + 1 < rows.size() && t >= rows[k + 1].time) ++k;
  const double next = nextMultiple(rows[k].time, rows[k].interval);
  return k + 1 < rows.size() && next > rows[k + 1].time ? rows[k + 1].time : next;
}

// <special><savedt> (DualSPHysics' JDsSaveDt): the time steps of [start, finish] summarised per
// interval in OUT/DtInfo.csv, and with allDt every step's in OUT/DtAllInfo.csv.
struct DtLogSettings {
  bool active = false;
  int line = 0;
  double start = 0;
  double finish = 0;     // <= 0: to the end
  double interval = -1;  // < 0: TimeOut
  bool fullInfo = false; // also the maxima the time step came from
  bool allDt = false;
};

}  // namespace sph
