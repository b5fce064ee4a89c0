// DualSPHysics' grid of inlet velocities (<imposevelocity mode="3"><gridveldata file>, its
// JSphInOutGridData, CSV format version 1):
//
//   fmtversion;grid_dpx;grid_dpz;grid_nx;grid_nz;vars
//   1;DPX;DPZ;NX;NZ;velx            (or "velx velz")
//   (a blank line)
//   time;vx_x0_z0;vx_x0_z1;...      (column names, not read)
//   T;VX(0,0);VX(0,1);...;VX(NX-1,NZ-1)[;VZ(0,0);...]
//
// values separated by ';' or ','; one row per time, times increasing; 1 <= NX <= 30 and
// 1 <= NZ <= 1000 as DualSPHysics allows. Errors name the file and the line.
#pragma once

#include <string>

#include "model/case_inout.h"

namespace sph {

// The grid of the file `path` (its x0, z0 left at 0 and resetVelz at its default).
InOutVelocityGrid readInOutVelocityGrid(const std::string& path);

}  // namespace sph
