// The motion of a multi-layer piston (model/case_ml_pistons.h) as DualSPHysics 5.4 makes it. Its
// code is closed; every rule below was found from its runs (the piston particles' positions and
// velocities step by step) and is checked against them by engine/tests/motion/test_ml_pistons.cpp:
//
//  * layers: k = 0..nz-1 at z_k = zmin + k dp (zmin: the piston's lowest particle; nz from its
//    highest); a particle at z belongs to layer unsigned((z - zmin) / dp), and one above the top
//    layer does not move; piston2d also has columns j at y_j = ymin + j dp;
//  * a column's data: only the rows with timedataini <= T <= TimeMax + timedataini, at the run's
//    time s = T - timedataini; at each row, each layer's velocity is the row's profile at z_k,
//    each level of the data at its z + incz, linear between levels and the first or last level's
//    beyond them (data of exactly 3 levels: every layer takes the last level's, DualSPHysics'
//    "solid piston"; of 1 level: the level's at or below it, 0 above), then averaged over the
//    layers k - smooth..k + smooth that exist; the first row kept is 0 (the piston starts at rest);
//  * in time: linear between rows, the first segment extended before the first row, 0 after the
//    last (the piston stays); the displacement X_k(s) is the exact integral of that velocity from
//    the first row;
//  * piston2d: each column's layers, linear in y between the columns' posy (the first's or last's
//    beyond them), then averaged over the columns j - smoothy..j + smoothy that exist;
//  * each step [t, t1] moves a layer by X(t1) - X(t) (by X(t1) in the run's first step: the
//    piston jumps there when the data start before the first row kept) and sets the particles' x
//    velocity to the layer's velocity at t1; y and z stay.
#pragma once

#include <cstdint>
#include <vector>

#include "model/case_ml_pistons.h"

namespace sph {

class MlPistonLaw {
 public:
  // The piston's layers from its particles' extent (zmin..zmax, ymin..ymax) at spacing dp;
  // timeMax: the run's.
  MlPistonLaw(const MlPiston& p, double dp, double zmin, double zmax, double ymin, double ymax, double timeMax);

  uint32_t layersZ() const { return nz_; }
  uint32_t layersY() const { return ny_; }
  double zmin() const { return zmin_; }
  double ymin() const { return ymin_; }
  double dp() const { return dp_; }
  // Per cell (column j, layer k at index j nz + k): the displacement from the first row to s
  // and the velocity at s.
  std::vector<double> displacement(double s) const;
  std::vector<double> velocity(double s) const;

 private:
  struct Column {
    std::vector<double> times;  // run times of the rows kept
    std::vector<double> vel;    // per row, nz layer velocities
    std::vector<double> cumul;  // per row, nz displacements at the row
  };
  std::vector<double> columnsToCells(const std::vector<std::vector<double>>& perColumn) const;

  uint32_t nz_ = 1, ny_ = 1;
  double zmin_ = 0, ymin_ = 0, dp_ = 0;
  int smoothY_ = 0;
  std::vector<double> posy_;
  std::vector<Column> columns_;
};

}  // namespace sph
