// Simulation parameters derived from a loaded case: the DualSPHysics rules for h, the speed of
// sound, the Tait constant, particle mass, time-step limits and run control, in double precision.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "model/case_model.h"
#include "model/output_times.h"
#include "physics/floating_body_physics.h"
#include "physics/shifting_zones.h"
#include "platform/plugin_loader.h"
#include "sph/plugin/physics_constants.h"

namespace sph {

struct SimParameters {
  int dim = 3;
  double dp = 0, h = 0, support = 0;
  double rho0 = 1000, gamma = 7, cteB = 0, c0 = 0, hswl = 0;
  double massFluid = 0, massBound = 0;
  Vec3d gravity;
  KernelKind kernel = KernelKind::Wendland;
  int stepAlgorithm = 1;  // 1 Verlet, 2 Symplectic
  int verletSteps = 40;
  Viscosity viscosity = Viscosity::Artificial;  // ViscoTreatment
  double visco = 0.01, viscoBoundFactor = 1;
  DensityDiffusion ddt = DensityDiffusion::None;
  double ddtValue = 0.1;
  Shifting shifting = Shifting::None;  // Shifting, ShiftCoef, ShiftTFS (physics/shifting_physics.h)
  // <special><shifting>'s zones: only fluid inside one is shifted; empty: everywhere.
  std::vector<ShiftZone> shiftZones;
  double shiftCoef = -2, shiftTfs = 0;
  BoundaryModel boundary = BoundaryModel::Dbc;  // Boundary and SlipMode (mdbc_physics.h)
  bool mdbc() const { return boundary != BoundaryModel::Dbc; }
  bool mdbc2() const { return boundary == BoundaryModel::MdbcNoSlip || boundary == BoundaryModel::MdbcFreeSlip; }
  double cfl = 0.2;
  double dtIni = 0, dtMin = 0, dtFixed = 0;
  bool dtAllParticles = false;  // DtAllParticles: the dt's velocity bound over every particle
  double timeMax = 1, timeOut = 0.01;
  // TimeOutExtra: floating.csv gets its rows also every this long (0: every step); negative (the
  // default): at output times only.
  double timeOutExtra = -1;
  // <special><timeout>'s output intervals (model/output_times.h); empty: every timeOut. The
  // command line's --time-out replaces them.
  std::vector<OutputInterval> outputTimes;
  // DualSPHysics' ViscoTime: Visco in time, (time, value) rows (its JDsViscoInput); empty: Visco.
  std::vector<std::pair<double, double>> viscoTime;
  // Visco at time t: linear between the rows, the first and last row's value outside them.
  double viscoAt(double t) const {
    if (viscoTime.empty()) return visco;
    if (t <= viscoTime.front().first) return viscoTime.front().second;
    if (t >= viscoTime.back().first) return viscoTime.back().second;
    size_t k = 1;
    while (viscoTime[k].first < t) ++k;
    const auto &a = viscoTime[k - 1], &b = viscoTime[k];
    return b.first == a.first ? b.second : a.second + (t - a.first) / (b.first - a.first) * (b.second - a.second);
  }
  double rhoOutMin = 700, rhoOutMax = 1300;
  double partsOutMax = 1;  // fraction of fluid particles that may be excluded
  Vec3d domainMin, domainMax;
  // Periodic axes (XPeriodicInc*, YPeriodicInc*, ZPeriodicInc* with zero shift; see
  // model/periodic_parameters.h): the axis wraps over [domainMin, domainMax), its period.
  bool periodic[3] = {false, false, false};
  double period(int axis) const {
    return axis == 0 ? domainMax.x - domainMin.x : axis == 1 ? domainMax.y - domainMin.y : domainMax.z - domainMin.z;
  }
  std::string neighbourSearch;  // XML parameter NeighbourSearch ("" when absent)
  // The neighbour plugin's options given in the case or on the command line, checked
  // (StrategyContext::options).
  std::map<std::string, std::string> strategyOptions;
  // Floating bodies: RigidAlgorithm 1 (SPH forces only) or 2 (DEM contacts between solids), and
  // FtPause, the time (s) they are held still at the start.
  int rigidAlgorithm = 1;
  double ftPause = 0;
  // How bodies move (physics/floating_body_physics.h): DualSPHysics' rules unless the XML parameter
  // FloatingMotion says "rigid".
  FloatingMotion floatingMotion = FloatingMotion::DualSPHysics;

  // Every parameter and constant the run uses, with its value and where it came from ("xml:LINE",
  // "default", "GenCase output <constants>", "derived ...", "command line"), for run.json.
  struct Provenance {
    std::string name, value, source;
  };
  std::vector<Provenance> provenance;
  // For the user, each naming the file and line: <parameters> keys this engine does not know.
  std::vector<std::string> warnings;
  // Records a value given on the command line in place of the XML's.
  void setFromCommandLine(const std::string& name, const std::string& value);
};

// Throws InputError (file, line, key) for unsupported or impossible parameter values, those of
// the neighbour plugin's options (which the case's <parameters> may set like the engine's own)
// included.
// The case's smoothing length h, as DualSPHysics derives it (GenCase's h, hdp dp, or coefh
// sqrt(dim dp^2)).
double caseSmoothingLength(const CaseDefinition& c);

SimParameters deriveParameters(const CaseDefinition& c, const PluginOptions& plugin = {});

// Empty when `value` is one `o` allows, else what it must be ("one of full, half", "a positive
// number").
std::string strategyOptionProblem(const StrategyOption& o, const std::string& value);

template <typename T>
PhysicsConstants<T> makePhysicsConstants(const SimParameters& p);

// Initial density per particle, written to rho[0 .. c.positions.size()): that of <rhopgradient>
// (1, 2 or 3; boundary particles at rho0), then GenCase's <initials> densities over it.
void initialDensity(const CaseDefinition& c, const SimParameters& p, double* rho);
// <rhopgradient>'s alone.
void hydrostaticDensity(const CaseDefinition& c, const SimParameters& p, double* rho);

}  // namespace sph
