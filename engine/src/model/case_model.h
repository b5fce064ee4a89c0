// The in-memory form of a DualSPHysics `_Def.xml` case after loading and particle generation.
// Everything here is in the case's own units (SI) and double precision; the engine derives the
// simulation constants (h, c0, B, mass, ...) from it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/case_acc_inputs.h"
#include "model/case_floating.h"
#include "model/case_gauges.h"
#include "model/case_inout.h"
#include "model/initial_density.h"
#include "model/case_motion.h"
#include "model/case_output_parts.h"
#include "model/case_relaxation_zones.h"
#include "model/case_shifting.h"
#include "model/output_times.h"
#include "model/particle_selection.h"
#include "model/vec3d.h"
#include "physics/damping_physics.h"

namespace sph {

// One value of <constantsdef> that DualSPHysics allows to be computed ("auto").
struct AutoValue {
  double value = 0;
  bool isAuto = false;
};

struct CaseConstants {
  Vec3d gravity{0, 0, -9.81};
  double rhop0 = 1000;
  int rhopGradient = 2;      // 1: rho0 everywhere, 2: hydrostatic per water column, 3: max height
  AutoValue hswl{0, true};   // still-water height for the speed of sound
  double gamma = 7;
  AutoValue speedSystem{0, true};
  double coefSound = 20;
  AutoValue speedSound{0, true};
  AutoValue b{0, true};      // Tait B; when given, the speed of sound is sqrt(B gamma / rhop0)
  double coefH = 1.0;        // h = coefh*sqrt(3 dp^2) (3D) or coefh*sqrt(2 dp^2) (2D)
  std::optional<double> hdp; // h = hdp*dp when given (an `_hdp` element is ignored)
  double cflNumber = 0.2;
  // Particles per lattice node (<lattice bound="B" fluid="F">): 1, or 2 for GenCase's two
  // particles per node, each with half the mass (geometry/particle_generator.h).
  int latticeBound = 1, latticeFluid = 1;
  // The values GenCase computed, from the <execution><constants> of its output (case/gencase_output.h).
  // When set they are used as they are; otherwise they are derived from the values above.
  std::optional<double> h, massBound, massFluid;
};

// A particle family as DualSPHysics numbers it. `mk` is the global number written to output
// (fluid: mkfluid + 1; bound: mkbound + fluidcount + 1, i.e. + 10 with the usual
// <mkconfig fluidcount="9">; see case/loader.cpp); `local` is the mkbound/mkfluid value used in
// the XML.
struct MkEntry {
  bool bound = false;
  int local = 0;
  int mk = 0;
  uint32_t count = 0;
};

// Axis of <simulationdomain>: "default", "default + X", "default - X", "default + P%", or a value.
struct DomainAxisSpec {
  bool useDefault = true;
  double value = 0;        // absolute value when !useDefault, else the offset
  bool percent = false;    // offset is a percentage of the default domain size on this axis
};

struct CaseParameter {
  std::string value;
  int line = 0;
};

struct CaseDefinition {
  std::string path;             // the file it was loaded from
  std::string name;             // file stem without "_Def"
  CaseConstants constants;
  double dp = 0;
  Vec3d pointMin, pointMax;
  std::optional<Vec3d> pointRef;
  bool twoD = false;            // pointmin.y == pointmax.y

  // Generated particles, boundary first: indices [0, nBound) are boundary, the rest fluid.
  std::vector<Vec3d> positions;
  // Host memory the particle generator held at its peak (its lattice and the positions); 0 for
  // GenCase's output. The memory estimate counts it (run/memory_estimate.h).
  double generatorPeakBytes = 0;
  std::vector<uint16_t> mkIndex;  // index into `mks` per particle
  std::vector<MkEntry> mks;
  uint32_t nBound = 0;
  uint32_t nFluid = 0;
  // mDBC normals per particle, as `positions`: boundary particle to ghost node (twice GenCase's
  // normal to the boundary surface), zero where GenCase gives none. Empty when the case has no
  // <normals> (geometry/boundary_normals.h).
  std::vector<Vec3d> normals;
  // Initial velocity and density per particle, as `positions`, when the case gives them (GenCase's
  // output); empty otherwise: the particles start at rest with the density of <rhopgradient>.
  std::vector<Vec3f> velocities;
  std::vector<float> densities;
  // GenCase 5.4's initial densities, applied over <rhopgradient>'s when `densities` is empty.
  std::vector<InitialDensityOp> initialDensities;
  // What loading the case found questionable but ran as GenCase would (file:line: what), for the
  // run's warnings.
  std::vector<std::string> warnings;
  // The particle file the particles were read from (GenCase's CASE.bi4); empty when they were
  // generated from the geometry commands.
  std::string particleFile;

  // <execution><parameters>: key -> value (with its line, for error messages).
  std::map<std::string, CaseParameter> parameters;
  DomainAxisSpec domainMin[3], domainMax[3];
  // The simulation domain after resolving the specs against the particles' bounding box.
  Vec3d resolvedDomainMin, resolvedDomainMax;

  // <floatings> and <properties> (model/case_floating.h).
  std::vector<FloatingDef> floatings;
  PropertiesDef properties;
  // <execution><special><gauges>.
  CaseGauges gauges;
  // <motion>: boundary objects with imposed movements (model/case_motion.h).
  std::vector<MotionObject> motions;
  // <special><mlayerpistons> as read, before the loader gives each to its motion object.
  std::vector<MlPiston> mlPistons;
  // <motion>'s <obj> elements without particles, whose motion their nested objects share.
  std::vector<MotionObject> motionFrames;
  // <execution><special><damping>: zones where the fluid's velocity is damped (physics/damping_physics.h).
  std::vector<DampingZone> damping;
  // <execution><special><accinputs>: external accelerations of fluid mks and floating bodies
  // (model/case_acc_inputs.h).
  std::vector<AccInput> accInputs;
  // <execution><special><inout>: inlet/outlet zones (model/case_inout.h), and per particle (as
  // `positions`) the zone of each initial buffer particle, kNoInOutZone for the others; empty
  // without zones.
  CaseInOut inout;
  // <execution><special><outputparts>: which particles the output parts hold (model/case_output_parts.h).
  CaseOutputParts outputParts;
  // <execution><special><shifting>: shifting and its zones set there (model/case_shifting.h).
  CaseShifting shifting;
  // <execution><special><relaxationzones> (model/case_relaxation_zones.h).
  CaseRelaxationZones relaxZones;
  // <execution><special><timeout>: output intervals that change in time; empty: every TimeOut.
  std::vector<OutputInterval> outputTimes;
  // <execution><special><savedt>.
  DtLogSettings dtLog;
  // <parameter key="ViscoTime" value="FILE">: Visco in time, (time, value) rows of FILE (relative to
  // the case's folder); empty without it.
  std::vector<std::pair<double, double>> viscoTime;
  std::string viscoTimeFile;
  std::vector<uint8_t> inOutZone;
  static constexpr uint8_t kNoInOutZone = 0xFF;
};

// The index in c.mks of the boundary (`bound`) or fluid mk numbered `local` (mkbound or mkfluid);
// c.mks.size() when the case has no such mk.
size_t mkIndexOf(const CaseDefinition& c, bool bound, int local);

// Whether particle i of c is one that `s` selects.
inline bool selected(const CaseDefinition& c, const ParticleSelection& s, size_t i) {
  const MkEntry& mk = c.mks[c.mkIndex[i]];
  return s.hasMk(mk.bound, mk.local) && s.box.contains(c.positions[i]);
}

// The floating body that mkbound `local` belongs to, or nullptr when it is not floating.
const FloatingDef* floatingOf(const CaseDefinition& c, int mkBound);
// The <motion> object (<objreal ref>) of mkbound `mkBound`, or nullptr when it has none.
MotionObject* motionObjectOf(CaseDefinition& c, int mkBound);

// The case's name: the file's stem without DualSPHysics' "_Def" suffix (out/<name> by default).
std::string caseNameOf(const std::string& path);

// Typed access to <parameters> with DualSPHysics defaults; throws InputError (file, line, key)
// when a value does not parse.
double parameterDouble(const CaseDefinition& c, const std::string& key, double fallback);
int parameterInt(const CaseDefinition& c, const std::string& key, int fallback);
std::string parameterString(const CaseDefinition& c, const std::string& key,
                            const std::string& fallback);

}  // namespace sph
