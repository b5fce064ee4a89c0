// OUT/DtInfo.csv and OUT/DtAllInfo.csv of <special><savedt> (model/output_times.h,
// DtLogSettings), in DualSPHysics 5.4's columns (its JDsSaveDt): per interval of the run's time
// from `start`, the count of steps and the mean, least and greatest of the time step (Dtf), of
// its force term (Dt1 = CFL sqrt(h / max|f|)), of its Courant-viscous term (Dt2 = CFL h / (max(c0,
// 10 max|v|) + h max viscdt)) and of DualSPHysics' flexible-structure term (Dt3, none here:
// DBL_MAX times CFL, as DualSPHysics writes it without flexible structures); with fullInfo also
// of max|f|, max viscdt, the flexible structures' (0) and max|v|. The symplectic integrator logs
// its corrector's force pass, as DualSPHysics does.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "model/output_times.h"

namespace sph {

class DtLog {
 public:
  // timeOut: the interval when the settings give none.
  DtLog(const DtLogSettings& s, double timeOut);

  // One step: t the time it started at, the time step its force pass gave and the terms and
  // maxima that made it.
  void add(double t, double dt, double dt1, double dt2, double dt3, double aceMax, double viscDtMax, double velMax);
  // Rewrites DtInfo.csv (atomically) with every group so far, the open one included, and with
  // `all` DtAllInfo.csv (allDt only).
  void write(const std::filesystem::path& dir, bool all) const;

  // For tests: the groups' rows as written (without the header).
  std::string infoRows() const;

 private:
  struct Stat {
    double tini = 0, mean = 0, min = 0, max = 0;
    uint64_t num = 0;
    void add(double t, double v);
  };
  struct Group {
    Stat dtf, dt1, dt2, dt3, ace, visc, flex, vel;
  };

  DtLogSettings s_;
  std::vector<Group> groups_;
  int64_t lastInterval_ = -1;
  std::vector<std::pair<double, double>> all_;  // (t, dt), with allDt
};

}  // namespace sph
