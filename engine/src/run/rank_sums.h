// What the ranks of one run measure together: each rank sums over the particles it owns (never the
// halo copies of another rank's), and the ranks add their sums in rank order
// (Communicator::sumInRankOrder), so that every rank gets the same bits and every rank moves what
// depends on them (floating bodies, a paddle absorbing waves) alike. What the ranks create
// (inlets' new particles) every rank learns whole, to number it as one rank would.
#pragma once

#include <functional>
#include <vector>

#include "gauges/gauge_sampler.h"
#include "inout/inout_ops.h"
#include "parallel/communicator.h"
#include "physics/floating_body_physics.h"

namespace sph {

// Each floating body's sums over the particles of every rank. Every rank calls it.
void sumOverRanks(const parallel::Communicator& comm, std::vector<BodySums>& sums);

// One end-of-step pass of the inlets/outlets over the ranks: `counts` and `growths` (this rank's
// reallocations since the last call) summed over every rank, and every rank's new buffer
// particles (InOutOps::takeSpawners) on every rank, in rank order. Every rank calls it every
// step, even with nothing to add.
void gatherOverRanks(const parallel::Communicator& comm, InOutCounts& counts, uint32_t& growths,
                     std::vector<InOutNewParticle>& spawned);

// Gauges over every rank's particles, without gathering them: at points, `local`'s raw sums
// (GaugeSource::pointSums, this rank's own particles) added over the ranks, then normalised; a
// maxz line's highest particle, the highest of every rank's. A force gauge sums over a wall's
// particles the forces of their fluid neighbours, which may lie on another rank: `walls` holds
// this rank's own particles and its halo's fluid copies, which the caller brought up to date
// (OutputSource::beforeForceGauges: the halo reaches every fluid neighbour of the rank's walls),
// and the ranks add their walls' sums in rank order. Every rank samples the same request at the
// same time (the gauges' schedule is every rank's).
class RankGauges final : public GaugeSource {
 public:
  RankGauges(const parallel::Communicator& comm, GaugeSource& local, GaugeSource& walls)
      : comm_(comm), local_(local), walls_(walls) {}
  void samplePoints(const std::vector<GaugePoint>& points, std::vector<PointSample>& out) override;
  void sample(const GaugeRequest& req, GaugeResults& out) override;

 private:
  const parallel::Communicator& comm_;
  GaugeSource& local_;
  GaugeSource& walls_;
  std::vector<double> sums_;
  GaugeRequest lines_, targets_;
  GaugeResults linesOut_, targetsOut_;
};

}  // namespace sph
