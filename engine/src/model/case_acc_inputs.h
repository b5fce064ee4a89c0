// <execution><special><accinputs> of a case: external accelerations that change in time, imposed
// on fluid mks or on floating bodies, as DualSPHysics 5.4's JDsAccInput defines them (a moving
// tank's frame, seen from inside it). The physics is in physics/acc_input_physics.h; the reader in
// case/acc_inputs_reader.h.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "model/vec3d.h"

namespace sph {

// One <accinput>: the mks it names and its table of accelerations in time.
struct AccInput {
  bool bound = false;             // mkbound (floating bodies) rather than mkfluid
  std::vector<int> mks;           // local mkfluid or mkbound values
  std::vector<uint16_t> mkIndex;  // the same mks as indices into CaseDefinition::mks
  double start = 0;               // <time start end>: the accelerations apply for start <= t <= end
  double end = std::numeric_limits<double>::infinity();
  // <acccentre>: the centre of the angular acceleration, in single precision as DualSPHysics
  // keeps it.
  Vec3f centre;
  // <globalgravity value="1">: the case's gravity acts too; "0": it is taken away for these mks.
  bool globalGravity = true;
  // The rows: time, the linear (0-2, m/s^2) and angular (3-5, rad/s^2) accelerations, and the
  // velocities integrated from them row by row (accInputVelocities, acc_input_series.h).
  std::vector<double> time;
  std::vector<std::array<double, 6>> acc, vel;
  std::string file;  // <acctimesfile>, as opened; empty for <acctimes>
  int line = 0;      // of the <accinput> element (messages)
};

}  // namespace sph
