#include "run/rank_sums.h"

#include <algorithm>
#include <cstring>
#include <type_traits>

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

void gatherOverRanks(const parallel::Communicator& comm, InOutCounts& counts, uint32_t& growths,
                     std::vector<InOutNewParticle>& spawned) {
  // Each rank's part: its counts and growths, then its new particles.
  constexpr size_t kHead = 5 * sizeof(uint32_t);
  static_assert(std::is_trivially_copyable_v<InOutNewParticle>);
  const uint32_t head[5] = {counts.removed, counts.toFluid, uint32_t(spawned.size()), counts.toBuffer, growths};
  std::vector<uint8_t> mine(kHead + spawned.size() * sizeof(InOutNewParticle));
  std::memcpy(mine.data(), head, kHead);
  if (!spawned.empty()) std::memcpy(mine.data() + kHead, spawned.data(), spawned.size() * sizeof(InOutNewParticle));
  const std::vector<uint8_t> all = comm.gatherBytes(mine);
  counts = {};
  growths = 0;
  spawned.clear();
  for (size_t at = 0; at < all.size();) {
    uint32_t h[5];
    if (all.size() - at < kHead) throw RunError("MPI: a rank's inlet/outlet counts came truncated");
    std::memcpy(h, all.data() + at, kHead);
    at += kHead;
    const size_t bytes = size_t(h[2]) * sizeof(InOutNewParticle);
    if (all.size() - at < bytes) throw RunError("MPI: a rank's new inlet/outlet particles came truncated");
    counts.removed += h[0];
    counts.toFluid += h[1];
    counts.spawned += h[2];
    counts.toBuffer += h[3];
    growths += h[4];
    const size_t first = spawned.size();
    spawned.resize(first + h[2]);
    if (bytes > 0) std::memcpy(spawned.data() + first, all.data() + at, bytes);
    at += bytes;
  }
}

void RankGauges::samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) {
  local_.pointSums(points, sums_);
  comm_.sumInRankOrder(sums_);
  pointSamplesFromSums(sums_, out);
}

void RankGauges::sample(const GaugeRequest& req, GaugeResults& out) {
  samplePoints(req.points, out.points);
  out.maxZ.assign(req.lines.size(), kNoMaxZ);
  if (!req.lines.empty()) {
    lines_.lines = req.lines;
    local_.sample(lines_, linesOut_);
    out.maxZ = linesOut_.maxZ;
    comm_.maximumInPlace(out.maxZ.data(), int(out.maxZ.size()));
  }
  out.ace.assign(req.targets.size(), {0.0, 0.0, 0.0});
  if (req.targets.empty()) return;
  targets_.targets = req.targets;
  walls_.sample(targets_, targetsOut_);
  std::vector<double> sums(3 * req.targets.size());
  for (size_t k = 0; k < req.targets.size(); ++k)
    for (int c = 0; c < 3; ++c) sums[3 * k + size_t(c)] = targetsOut_.ace.at(k)[size_t(c)];
  comm_.sumInRankOrder(sums);
  for (size_t k = 0; k < req.targets.size(); ++k)
    for (int c = 0; c < 3; ++c) out.ace[k][size_t(c)] = sums[3 * k + size_t(c)];
}

}  // namespace sph
