#include "output/dt_log.h"

#include <cfloat>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "output/output.h"

namespace sph {

DtLog::DtLog(const DtLogSettings& s, double timeOut) : s_(s) {
  if (s_.interval < 0) s_.interval = timeOut;
  if (s_.finish <= 0) s_.finish = DBL_MAX;
}

void DtLog::Stat::add(double t, double v) {
  if (num == 0) {
    tini = t;
    mean = min = max = v;
    num = 1;
    return;
  }
  min = v < min ? v : min;
  max = v > max ? v : max;
  mean = (mean * double(num) + v) / double(num + 1);  // DualSPHysics' running mean
  ++num;
}

void DtLog::add(double t, double dt, double dt1, double dt2, double dt3, double aceMax, double viscDtMax,
                double velMax) {
  if (t < s_.start || t > s_.finish) return;
  const int64_t interval = int64_t((t - s_.start) / s_.interval);
  if (interval != lastInterval_ || groups_.empty()) groups_.emplace_back();
  lastInterval_ = interval;
  Group& g = groups_.back();
  g.dtf.add(t, dt);
  g.dt1.add(t, dt1);
  g.dt2.add(t, dt2);
  g.dt3.add(t, dt3);
  g.ace.add(t, aceMax);
  g.visc.add(t, viscDtMax);
  g.flex.add(t, 0);
  g.vel.add(t, velMax);
  if (s_.allDt) all_.emplace_back(t, dt);
}

std::string DtLog::infoRows() const {
  // DualSPHysics' number format (%20.12E), ';' between values.
  std::string out;
  auto put = [&](const Stat& v) { fmt::format_to(std::back_inserter(out), ";{:20.12E};{:20.12E};{:20.12E}", v.mean, v.min, v.max); };
  for (const Group& g : groups_) {
    fmt::format_to(std::back_inserter(out), "{:20.12E};{}", g.dtf.tini, g.dtf.num);
    for (const Stat* v : {&g.dtf, &g.dt1, &g.dt2, &g.dt3}) put(*v);
    if (s_.fullInfo)
      for (const Stat* v : {&g.ace, &g.visc, &g.flex, &g.vel}) put(*v);
    out += '\n';
  }
  return out;
}

void DtLog::write(const std::filesystem::path& dir, bool all) const {
  std::string head =
      "Time [s];Values;Dtf_mean [s];Dtf_min [s];Dtf_max [s];Dt1_mean [s];Dt1_min [s];Dt1_max [s];Dt2_mean [s];"
      "Dt2_min [s];Dt2_max [s];Dt3_mean [s];Dt3_min [s];Dt3_max [s]";
  if (s_.fullInfo)
    head += ";AceMax_mean [m/s^2];AceMax_min [m/s^2];AceMax_max [m/s^2];ViscDtMax_mean;ViscDtMax_min;ViscDtMax_max;"
            "FlexStrucDtMax_mean;FlexStrucDtMax_min;FlexStrucDtMax_max;VelMax_mean [m/s];VelMax_min [m/s];VelMax_max [m/s]";
  writeTextFileAtomic((dir / "DtInfo.csv").string(), head + "\n" + infoRows());
  if (!s_.allDt || !all) return;
  std::string text = "Time [s];Dtf [s]\n";
  for (const auto& [t, dt] : all_) fmt::format_to(std::back_inserter(text), "{:20.12E};{:20.12E}\n", t, dt);
  writeTextFileAtomic((dir / "DtAllInfo.csv").string(), text);
}

}  // namespace sph
