// The gauges of a case (<execution><special><gauges>), as read from the XML: DualSPHysics'
// `swl` (free-surface position along a line), `velocity` (one point), `maxz` (the highest fluid
// near a vertical line), `force` (the fluid's force on one boundary mk) and `mesh` (velocity,
// density and free surface on a grid of points), plus a `pressure` point gauge of this engine. Values that DualSPHysics derives from the run (TimeOut, TimeMax, dp,
// h, the particle mass) stay unresolved here: they are fixed when the run starts
// (gauges/gauge_recorder.h), so --dp and --time-out apply to the gauges too.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace sph {

enum class GaugeKind { Swl, Velocity, Pressure, MaxZ, Force, Mesh };

struct GaugePoint {
  double x = 0, y = 0, z = 0;
};

// <savevtkpart>, <computedt>, <computetime start end>, <output>, <outputdt>,
// <outputtime start end>. A gauge's own elements override <default>'s (merged by the reader);
// what is still unset gets DualSPHysics' defaults at run time: compute and output every TimeOut
// from 0 to the end of the run, output off. A dt of 0 means every step.
struct GaugeTiming {
  std::optional<bool> saveVtkPart;  // accepted; this engine writes no gauge VTK files
  std::optional<double> computeDt, computeStart, computeEnd;
  std::optional<bool> output;
  std::optional<double> outputDt, outputStart, outputEnd;
};

// A mesh gauge's grid and outputs (DualSPHysics JGaugeMesh): points from <point> along up to three
// axes; an axis counts when its vector is not zero, its distpt > 0 and its length >= distpt, and then
// holds floor(length / distpt + 0.01) + 1 points distpt apart. The free surface is sought along the
// third axis, in each column of the first two.
struct MeshGaugeSpec {
  GaugePoint axis[3];          // <vec1>, <vec2>, <vec3>; zero when not given
  double length[3] = {0, 0, 0};  // <sizeN length>, m
  double distPt[3] = {0, 0, 0};  // <sizeN distpt>, m
  GaugePoint dirDat{1, 0, 0};  // <dirdat>: veldir is the velocity along it (made a unit vector)
  // <outputdata>: any of vel, veldir, rhop, zsurf.
  bool vel = false, velDir = false, rho = false, zsurf = false;
  // <outputfmt>: csv (the default) and/or bin (DualSPHysics' .mbi4, gauges/mesh_gauge.h).
  bool csv = true, bin = false;
  // <kclimit>: the Shepard sum sum V W from which values are divided by it (the kernel
  // correction); none (NONE): never, the raw sums are written. <kcdummy>: what points below the
  // limit get instead; none (NONE): their raw sums.
  std::optional<double> kcLimit = 0.5;
  std::optional<double> kcDummy = 0.0;
};

struct GaugeSpec {
  GaugeKind kind = GaugeKind::Velocity;
  std::string name;  // unique; the CSV file is OUT/gauges/<name>.csv
  int line = 0;      // line of the gauge element, for messages
  GaugeTiming timing;
  GaugePoint point;           // velocity, pressure: the measuring point; mesh: the grid's first point
  GaugePoint point0, point2;  // swl: the line walked from point0 towards point2
  // swl: spacing of the points on the line, <pointdp value> (m) or <pointdp coefdp> (x dp).
  double pointDp = 0;
  bool pointDpIsCoef = false;
  // swl, mesh: <masslimit value> (kg) or <masslimit coef> (x fluid particle mass); neither: the
  // DualSPHysics default coefficient (0.4 in 2D, 0.5 in 3D).
  std::optional<double> massLimit;
  std::optional<double> massLimitCoef;
  // maxz: the line goes up from point0 by `height` (m); fluid within `distLimit` of it
  // horizontally counts, <distlimit value> (m), <distlimit coefdp> (x dp) or <distlimit coefh>
  // (x h).
  double height = 0;
  enum class DistUnit { Metre, Dp, H };
  double distLimit = 0;
  DistUnit distLimitUnit = DistUnit::Metre;
  // force: <target mkbound>, and where the loader found it (attachGauges, after the particles are
  // made): its index in CaseDefinition::mks (the mk index of the particles' code) and its
  // global mk (the snapshot's).
  int mkBound = 0;
  int targetLine = 0;  // of <target>, for messages
  int mkIndex = -1;
  int mk = -1;
  MeshGaugeSpec mesh;  // mesh
};

struct CaseGauges {
  std::vector<GaugeSpec> items;  // in file order; inactive (active="false") gauges left out
};

}  // namespace sph
