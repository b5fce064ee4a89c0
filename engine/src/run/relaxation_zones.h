// The relaxation zones of a run (model/case_relaxation_zones.h): what each zone does during a step
// (physics/relaxation_zone_physics.h works it out per particle), and DualSPHysics' RelaxZone_idN.csv.
#pragma once

#include <string>
#include <vector>

#include "model/case_relaxation_zones.h"
#include "physics/relaxation_zone_physics.h"

namespace sph {

class RelaxationZones {
 public:
  // timeMax: the run's end, which ends the zones whose duration is 0.
  RelaxationZones(const CaseRelaxationZones& c, double gravity, double timeMax);

  // The spectrum zones' waves, 4 doubles each (k, a w, w, phase), zone after zone: the engine
  // keeps a copy where the particles are.
  const std::vector<double>& waveData() const { return waveData_; }

  // The zones that act during the step that starts at t, in the case's order (wave zones, then
  // uniform ones); `waves` is where waveData() lives for the particles.
  void stepZones(double t, const double* waves, std::vector<RelaxZoneStep>& out) const;

  // RelaxZone_idN.csv of every wave zone with <savemotion> (N counts the wave zones from 0), into
  // dir: the zone's settings, then the target at (xpos, zpos) every dt.
  void writeSaveMotions(const std::string& dir, double timeOut) const;

  size_t count() const { return waves_.size() + uniform_.size(); }

 private:
  struct Wave {
    RelaxWaveZone zone;
    double k = 0, omega = 0, end = 0;
    size_t first = 0, count = 0;  // its components in waveData_ (spectrum)
  };
  RelaxZoneStep waveStep(const Wave& w, double t, const double* waves) const;

  std::vector<Wave> waves_;
  std::vector<RelaxUniformZone> uniform_;
  std::vector<double> uniformEnd_;
  std::vector<double> waveData_;
  double gravity_;
};

}  // namespace sph
