// Multi-layer pistons (<special><mlayerpistons>, DualSPHysics' JMLPistons): a wave maker whose
// particles move along x layer by layer, each layer dp high (and, for piston2d, each column dp
// wide in y) with its own velocity, taken from external velocity data such as SWASH output. The
// rules are in motion/ml_piston_law.h.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace sph {

// A velocity file (<filevelx>, DualSPHysics' format, ';'-separated):
//   px:;POSX;py:;POSY          where the data were taken (not used for the motion)
//   a line of column names     (skipped)
//   T;Z0;...;Zn-1;V0;...;Vn-1  a row per time: the heights of the data's levels and the x
//                              velocity at each (the levels may change from row to row)
struct MlPistonData {
  std::string file;
  double posx = 0, posy = 0;
  uint32_t levels = 0;        // n
  std::vector<double> times;  // increasing
  std::vector<double> z, v;   // per row, n each
};

// The data of one column of the piston (all of a piston1d): its file, where in y it applies
// (piston2d) and the data's time at the run's 0 (<timedataini>).
struct MlPistonColumn {
  MlPistonData data;
  double posy = 0;
  double timeDataIni = 0;
};

struct MlPiston {
  int mkbound = 0;
  int line = 0;
  bool twoD = false;             // <piston2d>: columns across y
  double incz = 0;               // <incz>: added to the data's levels
  int smoothZ = 0, smoothY = 0;  // <smooth> (<smoothz>) and <smoothy>: moving averages over layers
  std::vector<MlPistonColumn> columns;
};

}  // namespace sph
