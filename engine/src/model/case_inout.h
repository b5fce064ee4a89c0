// Inlet/outlet open boundaries (<special><inout>), as DualSPHysics 5.4 reads them (its
// _FmtXML_InOut.xml; the rules are its JSphInOut*): each zone is a buffer of `layers` layers of
// fluid particles behind a plane, whose velocity and density the zone imposes. Buffer particles
// that cross the plane into the domain become ordinary fluid and leave a new buffer particle
// `layers` dp behind them; fluid that enters a zone is converted into buffer particles or removed
// as the zone says; buffer particles that reach the back of the zone are removed.
// The case loader (case/inout_reader.h) reads the zones and generates their points and initial
// buffer particles (geometry/inout_points.h); the run (inout/inout_zones.h) applies the rules.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/mesh_data.h"
#include "model/vec3d.h"

namespace sph {

// DualSPHysics' <refilling>: how buffer particles are replaced.
enum class InOutRefilling {
  SimpleFull = 0,   // a crossing particle is always replaced
  SimpleZsurf = 1,  // only when it is at or below the zone's zsurf
  Advanced = 2,     // columns refilled from the plane (reverse flows)
};

// <inputtreatment>: what happens to fluid that enters the zone.
enum class InOutInput { Free = 0, Convert = 1, Remove = 2 };

// <imposevelocity mode>.
enum class InOutVelocityMode { Fixed = 0, Variable = 1, Extrapolated = 2, Interpolated = 3 };

// <imposevelocity mode="3"><gridveldata file>: x velocities (and z ones) on a grid of nx x nz
// points in x and z, dpx and dpz apart from (x0, z0) (<gridposzero>), at times (DualSPHysics'
// JSphInOutGridData, CSV format version 1). Point (i, k) of a time is values[nz i + k].
struct InOutVelocityGrid {
  std::string file;
  uint32_t nx = 0, nz = 0;
  double dpx = 0, dpz = 0, x0 = 0, z0 = 0;
  bool velz = false;       // the file has z velocities ("vars" velx velz)
  bool resetVelz = true;   // the z velocity is set to 0 after the interpolation (DualSPHysics 5.4 always does)
  std::vector<double> times;
  std::vector<float> values;  // per time: nx nz x velocities, then nx nz z velocities when velz
};

// The velocity's profile in z: v; the line through (z, v), (z2, v2); the parabola through three.
enum class InOutProfile { Uniform = 0, Linear = 1, Parabolic = 2 };

// <imposerhop mode>.
enum class InOutDensityMode { Constant = 0, Hydrostatic = 1, Extrapolated = 2 };

// <imposezsurf mode>; Undefined when the zone has no <imposezsurf> (every particle is below it).
enum class InOutZsurfMode { Undefined = -1, Fixed = 0, Variable = 1, Calculated = 2 };

enum class InOutShape { Line, Box, Circle, Particles };

// One row of a velocity table (one row for a fixed velocity): the profile's speeds along the
// zone's direction v[k] at heights z[k] (uniform: v[0]; linear: two; parabolic: three).
struct InOutVelocityRow {
  double time = 0;
  double v[3] = {0, 0, 0};
  double z[3] = {0, 0, 0};
};

struct InOutZsurfRow {
  double time = 0;
  double zsurf = 0;
};

// The zone's shape as <zone2d> or <zone3d> gives it. Its points are the centres of the first
// buffer layer; the plane between buffer and domain is dp/2 ahead of them along the direction
// (unit, into the domain); layer k sits k dp behind the first (geometry/inout_points.h).
struct InOutShapeDef {
  bool given = false;
  int line = 0;  // of the shape element
  InOutShape shape = InOutShape::Line;
  Vec3d point, point2, size;  // line: point to point2; box: point and size; circle: centre
  double radius = 0;          // circle
  int mkFluid = -1;           // particles form: the fluid mk whose particles give the points
  Vec3d direction;            // as given (normalised by the generator)
  bool directionGiven = false;
  // The rotation applied to the points and the direction (<rotate>, <rotateaxis>, <rotateadv>):
  // x -> R (x - centre) + centre, R row-major.
  bool rotated = false;
  std::array<double, 9> rotation{1, 0, 0, 0, 1, 0, 0, 0, 1};
  Vec3d rotationCentre;
  bool rotationCentreGiven = false;  // 2D <rotate> without centre: the line's first point
};

struct InOutZoneDef {
  int line = 0;  // of <inoutzone>, for messages

  // Where: the shape of <zone2d> (shapes[0]) and of <zone3d> (shapes[1]); the run's dimension
  // picks one (DualSPHysics reads the other but ignores it).
  InOutShapeDef shapes[2];

  int layers = 0;
  InOutRefilling refilling = InOutRefilling::SimpleZsurf;
  InOutInput input = InOutInput::Free;

  InOutVelocityMode velocityMode = InOutVelocityMode::Fixed;
  InOutProfile profile = InOutProfile::Uniform;
  std::vector<InOutVelocityRow> velocity;  // Fixed: one row; Variable: the table (times not decreasing)
  std::string velocityFile;                // the file the table came from, if any
  std::shared_ptr<const InOutVelocityGrid> grid;  // Interpolated: the grid's velocities
  // Interpolated from <meshdata> (DualSPHysics' JMeshTDatasDsVel) instead: magnitudes along the
  // zone's direction (one component) or velocities (three), in time and space
  // (physics/mesh_data_physics.h); reverse, setvelmul and setveladd already applied. The data's
  // time at the run's time t is t + meshVelocityTime0 (<initialtime>; DualSPHysics' GPU code adds
  // it, its CPU code leaves it out).
  std::shared_ptr<const MeshData> meshVelocity;
  double meshVelocityTime0 = 0;
  // <flowvelocity active="true">: the velocities are flows, in litres (times this factor: 1 for
  // l/s, US gallons per litre for gal/s and 60 times that for gal/min, times the ratio) per second;
  // the loader turns them into speeds (case/inout_reader.cpp). 0: speeds in m/s.
  double flowVolumeFactor = 0;
  std::string flowUnits;

  // <jetcircle v distance radius>: a uniform inlet whose buffer particles within dp of the plane
  // aim at the circle of `jetRadius` `jetDistance` ahead of the zone's centre (circle zones only).
  bool jet = false;
  double jetRadius = 0, jetDistance = 0;

  InOutDensityMode densityMode = InOutDensityMode::Constant;

  InOutZsurfMode zsurfMode = InOutZsurfMode::Undefined;
  std::vector<InOutZsurfRow> zsurf;  // Fixed: one row; Variable: the table
  // A variable zsurf from <meshdata> (DualSPHysics' JSphInOutZsurf): in 2D, or from data with a
  // single column, the table above holds the data at the centre of the zone's points at each of
  // its times (those from the last at or before <initialtime> on, shifted by it), looped as
  // <timeloop> asks (from zsurfLoopEnd on the time goes back by zsurfLoopSpan). Otherwise
  // zsurfSeries holds, at each of those times, the data at the feet of zsurfColumns columns dp
  // apart across the zone from its corner on the upstream side (as for a calculated zsurf, at the
  // zone's points themselves), each position taking its nearest column's zsurf.
  std::shared_ptr<const MeshData> zsurfMesh;     // the file's data, as read (the loader's input)
  double zsurfMeshTime0 = 0;
  double zsurfLoopEnd = HUGE_VAL, zsurfLoopSpan = 0;
  std::shared_ptr<const MeshData> zsurfSeries;   // npt[0] = zsurfColumns; origin: the first column's foot
  bool removeAboveZsurf = false;     // <remove value="true">
  std::string zsurfFile;
  // Calculated (<imposezsurf mode="2">): `zsurf` holds <zsurf0>, the zsurf until the first step;
  // then after every step the free surface measured along `zsurfGauge` (DualSPHysics' mesh gauge:
  // points dp apart going up from <zsurfmin>, 2h ahead of the zone's points into the domain, the
  // first place where the kernel-summed fluid mass drops below 0.4 (2D) or 0.5 (3D) particle
  // masses). DualSPHysics 5.4 reads <zsurffit> but does not apply it with this gauge: nor do we.
  // A 3D zone whose points span more than dp across the flow has a column of such points every dp
  // across it (DualSPHysics' non-uniform zsurf): a position takes the zsurf of the nearest column
  // along the line of their feet.
  double zsurfMin = -HUGE_VAL;       // <zsurfmin>; -inf: the zone's lowest point
  std::vector<Vec3d> zsurfGauge;     // set by the loader: column after column, each from the bottom up
  uint32_t zsurfColumns = 1;         // columns in zsurfGauge
  Vec3d zsurfAcross;                 // from one column's foot to the next (length dp); zero for one column

  // Generated by the loader (geometry/inout_points.h): the first layer's points and the unit
  // direction after rotation; the plane's reference point (dp/2 ahead of the points); the zone's
  // box (its buffer layers, for the entry test with useboxlimit).
  std::vector<Vec3d> points;
  Vec3d unitDirection;
  Vec3d planePoint;
  Vec3d boxMin, boxMax;
  uint32_t initialParticles = 0;  // buffer particles created at the start
};

// Column c of a zone's zsurf series at time t, in single precision as DualSPHysics mixes them.
inline float zsurfColumnAt(const MeshData& series, double t, uint32_t c) {
  const MeshFrames f = meshFramesAt(series, t);
  const float a = series.frame(f.a)[c], b = series.frame(f.b)[c];
  return f.f == 0.0f ? a : f.f >= 1.0f ? b : (b - a) * f.f + a;
}

// The zone's zsurf at time t: linear between the table's rows, the first and last row's value
// before and after them (DualSPHysics' JLinearValue); +infinity when the zone has none; its first
// column's with a zsurf series.
inline double zsurfAt(const InOutZoneDef& z, double t) {
  if (z.zsurfSeries) return zsurfColumnAt(*z.zsurfSeries, t, 0);
  if (z.zsurf.empty()) return HUGE_VAL;
  if (t >= z.zsurfLoopEnd) {
    const double begin = z.zsurfLoopEnd - z.zsurfLoopSpan;
    t = std::fmod(t - begin, z.zsurfLoopSpan) + begin;
    if (t >= z.zsurfLoopEnd) t -= z.zsurfLoopSpan;
  }
  if (t <= z.zsurf.front().time) return z.zsurf.front().zsurf;
  if (t >= z.zsurf.back().time) return z.zsurf.back().zsurf;
  size_t k = 1;
  while (z.zsurf[k].time < t) ++k;
  const InOutZsurfRow &a = z.zsurf[k - 1], &b = z.zsurf[k];
  return b.time == a.time ? b.zsurf : a.zsurf + (t - a.time) / (b.time - a.time) * (b.zsurf - a.zsurf);
}

// The zone's zsurf at time t at horizontal position p: its nearest column's when it has a zsurf
// series, else zsurfAt.
inline double zsurfAtPoint(const InOutZoneDef& z, double t, const Vec3d& p) {
  if (!z.zsurfSeries || z.zsurfSeries->npt[0] < 2) return zsurfAt(z, t);
  const MeshData& s = *z.zsurfSeries;
  const Vec3d& u = s.vdp[0];
  const double steps = ((p.x - s.origin.x) * u.x + (p.y - s.origin.y) * u.y) / (u.x * u.x + u.y * u.y) + 0.5;
  const uint32_t c = steps <= 0 ? 0u : steps >= double(s.npt[0] - 1) ? s.npt[0] - 1 : uint32_t(steps);
  return zsurfColumnAt(s, t, c);
}

struct CaseInOut {
  bool active = false;  // the case has an active <inout> with zones
  int line = 0;
  double memoryResize0 = 2;  // <memoryresize size0>: extra room at the start, times the zones' full buffers
  double memoryResize1 = 4;  // <memoryresize size>: each later growth; 0 forbids growing
  bool useBoxLimit = true;
  bool freeCentreGiven = false;
  Vec3d freeCentre;
  double determLimit = 1e3;
  int extrapolateMode = 1;
  int refillingRate = 10;
  std::vector<InOutZoneDef> zones;

  // Buffer particles of all zones when full (points times layers): the unit of memoryresize.
  uint64_t fullBuffers() const {
    uint64_t n = 0;
    for (const InOutZoneDef& z : zones) n += uint64_t(z.points.size()) * uint64_t(z.layers);
    return n;
  }
};

}  // namespace sph
