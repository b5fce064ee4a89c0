// The neighbour-search strategy interface. The engine owns the particle arrays and the physics;
// a strategy owns how neighbours are found and iterated. Strategies live in plugins (shared
// libraries, see plugin_abi.h) and are chosen at run time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sph/plugin/inout_extrapolation.h"
#include "sph/plugin/particle_view.h"
#include "sph/plugin/phase_timer.h"
#include "sph/plugin/physics_constants.h"

namespace sph {

enum class Device { Cpu, Gpu };
enum class Precision { Single, Double };

inline const char* deviceName(Device d) { return d == Device::Gpu ? "gpu" : "cpu"; }
inline const char* precisionName(Precision p) { return p == Precision::Double ? "double" : "single"; }

// Engine service: reorder every particle array (including integrator history) so that
// new[i] = old[perm[i]] for i in [0, n). `perm` lives where the particles live.
class ParticleReorderer {
 public:
  virtual ~ParticleReorderer() = default;
  virtual void apply(const uint32_t* perm, uint32_t n) = 0;
};

struct StrategyContext {
  Device device = Device::Cpu;
  Precision precision = Precision::Single;
  int dim = 3;
  double h = 0;            // smoothing length
  double support = 0;      // interaction radius 2h
  double domainMin[3] = {0, 0, 0};
  double domainMax[3] = {0, 0, 0};
  // Axes that wrap over [domainMin, domainMax) (periodic.h): pair distances along them are the
  // minimum image, and the physics' PhysicsConstants::periodic describes the same box.
  bool periodic[3] = {false, false, false};
  uint32_t capacity = 0;   // most particles the run will ever hold
  int threads = 0;         // CPU threads (0: OpenMP default)
  ParticleReorderer* reorderer = nullptr;
  PhaseTimer* timer = nullptr;
  // Ranks the run is over (mpirun -np N sph run). Over several, the particles include copies of
  // the neighbouring ranks' particles (their halo, code::kHaloBit, reaching haloReach() beyond
  // this rank's slab), and rebuildDue() is asked before every force pass.
  uint32_t ranks = 1;
  // The strategy's options (NeighbourStrategy::options()) given on the command line or in the
  // case, e.g. "CellMode" = "half"; an option not given is absent.
  std::map<std::string, std::string> options;
};

// Why prepare() is called: a sort-based strategy re-sorts every time; a list-based one may keep
// its lists unless particles were added, removed or reordered by the engine.
enum class PrepareReason { Step, ParticlesChanged };

// Counters for the report, e.g. "candidates_per_particle", "in_range_ratio".
using StrategyStats = std::map<std::string, double>;

// An option of a strategy. The engine reads it for the strategy from the command line (`flag
// VALUE`), else from the case's <parameters> (`key`), checks the value and passes it in
// StrategyContext::options[key]; `sph plugins` lists it and run.json records where it came from.
struct StrategyOption {
  std::string key;    // the <parameter key> and the options key, e.g. "VerletLayout"
  std::string flag;   // the command line's flag, e.g. "--verlet-layout"; "" for none
  std::string value;  // how the usage names the value, e.g. "auto|indices|clusters|bitmask", "C"
  // The values allowed (compared without case); empty: any positive number.
  std::vector<std::string> choices;
  std::string help;   // what it does and its default
};

// What a strategy will hold for a case, estimated before anything is allocated: `sph info`
// prints it, and a run is checked against the need marked `minimum` with the engine's arrays.
struct MemoryQuery {
  Device device = Device::Gpu;  // where the run would hold it (host memory on the CPU)
  Precision precision = Precision::Single;
  int dim = 3;
  double dp = 0;       // the particle spacing: a case at rest is a lattice of dp
  double support = 0;  // 2h
  uint64_t particles = 0;
  // The strategy's options as the run would give them to configure() (StrategyContext::options).
  std::map<std::string, std::string> options;
  uint32_t ranks = 1;  // as StrategyContext::ranks; `particles` are then one rank's, halo included
};
struct MemoryNeed {
  std::string what;    // e.g. "index lists"
  double bytes = 0;    // beyond the engine's particle arrays
  std::string detail;  // e.g. "202 entries a particle at rest"; may be empty
  // The least the strategy runs with (a list strategy falling back to the cell search when its
  // lists do not fit): what a run must have room for. One need of a strategy's is the minimum.
  bool minimum = false;
};

class NeighbourStrategy {
 public:
  virtual ~NeighbourStrategy() = default;
  virtual const char* name() const = 0;
  // The options configure() reads from StrategyContext::options (none: an empty list).
  virtual std::vector<StrategyOption> options() const = 0;
  // What the strategy will hold for a case (neither configured nor allocated yet).
  virtual std::vector<MemoryNeed> estimateMemory(const MemoryQuery& q) const = 0;
  // How far beyond a rank's part of the domain its copies of the neighbouring ranks' particles
  // (the halo) must reach, for a support of 2h: at least the support. Beyond it, a skin lets the
  // ranks keep the halo's particles between exchanges, refreshing the copies in place, while
  // every particle has moved less than half the skin (rebuildDue()): lists kept between rebuilds
  // add the most their skin can be; a search that sorts at every pass may add one of its own.
  virtual double haloReach(double support) const { return support; }
  virtual void configure(const StrategyContext& ctx) = 0;
  // Called once per time step, before its first prepare(), with the dt of the previous step
  // (DtIni, or DtFixed, before the first): list-based strategies size their skin with it.
  virtual void beginStep(double lastDt) { (void)lastDt; }
  // Called at the end of every time step, after integration and before the engine waits for
  // the device, with the particles the next step starts from: work queued here is finished by
  // that wait, so a strategy can read its result in the next prepare() without a wait of its own.
  virtual void endStep(const ParticleView<float>& p) { (void)p; }
  virtual void endStep(const ParticleView<double>& p) { (void)p; }
  // Called before every force pass: sort, rebuild lists, or nothing. May reorder particles
  // through the context's reorderer (which also moves the arrays the views point to, so the
  // caller re-reads views after prepare()).
  virtual void prepare(const ParticleView<float>& p, PrepareReason why) = 0;
  virtual void prepare(const ParticleView<double>& p, PrepareReason why) = 0;
  // Whether the next prepare(p, PrepareReason::Step) needs the halo exchanged anew (asked just
  // before it, the particles as it will see them, in runs over several ranks only): lists about
  // to be rebuilt do, as does any strategy once a particle has moved half the skin its
  // haloReach() adds since the last exchange. The ranks ask every rank before each pass: when
  // none does, they only refresh their copies of each other's particles in place (the copies
  // keep their particles, and follow every reorder through the context's reorderer); when any
  // does, they exchange particles (and reorder them) and every rank's prepare() gets
  // PrepareReason::ParticlesChanged. The answer stands for that prepare(). The default, true,
  // suits strategies whose halo reaches the support alone.
  virtual bool rebuildDue(const ParticleView<float>& p) {
    (void)p;
    return true;
  }
  virtual bool rebuildDue(const ParticleView<double>& p) {
    (void)p;
    return true;
  }
  // Checkpoints of runs over several ranks: what the strategy keeps from the particles' places
  // between exchanges that a resumed run needs to decide its next exchange as the uninterrupted
  // run would (the cell plugin's places of the halo's skin). Empty, the default: nothing, and the
  // resumed run starts with an exchange once rebuildDue() asks for it. restoreState() gets the
  // bytes back after configure(), with the particles in the order they had when they were taken.
  virtual std::vector<uint8_t> saveState() const { return {}; }
  virtual void restoreState(const std::vector<uint8_t>& bytes) { (void)bytes; }
  // Whether, between exchanges, prepare(p, PrepareReason::Step) may run before the halo's copies
  // are refreshed, so that a run over several ranks can split a pass around the refresh
  // (ForcePart, particle_view.h): true for a strategy whose prepare() then reads nothing of the
  // copies (Verlet lists kept), or copes with the places they had before the refresh (the cell
  // search's sort, whose Border part scans as far as the copies have moved since). prepare() may
  // reorder the particles meanwhile (the refresh's copies follow them). The default: false: the
  // halo is refreshed before prepare().
  virtual bool preparesBeforeHaloRefresh() const { return false; }
  // One force pass over all active particles; pos.w holds pressure on entry.
  virtual void interact(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                        const ForceOutputs<float>& out) = 0;
  virtual void interact(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                        const ForceOutputs<double>& out) = 0;
  // mDBC (Boundary 2): before a force pass, after prepare(), every boundary particle with a
  // normal (p.normal) gets the density and pressure its ghost node's fluid neighbours give it
  // (mdbc_physics.h: mdbcAddFluid over the fluid particles within the support of the ghost node,
  // then mdbcDensity and mdbcStore). Only boundary particles' velrho.w and pos.w (with mDBC2 also
  // their code and tangent) are written.
  virtual void correctBoundaries(const ParticleView<float>& p, const PhysicsConstants<float>& c) = 0;
  virtual void correctBoundaries(const ParticleView<double>& p, const PhysicsConstants<double>& c) = 0;
  // Inlets/outlets with an extrapolated velocity or density: once a step, after prepare(), every
  // listed buffer particle takes what the fluid around its ghost node gives
  // (inout_extrapolation.h: inOutGhostNode, then inOutAddFluid over the candidates j near the node
  // with inOutSource(code[j]), then inOutStoreExtrapolated). Only the listed particles' velrho
  // and pos.w are written.
  virtual void extrapolateInOut(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                                const InOutExtrapolation& x) = 0;
  virtual void extrapolateInOut(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                                const InOutExtrapolation& x) = 0;
  // CUDA-graph replay of steady steps (GPU runs; the engine's run/step_graphs.h). Asked after the
  // step's prepare(): a nonzero token promises that this step's interact() and endStep() launch
  // exactly the device work (kernels, arguments, grid sizes) they launched in the last step that
  // returned the same token with the same particle arrays, without waiting for the device or
  // allocating. The token must change whenever any of that work changes. The engine may then
  // record those calls once and replay them, calling replayedStep() instead of interact() and
  // endStep(). 0 (the default) means "call me every step".
  virtual uint64_t replayToken() const { return 0; }
  // The engine replayed this step's recorded interact() and endStep(): keep the host
  // bookkeeping they keep (the device work has been queued).
  virtual void replayedStep() {}
  virtual StrategyStats stats() const = 0;
  virtual size_t deviceBytes() const = 0;  // bytes the strategy holds on the device now
  virtual size_t peakDeviceBytes() const = 0;
};

// The float and double overloads of a strategy written once: StrategyFor<S> implements them by
// calling S's member templates prepareT, interactT, correctBoundariesT, extrapolateInOutT and, if S declares them,
// endStepT (the default does nothing) and rebuildDueT (the default: true). S derives from StrategyFor<S> and befriends
// it when the templates are private.
template <class S>
class StrategyFor : public NeighbourStrategy {
 public:
  void endStep(const ParticleView<float>& p) override { self().endStepT(p); }
  void endStep(const ParticleView<double>& p) override { self().endStepT(p); }
  void prepare(const ParticleView<float>& p, PrepareReason why) override { self().prepareT(p, why); }
  void prepare(const ParticleView<double>& p, PrepareReason why) override { self().prepareT(p, why); }
  bool rebuildDue(const ParticleView<float>& p) override { return self().rebuildDueT(p); }
  bool rebuildDue(const ParticleView<double>& p) override { return self().rebuildDueT(p); }
  void interact(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                const ForceOutputs<float>& out) override {
    self().interactT(p, c, out);
  }
  void interact(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                const ForceOutputs<double>& out) override {
    self().interactT(p, c, out);
  }
  void correctBoundaries(const ParticleView<float>& p, const PhysicsConstants<float>& c) override {
    self().correctBoundariesT(p, c);
  }
  void correctBoundaries(const ParticleView<double>& p, const PhysicsConstants<double>& c) override {
    self().correctBoundariesT(p, c);
  }
  void extrapolateInOut(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                        const InOutExtrapolation& x) override {
    self().extrapolateInOutT(p, c, x);
  }
  void extrapolateInOut(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                        const InOutExtrapolation& x) override {
    self().extrapolateInOutT(p, c, x);
  }

 protected:
  template <typename T>
  void endStepT(const ParticleView<T>&) {}
  template <typename T>
  bool rebuildDueT(const ParticleView<T>&) {
    return true;
  }

 private:
  S& self() { return static_cast<S&>(*this); }
};

}  // namespace sph
