// One case over several ranks (mpirun -np N sph run): each rank owns the particles of one slab of
// the domain along its longest axis (parallel/slab_plan.h) and runs the engine's step on them,
// with copies of the particles within reach of its slab on the ranks beside it (its halo,
// code::kHaloBit) as their neighbours. Before every force pass the particles that left a slab
// move to the rank whose slab they entered and the halo is replaced, so a pass sees every
// neighbour where it is now; the time step is the minimum of every rank's (EngineOps'
// DtMaximaCombiner). A run on one rank does none of this.
//
// The exchange goes through the host: the rank's arrays are read, the particles travel as
// records of every array (parallel/halo_exchange.h) and the arrays are written back in the
// engine's order (boundaries first), the halo after the rank's own particles of each kind.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "output/output.h"
#include "parallel/communicator.h"
#include "parallel/halo_exchange.h"
#include "parallel/slab_plan.h"
#include "run/particle_state.h"

namespace sph {

// The slabs every rank computes alike from the case's particles, and this rank's.
struct RankLayout {
  parallel::SlabPlan plan;
  parallel::Slab slab;
  double reach = 0;  // the halo's reach (the plugin's: NeighbourStrategy::haloReach)
  int rank = 0;
  // The rank that starts with a particle at `along` (its coordinate along the slab axis).
  int ownerOf(double along) const;
  // This rank's particles and halo at the start: the arrays' first capacity.
  uint64_t expectedParticles() const { return plan.owned[size_t(rank)] + plan.halo[size_t(rank)]; }
};

// The coordinate of case particle k along `axis`.
double caseAlong(const CaseDefinition& c, size_t k, int axis);

// The layout of `comm`'s ranks for a case and its run parameters. Throws InputError when the
// domain cannot hold a slab of the reach for each rank.
RankLayout planRanks(const CaseDefinition& c, const SimParameters& p, double reach, const parallel::Communicator& comm);

// Why a case cannot run over several ranks yet (empty when it can): the features whose state
// spans the ranks and is not combined across them.
std::string rankRefusal(const CaseDefinition& c);

// The snapshots of every rank concatenated on rank 0 in rank order; the others' left empty (their
// time kept). Every rank calls it.
void gatherSnapshot(const parallel::Communicator& comm, ParticleSnapshot& s);

// What the exchanges of a run moved, for the report.
struct RankExchangeTotals {
  uint64_t exchanges = 0;      // one before each force pass
  uint64_t haloParticles = 0;  // summed over the exchanges (this rank's halo)
  uint64_t migrated = 0;       // particles that came in from another rank
  uint64_t bytesSent = 0;      // halo copies and migrating particles this rank sent
};

template <typename T>
class RankExchange {
 public:
  RankExchange(const parallel::Communicator& comm, const RankLayout& layout) : comm_(comm), layout_(layout) {}

  // Before a force pass: drops the old halo and the parked particles, migrates the particles
  // that left the slab, appends the new halo (flagged code::kHaloBit), and grows the arrays of
  // `s` when they must (`needs` as allocated). Pointers into the arrays change; s.reorders
  // counts it. Every rank calls it.
  void exchange(ParticleState<T>& s, const ParticleArrayNeeds& needs);

  uint32_t owned() const { return owned_; }  // this rank's own particles after the last exchange
  uint32_t halo() const { return halo_; }
  const RankExchangeTotals& totals() const { return totals_; }
  const RankLayout& layout() const { return layout_; }

 private:
  const parallel::Communicator& comm_;
  RankLayout layout_;
  uint32_t owned_ = 0, halo_ = 0;
  RankExchangeTotals totals_;
  std::vector<std::vector<uint8_t>> host_;  // per array, reused between exchanges
};

}  // namespace sph
