#include "run/rank_sums.h"

#include <algorithm>

#include "sph/plugin/errors.h"

namespace sph {

void sumOverRanks(const parallel::Communicator& comm, std::vector<BodySums>& sums) {
  // Each body's 12 sums and its contact count (exact in a double) in a row.
  constexpr size_t kRow = 13;
  static_assert(sizeof(BodySums) == kRow * sizeof(double), "every field of BodySums goes in a row");
  std::vector<double> v(sums.size() * kRow);
  for (size_t b = 0; b < sums.size(); ++b) {
    double* r = &v[b * kRow];
    std::copy(sums[b].ace, sums[b].ace + 3, r);
    std::copy(sums[b].torque, sums[b].torque + 3, r + 3);
    std::copy(sums[b].inertia, sums[b].inertia + 6, r + 6);
    r[12] = double(sums[b].contacts);
  }
  comm.sumInRankOrder(v);
  for (size_t b = 0; b < sums.size(); ++b) {
    const double* r = &v[b * kRow];
    std::copy(r, r + 3, sums[b].ace);
    std::copy(r + 3, r + 6, sums[b].torque);
    std::copy(r + 6, r + 12, sums[b].inertia);
    sums[b].contacts = uint32_t(r[12]);
  }
}

void RankGauges::samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) {
  local_.pointSums(points, sums_);
  comm_.sumInRankOrder(sums_);
  pointSamplesFromSums(sums_, out);
}

void RankGauges::sample(const GaugeRequest& req, GaugeResults& out) {
  if (!req.targets.empty()) {
    if (!whole_) throw RunError("force gauges over several ranks need the particles gathered to rank 0");
    whole_->sample(req, out);
    return;
  }
  samplePoints(req.points, out.points);
  out.ace.clear();
  out.maxZ.assign(req.lines.size(), kNoMaxZ);
  if (req.lines.empty()) return;
  lines_.lines = req.lines;
  local_.sample(lines_, linesOut_);
  out.maxZ = linesOut_.maxZ;
  comm_.maximumInPlace(out.maxZ.data(), int(out.maxZ.size()));
}

}  // namespace sph
