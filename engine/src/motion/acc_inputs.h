// The acceleration inputs of a run (<special><accinputs>, model/case_acc_inputs.h): their values at
// a step's time, interpolated on the host in double precision as DualSPHysics' JLinearValue does,
// and the small table the per-particle pass reads (physics/acc_input_physics.h), where the particles are.
#pragma once

#include <cstdint>
#include <vector>

#include "model/case_acc_inputs.h"
#include "physics/acc_input_physics.h"
#include "platform/device_array.h"

namespace sph {

// Fills in.vel from in.acc: zero at the first row, then v_k = v_{k-1} + a_k (t_k - t_{k-1}), with
// the acceleration of row k (not the mean of rows k-1 and k), as DualSPHysics integrates them.
void accInputVelocities(AccInput& in);

// The values of `in` at time t: inactive outside [start, end]; else the rows interpolated
// linearly in time, the first row's before it and the last row's after it.
AccInputValues accInputValuesAt(const AccInput& in, double t);

class AccInputs {
 public:
  // `nMk`: the case's mk table's size; `gravity`: what the integrators add.
  AccInputs(const std::vector<AccInput>& inputs, size_t nMk, const double gravity[3], Device d);

  // The table for the force passes of the step that starts at t (both passes of a symplectic
  // step see the same values, as in DualSPHysics); uploaded when t changes. Null when no input
  // is active at t.
  const AccInputTable* at(double t);

 private:
  std::vector<AccInput> inputs_;
  DeviceArray<int16_t> slotOfMk_;
  DeviceArray<AccInputValues> values_;
  std::vector<AccInputValues> host_;
  AccInputTable table_;
  bool any_ = false;
  bool evaluated_ = false;
  double lastT_ = 0;
};

}  // namespace sph
