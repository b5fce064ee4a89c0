// One case over several ranks (mpirun -np N sph run): each rank owns the particles of one slab of
// the domain along its longest axis (parallel/slab_plan.h) and runs the engine's step on them,
// with copies of the particles within reach of its slab on the ranks beside it (its halo,
// code::kHaloBit) as their neighbours. Before a force pass the particles that left a slab move to
// the rank whose slab they entered and the halo is replaced (an exchange), or, while the halo's
// particles still hold every neighbour within the support (NeighbourStrategy::rebuildDue), the
// copies are refreshed in place; either way a pass sees every neighbour where it is now. The
// time step is the minimum of every rank's (EngineOps' DtMaximaCombiner). A run on one rank does
// none of this.
//
// The exchange works where the particles are (EngineOps: marks, partitions, and packing into
// records, run/particle_records.h, on the device in GPU runs): only the records of the particles
// that leave and of the halo copies travel to the host, in one copy an exchange, and only those
// that arrive come back, in one copy.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "output/output.h"
#include "parallel/communicator.h"
#include "parallel/halo_exchange.h"
#include "parallel/slab_plan.h"
#include "platform/device_array.h"
#include "platform/gpu_runtime.h"
#include "platform/host_staging.h"
#include "run/engine_ops.h"
#include "run/particle_records.h"
#include "run/particle_state.h"
#include "sph/plugin/phase_timer.h"

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
  // New slab boundaries (plan.begin; plan.owned and plan.halo stay those of the start).
  void moveTo(const parallel::SlabBegins& begin);
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

// Part `path` of a run over several ranks: one legacy VTK file (what writeVtkParticles writes of
// the snapshots gathered in rank order) into which every rank writes its own particles `mine`, at
// their place, through a SharedFile; rank 0 writes the headers and renames it into place. Every
// rank calls it; a failure on any rank throws RunError on every rank, no file left.
void writeVtkOverRanks(const parallel::Communicator& comm, const std::string& path, const ParticleSnapshot& mine,
                       VtkPositionType posType = VtkPositionType::Float);

// The snapshots of every rank concatenated on rank 0 in rank order; the others' left empty (their
// time kept). Every rank calls it.
void gatherSnapshot(const parallel::Communicator& comm, ParticleSnapshot& s);

// What the exchanges of a run moved, for the report.
struct RankExchangeTotals {
  uint64_t exchanges = 0;      // before force passes that did not refresh the halo in place
  uint64_t haloParticles = 0;  // summed over the exchanges (this rank's halo)
  uint64_t migrated = 0;       // particles that came in from another rank
  uint64_t bytesSent = 0;      // halo copies and migrating particles this rank sent
  uint64_t rebalances = 0;     // times the slabs moved
  uint64_t rebalanceChecks = 0;  // times the ranks compared their force passes' seconds
  uint64_t refreshes = 0;      // passes whose halo was refreshed in place instead of exchanged
  uint64_t splitPasses = 0;    // refreshed passes whose interior interacted while the messages went
  // Each rank's seconds on its force passes, summed over the rebalancing checks (empty without).
  std::vector<double> rankBusySeconds;
  // Host wall seconds of the exchanges' parts: where the particles live (marks, partitions,
  // packing and unpacking records, reorders; a GPU kernel may end in a later part); the copies of
  // the records between the device and the host (GPU runs); MPI: the sizes, whose message waits
  // for the neighbour to get there, and the records.
  double arraySeconds = 0, stagingSeconds = 0, mpiWaitSeconds = 0, mpiSeconds = 0;
  // Refreshes over a device link on a side stream (GPU seconds, summed over those timed: a span
  // is read when it is done by the next exchange or refresh, not waited for): the messages'
  // time on their stream, and the part of it the kernels queued meanwhile did not hide.
  uint64_t timedTransfers = 0;
  double transferSeconds = 0, transferExposedSeconds = 0;
};

template <typename T>
class RankExchange {
 public:
  // deviceLink: what carries records between device buffers (GPU runs over NCCL), or null: they
  // go through the host, by `comm`. linkStream: the stream the link queues its messages on, if
  // not the default one (the exchange orders it against the default stream's kernels).
  RankExchange(const parallel::Communicator& comm, const RankLayout& layout, EngineOps<T>* ops,
               const parallel::MessageTransport* deviceLink = nullptr, gpu::SideStream* linkStream = nullptr)
      : comm_(comm), layout_(layout), ops_(ops), link_(deviceLink), linkStream_(linkStream) {}

  // Before a force pass: drops the old halo and the parked particles, sends the particles that
  // left the slab to their new rank and takes in those that entered it, appends the new halo
  // (flagged code::kHaloBit) and puts the boundaries first again. The arrays of `s` grow when
  // they must (`needs` as allocated). Pointers into the arrays change; s.reorders counts it.
  // Every rank calls it. `timer` times the migration (MPI-Migrate) and the halo (MPI-Halo).
  void exchange(ParticleState<T>& s, const ParticleArrayNeeds& needs, PhaseTimer* timer = nullptr);

  // Between exchanges, for a neighbour strategy that keeps what it built from the particles'
  // places (NeighbourStrategy::rebuildDue false on every rank): each rank sends the particles it
  // sent at the last exchange again, as they are now, and writes those it receives over the
  // copies they replace, so the halo keeps its particles and their places; no particle migrates
  // (one that left the slab stays until the next exchange). canRefresh(): since the last
  // exchange `s` was reordered only through ParticleState::apply (the halo's index lists follow
  // the particles), and nothing dropped. Every rank calls it. `timer` times it as MPI-Halo.
  // forcePass: it comes before a force pass (counted, and timed for rebalancing), not before a
  // force gauge's sample.
  bool canRefresh() const { return haloKept_; }
  // From the next exchange on, keep the halo's index lists for refresh() (asked once a strategy
  // first says that a pass needs no new halo; until then exchanges skip that work).
  void keepHalo() { keepHalo_ = true; }
  void refresh(ParticleState<T>& s, PhaseTimer* timer = nullptr, bool forcePass = true);
  // refresh() in two halves, for a force pass split around it (ForcePart, particle_view.h), so
  // that the messages travel while the particles far from the halo interact: beginRefresh()
  // packs what goes and posts the messages; finishRefresh() waits for them and writes the copies.
  // In between the copies stay as they were; the particles may be reordered through
  // ParticleState::apply (the copies' places follow), not otherwise changed. Both time
  // themselves as MPI-Halo.
  void beginRefresh(ParticleState<T>& s, PhaseTimer* timer = nullptr);
  void finishRefresh(ParticleState<T>& s, PhaseTimer* timer = nullptr, bool forcePass = true);
  // The interior of a split pass begins (after beginRefresh()): counted, and timed for
  // rebalancing. The particles whose sums wait for the halo are those marked
  // code::kNearHaloBit, by every exchange once keepHalo() was asked for: those it sent as
  // copies, within the halo's reach of a slab boundary with a rank beyond it. No other particle
  // can have a copy within the support until the next exchange: the reach is the support and the
  // widest skin (NeighbourStrategy::haloReach), and between exchanges every particle and copy
  // moves less than half the skin.
  void splitPassBegins();

  // Dynamic rebalancing: before every `passes`-th force pass the ranks compare the seconds each
  // spent on its force passes since the last comparison (from the end of an exchange or refresh
  // to computeDone()); when the busiest exceeds the mean by more than `threshold` (0.1: 10%) the
  // slab boundaries move by whole layers towards an even cost (parallel::rebalancedSlabs, as far
  // as parallel::limitedMove lets one exchange go), and that pass's exchange migrates the
  // particles. threshold < 0 or passes 0: the slabs keep their first bounds.
  void rebalanceEvery(uint32_t passes, double threshold) {
    rebalanceEvery_ = passes;
    rebalanceThreshold_ = threshold;
  }
  // Before every force pass, on every rank (the comparison is collective): counts the pass and
  // compares when it is due. Returns whether the slabs moved: the pass must then exchange, not
  // refresh.
  bool rebalanceIfDue(ParticleState<T>& s);
  // This rank's work on a force pass is done (it is about to wait for the others' time step).
  void computeDone();
  const parallel::SlabBegins& slabs() const { return layout_.plan.begin; }
  // The slabs a checkpoint kept; InputError when they do not fit this run's layers and ranks.
  void restoreSlabs(const parallel::SlabBegins& begin);

  // Checkpoints: the halo kept for refresh() (its index lists, in the order of the particles
  // the checkpoint holds), so that a resumed run refreshes where the uninterrupted one would;
  // nothing while none is kept. restoreHalo(): after `s` was restored from the same checkpoint;
  // returns whether a kept halo was there.
  void saveHalo(CheckpointWriter& w) const;
  bool restoreHalo(const CheckpointReader& r, ParticleState<T>& s);

  uint32_t halo() const { return halo_; }  // copies received at the last exchange
  const RankExchangeTotals& totals() const { return totals_; }
  const RankLayout& layout() const { return layout_; }

 private:
  // The comparison of rebalanceEvery(), every rank at the same pass; whether the slabs moved.
  bool rebalance(ParticleState<T>& s);
  // Adds the side stream's last span to the totals if it was a refresh's and is done.
  void takeRefreshSpan();
  // Marks the particles of [0, s.n) whose coordinate along the axis is below `below` or at or
  // above `above` and packs them as records (their coordinate moved by `shift`) after the first
  // `first` records of out_; returns how many.
  // `kept` (not null) keeps the indices of the packed particles, in the records' order.
  uint32_t pack(ParticleState<T>& s, double below, double above, double shift, size_t first,
                DeviceArray<uint32_t>* kept = nullptr);
  // Packs what `sides` sends (the lower rank's records, then the upper's) and swaps them with the
  // neighbours; returns how many records came back (in arrivals()). keepHalo: the halo's send
  // lists keep the packed particles.
  size_t send(ParticleState<T>& s, const parallel::Sides& sides, std::chrono::steady_clock::time_point& t,
              bool keepHalo = false);
  // Swaps the `down` and `up` records (of recordBytes each) packed in out_ with the neighbours.
  parallel::Arrived swap(ParticleState<T>& s, size_t down, size_t up, size_t recordBytes,
                         std::chrono::steady_clock::time_point& t);
  // The halo's index lists after a reorder of s (ParticleState::reordered).
  void follow(const uint32_t* perm, uint32_t n);
  // The `count` records that came at the last send(), in host memory.
  const uint8_t* arrivals(size_t count);
  // Writes the `count` records that came after the particles [0, s.n), as halo copies or as this
  // rank's own.
  void unpack(ParticleState<T>& s, const ParticleArrayNeeds& needs, size_t count, bool halo,
              std::chrono::steady_clock::time_point& t);

  const parallel::Communicator& comm_;
  RankLayout layout_;
  EngineOps<T>* ops_;
  const parallel::MessageTransport* link_;
  gpu::SideStream* linkStream_;
  bool spanIsRefresh_ = false;  // the side stream's last join was a refresh's
  RecordLayout records_;
  bool gpu_ = false;
  uint32_t halo_ = 0;
  RankExchangeTotals totals_;
  uint32_t rebalanceEvery_ = 0, sinceRebalance_ = 0;
  double rebalanceThreshold_ = -1;
  double busySeconds_ = 0;                           // force passes since the last comparison
  std::chrono::steady_clock::time_point passStart_;  // the end of the last exchange
  bool inPass_ = false;
  // The records of an exchange, their storage kept from one exchange to the next: packed where
  // the particles live (out_), read into page-locked host memory (sent_) and sent; received
  // into page-locked host memory (received_) and written where the particles live (in_). In CPU
  // runs, and over a device link, out_ is sent and in_ received as they are.
  DeviceArray<uint8_t> out_, in_;
  HostStaging<uint8_t> sent_, received_;
  // The halo of the last exchange, for refresh(): the particles this rank sent to the lower and
  // the upper rank, in the order sent, and where the copies it received (the lower rank's, then
  // the upper's) lie now; they follow every reorder (follow()). inverse_: follow()'s scratch.
  bool keepHalo_ = false, haloKept_ = false;
  DeviceArray<uint32_t> sentLower_, sentUpper_, haloSlots_, inverse_;
  uint32_t sentLowerCount_ = 0, sentUpperCount_ = 0;
  size_t fromLower_ = 0, fromUpper_ = 0;  // records
  // A refresh between its halves: the messages in flight and the records' layout.
  std::unique_ptr<parallel::PendingTransfer> pending_;
  RecordLayout refreshRecords_;
};

}  // namespace sph
