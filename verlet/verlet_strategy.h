// The Verlet-list strategy of Takada et al. (2017), "Acceleration of SPH-based fluid simulation
// on GPU". Lists of every particle within Rc = 2h + dh are built from a cell sort (cells of Rc/2,
// from the engine's cell search) and kept while no particle has moved dh/2 since; particles are
// re-sorted only then.
// Between rebuilds prepare() only checks the displacement; interact() reads the lists.
// When the lists do not fit in device memory (or the VerletMemoryLimit option), the strategy
// says so once and uses the cell interaction on its rebuild sort, sorting every pass, until
// the next rebuild point; run.json counts how often.
//
// Options (options(), read from StrategyContext::options): VerletListSteps (C of eq. 2, default
// defaultListSteps(dim)), VerletMemoryLimit (bytes the lists may take; default: what the device
// has), VerletLayout (auto, indices, bitmask or clusters: verlet_layout.h; auto tries
// kAutoLayouts in order), and the cell search's CellMode and CellRows for the fallback.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "neighbours/cell_search.h"
#include "sph/plugin/neighbour_strategy.h"
#include "verlet_backend.h"
#include "verlet_skin.h"
#include "verlet_stats.h"

namespace sph::verlet {

// C of eq. 2 when VerletListSteps is not given: the value that minimised total time in sweeps
// on Hopper GPUs with steady steps replayed as CUDA graphs. 3D, DamBreak: C = 8 and 10 tie, 6 and
// 12 are slower. 2D, DamBreak2D: flat from 20 to 24, 8 clearly slower. In 2D the lists are short
// (~30 members), so a force pass costs a fifteenth of a rebuild (sort and build) and longer-lived
// lists win; in 3D the force pass over ~155 members costs a third of a rebuild and longer lists
// soon cost more.
inline constexpr double kDefaultListSteps3D = 8, kDefaultListSteps2D = 20;
inline double defaultListSteps(int dim) { return dim == 2 ? kDefaultListSteps2D : kDefaultListSteps3D; }

// The layouts of VerletLayout=auto, fastest first, each tried when the one before does not fit:
// index lists are the fastest; cluster lists take about a ninth of their memory and run
// slower (their members are decoded and staged at every force pass); bitmask lists are about
// as small and slower still (a list's cell rows are walked again at every force pass), and
// they hold lists of any length, where a cluster's j-clusters must fit a shared-memory table on
// the GPU. tools/bench/RESULTS.md measures them.
inline constexpr ListLayout kAutoLayouts[] = {ListLayout::Indices, ListLayout::Clusters, ListLayout::Bitmask};

// StrategyFor (neighbour_strategy.h) turns the member templates prepareT, interactT,
// correctBoundariesT and endStepT into the interface's float and double overloads.
class VerletStrategy final : public StrategyFor<VerletStrategy> {
 public:
  const char* name() const override { return "verlet"; }
  std::vector<StrategyOption> options() const override;
  std::vector<MemoryNeed> estimateMemory(const MemoryQuery& q) const override;
  // The support and the widest skin (verlet_skin.h's SkinRule::maxFraction).
  double haloReach(double support) const override { return support * (1.0 + SkinRule{}.maxFraction); }
  // Between rebuilds prepare() keeps the lists, whose copies' slots follow them.
  bool preparesBeforeHaloRefresh() const override { return true; }
  void configure(const StrategyContext& ctx) override;
  void beginStep(double lastDt) override;
  uint64_t replayToken() const override;
  void replayedStep() override;
  StrategyStats stats() const override;
  size_t deviceBytes() const override;
  size_t peakDeviceBytes() const override;

  // Builds the lists a rebuild prepare() left pending (interact() does this first); public so
  // tests can inspect lists without a force pass.
  void buildPendingLists(const ParticleView<float>& p) { buildPendingT(p); }
  void buildPendingLists(const ParticleView<double>& p) { buildPendingT(p); }

  // For tests: the lists of the last build, the list radius and the counters.
  HostLists lists() const;
  double listRadius() const { return rc_; }
  uint64_t rebuilds() const { return rebuilds_; }
  uint64_t fallbackPasses() const { return fallbackPasses_; }
  bool listsInUse() const { return built_ && !fallback_; }
  bool halfLists() const { return built_ && !fallback_ && listsOnce_; }

 private:
  friend class StrategyFor<VerletStrategy>;
  template <typename T>
  void prepareT(const ParticleView<T>& p, PrepareReason why);
  // Whether prepare(p, Step) will rebuild; the answer stands for that prepare().
  template <typename T>
  bool rebuildDueT(const ParticleView<T>& p);
  // The largest squared displacement since the lists were built (the check endStep() queued,
  // when it saw these particles).
  template <typename T>
  double displacement2(const ParticleView<T>& p);
  // mDBC: the cell search's correction on the tables of the last rebuild
  // (neighbours/cell_search.cpp). Its launch holds those tables (and the grid, which changes with
  // the skin) by value, so from the first call on a recorded step is valid only until the next
  // rebuild (replayToken).
  template <typename T>
  void correctBoundariesT(const ParticleView<T>& p, const PhysicsConstants<T>& c) {
    requireConfigured("correctBoundaries()");
    corrects_ = true;
    cell_.correctBoundaries(p, c);
  }
  // Inlets/outlets' extrapolation: the cell search's on the tables of the last rebuild, as mDBC's.
  // Its launch depends on the listed particles, which the engine lists every step: no replay
  // of steps with it (the engine does not record those).
  template <typename T>
  void extrapolateInOutT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const InOutExtrapolation& x) {
    requireConfigured("extrapolateInOut()");
    cell_.extrapolateInOut(p, c, x);
  }
  template <typename T>
  void interactT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out);
  template <typename T>
  void rememberView(const ParticleView<T>& p);
  template <typename T>
  void endStepT(const ParticleView<T>& p);
  template <typename T>
  void buildPendingT(const ParticleView<T>& p);
  template <typename T>
  void sortForRebuild(const ParticleView<T>& p, PrepareReason why);
  // No lists until the next rebuild; the cell search (cell_, as configured) instead.
  void enterFallback(size_t listBytes);
  void requireConfigured(const char* what) const;

  StrategyContext ctx_;
  SkinRule rule_;
  std::vector<ListLayout> layouts_{ListLayout::Indices};  // tried in order at each build
  uint64_t layoutBuilds_[kLayouts] = {};                  // builds per layout (ListLayout's values)
  uint64_t layoutFallbacks_ = 0;                          // builds in a layout after the first
  static constexpr uint32_t kRetryBuilds = 32;
  size_t firstLayout_ = 0;  // the layout (index in layouts_) the next build tries first: the last that fitted
  uint32_t buildsSinceRetry_ = 0;
  size_t memoryCap_ = 0;
  std::unique_ptr<VerletBackend> backend_;
  cell::CellSearch cell_;     // the rebuild sort and tables (cells of Rc/2), and the fallback
  double lastDt_ = 0, dh_ = 0, rc_ = 0;
  bool built_ = false, pendingBuild_ = false, fallback_ = false, warned_ = false;
  bool interiorDone_ = false;  // the Interior call of a split pass used the lists (interactT)
  bool checkQueued_ = false;   // endStep() queued the displacement check of these particles
  bool decided_ = false, decidedRebuild_ = false;  // rebuildDue()'s answer for the next prepare()
  bool corrects_ = false;      // correctBoundaries() is called (mDBC runs)
  // Pairs once (VerletPairs): the next builds ask for half lists (BuildRequest::pairsOnce) until
  // a pass that needs every pair from both sides is seen; listsOnce_: the lists in hand are half.
  bool pairsOnce_ = false, listsOnce_ = false;
  uint64_t onceBuilds_ = 0;
  uint32_t queuedN_ = 0;
  uint32_t builtN_ = 0;
  uint64_t queuedChecks_ = 0, waitedChecks_ = 0;
  uint64_t steps_ = 0, rebuilds_ = 0, fallbackEvents_ = 0, fallbackPasses_ = 0, stepsInFallback_ = 0;
  double sumMeanLength_ = 0;
  size_t listBytes_ = 0, peakListBytes_ = 0;
  // What stats() needs to measure the lists against the positions of the last pass.
  bool lastIsDouble_ = false;
  ParticleView<float> lastF_;
  ParticleView<double> lastD_;
};

}  // namespace sph::verlet
