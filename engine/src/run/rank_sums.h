// What the ranks of one run measure together: each rank sums over the particles it owns (never the
// halo copies of another rank's), and the ranks add their sums in rank order
// (Communicator::sumInRankOrder), so that every rank gets the same bits and every rank moves what
// depends on them (floating bodies, a paddle absorbing waves) alike.
#pragma once

#include <vector>

#include "gauges/gauge_sampler.h"
#include "parallel/communicator.h"
#include "physics/floating_body_physics.h"

namespace sph {

// Each floating body's sums over the particles of every rank. Every rank calls it.
void sumOverRanks(const parallel::Communicator& comm, std::vector<BodySums>& sums);

// Gauges at points over every rank's particles: `local`'s raw sums (GaugeSource::pointSums) added
// over the ranks, then normalised. Points only (what wave absorption measures every step). Every
// rank samples the same points at the same time.
class RankPointGauges final : public GaugeSource {
 public:
  RankPointGauges(const parallel::Communicator& comm, GaugeSource& local) : comm_(comm), local_(local) {}
  void samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) override;

 private:
  const parallel::Communicator& comm_;
  GaugeSource& local_;
  std::vector<double> sums_;
};

}  // namespace sph
