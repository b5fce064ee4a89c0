// One case over several ranks (mpirun -np N sph run): each rank owns the particles of one slab of
// the domain along its longest axis (parallel/slab_plan.h) and runs the engine's step on them,
// with copies of the particles within reach of its slab on the ranks beside it (its halo,
// code::kHaloBit) as their neighbours. Before every force pass the particles that left a slab
// move to the rank whose slab they entered and the halo is replaced, so a pass sees every
// neighbour where it is now; the time step is the minimum of every rank's (EngineOps'
// DtMaximaCombiner). A run on one rank does none of this.
//
// The exchange works where the particles are (EngineOps: marks, partitions and gathers on the
// device in GPU runs): only the particles that leave and the halo copies travel to the host, as
// records of every array (parallel/halo_exchange.h), and only those that arrive come back.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "output/output.h"
#include "parallel/communicator.h"
#include "parallel/halo_exchange.h"
#include "parallel/slab_plan.h"
#include "platform/host_staging.h"
#include "run/engine_ops.h"
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

// The layout of `ranks` ranks for a case and its run parameters, seen from rank `rank`; `reach`
// the plugin's (mDBC's ghost nodes add theirs). Throws InputError when the domain cannot hold a
// slab of the reach for each rank.
RankLayout planRanks(const CaseDefinition& c, const SimParameters& p, double reach, uint32_t ranks, int rank);
inline RankLayout planRanks(const CaseDefinition& c, const SimParameters& p, double reach,
                            const parallel::Communicator& comm) {
  return planRanks(c, p, reach, uint32_t(comm.size()), comm.rank());
}

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
  // Host wall seconds of the exchanges' parts: the partitions and reorders of the arrays (a GPU
  // reorder's kernel may end later); marking, gathering, reading and packing the particles that
  // travel, and unpacking and writing those that came; MPI.
  double arraySeconds = 0, stagingSeconds = 0, mpiSeconds = 0;
};

template <typename T>
class RankExchange {
 public:
  // threads: the host threads that pack and unpack the travelling particles.
  RankExchange(const parallel::Communicator& comm, const RankLayout& layout, EngineOps<T>* ops, int threads)
      : comm_(comm), layout_(layout), ops_(ops), threads_(threads > 0 ? threads : 1) {}

  // Before a force pass: drops the old halo and the parked particles, sends the particles that
  // left the slab to their new rank and takes in those that entered it, appends the new halo
  // (flagged code::kHaloBit) and puts the boundaries first again. The arrays of `s` grow when
  // they must (`needs` as allocated). Pointers into the arrays change; s.reorders counts it.
  // Every rank calls it.
  void exchange(ParticleState<T>& s, const ParticleArrayNeeds& needs);

  uint32_t halo() const { return halo_; }  // copies received at the last exchange
  const RankExchangeTotals& totals() const { return totals_; }
  const RankLayout& layout() const { return layout_; }

 private:
  // The particles whose code has kRankSendBit, gathered where they are and read as records into
  // `out` (the arrays keep them).
  void take(ParticleState<T>& s, parallel::Records& out);
  // Appends records after the particles [0, s.n), shifted as their coordinate along the axis
  // says (across a periodic seam), flagged as halo copies or as this rank's own.
  void append(ParticleState<T>& s, const ParticleArrayNeeds& needs, const parallel::Records& r, bool halo);
  // Each present array's element size and offset in a record (after the coordinate, a double).
  struct Field {
    size_t size = 0, offset = 0;
  };
  void describe(ParticleState<T>& s);

  const parallel::Communicator& comm_;
  RankLayout layout_;
  EngineOps<T>* ops_;
  int threads_;
  std::vector<Field> fields_;
  size_t recordSize_ = 0;
  uint32_t halo_ = 0;
  RankExchangeTotals totals_;
  // Per array: what travels, page-locked in GPU runs (the copies go by DMA), reused between
  // exchanges. ParticleArraySet has 11 arrays.
  static constexpr size_t kArrays = 11;
  std::array<HostStaging<uint8_t>, kArrays> host_;
  // The records of an exchange, their storage kept for the next: leavers, arrivals, copies sent
  // and received.
  parallel::Records leaving_, arrived_, near_, halo_in_;
};

}  // namespace sph
