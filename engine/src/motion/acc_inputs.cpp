#include "motion/acc_inputs.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {

void accInputVelocities(AccInput& in) {
  in.vel.assign(in.time.size(), {});
  for (size_t k = 1; k < in.time.size(); ++k) {
    const double dt = in.time[k] - in.time[k - 1];
    for (int c = 0; c < 6; ++c) in.vel[k][c] = in.vel[k - 1][c] + in.acc[k][c] * dt;
  }
}

AccInputValues accInputValuesAt(const AccInput& in, double t) {
  AccInputValues v;
  v.globalGravity = in.globalGravity ? 1u : 0u;
  const double centre[3] = {double(in.centre.x), double(in.centre.y), double(in.centre.z)};
  std::copy(centre, centre + 3, v.centre);
  if (!(in.start <= t && t <= in.end) || in.time.empty()) return v;
  v.active = 1;
  // The first row at or after t. On a time given twice the value jumps: at that time it is the
  // first of the two rows' (DualSPHysics' JLinearValue gives the same).
  const size_t n = in.time.size();
  const size_t k = size_t(std::lower_bound(in.time.begin(), in.time.end(), t) - in.time.begin());
  double acc[6], vel[6];
  if (k == 0 || k == n || in.time[k] == t) {
    const size_t r = k == n ? n - 1 : k;
    std::copy(in.acc[r].begin(), in.acc[r].end(), acc);
    std::copy(in.vel[r].begin(), in.vel[r].end(), vel);
  } else {
    const double f = (t - in.time[k - 1]) / (in.time[k] - in.time[k - 1]);
    for (int c = 0; c < 6; ++c) {
      acc[c] = (in.acc[k][c] - in.acc[k - 1][c]) * f + in.acc[k - 1][c];
      vel[c] = (in.vel[k][c] - in.vel[k - 1][c]) * f + in.vel[k - 1][c];
    }
  }
  std::copy(acc, acc + 3, v.accLin);
  std::copy(acc + 3, acc + 6, v.accAng);
  std::copy(vel, vel + 3, v.velLin);
  std::copy(vel + 3, vel + 6, v.velAng);
  v.angular = (acc[3] != 0 || acc[4] != 0 || acc[5] != 0) ? 1u : 0u;
  return v;
}

AccInputs::AccInputs(const std::vector<AccInput>& inputs, size_t nMk, const double gravity[3], Device d)
    : inputs_(inputs), host_(inputs.size()) {
  if (inputs.size() > size_t(std::numeric_limits<int16_t>::max()))
    throw InputError(fmt::format("<accinputs>: {} inputs, more than {} are not supported", inputs.size(),
                                 std::numeric_limits<int16_t>::max()));
  std::vector<int16_t> slots(nMk, int16_t(-1));
  for (size_t k = 0; k < inputs.size(); ++k)
    for (uint16_t mk : inputs[k].mkIndex) slots.at(mk) = int16_t(k);
  slotOfMk_.allocate(d, nMk, "the acceleration inputs' mk table");
  slotOfMk_.upload(slots, "uploading the acceleration inputs' mk table");
  values_.allocate(d, inputs.size(), "the acceleration inputs' values");
  table_.slotOfMk = slotOfMk_.data();
  table_.nMk = uint32_t(nMk);
  table_.inputs = values_.data();
  std::copy(gravity, gravity + 3, table_.gravity);
}

const AccInputTable* AccInputs::at(double t) {
  if (!evaluated_ || t != lastT_) {
    any_ = false;
    for (size_t k = 0; k < inputs_.size(); ++k) {
      host_[k] = accInputValuesAt(inputs_[k], t);
      any_ = any_ || host_[k].active;
    }
    if (any_) values_.upload(host_, "uploading the acceleration inputs' values");
    evaluated_ = true;
    lastT_ = t;
  }
  return any_ ? &table_ : nullptr;
}

}  // namespace sph
