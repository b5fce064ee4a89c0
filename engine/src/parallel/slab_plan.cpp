#include "parallel/slab_plan.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph::parallel {

SlabPlan planSlabs(const std::vector<double>& along, int axis, double lo, double hi, double reach, uint32_t ranks,
                   bool periodic) {
  if (!(reach > 0) || !(hi > lo))
    throw InputError(fmt::format("domain decomposition: a reach of {} m over [{}, {}] m", reach, lo, hi));
  SlabPlan plan;
  plan.axis = axis;
  plan.origin = lo;
  plan.periodic = periodic;
  // Whole layers of at least the reach; a periodic axis has to be cut into equal ones.
  const uint64_t layers = std::max<uint64_t>(1, uint64_t(std::floor((hi - lo) / reach)));
  plan.layer = (hi - lo) / double(layers);
  plan.layerParticles.assign(layers, 0);
  for (double x : along) {
    const double l = std::floor((x - lo) / plan.layer);
    plan.layerParticles[uint64_t(std::clamp(l, 0.0, double(layers - 1)))] += 1;
  }
  const std::vector<double> weight(plan.layerParticles.begin(), plan.layerParticles.end());
  plan.begin = balancedSlabs(weight, ranks, 1);
  countSlabs(plan);
  return plan;
}

void countSlabs(SlabPlan& plan) {
  const uint32_t ranks = uint32_t(plan.begin.size() - 1);
  const uint64_t layers = plan.layerParticles.size();
  const bool periodic = plan.periodic;
  plan.owned.assign(ranks, 0);
  plan.halo.assign(ranks, 0);
  for (uint32_t r = 0; r < ranks; ++r) {
    for (uint32_t l = plan.begin[r]; l < plan.begin[r + 1]; ++l) plan.owned[r] += plan.layerParticles[l];
    if (ranks == 1) continue;  // one rank's own periodic images are its cell search's
    // The layer before the slab and the one after it, where there is one (or, periodic, wrapping).
    const bool first = plan.begin[r] == 0, last = plan.begin[r + 1] == layers;
    if (!first || periodic) plan.halo[r] += plan.layerParticles[first ? layers - 1 : plan.begin[r] - 1];
    if (!last || periodic) plan.halo[r] += plan.layerParticles[last ? 0 : plan.begin[r + 1]];
  }
}

void pinSlabs(SlabPlan& plan, const std::vector<double>& bounds) {
  const uint32_t layers = uint32_t(plan.layerParticles.size());
  if (bounds.size() + 1 != plan.ranks())
    throw InputError(fmt::format("domain decomposition: {} slab boundaries for {} ranks; give {}", bounds.size(),
                                 plan.ranks(), plan.ranks() - 1));
  SlabBegins begin{0};
  for (double x : bounds) {
    const double l = std::round((x - plan.origin) / plan.layer);
    if (!(l > double(begin.back())) || !(l < double(layers)))
      throw InputError(
          fmt::format("domain decomposition: a slab boundary at {} m along {} leaves a slab without a "
                      "layer of {:.4g} m (the layers go from {} to {} m)",
                      x, "xyz"[plan.axis], plan.layer, plan.origin, plan.origin + plan.layer * layers));
    begin.push_back(uint32_t(l));
  }
  begin.push_back(layers);
  plan.begin = begin;
  countSlabs(plan);
}

}  // namespace sph::parallel
