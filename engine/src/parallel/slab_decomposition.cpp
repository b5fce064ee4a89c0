#include "parallel/slab_decomposition.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph::parallel {

int longestAxis(const double min[3], const double max[3]) {
  int axis = 0;
  for (int d = 1; d < 3; ++d)
    if (max[d] - min[d] > max[axis] - min[axis]) axis = d;
  return axis;
}

SlabBegins balancedSlabs(const std::vector<double>& weight, uint32_t ranks, uint32_t minLayers) {
  const uint64_t layers = weight.size();
  if (ranks == 0 || minLayers == 0)
    throw InputError(fmt::format("domain decomposition: {} ranks of at least {} cell layers each", ranks, minLayers));
  if (uint64_t(ranks) * minLayers > layers)
    throw InputError(fmt::format(
        "domain decomposition: {} ranks need at least {} cell layers along the longest axis ({} a rank), the "
        "domain has {}; run on fewer ranks",
        ranks, uint64_t(ranks) * minLayers, minLayers, layers));
  std::vector<double> prefix(layers + 1, 0.0);  // prefix[l]: the weight of layers [0, l)
  for (uint64_t l = 0; l < layers; ++l) {
    if (!(weight[l] >= 0.0) || !std::isfinite(weight[l]))
      throw InputError(fmt::format("domain decomposition: layer {} weighs {}", l, weight[l]));
    prefix[l + 1] = prefix[l] + weight[l];
  }
  const double total = prefix[layers];
  SlabBegins begin(ranks + 1, 0);
  begin[ranks] = uint32_t(layers);
  for (uint32_t k = 1; k < ranks; ++k) {
    // Room: the slabs before k and from k on each keep their minimum.
    const uint64_t lo = uint64_t(begin[k - 1]) + minLayers, hi = layers - uint64_t(ranks - k) * minLayers;
    const double target = total * double(k) / double(ranks);
    // The first boundary at or past the target, or the one before it if that comes nearer.
    uint64_t b = uint64_t(std::lower_bound(prefix.begin() + lo, prefix.begin() + hi + 1, target) - prefix.begin());
    if (b > lo && (b > hi || target - prefix[b - 1] <= prefix[b] - target)) --b;
    begin[k] = uint32_t(std::min(b, hi));
  }
  return begin;
}

uint32_t rankOfLayer(const SlabBegins& begin, uint32_t layer) {
  if (begin.size() < 2 || layer >= begin.back())
    throw RunError(fmt::format("domain decomposition: layer {} outside the {} layers of the slabs", layer,
                               begin.empty() ? 0u : begin.back()));
  return uint32_t(std::upper_bound(begin.begin(), begin.end(), layer) - begin.begin()) - 1;
}

SlabBegins rebalancedSlabs(const SlabBegins& begin, const std::vector<double>& stepSeconds,
                           const std::vector<double>& layerParticles, uint32_t minLayers, double threshold) {
  const size_t ranks = stepSeconds.size();
  if (begin.size() != ranks + 1 || begin.back() != layerParticles.size())
    throw RunError(fmt::format("domain decomposition: {} slab boundaries for {} ranks and {} layers", begin.size(),
                               ranks, layerParticles.size()));
  double mean = 0.0, busiest = 0.0;
  for (double s : stepSeconds) {
    mean += s / double(ranks);
    busiest = std::max(busiest, s);
  }
  if (!(busiest > mean * (1.0 + threshold))) return begin;
  std::vector<double> cost(layerParticles.size(), 0.0);
  for (size_t r = 0; r < ranks; ++r) {
    double particles = 0.0;
    for (uint32_t l = begin[r]; l < begin[r + 1]; ++l) particles += layerParticles[l];
    const double layers = double(begin[r + 1] - begin[r]);
    for (uint32_t l = begin[r]; l < begin[r + 1]; ++l)
      cost[l] = particles > 0.0 ? stepSeconds[r] * layerParticles[l] / particles : stepSeconds[r] / layers;
  }
  return balancedSlabs(cost, uint32_t(ranks), minLayers);
}

SlabBegins limitedMove(const SlabBegins& from, const SlabBegins& to, uint32_t minLayers) {
  if (from.size() != to.size() || from.empty() || from.back() != to.back() || from.front() != to.front())
    throw RunError(fmt::format("domain decomposition: slabs of {} boundaries moved to {}", from.size(), to.size()));
  SlabBegins b = to;
  for (size_t k = 1; k + 1 < b.size(); ++k) {
    const int64_t lo = int64_t(from[k - 1]) + 1, hi = int64_t(from[k + 1]) - 1;
    b[k] = lo > hi ? from[k] : uint32_t(std::clamp(int64_t(b[k]), lo, hi));
  }
  for (size_t k = 0; k + 1 < b.size(); ++k)
    if (b[k + 1] < b[k] + minLayers) return from;
  return b;
}

}  // namespace sph::parallel
