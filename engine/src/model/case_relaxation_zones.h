// Relaxation zones of a case's <special><relaxationzones> (DualSPHysics' JRelaxZones; Altomare et
// al. 2018, "Improved relaxation zone method in SPH-based model for coastal engineering
// applications", Applied Ocean Research 81): at the end of every step the velocity of the fluid in
// a zone is pulled towards a target, v = F u_target + (1 - F) v, with F the zone's weight at the
// particle (physics/relaxation_zone_physics.h). The target is the orbital velocity of regular
// (<rzwaves_regular>) or irregular (<rzwaves_spectrum>) waves, so that the zone makes waves and
// absorbs those coming back, or a uniform current (<rz_uniform>). Times are seconds, lengths
// metres.
#pragma once

#include <vector>

#include "model/case_ml_pistons.h"
#include "model/case_wave_paddles.h"
#include "model/vec3d.h"

namespace sph {

// What every zone shares: when it acts and how hard it pulls.
struct RelaxZoneCommon {
  int line = 0;
  double start = 0, duration = 0;  // duration 0: to the end of the run
  // F = weight(x) coefDt dt, or weight(x) alone when coefDt is 0 (DualSPHysics does not cap it at 1).
  double coefDt = 1000;
  double psi = 0.9, beta = 1;  // <function>: the weight's shape
};

// <rzwaves_regular> or <rzwaves_spectrum>: waves along x through the band |x - centerX| <= width/2
// (the whole height and width of the flume).
struct RelaxWaveZone {
  RelaxZoneCommon common;
  bool spectrum = false;
  // The waves as a paddle of model/case_wave_paddles.h describes them (height, period, depth,
  // order, start, duration, the spectrum's settings in `irregular`, ramp); gravity is the case's.
  WavePaddle waves;
  double swl = 0;            // z of the still-water level
  double centerX = 0, width = 0;
  Vec3d coefDir{1, 0, 1};    // x and z scale F for each velocity component; y is not touched
  double drift = 0;          // <driftcorrection>: the share of the Stokes drift taken out of u
  // <savemotion> (one, as DualSPHysics): the target at (xpos, zpos below the still-water level)
  // every dt for time seconds, written to RelaxZone_idN.csv.
  bool saveMotion = false;
  PaddleSaveMotion motion;
};

// <rz_uniform>: a current of `velocity` (or of <velocitytimes> at the step's time) along the
// box's direction, through a box from `origin` along the edges `edge[0..2]`, turned by any
// <rotateaxis>; the weight runs along the direction's edge.
struct RelaxUniformZone {
  RelaxZoneCommon common;
  Vec3d origin;
  Vec3d edge[3];
  int axis = 0;           // the edge the <direction> runs along
  double sign = 1;        // +1 along it, -1 against it
  double velocity = 0;
  std::vector<double> times, values;  // <velocitytimes>: linear between rows, held beyond them
};

// <rzwaves_external_1d>: the target is external velocity data (e.g. SWASH output), one file per
// x position (<filesvel>_velx_xNN_y00.csv, and _velz_ ones with <usevelz>), in the format of
// the multi-layer pistons' files (model/case_ml_pistons.h), through the band |x - centerX| <=
// width/2; the rules are in run/relaxation_zones.h.
struct RelaxExternalZone {
  RelaxZoneCommon common;
  std::vector<MlPistonData> velx, velz;  // per file, in x order
  bool useVelz = false;
  Vec3d moveData;          // <movedata>: the data's positions moved by it
  double dpzCoef = 2;      // <dpz valuedp>: the grid's step in z, times dp
  int smooth = 0;          // <smooth>: nodes each side averaged in z
  double centerX = 0, width = 0;
  Vec3d coefDir{1, 0, 0};  // x and z scale F for each velocity component
  double depth = 0, swl = 0;
};

struct CaseRelaxationZones {
  std::vector<RelaxWaveZone> waves;
  std::vector<RelaxUniformZone> uniform;
  std::vector<RelaxExternalZone> external;
  bool empty() const { return waves.empty() && uniform.empty() && external.empty(); }
};

}  // namespace sph
