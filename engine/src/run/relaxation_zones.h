// The relaxation zones of a run (model/case_relaxation_zones.h): what each zone does during a step
// (physics/relaxation_zone_physics.h works it out per particle), and DualSPHysics' RelaxZone_idN.csv.
//
// External data (<rzwaves_external_1d>), as DualSPHysics 5.4 applies it (its host code is closed;
// the rules were found from its runs, its kernel is open):
//  * a grid of nodes: one per file in x from pxmin = the first file's px + movedata.x, dpx apart
//    (the files' spacing); in z from pzmin = the lowest level of the files' first rows kept +
//    movedata.z, dpz = valuedp dp apart, up to the highest top level of those rows;
//  * the rows kept: times T with 0 <= T <= the zone's end (start + duration, or the run's end:
//    DualSPHysics compares the data's time with that absolute time); at each row each node takes
//    the row's profile at its height (linear between levels, the end levels' beyond them);
//  * at the step's start t the data's time is td = t - start; the zone acts while the first row
//    kept <= td <= the last; within T_r < td <= T_r+1 the target is linear in time between rows
//    r and r+1, or with <smooth> n (nodes averaged over n each side in z) between the unaveraged
//    and the averaged row r+1 (DualSPHysics' rule, measured);
//  * the blending is the wave zones' (coefdir x, and z with <usevelz>).
#pragma once

#include <string>
#include <vector>

#include "model/case_relaxation_zones.h"
#include "physics/relaxation_zone_physics.h"

namespace sph {

class RelaxationZones {
 public:
  // timeMax: the run's end, which ends the zones whose duration is 0.
  RelaxationZones(const CaseRelaxationZones& c, double gravity, double timeMax, double dp);

  // The spectrum zones' waves, 4 doubles each (k, a w, w, phase), zone after zone, then the
  // external zones' grids row after row: the engine keeps a copy where the particles are.
  const std::vector<double>& waveData() const { return waveData_; }

  // The zones that act during the step that starts at t, in the case's order (wave zones, then
  // uniform ones); `waves` is where waveData() lives for the particles.
  void stepZones(double t, const double* waves, std::vector<RelaxZoneStep>& out) const;

  // RelaxZone_idN.csv of every wave zone with <savemotion> (N counts the wave zones from 0), into
  // dir: the zone's settings, then the target at (xpos, zpos) every dt.
  void writeSaveMotions(const std::string& dir, double timeOut) const;

  size_t count() const { return waves_.size() + uniform_.size() + external_.size(); }

 private:
  struct Wave {
    RelaxWaveZone zone;
    double k = 0, omega = 0, end = 0;
    size_t first = 0, count = 0;  // its components in waveData_ (spectrum)
  };
  RelaxZoneStep waveStep(const Wave& w, double t, const double* waves) const;

  struct External {
    RelaxExternalZone zone;
    double end = 0;
    double pxmin = 0, pzmin = 0, dpx = 1, dpz = 1;
    uint32_t npx1 = 0, npz1 = 0;
    std::vector<double> times;   // the rows kept
    size_t first = 0;            // its tables in waveData_: per row, x then z values; then the averaged ones
    size_t nodes = 0;            // (npx1 + 1) (npz1 + 1)
  };
  RelaxZoneStep externalStep(const External& x, double t, const double* waves) const;

  std::vector<Wave> waves_;
  std::vector<External> external_;
  std::vector<RelaxUniformZone> uniform_;
  std::vector<double> uniformEnd_;
  std::vector<double> waveData_;
  double gravity_;
};

}  // namespace sph
