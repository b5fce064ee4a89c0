#include "model/periodic_parameters.h"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {
namespace {

// DualSPHysics' keys: <axis>PeriodicInc<other>, the shift of the image along <other>.
struct PeriodicKey {
  const char* name;
  int axis;
};
constexpr PeriodicKey kKeys[] = {{"XPeriodicIncY", 0}, {"XPeriodicIncZ", 0}, {"YPeriodicIncX", 1},
                                 {"YPeriodicIncZ", 1}, {"ZPeriodicIncX", 2}, {"ZPeriodicIncY", 2}};
constexpr const char* kAxisName[3] = {"x", "y", "z"};

// DualSPHysics' XYPeriodic, XZPeriodic, YZPeriodic: two axes periodic without shifts. They are
// read in this order after the shift keys, each, whatever its value, replacing all that came before
// (JSph::LoadConfigParameters): the last one present decides.
struct PairKey {
  const char* name;
  bool axes[3];
};
constexpr PairKey kPairKeys[] = {
    {"XYPeriodic", {true, true, false}}, {"XZPeriodic", {true, false, true}}, {"YZPeriodic", {false, true, true}}};

[[noreturn]] void badKey(const CaseDefinition& c, const std::string& key, const std::string& why) {
  const auto it = c.parameters.find(key);
  const int line = it == c.parameters.end() ? 0 : it->second.line;
  throw InputError(fmt::format("{}:{}: <parameter key=\"{}\">: {}", c.path, line, key, why));
}

void setAxis(Vec3d& v, int axis, double value) { (axis == 0 ? v.x : axis == 1 ? v.y : v.z) = value; }

}  // namespace

void derivePeriodicAxes(const CaseDefinition& c, SimParameters& p) {
  const char* keyOfAxis[3] = {nullptr, nullptr, nullptr};
  const PairKey* pair = nullptr;
  for (const PairKey& k : kPairKeys)
    if (c.parameters.count(k.name)) pair = &k;
  for (int a = 0; pair && a < 3; ++a) {
    p.periodic[a] = pair->axes[a];
    if (pair->axes[a]) keyOfAxis[a] = pair->name;
  }
  if (pair && pair->axes[1] && c.twoD) badKey(c, pair->name, "a 2D case (the x-z plane) cannot be periodic in y");
  for (const PeriodicKey& k : pair ? std::span<const PeriodicKey>{} : std::span<const PeriodicKey>{kKeys}) {
    if (c.parameters.find(k.name) == c.parameters.end()) continue;
    const double shift = parameterDouble(c, k.name, 0);  // throws for a value that is not a number
    if (shift != 0)
      badKey(c, k.name,
             fmt::format("nonzero periodic shift not supported (value {:g}; only 0, an image moved along {} "
                         "alone, is implemented)",
                         shift, kAxisName[k.axis]));
    if (k.axis == 1 && c.twoD) badKey(c, k.name, "a 2D case (the x-z plane) cannot be periodic in y");
    p.periodic[k.axis] = true;
    if (!keyOfAxis[k.axis]) keyOfAxis[k.axis] = k.name;
  }
  for (int a = 0; a < 3; ++a) {
    if (!p.periodic[a] || c.positions.empty()) continue;
    double lo = axisValue(c.positions.front(), a), hi = lo;
    for (const Vec3d& v : c.positions) {
      lo = std::min(lo, axisValue(v, a));
      hi = std::max(hi, axisValue(v, a));
    }
    setAxis(p.domainMin, a, lo - 0.5 * p.dp);
    setAxis(p.domainMax, a, hi + 0.5 * p.dp);
    const double period = p.period(a);
    if (!(p.support < 0.5 * period))
      badKey(c, keyOfAxis[a],
             fmt::format("the period along {} is {:g} m (the particles' extent plus dp), not more than twice the "
                         "kernel support 2h = {:g} m: a particle would interact with two images of a neighbour",
                         kAxisName[a], period, p.support));
  }
}

}  // namespace sph
