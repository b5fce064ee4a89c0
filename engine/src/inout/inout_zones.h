// The inlet/outlet zones of a run (model/case_inout.h): the zones' data at each time, where the
// particles live, for the passes of inout/inout_ops.h, and the run's counts of particles created,
// removed and converted.
#pragma once

#include <cstdint>
#include <vector>

#include "model/case_gauges.h"
#include "inout/inout_ops.h"
#include "model/case_inout.h"
#include "physics/inout_physics.h"
#include "platform/device_array.h"
#include "sph/plugin/inout_extrapolation.h"

namespace sph {

// The totals of a run, for run.json and the summary.
struct InOutTotals {
  uint64_t initial = 0;   // buffer particles at the start
  uint64_t created = 0;   // buffer particles created during the run (refilling)
  uint64_t inflow = 0;    // buffer particles that became fluid (crossed into the domain)
  uint64_t outflow = 0;   // fluid converted into buffer (entered an outlet)
  uint64_t removed = 0;   // particles removed (out through a zone's back, above zsurf, input 2)
  uint64_t growths = 0;   // reallocations of the particle arrays to make room
};

class InOutZones {
 public:
  // dp: the case's; rho0, Tait's B and gamma: the equation of state's; gz: gravity's z (the
  // hydrostatic density uses it alone, as DualSPHysics does).
  // massFluid, twoD: the fluid particles' mass and the case's dimension (calculated zsurfs).
  InOutZones(const CaseInOut& io, double dp, double rho0, double cteB, double gamma, double gz, double massFluid,
             bool twoD, Device d);

  // The zones as they are at time t (velocity tables and zsurf interpolated), uploaded where the
  // particles live when they changed since the last call.
  InOutParams at(double t);

  uint32_t count() const { return uint32_t(defs_.size()); }
  // Room to add when the arrays must grow: memoryresize's factors times the zones' full buffers
  // (at least one particle; 0 for `later` when <memoryresize size="0"> forbids growing).
  uint32_t initialRoom() const { return initialRoom_; }
  uint32_t laterRoom() const { return laterRoom_; }
  const std::vector<InOutZoneDef>& zones() const { return defs_; }
  // Zones with an extrapolated velocity or density: their mirror planes, where the particles live.
  bool extrapolates() const { return extrapolates_; }
  InOutExtrapolation extrapolation(const uint32_t* which, uint32_t count) const {
    return {mirrors_.data(), which, count, determLimit_};
  }

  // Calculated zsurfs (model/case_inout.h): the gauge points of every such zone, one zone after
  // the other (empty: none); after a step the kernel sums sum_j V_j W at them set those zones'
  // zsurfs, which at() then gives.
  const std::vector<GaugePoint>& zsurfGaugePoints() const { return zsurfPoints_; }

  // Advanced refilling (refilling 2; physics/inout_physics.h, inOutRefillReach): the zones'
  // points on their planes, where the particles live (x, y, z each), and room for their reaches.
  uint32_t refillPointCount() const { return uint32_t(refillZone_.size()); }
  const double* refillPoints() const { return refillPointsDev_.data(); }
  double* refillReach() { return refillReachDev_.data(); }
  std::vector<double> refillReachNow() const {
    return refillReachDev_.download(refillZone_.size(), "reading the inlet/outlet refilling reaches");
  }
  // Every `refillingrate` steps (0: every step) from the first one on, as DualSPHysics.
  bool refillDue(uint64_t step) const { return refillRate_ == 0 || step % uint64_t(refillRate_) == 0; }
  // From the reaches (downloaded): the new buffer particles (ids not set) of the points at or
  // below their zone's zsurf whose column has room, in the points' order.
  void refillPlan(const std::vector<double>& reach, std::vector<InOutNewParticle>& out) const;
  // The code (before code::toInOut) of the particles refilling creates: the zones' buffer mk.
  void setNewParticleCode(uint32_t code);
  void setZsurfFromGauge(const std::vector<double>& shepard);
  // A calculated zsurf now: its first column's when the zone has several (zsurfColumnsNow).
  double zsurfNow(uint32_t zone) const { return calculated_[zone]; }
  std::vector<double> zsurfColumnsNow(uint32_t zone) const;

  InOutTotals totals;

 private:
  std::vector<InOutZoneDef> defs_;
  std::vector<InOutZoneData> host_;
  DeviceArray<InOutZoneData> dev_;
  DeviceArray<InOutMirror> mirrors_;
  std::vector<GaugePoint> zsurfPoints_;
  std::vector<double> refillPointsHost_;
  std::vector<uint32_t> refillZone_;
  DeviceArray<double> refillPointsDev_, refillReachDev_;
  int refillRate_ = 10;
  double dp_ = 0;
  std::vector<double> calculated_;  // per zone: its calculated zsurf now (others: unused)
  std::vector<double> columnsHost_;  // the zones with several columns (model/case_inout.h): theirs
  std::vector<size_t> columnBase_;   // per zone: where its columns start in columnsHost_
  DeviceArray<double> columnsDev_;
  bool columnsChanged_ = false;
  double massFluid_ = 0, massLimit_ = 0;
  std::vector<float> gridHost_;     // the zones' velocity grids, one after the other
  std::vector<size_t> gridBase_;    // per zone: where its grid starts in gridHost_
  DeviceArray<float> gridDev_;
  std::vector<float> meshHost_;     // the zones' velocity mesh data, one after the other
  std::vector<size_t> meshBase_;    // per zone: where its frames start in meshHost_
  DeviceArray<float> meshDev_;
  bool extrapolates_ = false;
  double determLimit_ = 1e3;
  bool uploaded_ = false;
  double rho0_, coefHydro_, invGamma_;
  uint32_t initialRoom_ = 0, laterRoom_ = 0;
};

// The polynomial c[0] + c[1] z + c[2] z^2 of one row of a zone's velocity table.
void inOutProfileCoefficients(InOutProfile profile, const InOutVelocityRow& row, double c[3]);

}  // namespace sph
