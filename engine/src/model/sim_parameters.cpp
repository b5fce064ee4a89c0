#include "model/sim_parameters.h"

#include <algorithm>
#include <atomic>
#include <iterator>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "model/number_text.h"
#include "model/periodic_parameters.h"
#include "sph/plugin/errors.h"
#include "sph/plugin/pair_physics.h"
#include "sph/plugin/sph_kernels.h"

namespace sph {
namespace {

// The fraction of the fluid a run may lose before it stops as failed, unless the case says.
constexpr double kDefaultPartsOutMax = 0.5;

constexpr const char* kPeriodicKeys[] = {"XPeriodicIncY", "XPeriodicIncZ", "YPeriodicIncX",
                                        "YPeriodicIncZ", "ZPeriodicIncX", "ZPeriodicIncY"};
// Present, whatever their value, they make two axes periodic (model/periodic_parameters.h).
constexpr const char* kPeriodicPairKeys[] = {"XYPeriodic", "XZPeriodic", "YZPeriodic"};

[[noreturn]] void badParameter(const CaseDefinition& c, const std::string& key, const std::string& why) {
  const auto it = c.parameters.find(key);
  const int line = it == c.parameters.end() ? 0 : it->second.line;
  throw InputError(fmt::format("{}:{}: <parameter key=\"{}\">: {}", c.path, line, key, why));
}

double fluidHeightAuto(const CaseDefinition& c) {
  double zmin = std::numeric_limits<double>::max(), zmax = -zmin;
  const int64_t first = int64_t(c.nBound), last = int64_t(c.positions.size());
#pragma omp parallel for schedule(static) reduction(min : zmin) reduction(max : zmax)
  for (int64_t i = first; i < last; ++i) {
    zmin = std::min(zmin, c.positions[size_t(i)].z);
    zmax = std::max(zmax, c.positions[size_t(i)].z);
  }
  return zmax - zmin;
}

// DualSPHysics 5.4 keys of <parameters> that change nothing this engine computes: output options
// and checks. They are recorded as read, with the reason; any other key this engine does not read
// gets a warning.
struct NoEffectKey {
  const char* key;
  const char* why;
};
constexpr NoEffectKey kNoEffectKeys[] = {
    {"SavePosDouble", "output precision of DualSPHysics' binary parts"},
    {"SaveExtraParts", "DualSPHysics' restart parts"},
    {"FtSaveAce", "DualSPHysics' floating-body output"},
    {"WrnPartsOut", "DualSPHysics' warning threshold for excluded particles"},
    {"FtIgnoreRadius", "DualSPHysics' check of floating bodies against the period"},
    {"MdbcFastSingle", "precision of DualSPHysics' mDBC matrix inversion"},
    {"ShiftAdvCoef", "advanced shifting (Shifting 4) only"},
    {"ShiftAdvALE", "advanced shifting (Shifting 4) only"},
    {"ShiftAdvNCPress", "advanced shifting (Shifting 4) only"},
    // Read only by DualSPHysics' multiphase non-Newtonian version, with <nnphases> (refused).
    {"RheologyTreatment", "DualSPHysics' multiphase non-Newtonian version only"},
    {"VelocityGradientType", "DualSPHysics' multiphase non-Newtonian version only"},
    {"RelaxationDt", "DualSPHysics' multiphase non-Newtonian version only"},
};

// Keys the case loader applies (to the simulation domain: case/simulation_domain.h).
constexpr const char* kLoaderKeys[] = {"IncZ", "DomainFixed", "DomainFixedXmin", "DomainFixedYmin",
                                       "DomainFixedZmin", "DomainFixedXmax", "DomainFixedYmax", "DomainFixedZmax"};

// DualSPHysics keys that ask for a method this engine does not have: an error, never ignored.
struct UnsupportedKey {
  const char* key;
  const char* why;
};
constexpr UnsupportedKey kUnsupportedKeys[] = {
    {"DeltaSPH", "DualSPHysics 4's delta-SPH key: use DensityDT (1 Molteni, 2 Fourtakas, 3 Fourtakas full)"},
    {"DivCleanKp", "divergence cleaning is not supported"},
};

// Reads <parameters> and records where each value came from: the XML line, or the default.
class ParameterReader {
 public:
  ParameterReader(const CaseDefinition& c, SimParameters& p) : c_(c), p_(p) {}

  int integer(const std::string& key, int fallback) { return note(key, parameterInt(c_, key, fallback)); }
  double real(const std::string& key, double fallback) { return note(key, parameterDouble(c_, key, fallback)); }
  std::string text(const std::string& key, const std::string& fallback) {
    return note(key, parameterString(c_, key, fallback));
  }

  // A key that the case's other choices leave without effect (ShiftCoef with Shifting 0).
  void inactive(const std::string& key, const std::string& why) {
    const auto it = c_.parameters.find(key);
    if (it == c_.parameters.end()) return;
    p_.provenance.push_back({key, it->second.value, fmt::format("xml:{} (no effect: {})", it->second.line, why)});
  }

  // Refuses the keys that ask for missing methods, records the keys without effect and warns of
  // the keys nobody read (neither the engine nor its neighbour plugin `plugin`).
  void finish(const std::string& plugin) {
    p_.warnings.insert(p_.warnings.begin(), c_.warnings.begin(), c_.warnings.end());
    for (const UnsupportedKey& k : kUnsupportedKeys) {
      const auto it = c_.parameters.find(k.key);
      if (it == c_.parameters.end()) continue;
      const std::string& v = it->second.value;
      // A switch left at its "off" value asks for nothing.
      if (v == "0" || v == "false" || v == "none" || v == "NONE" || v.empty()) {
        p_.provenance.push_back({k.key, v, fmt::format("xml:{}", it->second.line) + " (off)"});
        continue;
      }
      badParameter(c_, k.key, k.why);
    }
    for (const auto& [key, param] : c_.parameters) {
      if (std::any_of(p_.provenance.begin(), p_.provenance.end(), [&](const auto& u) { return u.name == key; }))
        continue;
      if (key[0] == '#') {  // GenCase's way of switching a key off: no one reads it
        p_.provenance.push_back({key, param.value, fmt::format("xml:{} (commented out with '#')", param.line)});
        continue;
      }
      if (std::find(std::begin(kLoaderKeys), std::end(kLoaderKeys), key) != std::end(kLoaderKeys)) {
        p_.provenance.push_back({key, param.value, fmt::format("xml:{} (the simulation domain)", param.line)});
        continue;
      }
      if (key == "ViscoTime") {  // its file was read with the case (case/loader.cpp)
        p_.provenance.push_back({key, param.value,
                                 fmt::format("xml:{} ({})", param.line,
                                             c_.viscoTime.empty() ? "off" : "Visco in time from " + c_.viscoTimeFile)});
        continue;
      }
      const auto noEffect = std::find_if(std::begin(kNoEffectKeys), std::end(kNoEffectKeys),
                                         [&](const NoEffectKey& k) { return key == k.key; });
      if (noEffect != std::end(kNoEffectKeys)) {
        p_.provenance.push_back({key, param.value, fmt::format("xml:{} (no effect here: {})", param.line, noEffect->why)});
        continue;
      }
      p_.warnings.push_back(fmt::format("{}:{}: <parameter key=\"{}\">: not a parameter this engine{} knows; ignored, as "
                                        "DualSPHysics ignores unknown keys (check the spelling)",
                                        c_.path, param.line, key,
                                        plugin.empty() ? "" : " or its " + plugin + " neighbour plugin"));
    }
  }

 private:
  template <typename V>
  V note(const std::string& key, V value) {
    const auto it = c_.parameters.find(key);
    const std::string source = it == c_.parameters.end() ? "default" : fmt::format("xml:{}", it->second.line);
    for (auto& u : p_.provenance)
      if (u.name == key) return value;  // read twice: the first record stands
    p_.provenance.push_back({key, fmt::format("{}", value), source});
    return value;
  }

  const CaseDefinition& c_;
  SimParameters& p_;
};

}  // namespace

double caseSmoothingLength(const CaseDefinition& c) {
  const CaseConstants& k = c.constants;
  if (k.h) return *k.h;  // GenCase's value
  // DualSPHysics: h = coefh*sqrt(3 dp^2) in 3D, coefh*sqrt(2 dp^2) in 2D, or h = hdp*dp.
  return k.hdp ? *k.hdp * c.dp : k.coefH * std::sqrt(double(c.twoD ? 2 : 3) * c.dp * c.dp);
}

namespace {

// The constants of <constantsdef> (or GenCase's output): dimension, h, rho0, gravity, hswl, the
// speed of sound, Tait's B and the particle masses.
void deriveConstants(const CaseDefinition& c, SimParameters& p) {
  const CaseConstants& k = c.constants;
  p.dim = c.twoD ? 2 : 3;
  p.dp = c.dp;
  p.h = caseSmoothingLength(c);
  p.support = 2 * p.h;
  p.rho0 = k.rhop0;
  p.gamma = k.gamma;
  p.gravity = k.gravity;
  const double g = std::sqrt(k.gravity.x * k.gravity.x + k.gravity.y * k.gravity.y +
                             k.gravity.z * k.gravity.z);
  if (k.hswl.isAuto && c.nFluid == 0)
    throw InputError(fmt::format("{}: <hswl auto=\"true\">: the case has no fluid to measure the water depth from; "
                                 "give the depth the speed of sound is based on (auto=\"false\" value=\"...\")",
                                 c.path));
  p.hswl = k.hswl.isAuto ? fluidHeightAuto(c) : k.hswl.value;
  // Speed of sound: c0 = coefsound * speedsystem, speedsystem = sqrt(g hswl) (dam-break speed),
  // and never below 10 sqrt(g hswl) (GenCase: "max(coefsound*speedsystem,10*sqrt(g*depth))").
  const double speedSystem = k.speedSystem.isAuto ? std::sqrt(g * p.hswl) : k.speedSystem.value;
  p.c0 = k.speedSound.isAuto ? std::max(k.coefSound * speedSystem, 10 * std::sqrt(g * p.hswl)) : k.speedSound.value;
  // A given Tait B sets the speed of sound (GenCase writes B; DualSPHysics derives c0 from it).
  if (!k.b.isAuto) p.c0 = std::sqrt(k.b.value * k.gamma / k.rhop0);
  if (!(p.c0 > 0))
    throw InputError(fmt::format("{}: <constantsdef>: the speed of sound is {} (hswl {}, gravity {}); "
                                 "give <speedsound>, <b> or a fluid with height",
                                 c.path, p.c0, p.hswl, g));
  p.cteB = k.b.isAuto ? p.c0 * p.c0 * p.rho0 / p.gamma : k.b.value;
  // A lattice of two particles per node shares each node's mass between them (GenCase's rule).
  const double nodeMass = p.rho0 * std::pow(c.dp, p.dim);
  p.massFluid = k.massFluid.value_or(nodeMass / k.latticeFluid);
  p.massBound = k.massBound.value_or(k.massFluid ? p.massFluid : nodeMass / k.latticeBound);
  p.cfl = k.cflNumber;
}

// Shifting set by <special><shifting> (model/case_shifting.h), and its zones (physics/shifting_zones.h).
void readShiftingSpecial(const CaseDefinition& c, ParameterReader& P, SimParameters& p) {
  const CaseShifting& s = c.shifting;
  const std::string where = fmt::format("{}:{}: <shifting>", c.path, s.line);
  p.shifting = static_cast<Shifting>(s.mode);
  for (const char* key : {"ShiftCoef", "ShiftTFS"}) P.inactive(key, "<special><shifting> sets shifting");
  if (p.shifting == Shifting::None) return;
  p.shiftCoef = s.coef;
  p.shiftTfs = s.tfs;
  if (!(p.shiftTfs >= 0 && p.shiftTfs < p.dim))
    throw InputError(fmt::format("{}: <fsthreshold> must be 0 (off) or a threshold below {} (typically 1.5 in 2D, "
                                 "2.75 in 3D)", where, p.dim));
  for (const ShiftZoneDef& d : s.zones) {
    ShiftZone z;
    const Vec3d o = d.origin;
    const double origin[3] = {o.x, o.y, o.z};
    // Edges along the axes: DualSPHysics' box from posref to posref + size.
    if (!d.vx.y && !d.vx.z && !d.vy.x && !d.vy.z && !d.vz.x && !d.vz.y) {
      z.box = 1;
      const double hi[3] = {o.x + d.vx.x, o.y + d.vy.y, o.z + d.vz.z};
      for (int a = 0; a < 3; ++a) {
        z.lo[a] = origin[a];
        z.hi[a] = hi[a];
      }
      p.shiftZones.push_back(z);
      continue;
    }
    for (int a = 0; a < 3; ++a) z.origin[a] = origin[a];
    const Vec3d e[3] = {d.vx, d.vy, d.vz};
    const double det = dot(e[0], cross(e[1], e[2]));
    const double scaleOf = norm(e[0]) * norm(e[1]) * norm(e[2]);
    if (std::abs(det) > 1e-12 * scaleOf) {
      // Rows of the inverse of the matrix whose columns are the edges.
      const Vec3d rows[3] = {cross(e[1], e[2]), cross(e[2], e[0]), cross(e[0], e[1])};
      for (int a = 0; a < 3; ++a) {
        z.inv[a][0] = rows[a].x / det;
        z.inv[a][1] = rows[a].y / det;
        z.inv[a][2] = rows[a].z / det;
      }
    } else if (p.dim == 2 && norm(d.vy) == 0) {
      // A 2D zone without a y edge: a parallelogram in x and z, any y.
      const double det2 = d.vx.x * d.vz.z - d.vz.x * d.vx.z;
      if (std::abs(det2) <= 1e-12 * norm(d.vx) * norm(d.vz))
        throw InputError(fmt::format("{}:{}: <shiftingzone>: its edges vecx and vecz are parallel: the zone is empty",
                                     c.path, d.line));
      z.inv[0][0] = d.vz.z / det2;
      z.inv[0][2] = -d.vz.x / det2;
      z.inv[2][0] = -d.vx.z / det2;
      z.inv[2][2] = d.vx.x / det2;
    } else {
      throw InputError(fmt::format("{}:{}: <shiftingzone>: its edges vecx, vecy and vecz do not span a volume",
                                   c.path, d.line));
    }
    p.shiftZones.push_back(z);
  }
}

// The kernel, the integrator, the viscosity, density diffusion and shifting.
void readPhysicsOptions(const CaseDefinition& c, ParameterReader& P, SimParameters& p) {
  const int kernel = P.integer("Kernel", 2);
  if (kernel != 1 && kernel != 2) badParameter(c, "Kernel", "must be 1 (cubic spline) or 2 (Wendland)");
  p.kernel = static_cast<KernelKind>(kernel);
  p.stepAlgorithm = P.integer("StepAlgorithm", 1);
  if (p.stepAlgorithm != 1 && p.stepAlgorithm != 2)
    badParameter(c, "StepAlgorithm", "must be 1 (Verlet) or 2 (Symplectic)");
  if (p.stepAlgorithm == 1) {
    p.verletSteps = P.integer("VerletSteps", 40);
    if (p.verletSteps < 1) badParameter(c, "VerletSteps", "must be at least 1");
  } else {
    P.inactive("VerletSteps", "the Verlet integrator's Euler steps; StepAlgorithm is 2 (symplectic)");
  }
  const int visco = P.integer("ViscoTreatment", 1);
  if (visco != 1 && visco != 2 && visco != 3)
    badParameter(c, "ViscoTreatment", "must be 1 (artificial), 2 (laminar + SPS turbulence) or 3 (laminar)");
  p.viscosity = static_cast<Viscosity>(visco);
  p.visco = P.real("Visco", 0.01);
  p.viscoBoundFactor = P.real("ViscoBoundFactor", 1);
  p.viscoTime = c.viscoTime;
  if (p.visco < 0 || p.viscoBoundFactor < 0) badParameter(c, "Visco", "must not be negative");
  const int ddt = P.integer("DensityDT", 0);
  if (ddt < 0 || ddt > 3) badParameter(c, "DensityDT", "must be 0, 1, 2 or 3");
  p.ddt = static_cast<DensityDiffusion>(ddt);
  p.ddtValue = P.real("DensityDTvalue", 0.1);
  if (c.shifting.given) {
    // DualSPHysics refuses shifting set in both places, whatever the parameter's value.
    if (c.parameters.count("Shifting"))
      badParameter(c, "Shifting",
                   fmt::format("shifting is also set by <special><shifting> (line {}): keep one", c.shifting.line));
    readShiftingSpecial(c, P, p);
    return;
  }
  const int shifting = P.integer("Shifting", 0);
  if (shifting == 4) badParameter(c, "Shifting", "4 (advanced shifting) is not supported; use 0, 1, 2 or 3");
  if (shifting < 0 || shifting > 3)
    badParameter(c, "Shifting", "must be 0 (none), 1 (ignore boundaries), 2 (ignore fixed boundaries) or 3 (full)");
  p.shifting = static_cast<Shifting>(shifting);
  if (p.shifting != Shifting::None) {
    p.shiftCoef = P.real("ShiftCoef", -2);
    p.shiftTfs = P.real("ShiftTFS", 0);
    // The free-surface factor (div r - TFS)/(dim - TFS) needs TFS below dim, the divergence of r
    // inside the fluid.
    if (!(p.shiftTfs >= 0 && p.shiftTfs < p.dim))
      badParameter(c, "ShiftTFS",
                   fmt::format("must be 0 (off) or a threshold below {} (typically 1.5 in 2D, 2.75 in 3D)", p.dim));
  } else {
    for (const char* key : {"ShiftCoef", "ShiftTFS"}) P.inactive(key, "Shifting is 0");
  }
}

// DBC or mDBC (Boundary, SlipMode) and what mDBC needs.
void readBoundaryModel(const CaseDefinition& c, ParameterReader& P, SimParameters& p) {
  const int boundary = P.integer("Boundary", 1);
  if (boundary != 1 && boundary != 2) badParameter(c, "Boundary", "must be 1 (DBC) or 2 (mDBC)");
  if (boundary == 2) {
    const int slip = P.integer("SlipMode", 1);
    if (slip < 1 || slip > 3) badParameter(c, "SlipMode", "must be 1 (DBC vel=0), 2 (no-slip) or 3 (free slip)");
    p.boundary = static_cast<BoundaryModel>(slip);
    if (p.mdbc2()) {
      const std::string noPen = P.text("NoPenetration", "false");
      if (noPen != "0" && noPen != "false")
        badParameter(c, "NoPenetration", "mDBC2's no-penetration correction is not supported yet (use false)");
    }
    if (P.real("MdbcThreshold", 0) != 0)
      badParameter(c, "MdbcThreshold", "only 0 (mDBC corrects every boundary particle with fluid in reach) is supported");
    if (!c.floatings.empty())
      badParameter(c, "Boundary", "2 (mDBC) with floating bodies is not supported yet (DualSPHysics advises Chrono "
                                  "for those); their walls can use 1 (DBC)");
    if (c.normals.empty())
      badParameter(c, "Boundary",
                   "2 (mDBC) needs boundary normals: add <normals> to <casedef> with the geometry of the "
                   "boundary surface (GenCase's <geometryfile>) or its planes, spheres and cylinders");
    // DualSPHysics' checks when a run starts: a warning for boundary particles without a normal
    // (they keep plain DBC), an error when none has one.
    size_t without = 0;
    for (size_t i = 0; i < c.nBound; ++i) without += c.normals[i].x == 0 && c.normals[i].y == 0 && c.normals[i].z == 0;
    if (without == c.nBound && c.nBound > 0)
      badParameter(c, "Boundary", "2 (mDBC): no boundary particle has a normal (<normals> gives none within reach)");
    if (without > 0)
      p.warnings.push_back(fmt::format("{}: {} of {} boundary particles have no mDBC normal", c.path, without, c.nBound));
    if (!p.mdbc2()) P.inactive("NoPenetration", "SlipMode is 1");
  } else {
    for (const char* key : {"SlipMode", "NoPenetration", "MdbcThreshold"}) P.inactive(key, "Boundary is 1 (DBC)");
  }
}

// The time step's bounds and rules (DtIni, DtMin, DtFixed, DtAllParticles).
void readTimeStep(const CaseDefinition& c, ParameterReader& P, SimParameters& p) {
  const double coefDtMin = P.real("CoefDtMin", 0.05);
  p.dtIni = P.real("DtIni", 0);
  if (p.dtIni <= 0) p.dtIni = p.h / p.c0;
  p.dtMin = P.real("DtMin", 0);
  if (p.dtMin <= 0) p.dtMin = coefDtMin * p.h / p.c0;
  const int dtAll = P.integer("DtAllParticles", 0);
  if (dtAll != 0 && dtAll != 1) badParameter(c, "DtAllParticles", "must be 0 (fluid and floating) or 1 (all particles)");
  p.dtAllParticles = dtAll == 1;
  p.dtFixed = P.real("DtFixed", 0);
  if (p.dtFixed < 0) badParameter(c, "DtFixed", "must not be negative");
  const std::string dtFile = P.text("DtFixedFile", "NONE");
  if (dtFile != "NONE" && !dtFile.empty()) badParameter(c, "DtFixedFile", "dt files are not supported");
}

// How long the run goes, when it writes, and the limits that exclude particles or stop it.
void readRunLimits(const CaseDefinition& c, ParameterReader& P, SimParameters& p) {
  p.timeMax = P.real("TimeMax", 1);
  p.timeOut = P.real("TimeOut", 0.01);
  if (c.floatings.empty()) {
    P.inactive("TimeOutExtra", "the case has no floating body (floating.csv's rows)");
  } else {
    p.timeOutExtra = P.real("TimeOutExtra", -1);
    if (std::isnan(p.timeOutExtra)) badParameter(c, "TimeOutExtra", "is not a number");
  }
  p.outputTimes = c.outputTimes;
  if (!(p.timeMax > 0)) badParameter(c, "TimeMax", "must be positive");
  if (!(p.timeOut > 0)) badParameter(c, "TimeOut", "must be positive");
  p.rhoOutMin = P.real("RhopOutMin", 700);
  p.rhoOutMax = P.real("RhopOutMax", 1300);
  if (!(p.rhoOutMin < p.rhoOutMax)) badParameter(c, "RhopOutMax", "must be larger than RhopOutMin");
  // DualSPHysics' default is 1 (a run may lose all its fluid and still complete). Cases state
  // it (every official example does); one that does not gets a run that stops as failed once
  // half its fluid is gone, which no flow we simulate survives as intended.
  p.partsOutMax = P.real("PartsOutMax", kDefaultPartsOutMax);
  if (!(p.partsOutMax >= 0 && p.partsOutMax <= 1)) badParameter(c, "PartsOutMax", "must be a fraction between 0 and 1");
  // DualSPHysics 5.4's replacement of PartsOutMax: the fraction of the fluid that must remain.
  if (c.parameters.count("MinFluidStop")) {
    const double minFluid = P.real("MinFluidStop", 0);
    if (!(minFluid >= 0 && minFluid <= 1)) badParameter(c, "MinFluidStop", "must be a fraction between 0 and 1");
    if (c.parameters.count("PartsOutMax"))
      badParameter(c, "MinFluidStop", "PartsOutMax is given as well: keep one (MinFluidStop = 1 - PartsOutMax)");
    p.partsOutMax = 1 - minFluid;
  }
}

// The domain and its periodic axes, floating bodies' rules, and the neighbour-search keys.
void readDomainBodiesAndSearch(const CaseDefinition& c, ParameterReader& P, SimParameters& p) {
  p.domainMin = c.resolvedDomainMin;
  p.domainMax = c.resolvedDomainMax;
  derivePeriodicAxes(c, p);
  const bool pairGiven = std::any_of(std::begin(kPeriodicPairKeys), std::end(kPeriodicPairKeys),
                                     [&](const char* key) { return c.parameters.count(key) != 0; });
  for (const char* key : kPeriodicKeys)
    if (c.parameters.count(key)) {
      if (pairGiven)
        P.inactive(key, "XYPeriodic, XZPeriodic or YZPeriodic replaces it");
      else
        P.real(key, 0);
    }
  for (const char* key : kPeriodicPairKeys)
    if (c.parameters.count(key)) P.text(key, "");
  p.rigidAlgorithm = P.integer("RigidAlgorithm", 1);
  if (p.rigidAlgorithm != 1 && p.rigidAlgorithm != 2)
    badParameter(c, "RigidAlgorithm", "must be 1 (floating bodies from SPH forces) or 2 (with DEM contacts); "
                                      "0 (collision-free) and 3 (Project Chrono) are not supported");
  p.ftPause = P.real("FtPause", 0);
  if (!(p.ftPause >= 0)) badParameter(c, "FtPause", "must be zero or positive (seconds)");
  const std::string motion = P.text("FloatingMotion", "dualsphysics");
  if (motion == "rigid")
    p.floatingMotion = FloatingMotion::Rigid;
  else if (motion != "dualsphysics")
    badParameter(c, "FloatingMotion", "must be dualsphysics (DualSPHysics' rules, the default) or rigid");
  p.neighbourSearch = P.text("NeighbourSearch", "");
}

// The plugin's options the case sets, checked as the engine's own parameters are.
void readPluginOptions(const CaseDefinition& c, const PluginOptions& plugin, ParameterReader& P, SimParameters& p) {
  for (const StrategyOption& o : plugin.options) {
    if (!c.parameters.count(o.key)) continue;
    const std::string value = P.text(o.key, "");
    const std::string problem = strategyOptionProblem(o, value);
    if (!problem.empty())
      badParameter(c, o.key, fmt::format("must be {} (an option of the {} neighbour plugin: {})", problem,
                                         plugin.plugin, o.help));
    p.strategyOptions[o.key] = value;
  }
}

// The constants the run uses, and where they came from, for run.json.
void recordConstants(const CaseDefinition& c, SimParameters& p) {
  const CaseConstants& k = c.constants;
  // A value given, not computed, came from GenCase's output or from <constantsdef>.
  const std::string given = c.particleFile.empty() ? "<constantsdef>" : "GenCase output <constants>";
  auto constant = [&](const char* name, double value, bool isGiven) {
    p.provenance.push_back({name, fmt::format("{}", value), isGiven ? given : "derived from <constantsdef> and dp"});
  };
  constant("h", p.h, k.h.has_value());
  constant("B", p.cteB, !k.b.isAuto);
  constant("c0", p.c0, false);
  constant("MassFluid", p.massFluid, k.massFluid.has_value());
  constant("MassBound", p.massBound, k.massBound.has_value());
}

}  // namespace

void SimParameters::setFromCommandLine(const std::string& name, const std::string& value) {
  for (auto& u : provenance) {
    if (u.name == name) {
      u.value = value;
      u.source = "command line";
      return;
    }
  }
  provenance.push_back({name, value, "command line"});
}

std::string strategyOptionProblem(const StrategyOption& o, const std::string& value) {
  if (o.choices.empty()) {
    const std::optional<double> v = parseReal(value);
    return v && *v > 0 ? "" : "a positive number";
  }
  auto lower = [](std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
    return s;
  };
  for (const std::string& choice : o.choices)
    if (lower(choice) == lower(value)) return "";
  std::string list;
  for (const std::string& choice : o.choices) list += (list.empty() ? "" : ", ") + choice;
  return "one of " + list;
}

SimParameters deriveParameters(const CaseDefinition& c, const PluginOptions& plugin) {
  SimParameters p;
  ParameterReader P(c, p);
  deriveConstants(c, p);
  readPhysicsOptions(c, P, p);
  readBoundaryModel(c, P, p);
  readTimeStep(c, P, p);
  readRunLimits(c, P, p);
  readDomainBodiesAndSearch(c, P, p);
  readPluginOptions(c, plugin, P, p);
  P.finish(plugin.plugin);
  recordConstants(c, p);
  return p;
}

template <typename T>
PhysicsConstants<T> makePhysicsConstants(const SimParameters& p) {
  PhysicsConstants<T> c;
  c.dim = p.dim;
  c.kernel = p.kernel;
  c.h = T(p.h);
  c.support = T(p.support);
  c.support2 = T(p.support * p.support);
  c.eta2 = T(0.01 * p.h * p.h);
  c.kernelNorm = T(kernelNormalisation(p.kernel, p.dim, p.h));
  c.cubicWdp = T(kernelWValue(KernelKind::Cubic, cubicTensileSpacing(p.h), p.h,
                              kernelNormalisation(KernelKind::Cubic, p.dim, p.h)));
  c.massFluid = T(p.massFluid);
  c.massBound = T(p.massBound);
  c.rho0 = T(p.rho0);
  c.gamma = T(p.gamma);
  c.invGamma = T(1.0 / p.gamma);
  c.cteB = T(p.cteB);
  c.c0 = T(p.c0);
  c.viscosity = p.viscosity;
  if (p.viscosity == Viscosity::LaminarSps) {
    // DualSPHysics' constants (JSph::ConfigConstants2), from dp_s = sqrt(dim dp^2)/dim.
    const double dps = std::sqrt(p.dim * p.dp * p.dp) / p.dim;
    c.spsSmag = T((2.0 / 3.0) * (0.12 * dps) * (0.12 * dps));
    c.spsBlin = T((2.0 / 3.0) * 0.0066 * dps * dps);
  }
  c.visco = T(p.visco);
  c.viscoBound = T(p.visco * p.viscoBoundFactor);
  c.ddt = p.ddt;
  c.ddtCoef = T(2.0 * p.ddtValue * p.h * p.c0);
  c.ddtGz = T(-p.rho0 * std::abs(p.gravity.z) / p.cteB);  // DualSPHysics uses |g_z| whatever its sign
  c.boundary = p.boundary;
  c.dp = T(p.dp);
  foldDerivedConstants(c);
  c.shifting = p.shifting;
  c.shiftCoef = T(p.shiftCoef);
  c.shiftTfs = T(p.shiftTfs);
  c.shiftMax = T(0.1 * p.dp);  // DualSPHysics' limit per step
  c.gx = T(p.gravity.x);
  c.gy = T(p.gravity.y);
  c.gz = T(p.gravity.z);
  c.periodic = makePeriodicBox<T>(p);
  return c;
}

template PhysicsConstants<float> makePhysicsConstants<float>(const SimParameters&);
template PhysicsConstants<double> makePhysicsConstants<double>(const SimParameters&);

namespace {

// GenCase 5.4's <initials> densities over those of <rhopgradient> (model/initial_density.h).
void applyInitialDensities(const CaseDefinition& c, const SimParameters& p, double* rho) {
  const int64_t n = int64_t(c.positions.size());
  for (const InitialDensityOp& op : c.initialDensities) {
    using Kind = InitialDensityOp::Kind;
    const Vec3d line = sub(op.to, op.from);
    const double lineLength2 = dot(line, line);
    const Vec3d g = op.gravity.value_or(p.gravity);
    const double gAbs = norm(g);
    const Vec3d down = gAbs > 0 ? scale(g, 1.0 / gAbs) : Vec3d{0, 0, -1};
    const double rho0 = op.rho0.value_or(p.rho0), gamma = op.gamma.value_or(p.gamma), b = op.b.value_or(p.cteB);
    double surfaceLevel = -HUGE_VAL;  // the surface's height against gravity, -dot(x, down)
    if (op.kind == Kind::Depth && op.surface) surfaceLevel = -dot(*op.surface, down);
    if (op.kind == Kind::Depth && !op.surface)
      for (int64_t i = 0; i < n; ++i)
        if (selected(c, op.selection, size_t(i))) surfaceLevel = std::max(surfaceLevel, -dot(c.positions[size_t(i)], down));
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) {
      if (!selected(c, op.selection, size_t(i))) continue;
      const Vec3d& x = c.positions[size_t(i)];
      double& r = rho[size_t(i)];
      if (op.kind == Kind::Uniform) {
        r = op.rho;
      } else if (op.kind == Kind::Gradient) {
        r = op.rhoFrom + (op.rhoTo - op.rhoFrom) * dot(sub(x, op.from), line) / lineLength2;
      } else {
        const double depth = surfaceLevel + dot(x, down);
        r = depth > 0 ? rho0 * std::pow(1.0 + rho0 * gAbs * depth / b, 1.0 / gamma) : rho0;
      }
    }
  }
}

}  // namespace

void initialDensity(const CaseDefinition& c, const SimParameters& p, double* rho) {
  hydrostaticDensity(c, p, rho);
  applyInitialDensities(c, p, rho);
}

void hydrostaticDensity(const CaseDefinition& c, const SimParameters& p, double* rho) {
  const size_t n = c.positions.size();
  const int mode = c.constants.rhopGradient;
  if (mode != 1 && mode != 2 && mode != 3)
    throw InputError(fmt::format("{}: <rhopgradient>: value {} must be 1, 2 or 3", c.path, mode));
  // Filled on all cores: a case of hundreds of millions of particles would spend seconds on one.
  const int64_t bound = int64_t(c.nBound);
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < (mode == 1 || c.nFluid == 0 ? int64_t(n) : bound); ++i) rho[size_t(i)] = p.rho0;
  if (mode == 1 || c.nFluid == 0) return;
  const double gAbs = std::abs(p.gravity.z);
  // Height of the free surface above each particle: per water column (x, y lattice column) for
  // mode 2, the highest fluid particle for mode 3. The columns are a dense table over the fluid's
  // extent (the fluid of a case fills a fair share of its box), indexed by lattice column.
  auto columnX = [&](const Vec3d& v) { return std::lround(v.x / p.dp); };
  auto columnY = [&](const Vec3d& v) { return std::lround(v.y / p.dp); };
  long x0 = columnX(c.positions[c.nBound]), x1 = x0, y0 = columnY(c.positions[c.nBound]), y1 = y0;
  double zTop = -std::numeric_limits<double>::max();
  const int64_t first = int64_t(c.nBound), last = int64_t(n);
#pragma omp parallel for schedule(static) reduction(max : zTop, x1, y1) reduction(min : x0, y0)
  for (int64_t i = first; i < last; ++i) {
    const Vec3d& v = c.positions[size_t(i)];
    zTop = std::max(zTop, v.z);
    x0 = std::min(x0, columnX(v));
    x1 = std::max(x1, columnX(v));
    y0 = std::min(y0, columnY(v));
    y1 = std::max(y1, columnY(v));
  }
  const size_t nx = size_t(x1 - x0 + 1), ny = size_t(y1 - y0 + 1);
  // Drops scattered over a huge box would make the table larger than the particles: a map then.
  const bool dense = double(nx) * double(ny) <= 4.0 * double(n) + 1e6;
  std::vector<double> columnTop;
  std::map<std::pair<long, long>, double> sparseTop;
  if (mode == 2 && dense) {
    columnTop.assign(nx * ny, -std::numeric_limits<double>::max());
    // Particles of one column may be handled by several threads: an atomic maximum per column.
#pragma omp parallel for schedule(static)
    for (int64_t i = first; i < last; ++i) {
      const Vec3d& v = c.positions[size_t(i)];
      std::atomic_ref<double> top(columnTop[size_t(columnY(v) - y0) * nx + size_t(columnX(v) - x0)]);
      double seen = top.load(std::memory_order_relaxed);
      while (seen < v.z && !top.compare_exchange_weak(seen, v.z, std::memory_order_relaxed)) {
      }
    }
  } else if (mode == 2) {
    for (int64_t i = first; i < last; ++i) {
      const Vec3d& v = c.positions[size_t(i)];
      double& top = sparseTop.try_emplace({columnX(v), columnY(v)}, v.z).first->second;
      top = std::max(top, v.z);
    }
  }
  auto columnTopOf = [&](const Vec3d& v) {
    return dense ? columnTop[size_t(columnY(v) - y0) * nx + size_t(columnX(v) - x0)]
                 : sparseTop.at({columnX(v), columnY(v)});
  };
  // Boundary particles start at rho0 whatever the mode: GenCase writes rho0 for them, and DBC
  // raises their density from the fluid's continuity as the fluid settles.
#pragma omp parallel for schedule(static)
  for (int64_t i = first; i < last; ++i) {
    const Vec3d& v = c.positions[size_t(i)];
    const double top = mode == 2 ? columnTopOf(v) : zTop;
    // Tait inverted for the hydrostatic pressure rho0 g (top - z).
    rho[size_t(i)] = v.z > top ? p.rho0 : p.rho0 * std::pow(1.0 + p.rho0 * gAbs * (top - v.z) / p.cteB, 1.0 / p.gamma);
  }
}

}  // namespace sph
