#include "run/simulation_core.h"

#include <algorithm>
#include <bit>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <omp.h>

#include "floating/floating_bodies.h"
#include "gauges/device_gauges.h"
#include "inout/inout_ops.h"
#include "inout/inout_zones.h"
#include "model/periodic_parameters.h"
#include "motion/acc_inputs.h"
#include "motion/boundary_motion.h"
#include "physics/position_split.h"
#include "platform/gpu_runtime.h"
#include "platform/host_staging.h"
#include "run/float_positions.h"
#include "parallel/nccl_link.h"
#include "run/rank_domain.h"
#include "run/rank_sums.h"
#include "run/step_graphs.h"
#include "sph/plugin/errors.h"
#include "sph/plugin/particle_code.h"

namespace sph {
namespace {

// Particles per chunk of the initial upload: 80 MB of page-locked staging in single precision,
// large enough that each copy runs at the link's speed.
constexpr uint32_t kUploadChunk = 1u << 21;
// Diverged particles a failed run's message names.
constexpr int kDivergedNamed = 3;

// A rank's part of a run over several in its checkpoint.
struct RankCheckpoint {
  uint32_t ranks, rank;
  uint64_t particles;  // the run's, on every rank
};

// The run's scalars in a checkpoint.
struct CoreCheckpoint {
  double t, dt, dtNext;
  uint64_t steps, dtMinHits, particleSteps, compactions;
  uint32_t excludedOutOfDomain, excludedDensity;
  int32_t verletCounter;
  uint32_t parked;
  StepScalars scalars;  // as the last step left them in the engine's passes
};

template <typename T>
class SimulationCore final : public Simulation::Impl {
 public:
  SimulationCore(const CaseDefinition& c, const RunOptions& o, Device d, NeighbourPlugin neighbours,
                 const parallel::Communicator& comm)
      : comm_(comm) {
    p = runParameters(c, o, neighbours.options());
    opts = o;
    // Ranks on one machine share its cores, unless --threads says how many a rank has.
    if (!comm.single() && opts.threads <= 0)
      opts.threads = std::max(1, omp_get_num_procs() / std::max(1, comm.localSize()));
    timeMax = p.timeMax;
    header_ = checkpointHeaderFor(c, p, o.precision);
    caseName = c.name;
    casePath = c.path;
    gauges = c.gauges;
    for (const MotionObject& m : c.motions)
      if (m.paddle) paddles.push_back(*m.paddle);
    mks = c.mks;
    device = d;
    consts_ = makePhysicsConstants<T>(p);
    gaugeParams_ = makeGaugeSumParams(kGaugeKernel, p.dim, p.h, p.massFluid, p.rho0, p.cteB, p.gamma);
    nBoundInitial = c.nBound;
    nFluidInitial = c.nFluid;
    setupLap("parameters");

    ops_ = d == Device::Gpu ? makeGpuOps<T>() : makeCpuOps<T>(opts.threads);
    timer = !o.phaseTimers ? makeNullTimer() : d == Device::Gpu ? makeGpuTimer() : makeCpuTimer();
    const uint32_t count = uint32_t(c.positions.size());
    if (c.inout.active) {  // (never resumed: Simulation's constructor refuses it)
      inOut_ = std::make_unique<InOutZones>(c.inout, c.dp, p.rho0, p.cteB, p.gamma, c.constants.gravity.z, p.massFluid,
                                            p.dim == 2, d);
      inOutOps_ = d == Device::Gpu ? makeInOutGpuOps<T>() : makeInOutCpuOps<T>(opts.threads);
      inOut_->totals.initial = c.inout.zones.empty() ? 0 : std::count_if(c.inOutZone.begin(), c.inOutZone.end(), [](uint8_t z) {
        return z != CaseDefinition::kNoInOutZone;
      });
      // The buffer particles' mk (case/inout_reader.cpp gives them one, the last fluid mk), for
      // those advanced refilling creates.
      uint32_t bufferMk = uint32_t(c.mks.size() - 1);
      for (size_t i = 0; i < c.inOutZone.size(); ++i)
        if (c.inOutZone[i] != CaseDefinition::kNoInOutZone) {
          bufferMk = c.mkIndex[i];
          break;
        }
      inOut_->setNewParticleCode(code::make(false, bufferMk));
    }
    std::optional<RankLayout> layout;
    if (!comm.single()) {
      layout = planRanks(c, p, neighbours.strategy->haloReach(p.support), comm);
      if (!opts.rankSlabBounds.empty()) {
        parallel::pinSlabs(layout->plan, opts.rankSlabBounds);
        layout->moveTo(layout->plan.begin);
      }
    }
    // Inlets create particles: room for memoryresize's size0 times their full buffers more. A
    // rank of several holds its slab's particles and halo, and the arrays grow when it must.
    const uint32_t capacity = layout ? uint32_t(std::min<uint64_t>(count, layout->expectedParticles() * 5 / 4 + 1024))
                                     : count + (inOut_ ? inOut_->initialRoom() : 0);
    ParticleArrayNeeds needs;
    needs.posPre = p.stepAlgorithm == 2;
    needs.shift = shifting();
    needs.sps = sps();
    needs.normals = p.mdbc();
    needs.tangents = p.mdbc2();
    needs.motionAce = p.mdbc2() && !c.motions.empty();
    needs.posLo = std::is_same_v<T, float>;
    needs_ = needs;
    state_ = std::make_unique<ParticleState<T>>(d, capacity, needs, ops_.get());
    setupLap("device arrays");
    const ParticleOrder order = planParticleOrder(c);
    if (layout) {
      // This rank's particles, in the engine's order; their ids are those of a run on one rank.
      const int axis = layout->plan.axis;
      for (uint32_t i = 0; i < count; ++i)
        if (layout->ownerOf(caseAlong(c, order.caseOf(i), axis)) == comm.rank()) mine_.push_back(i);
      if (opts.rankLink == RunOptions::RankLink::Nccl) {
        if (d != Device::Gpu) throw InputError("--rank-exchange nccl: NCCL joins GPUs; this run is on the CPU");
        if (comm.localSize() > gpu::deviceCount())
          throw InputError(
              fmt::format("--rank-exchange nccl: NCCL wants one rank a GPU, and {} ranks share the {} "
                          "GPU(s) of this machine; start at most as many, or use --rank-exchange host",
                          comm.localSize(), gpu::deviceCount()));
        nccl_ = std::make_unique<parallel::NcclLink>(comm);
        // Its messages on a stream of their own: a halo's refresh travels while the interior's
        // kernels run (RankExchange::beginRefresh).
        linkStream_ = std::make_unique<gpu::SideStream>();
        nccl_->queueOn(linkStream_->handle());
        if (parallel::boundToOneCore())
          p.warnings.push_back(
              "--rank-exchange nccl: this rank may run on one core only, which NCCL's helper thread shares "
              "(each exchange then waits milliseconds for it); start the ranks with `mpirun --bind-to none` "
              "or give each several cores (`--map-by slot:PE=N`)");
      }
      ranks_ = std::make_unique<RankExchange<T>>(comm, *layout, ops_.get(), nccl_.get(), linkStream_.get());
      ranks_->rebalanceEvery(opts.rankRebalanceEvery, opts.rankRebalance);
      // The halo across a periodic seam along the slab axis comes shifted by the period: pairs
      // take plain distances there, and migration wraps the particles that cross it.
      consts_.periodic.length[axis] = T(0);
      ops_->combineDtMaximaWith([this, &comm](double* m) {
        ranks_->computeDone();
        comm.maximumInPlace(m, 3);
      });
    }
    setupLap("particle order");
    if (!c.floatings.empty()) {
      floating_ = std::make_unique<FloatingBodies<T>>(c, p, order, d, capacity, opts.threads);
      consts_.floating = floating_->pairTable();
      if (ranks_) floating_->combineSumsWith([&comm](std::vector<BodySums>& sums) { sumOverRanks(comm, sums); });
      setupLap("floating bodies");
    }
    upload(c, order);
    idNext_ = count;
    if (c.dtLog.active) dtLog_ = std::make_unique<DtLog>(c.dtLog, p.timeOut);
    if (inOut_) {
      imposeInOut(0.0, true);  // DualSPHysics' InOutUpdatePartsData at the start
      inOutExtrapolationDue_ = inOut_->extrapolates();
    }

    strategy = std::move(neighbours.strategy);
    plugin = neighbours.info;
    strategy->configure(strategyContext(opts, d, capacity));
    setupLap("neighbour plugin");

    // Timed runs replay too: the phase timers' events become nodes of the graph (platform/phase_timers.h).
    // Not over several ranks: each pass waits for the exchange between them.
    if (d == Device::Gpu && o.stepGraphs && !ranks_) graphs_ = makeStepGraphs();
    if (!c.motions.empty()) motion_ = std::make_unique<BoundaryMotion<T>>(c, p, d, opts.threads);
    if (!p.shiftZones.empty()) {
      shiftZones_.allocate(d, p.shiftZones.size(), "the shifting zones");
      shiftZones_.upload(p.shiftZones, "uploading the shifting zones");
    }
    if (!c.damping.empty()) {
      dampingZones_.allocate(d, c.damping.size(), "the damping zones");
      dampingZones_.upload(c.damping, "uploading the damping zones");
      dampingCount_ = uint32_t(c.damping.size());
    }
    if (!c.relaxZones.empty()) {
      const Vec3d& g = c.constants.gravity;
      relaxZones = std::make_shared<RelaxationZones>(c.relaxZones, std::sqrt(g.x * g.x + g.y * g.y + g.z * g.z),
                                                     p.timeMax, p.dp);
      const std::vector<double>& w = relaxZones->waveData();
      if (!w.empty()) {
        relaxWaves_.allocate(d, w.size(), "the relaxation zones' waves");
        relaxWaves_.upload(w, "uploading the relaxation zones' waves");
      }
    }
    if (!c.accInputs.empty()) {
      const double g[3] = {double(consts_.gx), double(consts_.gy), double(consts_.gz)};
      accInputs_ = std::make_unique<AccInputs>(c.accInputs, c.mks.size(), g, d);
    }
    dtRule_ = DtRule{p.cfl, p.h, p.c0, p.dtIni, p.dtMin, p.dtFixed, p.dtAllParticles};
    limits_ = {T(p.domainMin.x), T(p.domainMin.y), T(p.domainMin.z), T(p.domainMax.x), T(p.domainMax.y),
               T(p.domainMax.z), T(p.rhoOutMin), T(p.rhoOutMax)};
    openPeriodicLimits(limits_, p);
    parking_.axis = !p.periodic[2] ? 2 : !p.periodic[0] ? 0 : !p.periodic[1] ? 1 : -1;
    if (parking_.axis >= 0) {
      parking_.start = parking_.axis == 0 ? p.domainMax.x : parking_.axis == 1 ? p.domainMax.y : p.domainMax.z;
      parking_.spacing = 10 * p.support;  // several list radii (Rc = 2h + skin, the skin below h)
    }
    setupLap("motion and graphs");
  }

  // One step with one wait for the device at its end (finishStep): dt is computed where the
  // particles are and the host learns it, and the exclusion counts, afterwards.
  void step() override {
    // The strategy's estimate of this step's dt: the symplectic integrator knows it (carried from
    // the last step); the Verlet integrator's comes from this step's forces, so the last one.
    const bool symplectic = p.stepAlgorithm == 2;
    const double stepDt = stepCount == 0 ? (p.dtFixed > 0 ? p.dtFixed : p.dtIni) : symplectic ? dtNext_ : dt;
    strategy->beginStep(stepDt);
    if (!p.viscoTime.empty()) {  // DualSPHysics' ViscoTime: Visco at the step's start
      const double v = p.viscoAt(t);
      consts_.visco = T(v);
      consts_.viscoBound = T(v * p.viscoBoundFactor);
    }
    if (symplectic) {
      // DualSPHysics' DEM contacts take the step of the force pass they belong to (its
      // DemDtForce): half the step in the predictor, the whole step in the corrector.
      setDemStep(0.5 * stepDt);
      forcePass();
      computeDt(DtPass::Predictor);
      {
        ScopedPhase ph(timer.get(), "SU-ComputeStep", PhaseGroup::Other);
        ops_->symplecticPredict(state_->integratorArrays(), consts_);
      }
      wrapPeriodic(false);
      moveFloatings(state_->cur.pos.data(), state_->cur.velrho.data(), BodyStep::Predictor);
      // The corrector applies the shift (physics/shifting_physics.h), the predictor none. DualSPHysics'
      // mDBC corrects the walls before the predictor's pass only, its mDBC2 (SlipMode 2, 3) before
      // the corrector's too ("mDBC-Corrector").
      setDemStep(stepDt);
      forcePass(shifting(), p.mdbc2());
      computeDt(DtPass::Corrector);
      {
        ScopedPhase ph(timer.get(), "SU-ComputeStep", PhaseGroup::Other);
        ops_->symplecticCorrect(state_->integratorArrays(shifting()), consts_, state_->cur.code.data(), limits_);
      }
      wrapPeriodic();
      moveFloatings(state_->cur.posPre.data(), state_->cur.velrhoPre.data(), BodyStep::Corrector);
      endStepWork();
    } else {
      setDemStep(stepCount == 0 ? (p.dtFixed > 0 ? p.dtFixed : p.dtIni) : dt);  // the last step's (DualSPHysics)
      verletIntegratorStep();
    }
    const StepScalars s = ops_->waitStepScalars();
    timer->stepFinished();
    if (!std::isfinite(s.dt) || (symplectic && !std::isfinite(s.dtNext)))
      throw DivergenceError(fmt::format("time step is not finite at t={} s (step {}): the simulation diverged", t, stepCount));
    lastScalars_ = s;
    if (dtLog_) logDt(s);
    dt = s.dt;
    dtNext_ = s.dtNext;
    dtMinHits += s.dtMinHit;
    particleSteps += ranks_ ? globalParticles_ : state_->n - parked_;
    t += dt;
    ++stepCount;
    ExclusionCounts now{s.excludedOutOfDomain, s.excludedDensity};
    if (ranks_) {
      // Every rank learns the run's exclusions, so that all of them go through excludeParticles.
      ScopedPhase ph(timer.get(), "MPI-Reduce", PhaseGroup::Other);
      uint64_t counts[2] = {now.outOfDomain, now.density};
      comm_.sumInPlace(counts, 2);
      now = {uint32_t(counts[0]), uint32_t(counts[1])};
      globalParticles_ -= now.total();
    }
    if (now.total() > 0) excludeParticles(now);
    if (inOut_) inOutStep();
  }

  // The Verlet integrator's step after the strategy's prepare(). Between list rebuilds its
  // device work repeats from step to step, and GPU runs record it once and replay it
  // (run/step_graphs.h) whenever the strategy and the engine's arrays say it is the same work.
  void verletIntegratorStep() {
    // Steps VerletSteps, 2 VerletSteps, ... are Euler steps (DualSPHysics' VerletStep counter).
    const bool euler = verletCounter_ + 1 >= p.verletSteps;
    verletCounter_ = euler ? 0 : verletCounter_ + 1;
    const bool split = prepareForces(opts.rankOverlap && !p.mdbc());  // as forcePass()
    const auto work = [&] {
      correctBoundaries();
      interactForces(shifting(), split);
      computeDt(DtPass::Verlet);
      {
        ScopedPhase ph(timer.get(), "SU-ComputeStep", PhaseGroup::Other);
        ops_->verletStep(state_->integratorArrays(shifting()), consts_, euler, state_->cur.code.data(), limits_);
      }
      wrapPeriodic();
      moveFloatings(state_->cur.pos.data(), state_->cur.velrho.data(), BodyStep::Euler);
      endStepWork();
    };
    // Not recorded: the first step, the Euler steps (one in VerletSteps, not worth a second
    // graph), floating bodies, imposed motion, acceleration inputs, inlets/outlets, relaxation zones and a viscosity
    // in time (host work in the step, values and particle counts that change from step to step).
    if (!graphs_ || stepCount == 0 || euler || floating_ || motion_ || accInputs_ || inOut_ || relaxZones ||
        !p.viscoTime.empty()) {
      work();
      return;
    }
    const StepGraphKey key{strategy->replayToken(), state_->cur.pos.data(), state_->n, state_->nBound};
    runTimedStep(*graphs_, *timer, key, work, [&] { strategy->replayedStep(); });
  }

  // After either integrator: imposed motion, the strategy's end-of-step work and the copy of
  // the step's scalars, which the step's one wait (waitStepScalars) finishes.
  void endStepWork() {
    dampFluid();
    relaxFluid();
    moveBoundaries();
    strategy->endStep(state_->view());
    ops_->queueStepScalars();
  }

  std::string stepGraphSummary() const override {
    if (device != Device::Gpu) return "off (cpu)";
    if (!opts.stepGraphs) return "off (--no-graphs)";
    if (ranks_) return "off (several ranks)";
    return fmt::format("{} ({} recorded, {} steps replayed{}{})", graphs_->enabled() ? "on" : "off",
                       graphs_->recordings(), graphs_->replays(), graphs_->enabled() ? "" : ": ",
                       graphs_->disabledReason());
  }

  void snapshotInto(ParticleSnapshot& s) const override { snapshotOf(s, true); }
  void ownSnapshotInto(ParticleSnapshot& s) const override { snapshotOf(s, false); }

  // This rank's particles (halo copies left out), with every other rank's on rank 0 when `gather`;
  // haloFluid: and the halo's fluid copies (the fluid neighbours of this rank's walls).
  void snapshotOf(ParticleSnapshot& s, bool gather, bool haloFluid = false) const {
    const uint32_t all = state_->n;
    Staging& h = staging_;
    const char* what = "staging a snapshot";
    state_->cur.pos.downloadTo(h.pos.reserve(device, all, what), all, "downloading positions");
    const bool split = state_->cur.posLo.size() > 0;  // positions to double accuracy (physics/position_split.h)
    if (split) state_->cur.posLo.downloadTo(h.posLo.reserve(device, all, what), all, "downloading positions");
    state_->cur.velrho.downloadTo(h.velrho.reserve(device, all, what), all, "downloading velocities");
    state_->cur.code.downloadTo(h.code.reserve(device, all, what), all, "downloading particle codes");
    state_->cur.id.downloadTo(h.id.reserve(device, all, what), all, "downloading particle ids");
    // Parked particles were excluded: they are not part of the state; halo copies are another
    // rank's.
    h.rows.clear();
    for (uint32_t i = 0; i < all; ++i) {
      const uint32_t c = h.code[i];
      if (code::isParked(c)) continue;
      if (!code::isHalo(c) || (haloFluid && !code::isBound(c) && !code::isFloating(c))) h.rows.push_back(i);
    }
    const uint32_t n = uint32_t(h.rows.size());
    s.time = t;
    s.pos.resize(3 * size_t(n));
    s.vel.resize(3 * size_t(n));
    s.rho.resize(n);
    s.press.resize(n);
    s.type.resize(n);
    s.mk.resize(n);
    s.id.resize(n);
    for (uint32_t r = 0; r < n; ++r) {
      const uint32_t i = h.rows[r];
      const Real4<T>& pos = h.pos[i];
      const Real4<T>& vr = h.velrho[i];
      const uint32_t c = h.code[i];
      s.id[r] = h.id[i];
      loadPosition(pos, split ? &h.posLo[i] : nullptr, &s.pos[3 * r]);
      s.vel[3 * r] = float(vr.x);
      s.vel[3 * r + 1] = float(vr.y);
      s.vel[3 * r + 2] = float(vr.z);
      s.rho[r] = float(vr.w);
      s.press[r] = float(gaugeTaitPressure(double(vr.w), gaugeParams_));
      s.type[r] = code::isBound(c) ? 0 : code::isFloating(c) ? 2 : 1;
      const uint32_t mi = code::mkIndex(c);
      s.mk[r] = mi < mks.size() ? mks[mi].mk : -1;
    }
    if (ranks_ && gather) gatherSnapshot(comm_, s);
  }

  const InOutTotals* inOutTotals() const override { return inOut_ ? &inOut_->totals : nullptr; }
  double inOutZsurf(uint32_t zone) const override {
    if (!inOut_ || zone >= inOut_->count()) return HUGE_VAL;
    const InOutZoneDef& z = inOut_->zones()[zone];
    return z.zsurfMode == InOutZsurfMode::Calculated ? inOut_->zsurfNow(zone) : zsurfAt(z, t);
  }
  std::vector<double> inOutZsurfColumns(uint32_t zone) const override {
    if (!inOut_ || zone >= inOut_->count() || inOut_->zones()[zone].zsurfMode != InOutZsurfMode::Calculated)
      return {inOutZsurf(zone)};
    return inOut_->zsurfColumnsNow(zone);
  }
  const DtLog* dtLog() const override { return dtLog_.get(); }
  const parallel::Communicator& communicator() const override { return comm_; }
  const RankExchangeTotals* rankExchangeTotals() const override { return ranks_ ? &ranks_->totals() : nullptr; }
  uint64_t particlesNow() const override { return ranks_ ? globalParticles_ : state_->n - parked_; }

  size_t engineDeviceBytes() const override {
    if (device != Device::Gpu) return 0;
    return state_->bytes() + (floating_ ? floating_->bytes() : 0) + (deviceGauges_ ? deviceGauges_->deviceBytes() : 0);
  }

  // GPU runs sum the gauges on the device (gauges/device_gauges.h), CPU runs bin a snapshot. Over
  // several ranks each rank sums its own particles so, and the ranks combine their sums
  // (run/rank_sums.h: the same bits on every rank, which wave absorption needs to move the piston
  // alike everywhere); force gauges bin each rank's walls with its halo's fluid, brought up to date
  // by beforeForceGauges().
  GaugeSource& gaugeSource() override {
    const GaugeKernel kernel{kGaugeKernel, p.dim, p.h, p.massFluid};
    if (device == Device::Gpu && !deviceGauges_)
      deviceGauges_ = std::make_unique<DeviceGaugeSource<T>>([this] { return state_->view(); }, gaugeParams_);
    if (device == Device::Gpu && !ranks_) return *deviceGauges_;
    if (!ranks_) {
      if (!hostGauges_)
        hostGauges_ = std::make_unique<SnapshotGaugeSource>(
            [this]() -> const ParticleSnapshot& {
              snapshotInto(gaugeFrame_);
              return gaugeFrame_;
            },
            kernel);
      return *hostGauges_;
    }
    if (!rankGauges_) {
      if (device == Device::Cpu)
        ownGauges_ = std::make_unique<SnapshotGaugeSource>(
            [this]() -> const ParticleSnapshot& {
              snapshotOf(ownFrame_, false);
              return ownFrame_;
            },
            kernel);
      wallGauges_ = std::make_unique<SnapshotGaugeSource>(
          [this]() -> const ParticleSnapshot& {
            snapshotOf(gaugeFrame_, false, true);
            return gaugeFrame_;
          },
          kernel);
      GaugeSource& own = device == Device::Gpu ? static_cast<GaugeSource&>(*deviceGauges_) : *ownGauges_;
      rankGauges_ = std::make_unique<RankGauges>(comm_, own, *wallGauges_);
    }
    return *rankGauges_;
  }

  void beforeForceGauges() override {
    if (ranks_) syncHalo(false);
  }

  void saveState(CheckpointWriter& w) const override {
    w.putValue("core", CoreCheckpoint{t, dt, dtNext_, stepCount, dtMinHits, particleSteps, compactions,
                                      excluded.outOfDomain, excluded.density, verletCounter_, parked_, lastScalars_});
    saveExclusionLog(w, excludedLog);
    // Over several ranks each rank's file holds its particles (its halo too, replaced when the
    // run goes on); a run resumes on as many ranks.
    if (ranks_) {
      w.putValue("ranks", RankCheckpoint{uint32_t(comm_.size()), uint32_t(comm_.rank()), globalParticles_});
      w.putVector("rank_slabs", ranks_->slabs());  // where rebalancing moved them
      // The halo kept between exchanges, and what the strategy measures from to end it: a resumed
      // run refreshes and exchanges where the uninterrupted one would, bit for bit.
      ranks_->saveHalo(w);
      w.putVector("strategy_state", strategy->saveState());
    }
    state_->save(w);
    if (floating_) floating_->save(w);
    if (motion_) motion_->save(w);
  }

  void restoreState(const CheckpointReader& r) override {
    const auto c = r.value<CoreCheckpoint>("core");
    t = c.t;
    dt = c.dt;
    dtNext_ = c.dtNext;
    stepCount = firstStep_ = c.steps;
    dtMinHits = c.dtMinHits;
    particleSteps = firstParticleSteps_ = c.particleSteps;
    compactions = c.compactions;
    excluded = {c.excludedOutOfDomain, c.excludedDensity};
    verletCounter_ = c.verletCounter;
    parked_ = c.parked;
    lastScalars_ = c.scalars;
    ops_->restoreStepScalars(c.scalars);
    excludedLog = restoreExclusionLog(r);
    const uint32_t written = r.has("ranks") ? r.value<RankCheckpoint>("ranks").ranks : 1;
    if (written != uint32_t(comm_.size()))
      throw InputError(
          fmt::format("{}: the checkpoint was written by a run over {} rank(s): resume it on as many "
                      "(mpirun -np {}), not on {}",
                      r.path().string(), written, written, comm_.size()));
    if (ranks_) {
      const RankCheckpoint k = r.value<RankCheckpoint>("ranks");
      if (k.rank != uint32_t(comm_.rank()))
        throw InputError(
            fmt::format("{}: the checkpoint of rank {}, read by rank {}", r.path().string(), k.rank, comm_.rank()));
      globalParticles_ = k.particles;
      if (r.has("rank_slabs")) ranks_->restoreSlabs(r.vector<uint32_t>("rank_slabs"));
      // Every rank's file must be of the same step: a run stopped while its ranks wrote them is
      // not resumable.
      const std::vector<double> steps = comm_.gather(double(c.steps));
      if (std::any_of(steps.begin(), steps.end(), [&](double s) { return s != double(c.steps); }))
        throw InputError(
            fmt::format("{}: the ranks' checkpoints are of different steps (this one of step {}): the "
                        "run stopped while they were written; it cannot be resumed",
                        r.path().string(), c.steps));
      const uint32_t held = r.value<uint32_t>("particles.n");
      if (held > state_->cur.pos.size()) state_->grow(held + held / 4 + 1024, needs_);
    }
    state_->restore(r);
    if (floating_) floating_->restore(r);
    if (motion_) motion_->restore(r);
    // A new strategy, and particles it has not seen; over ranks with the halo kept, the strategy
    // decides (rebuildDue) from what it kept.
    particlesChanged_ = true;
    if (ranks_ && ranks_->restoreHalo(r, *state_)) {
      if (r.has("strategy_state")) strategy->restoreState(r.vector<uint8_t>("strategy_state"));
      particlesChanged_ = false;
    }
    floatingIndexedAt_ = ~uint64_t(0);
  }

  std::vector<AwasState> awasStates() const override {
    std::vector<AwasState> out;
    if (!motion_) return out;
    for (const auto& a : motion_->absorbers())
      out.push_back({a.paddle->mkbound, a.paddle->awas->saveData, a.control->last()});
    return out;
  }

  std::vector<FloatingBodyState> floatingStates() const override {
    return floating_ ? floating_->states() : std::vector<FloatingBodyState>{};
  }

 private:
  // Host copies of the device arrays a snapshot reads, kept between snapshots.
  struct Staging {
    HostStaging<Real4<T>> pos, posLo, velrho;
    HostStaging<uint32_t> code, id;
    std::vector<uint32_t> rows;
  };

  // Particles in the engine's order (floating/floating_bodies.h): fixed and moving boundaries, floating
  // bodies, fluid; ids are the engine indices at the start.
  // What the neighbour plugin is configured with: the run's device, precision, geometry and
  // options, and the engine's reorderer and timer.
  StrategyContext strategyContext(const RunOptions& o, Device d, uint32_t capacity) {
    StrategyContext ctx;
    ctx.device = d;
    ctx.precision = sizeof(T) == 8 ? Precision::Double : Precision::Single;
    ctx.dim = p.dim;
    ctx.h = p.h;
    ctx.support = p.support;
    const double lo[3] = {p.domainMin.x, p.domainMin.y, p.domainMin.z};
    const double hi[3] = {p.domainMax.x, p.domainMax.y, p.domainMax.z};
    std::copy(lo, lo + 3, ctx.domainMin);
    std::copy(hi, hi + 3, ctx.domainMax);
    std::copy(p.periodic, p.periodic + 3, ctx.periodic);
    if (ranks_) {
      // The halo lies up to the reach beyond the slab, across a periodic seam too (shifted), and
      // the strategy sees plain distances along the slab axis.
      const RankLayout& l = ranks_->layout();
      ctx.periodic[l.plan.axis] = false;
      ctx.domainMin[l.plan.axis] -= l.reach;
      ctx.domainMax[l.plan.axis] += l.reach;
      ctx.ranks = uint32_t(comm_.size());
    }
    ctx.capacity = capacity;
    ctx.threads = o.threads;
    ctx.reorderer = state_.get();
    ctx.timer = timer.get();
    ctx.options = p.strategyOptions;
    return ctx;
  }

  // The initial velocity q of engine particle i when it is floating: v + omega x (r - c) under the
  // rigid rules; under DualSPHysics' the particles keep GenCase's (zero) and take the body's
  // velocity after the first step, as in DualSPHysics.
  void rigidInitialVelocity(const CaseDefinition& c, const ParticleOrder& order, uint32_t i, Real4<T>& q) const {
    if (!floating_ || p.floatingMotion != FloatingMotion::Rigid || !order.floating(i)) return;
    for (const FloatingBodyDef& b : floating_->definitions()) {
      if (i - order.nBound - b.first >= b.count) continue;
      const Vec3d& x = c.positions[order.caseOf(i)];
      const double d[3] = {x.x - b.center.x, x.y - b.center.y, x.z - b.center.z};
      const Vec3d& w = b.omegaIni;
      q.x = T(b.velIni.x + w.y * d[2] - w.z * d[1]);
      q.y = T(b.velIni.y + w.z * d[0] - w.x * d[2]);
      q.z = T(b.velIni.z + w.x * d[1] - w.y * d[0]);
    }
  }

  // mDBC: the boundary normals, and with mDBC2 the walls' tangential velocities and accelerations
  // (zero at the start).
  void uploadMdbcArrays(const CaseDefinition& c, const ParticleOrder& order, uint32_t n) {
    auto& s = state_->cur;
    std::vector<Real4<T>> normal(n);
    for (uint32_t e = 0; e < n; ++e) {
      const Vec3d& v = c.normals[order.caseOf(engineIndex(e))];
      normal[e] = {T(v.x), T(v.y), T(v.z), T(0)};
    }
    s.normal.upload(normal, "uploading boundary normals");
    if (p.mdbc2()) s.tangent.upload(std::vector<Real4<T>>(n), "clearing the mDBC2 tangential velocities");
    if (p.mdbc2() && !c.motions.empty())
      s.motionAce.upload(std::vector<Real4<T>>(n), "clearing the mDBC2 walls' accelerations");
  }

  // The engine index of the e-th particle this rank holds at the start.
  uint32_t engineIndex(uint32_t e) const { return ranks_ ? mine_[e] : e; }

  void upload(const CaseDefinition& c, const ParticleOrder& order) {
    const uint32_t n = ranks_ ? uint32_t(mine_.size()) : uint32_t(c.positions.size());
    // GenCase's output gives each particle's initial velocity and density; a generated case
    // starts at rest with the density of <rhopgradient>.
    std::unique_ptr<double[]> computedRho;
    if (c.densities.empty()) {
      computedRho.reset(new double[c.positions.size()]);
      initialDensity(c, p, computedRho.get());
    }
    auto rho = [&](uint32_t k) { return computedRho ? computedRho[k] : double(c.densities[k]); };
    setupLap("initial densities");
    std::vector<bool> movingMk(c.mks.size(), false);
    for (const MotionObject& m : c.motions) movingMk.at(m.mkIndex) = true;
    // Engine particles [first, first + count) into the arrays' elements 0 .. count - 1, each
    // particle on its own: the set-up of a case of hundreds of millions uses every core. lo:
    // the positions' rounding remainders (single precision; else null).
    auto fill = [&](uint32_t first, uint32_t count, Real4<T>* pos, Real4<T>* lo, Real4<T>* vr, uint32_t* code,
                    uint32_t* id) {
#pragma omp parallel for schedule(static)
      for (int64_t e = 0; e < int64_t(count); ++e) {
        const uint32_t i = engineIndex(first + uint32_t(e));
        const uint32_t k = order.caseOf(i);
        const Vec3d& v = c.positions[k];
        const double x[3] = {v.x, v.y, v.z};
        pos[e] = {T(0), T(0), T(0), T(0)};
        storePosition(pos[e], positionLo(lo, uint32_t(e)), x);
        const Vec3f v0 = c.velocities.empty() ? Vec3f{} : c.velocities[k];
        vr[e] = {T(v0.x), T(v0.y), T(v0.z), T(rho(k))};
        code[e] = order.floating(i) ? code::makeFloating(c.mkIndex[k]) : code::make(k < c.nBound, c.mkIndex[k]);
        if (!c.inOutZone.empty() && c.inOutZone[k] != CaseDefinition::kNoInOutZone)
          code[e] = code::toInOut(code[e], c.inOutZone[k]);
        if (!order.floating(i) && k < c.nBound && movingMk[c.mkIndex[k]]) code[e] |= code::kMovingBit;
        // mDBC2 walls: the correction sets their density, which the integrators then keep.
        if (p.mdbc2() && k < c.nBound && !order.floating(i)) {
          const Vec3d& nv = c.normals[k];
          if (nv.x != 0 || nv.y != 0 || nv.z != 0) code[e] |= code::kMdbc2Bit;
        }
        id[e] = i;
        rigidInitialVelocity(c, order, i, vr[e]);
      }
    };
    auto& s = state_->cur;
    if (device == Device::Cpu) {
      fill(0, n, s.pos.data(), s.posLo.data(), s.velrho.data(), s.code.data(), s.id.data());
      s.velrhoPre.copyFrom(s.velrho, n, "copying velocities and densities");
    } else {
      // Through page-locked buffers a chunk at a time: no host copy of the whole arrays to
      // fault in, and the copies go by DMA at full speed.
      const uint32_t chunk = std::min<uint32_t>(n, kUploadChunk);
      HostStaging<Real4<T>> posBuf, loBuf, vrBuf;
      HostStaging<uint32_t> codeBuf, idBuf;
      Real4<T>* pos = posBuf.reserve(device, chunk, "staging positions");
      Real4<T>* lo = s.posLo.size() > 0 ? loBuf.reserve(device, chunk, "staging position remainders") : nullptr;
      Real4<T>* vr = vrBuf.reserve(device, chunk, "staging velocities and densities");
      uint32_t* code = codeBuf.reserve(device, chunk, "staging particle codes");
      uint32_t* id = idBuf.reserve(device, chunk, "staging particle ids");
      for (uint32_t first = 0; first < n; first += std::min(chunk, n - first)) {
        const uint32_t count = std::min(chunk, n - first);
        fill(first, count, pos, lo, vr, code, id);
        s.pos.upload(pos, count, "uploading positions", first);
        if (lo) s.posLo.upload(lo, count, "uploading position remainders", first);
        s.velrho.upload(vr, count, "uploading velocities and densities", first);
        s.code.upload(code, count, "uploading particle codes", first);
        s.id.upload(id, count, "uploading particle ids", first);
      }
      s.velrhoPre.copyFrom(s.velrho, n, "copying velocities and densities on the device");
    }
    if (sps()) s.spsTau.upload(std::vector<SymTensor<T>>(n), "clearing the SPS stresses");  // zero before the first pass
    if (p.mdbc()) uploadMdbcArrays(c, order, n);
    state_->n = n;
    state_->nBound =
        ranks_ ? uint32_t(std::lower_bound(mine_.begin(), mine_.end(), order.nBound) - mine_.begin()) : order.nBound;
    globalParticles_ = c.positions.size();
    ops_->computePressure(s.pos.data(), s.velrho.data(), n, consts_);  // the integrators keep it up to date
    setupLap("uploads");
  }

  bool shifting() const { return p.shifting != Shifting::None; }
  bool sps() const { return p.viscosity == Viscosity::LaminarSps; }

  // withShift: the pass also sums the shifting terms, for an integrator step that shifts.
  // correct: mDBC's boundary correction runs first (every pass but, with SlipMode 1, the
  // symplectic corrector's).
  void forcePass(bool withShift = false, bool correct = true) {
    // A pass may interact while its halo's refresh travels unless something before its
    // interaction reads the halo: mDBC's correction, inlets' extrapolation, the strategy's
    // prepare() (prepareForces).
    const bool split = prepareForces(opts.rankOverlap && !(correct && p.mdbc()));
    if (correct) correctBoundaries();
    interactForces(withShift, split);
  }

  // mDBC: boundary densities and pressures from the fluid around the ghost nodes (mdbc_physics.h).
  void correctBoundaries() {
    if (p.mdbc()) strategy->correctBoundaries(state_->view(), consts_);
  }

  // Over ranks: the halo as the particles are now. Refreshed in place when every rank can (and,
  // before a force pass, no rank's strategy needs a new halo: Verlet lists between rebuilds, or
  // the cell search's particles within half the skin of its halo, keep the halo's particles),
  // and the slabs stay; else particles migrate and the halo is exchanged anew. Every rank calls
  // it, before a force pass (forcePass) or before force gauges sum over the halo (after a step:
  // the strategy is asked too, since the particles moved one step since its last check). After
  // an exchange for the gauges the next pass only refreshes (nothing else changed the particles
  // since: exchangedForGauges_), and its prepare() learns that the particles changed.
  // mayBegin: a refresh may be left begun (RankExchange::beginRefresh), for interactForces() to
  // finish; returns whether it was.
  bool syncHalo(bool forcePass, bool mayBegin = false) {
    PhaseTimer* phases = timer.get();
    const bool gaugesExchanged = std::exchange(exchangedForGauges_, false);
    bool exchange = particlesChanged_ && !gaugesExchanged;
    if (!exchange && !gaugesExchanged) {
      exchange = strategy->rebuildDue(state_->view());
      if (!exchange) ranks_->keepHalo();  // the strategy keeps what it built: refreshes will do
    }
    exchange = exchange || !ranks_->canRefresh();
    {
      ScopedPhase ph(phases, "MPI-Reduce", PhaseGroup::Other);
      // Slabs moved by a rebalancing comparison (every rank's, collective) take an exchange.
      if (forcePass && ranks_->rebalanceIfDue(*state_)) exchange = true;
      exchange = !comm_.all(!exchange);
    }
    if (exchange) {
      ranks_->exchange(*state_, needs_, phases);
      if (floating_) floating_->growParticles(uint32_t(state_->cur.pos.size()));
      parked_ = 0;  // dropped by the exchange
      particlesChanged_ = true;
      exchangedForGauges_ = !forcePass;
    } else if (mayBegin && !gaugesExchanged) {  // the prepare() after an exchange reads the halo
      ranks_->beginRefresh(*state_, phases);
      return true;
    } else {
      ranks_->refresh(*state_, phases, forcePass);
    }
    return false;
  }

  // Returns whether the halo's refresh was left under way (mayOverlap, and nothing of this
  // preparation reads the halo: neither inlets' extrapolation nor the strategy's prepare()), for
  // interactForces() to finish it.
  bool prepareForces(bool mayOverlap = false) {
    bool refreshing = false;
    // Every pass sees its neighbours where they are now.
    if (ranks_)
      refreshing = syncHalo(true, mayOverlap && !inOutExtrapolationDue_ && strategy->preparesBeforeHaloRefresh());
    // pos.w already holds the pressure: computed at the start and by every integrator step.
    strategy->prepare(state_->view(), particlesChanged_ ? PrepareReason::ParticlesChanged : PrepareReason::Step);
    particlesChanged_ = false;
    if (inOutExtrapolationDue_) extrapolateInOut();
    // The index of floating particles changes only when particles were reordered (at every
    // pass with the cell strategy, at rebuilds with verlet, at exclusions).
    if (floating_ && floatingIndexedAt_ != state_->reorders) {
      ScopedPhase ph(timer.get(), "SU-Floating", PhaseGroup::Other);
      floating_->index(state_->view());
      floatingIndexedAt_ = state_->reorders;
    }
    return refreshing;
  }

  // refreshing: the halo's refresh is under way (prepareForces): the particles out of its reach
  // interact first, then it is finished and the others interact (ForcePart).
  void interactForces(bool withShift = false, bool refreshing = false) {
    ForceOutputs<T> out{state_->ace.data(), state_->viscdt.data(), floating_ ? floating_->particleContacts() : nullptr,
                        withShift ? state_->shift.data() : nullptr, state_->spsStrain.data()};
    if (refreshing) {
      ranks_->splitPassBegins();
      out.part = ForcePart::Interior;
      strategy->interact(state_->view(), consts_, out);
      ranks_->finishRefresh(*state_, timer.get());
      out.part = ForcePart::Border;
      strategy->interact(state_->view(), consts_, out);
    } else {
      strategy->interact(state_->view(), consts_, out);
    }
    if (withShift && !p.shiftZones.empty()) {
      ScopedPhase ph(timer.get(), "SU-Shifting", PhaseGroup::Other);
      ops_->cancelShiftOutsideZones(state_->shift.data(), state_->cur.pos.data(), state_->nBound, state_->n,
                                    shiftZones_.data(), uint32_t(p.shiftZones.size()));
    }
    addAccInputs();
    if (sps()) {
      // The next force pass uses these stresses (sps_physics.h).
      ScopedPhase ph(timer.get(), "SU-Sps", PhaseGroup::Other);
      ops_->computeSpsTau(state_->spsStrain.data(), state_->cur.velrho.data(), state_->cur.code.data(),
                          state_->cur.spsTau.data(), state_->nBound, state_->n, consts_);
    }
  }

  // The acceleration inputs at the time the step starts (both passes of a symplectic step see
  // the same values), added to the force pass's accelerations before dt is computed from them:
  // DualSPHysics adds them before its force pass (PreInteraction_Forces), which comes to the same.
  void addAccInputs() {
    if (!accInputs_) return;
    ScopedPhase ph(timer.get(), "SU-AccInput", PhaseGroup::Other);
    const AccInputTable* table = accInputs_->at(t);
    if (table)
      ops_->addAccInputs(state_->cur.pos.data(), state_->cur.velrho.data(), state_->cur.code.data(), state_->ace.data(),
                         state_->nBound, state_->n, *table);
  }

  void setDemStep(double d) {
    if (floating_) consts_.floating.demDt = T(d);
  }

  // The floating bodies after an integrator step: forces summed per body, bodies advanced as
  // `kind` says, their particles moved from their place src and velocity srcVel at the start of
  // the step (see physics/floating_body_physics.h).
  void moveFloatings(const Real4<T>* src, const Real4<T>* srcVel, BodyStep kind) {
    if (!floating_) return;
    ScopedPhase ph(timer.get(), "SU-Floating", PhaseGroup::Other);
    floating_->advance(state_->view(), state_->ace.data(), src, srcVel, ops_->dtLocation(), kind, t < p.ftPause, t);
  }

  // Periodic runs: fluid particles that left through one side come back through the other.
  // stepEnd: after a step's last integrator call (pos + posLo wraps), not after the symplectic
  // predictor (pos alone: posLo stays the step start's, physics/position_split.h).
  void wrapPeriodic(bool stepEnd = true) {
    if (!consts_.periodic.any()) return;
    ScopedPhase ph(timer.get(), "SU-Periodic", PhaseGroup::Other);
    ops_->wrapPeriodic(state_->cur.pos.data(), stepEnd ? state_->cur.posLo.data() : nullptr, state_->nBound, state_->n,
                       consts_.periodic);
  }

  void computeDt(DtPass pass) {
    ScopedPhase ph(timer.get(), "SU-DtVariable", PhaseGroup::Other);
    DtRule rule = dtRule_;
    if (inOut_ || ranks_) rule.code = state_->cur.code.data();  // moves with every reorder
    ops_->computeDt(state_->ace.data(), state_->viscdt.data(), state_->cur.velrho.data(), state_->nBound, state_->n,
                    rule, pass, stepCount == 0);
  }

  // The damping zones once the step is integrated, before the imposed motion, as DualSPHysics'
  // RunDamping(dt) at the end of ComputeStep().
  void dampFluid() {
    if (dampingCount_ == 0) return;
    ScopedPhase ph(timer.get(), "SU-Damping", PhaseGroup::Other);
    ops_->damp(state_->cur.pos.data(), state_->cur.velrho.data(), state_->cur.code.data(), state_->nBound, state_->n,
               dampingZones_.data(), dampingCount_);
  }

  // The relaxation zones after the damping zones, as DualSPHysics' RunRelaxZone(dt) after
  // RunDamping(dt), at the step's start time.
  void relaxFluid() {
    if (!relaxZones) return;
    ScopedPhase ph(timer.get(), "SU-RelaxZone", PhaseGroup::Other);
    relaxZones->stepZones(t, relaxWaves_.data(), relaxSteps_);
    for (const RelaxZoneStep& z : relaxSteps_)
      ops_->relax(state_->cur.pos.data(), state_->cur.velrho.data(), state_->cur.code.data(), state_->nBound,
                  state_->n, z);
  }

  // Imposed motion over [t, t + dt] once the step is integrated, as DualSPHysics' RunMotion(stepdt)
  // after ComputeStep() for both integrators (whose halves leave boundary positions and
  // velocities alone); the next force passes see the new positions and velocities.
  void moveBoundaries() {
    if (!motion_) return;
    const double stepDt = ops_->stepDt();
    ScopedPhase ph(timer.get(), "SU-Motion", PhaseGroup::Other);
    motion_->apply(t, stepDt, state_->view(), motion_->absorbs() ? &gaugeSource() : nullptr);
  }

  // The particles excluded by this step: logged (only they travel to the host), then parked
  // outside the domain (physics/integrator_physics.h, parkParticle) until enough wait to be worth a
  // compaction, which reorders every array and so makes a list strategy rebuild. Cases without
  // an open axis compact at once.
  void excludeParticles(const ExclusionCounts& now) {
    const uint32_t n = state_->n;
    const uint32_t kept = ops_->partitionFlagged(state_->cur.code.data(), n, state_->perm.data(), code::kExcludedBit);
    const uint32_t gone = n - kept;
    const uint32_t* which = state_->perm.data() + kept;
    ops_->gather(state_->cur.reorderArrays(), state_->spare.reorderArrays(), which, gone);
    const auto pos = state_->spare.pos.download(gone, "downloading excluded particles");
    const auto vr = state_->spare.velrho.download(gone, "downloading excluded particles");
    const auto id = state_->spare.id.download(gone, "downloading excluded particles");
    std::vector<ExcludedParticle> fresh(gone);
    for (uint32_t k = 0; k < gone; ++k) {
      const bool outside = exclusionReason(pos[k], vr[k].w, limits_) == 1;
      fresh[k] = {t,
                  id[k],
                  double(pos[k].x),
                  double(pos[k].y),
                  double(pos[k].z),
                  double(vr[k].x),
                  double(vr[k].y),
                  double(vr[k].z),
                  double(vr[k].w),
                  outside ? "out-of-domain" : "density"};
    }
    // Every rank logs (and judges) the run's exclusions, in the order of their ids whatever rank
    // or place they were at.
    if (ranks_) fresh = everyRanksExclusions(fresh);
    std::sort(fresh.begin(), fresh.end(),
              [](const ExcludedParticle& a, const ExcludedParticle& b) { return a.id < b.id; });
    std::string diverged;
    int divergedCount = 0;
    for (const ExcludedParticle& x : fresh) {
      excludedLog.push_back(x);
      // Leaving the domain or the density range is physics; a non-finite value, or a speed
      // beyond the speed of sound that weak compressibility assumes far away, is the
      // simulation blowing up (a time step too large, a parameter that cannot work).
      const double speed2 = x.vx * x.vx + x.vy * x.vy + x.vz * x.vz;
      const bool finite = std::isfinite(x.x) && std::isfinite(x.y) && std::isfinite(x.z) && std::isfinite(speed2) &&
                          std::isfinite(x.rho);
      if (finite && speed2 <= p.c0 * p.c0) continue;
      if (divergedCount++ < kDivergedNamed)
        diverged += fmt::format("{}id {} at ({:.6g}, {:.6g}, {:.6g}) velocity ({:.6g}, {:.6g}, {:.6g}) density {:.6g}",
                                diverged.empty() ? "" : "; ", x.id, x.x, x.y, x.z, x.vx, x.vy, x.vz, x.rho);
    }
    if (divergedCount > 0)
      throw DivergenceError(fmt::format("the simulation diverged at t={:.6g} s (step {}): {} particle(s) with "
                                        "non-finite values or faster than the speed of sound c0={:.6g} m/s, "
                                        "first {}",
                                        t, stepCount, divergedCount, p.c0, diverged));
    excluded.outOfDomain += now.outOfDomain;
    excluded.density += now.density;
    if (double(excluded.total()) > p.partsOutMax * double(nFluidInitial))
      throw RunError(fmt::format("{} of {} fluid particles have been excluded by t={:.4f} s, more than "
                                 "PartsOutMax={} allows (out of domain {}, density out of range {})",
                                 excluded.total(), nFluidInitial, t, p.partsOutMax, excluded.outOfDomain,
                                 excluded.density));
    if (gone == 0) return;  // another rank's
    if (parking_.axis < 0) {
      compact(code::kExcludedBit);
      return;
    }
    ops_->park(state_->cur.reorderArrays(), which, gone, parked_, parking_);
    parked_ += gone;
    // At most ~0.2% of the particles wait: WaveMake then compacts every ~200 steps instead of
    // every other step.
    if (parked_ >= std::max<uint32_t>(256, state_->n / 512)) compact(code::kParkedBit);
  }

  // The exclusions of every rank (`mine`: this rank's), on every rank.
  std::vector<ExcludedParticle> everyRanksExclusions(const std::vector<ExcludedParticle>& mine) const {
    struct Packed {
      double time, x, y, z, vx, vy, vz, rho;
      uint32_t id, outside;
    };
    std::vector<uint8_t> bytes(mine.size() * sizeof(Packed));
    for (size_t k = 0; k < mine.size(); ++k) {
      const ExcludedParticle& e = mine[k];
      const Packed q{e.time, e.x,  e.y,   e.z,  e.vx,
                     e.vy,   e.vz, e.rho, e.id, std::string_view(e.reason) == "out-of-domain"};
      std::memcpy(bytes.data() + k * sizeof(Packed), &q, sizeof q);
    }
    const std::vector<uint8_t> all = comm_.gatherBytes(bytes);
    std::vector<ExcludedParticle> out(all.size() / sizeof(Packed));
    for (size_t k = 0; k < out.size(); ++k) {
      Packed q;
      std::memcpy(&q, all.data() + k * sizeof(Packed), sizeof q);
      out[k] = {q.time, q.id, q.x, q.y, q.z, q.vx, q.vy, q.vz, q.rho, q.outside ? "out-of-domain" : "density"};
    }
    return out;
  }

  // <savedt>: the step that just ended (it started at t), from the maxima of its last force pass
  // (the symplectic corrector's), as DualSPHysics' DtVariable(final) logs it.
  void logDt(const StepScalars& s) {
    const double ace2 = std::bit_cast<double>(s.maxAce2Bits), visc = std::bit_cast<double>(s.maxViscdtBits),
                 vel2 = std::bit_cast<double>(s.maxVel2Bits);
    const double aceMax = std::sqrt(ace2), velMax = std::sqrt(vel2);
    const double dt1 = aceMax > 0 ? std::sqrt(p.h / aceMax) : DBL_MAX;
    const double dt2 = p.h / (std::max(p.c0, 10 * velMax) + p.h * visc);
    uint32_t hit = 0;
    const double dtf = variableDt(ace2, visc, vel2, dtRule_, &hit);
    dtLog_->add(t, dtf, dt1 * p.cfl, dt2 * p.cfl, DBL_MAX * p.cfl, aceMax, visc, velMax);
  }

  InOutArrays<T> inOutArrays() {
    auto& s = state_->cur;
    InOutArrays<T> a;
    a.pos = s.pos.data();
    a.posLo = s.posLo.data();
    a.velrho = s.velrho.data();
    a.velrhoPre = s.velrhoPre.data();
    a.posPre = s.posPre.data();
    a.code = s.code.data();
    a.id = s.id.data();
    a.spsTau = s.spsTau.data();
    a.normal = s.normal.data();
    a.tangent = s.tangent.data();
    a.motionAce = s.motionAce.data();
    a.nBound = state_->nBound;
    a.n = state_->n;
    return a;
  }

  // The zones' velocity and density on their buffer particles at time `time` (DualSPHysics'
  // InOutUpdatePartsData); setPre: also the Verlet integrator's previous values.
  void imposeInOut(double time, bool setPre) {
    ScopedPhase ph(timer.get(), "SU-InOut", PhaseGroup::Other);
    inOutOps_->impose(inOutArrays(), inOut_->at(time), consts_, setPre);
  }

  // Inlets/outlets with an extrapolated velocity or density, once a step on the particles the step
  // starts from (DualSPHysics extrapolates at the end of the last step, on the same positions).
  void extrapolateInOut() {
    inOutExtrapolationDue_ = false;
    if (inOutList_.size() < state_->cur.pos.size())
      inOutList_.allocate(device, state_->cur.pos.size(), "the list of extrapolated inlet/outlet particles");
    uint32_t count = 0;
    {
      ScopedPhase ph(timer.get(), "SU-InOut", PhaseGroup::Other);
      count = inOutOps_->listExtrapolated(inOutArrays(), inOut_->at(t), inOutList_.data());
    }
    strategy->extrapolateInOut(state_->view(), consts_, inOut_->extrapolation(inOutList_.data(), count));
  }

  // Calculated zsurfs: their gauges on the particles the step ended with, as DualSPHysics runs its
  // gauge system before InOutComputeStep.
  void measureInOutZsurf() {
    const std::vector<GaugePoint>& points = inOut_->zsurfGaugePoints();
    if (points.empty()) return;
    ScopedPhase ph(timer.get(), "SU-Gauges", PhaseGroup::Other);
    gaugeSource().samplePoints(points, zsurfSamples_);
    zsurfSums_.resize(zsurfSamples_.size());
    for (size_t k = 0; k < zsurfSamples_.size(); ++k) zsurfSums_[k] = zsurfSamples_[k].shepard;
    inOut_->setZsurfFromGauge(zsurfSums_);
  }

  // After a step, at its end time (DualSPHysics' InOutComputeStep): buffer particles that crossed
  // into the domain become fluid and leave new buffer particles behind them, fluid that entered a
  // converting zone becomes buffer, particles that left a zone through its back (or were refused)
  // are removed; then the zones impose their velocity and density. New particles go at the end
  // of the arrays, which grow when they must; the neighbour strategy sees changed particles.
  // Over ranks each rank decides for its own particles, and every rank learns every new one.
  void inOutStep() {
    measureInOutZsurf();
    const InOutParams params = inOut_->at(t);
    InOutCounts counts;
    {
      ScopedPhase ph(timer.get(), "SU-InOut", PhaseGroup::Other);
      counts = inOutOps_->classify(inOutArrays(), params, parking_, parked_);
      newParticles_.clear();
      if (counts.spawned > 0) {
        const uint32_t n = state_->n;
        const uint32_t kept = ops_->partitionFlagged(state_->cur.code.data(), n, state_->perm.data(), code::kInOutSpawnBit);
        newParticles_.resize(n - kept);
        if (newParticlesDev_.size() < newParticles_.size())
          newParticlesDev_.allocate(device, newParticles_.size() * 2, "the new inlet/outlet particles");
        inOutOps_->takeSpawners(inOutArrays(), params, state_->perm.data() + kept, n - kept, newParticlesDev_.data());
        newParticlesDev_.downloadTo(newParticles_.data(), newParticles_.size(),
                                    "reading the new inlet/outlet particles");
      }
      if (counts.removed > 0) {
        parked_ += counts.removed;
        if (parking_.axis < 0 || parked_ >= std::max<uint32_t>(256, state_->n / 512)) compact(code::kParkedBit);
      }
    }
    if (ranks_) {
      ScopedPhase ph(timer.get(), "MPI-Reduce", PhaseGroup::Other);
      gatherOverRanks(comm_, counts, inOutGrowths_, newParticles_);
      globalParticles_ -= counts.removed;
    }
    {
      ScopedPhase ph(timer.get(), "SU-InOut", PhaseGroup::Other);
      InOutTotals& tot = inOut_->totals;
      tot.removed += counts.removed;
      tot.inflow += counts.toFluid;
      tot.outflow += counts.toBuffer;
      tot.growths += inOutGrowths_;
      inOutGrowths_ = 0;
      // Numbered in the order of the particles that crossed, whatever order the passes (and the
      // ranks) found them in.
      std::sort(newParticles_.begin(), newParticles_.end(),
                [](const InOutNewParticle& a, const InOutNewParticle& b) { return a.id < b.id; });
      createInOutParticles(params);
      // Advanced refilling (refilling 2), every refillingrate steps as DualSPHysics'
      // ComputeStepFilling: a new particle behind the deepest one near each point of a column
      // with room (InOutZones::refillPlan), from the deepest reach of every rank.
      if (inOut_->refillPointCount() > 0 && inOut_->refillDue(stepCount - 1)) {
        inOutOps_->refillReach(inOutArrays(), params, inOut_->refillPoints(), inOut_->refillPointCount(), p.dp,
                               inOut_->refillReach());
        std::vector<double> reach = inOut_->refillReachNow();
        if (ranks_) comm_.maximumInPlace(reach.data(), int(reach.size()));
        inOut_->refillPlan(reach, newParticles_);
        createInOutParticles(params);
      }
    }
    imposeInOut(t, p.stepAlgorithm != 2);
    inOutExtrapolationDue_ = inOut_->extrapolates();
  }

  // The new buffer particles of newParticles_ (those of every rank, in the order every rank
  // sees), numbered from idNext_ on; each rank creates those in its slab.
  void createInOutParticles(const InOutParams& params) {
    const uint32_t created = uint32_t(newParticles_.size());
    for (uint32_t k = 0; k < created; ++k) newParticles_[k].id = idNext_ + k;
    idNext_ += created;
    inOut_->totals.created += created;
    if (ranks_) {
      globalParticles_ += created;
      const RankLayout& l = ranks_->layout();
      std::erase_if(newParticles_, [&l](const InOutNewParticle& q) { return l.ownerOf(q.x[l.plan.axis]) != l.rank; });
    }
    const uint32_t count = uint32_t(newParticles_.size());
    if (count == 0) return;
    const uint32_t n = state_->n;
    if (uint64_t(n) + count > state_->cur.pos.size()) growParticles(n + count);
    if (newParticlesDev_.size() < count)
      newParticlesDev_.allocate(device, size_t(count) * 2, "the new inlet/outlet particles");
    newParticlesDev_.upload(newParticles_, "writing the new inlet/outlet particles");
    inOutOps_->place(inOutArrays(), params, newParticlesDev_.data(), count);
    state_->n = n + count;
    particlesChanged_ = true;
    exchangedForGauges_ = false;
  }

  // Room for at least `need` particles: every array a step keeps reallocated with its particles
  // [0, n) copied, as DualSPHysics' ResizeParticlesSizeData (memoryresize's size times the
  // buffers more).
  void growParticles(uint32_t need) {
    const uint32_t room = inOut_->laterRoom();
    // Over ranks the arrays grow as particles migrate too: <memoryresize> bounds one rank alone.
    if (room == 0 && !ranks_)
      throw RunError(fmt::format("the inlets need room for {} particles, {} more than the {} allocated, and <memoryresize "
                                 "size=\"0\"> forbids growing: give <memoryresize> a size above 0",
                                 need, need - state_->cur.pos.size(), state_->cur.pos.size()));
    const uint64_t capacity = uint64_t(need) + (ranks_ ? std::max<uint64_t>(room, need / 4 + 1024) : room);
    if (capacity > UINT32_MAX) throw RunError("the inlets would need more than 2^32 particles");
    state_->grow(uint32_t(capacity), needs_);
    if (floating_) floating_->growParticles(uint32_t(capacity));
    if (ranks_)
      ++inOutGrowths_;  // summed over the ranks at the next step's end
    else
      ++inOut_->totals.growths;
  }

  // Moves the particles flagged with `flags` to the end (keeping the order of the others) and
  // drops them.
  void compact(uint32_t flags) {
    const uint32_t n = state_->n;
    const uint32_t kept = ops_->partitionFlagged(state_->cur.code.data(), n, state_->perm.data(), flags);
    state_->apply(state_->perm.data(), n);
    state_->n = kept;
    parked_ = 0;
    particlesChanged_ = true;
    exchangedForGauges_ = false;
    ++compactions;
  }

  PhysicsConstants<T> consts_;
  std::unique_ptr<EngineOps<T>> ops_;
  std::unique_ptr<ParticleState<T>> state_;
  std::unique_ptr<BoundaryMotion<T>> motion_;  // null without <motion>
  DeviceArray<DampingZone> dampingZones_;        // <damping>, where the particles are
  DeviceArray<ShiftZone> shiftZones_;            // <special><shifting>'s zones, where the particles are
  uint32_t dampingCount_ = 0;
  DeviceArray<double> relaxWaves_;               // the relaxation zones' spectrum waves, where the particles are
  std::vector<RelaxZoneStep> relaxSteps_;        // the zones of the step (relaxFluid)
  std::unique_ptr<AccInputs> accInputs_;          // null without <accinputs>
  uint64_t floatingIndexedAt_ = ~uint64_t(0);   // state_->reorders when floating particles were last indexed
  std::unique_ptr<FloatingBodies<T>> floating_;  // null without <floatings>
  std::unique_ptr<InOutZones> inOut_;            // null without <inout>
  std::unique_ptr<DtLog> dtLog_;                 // null without <savedt>
  std::unique_ptr<InOutOps<T>> inOutOps_;
  uint32_t idNext_ = 0;                          // the id of the next particle an inlet creates
  bool inOutExtrapolationDue_ = false;           // at the next prepare()
  DeviceArray<uint32_t> inOutList_;              // the buffer particles extrapolated
  std::vector<PointSample> zsurfSamples_;         // the calculated zsurfs' gauges (measureInOutZsurf)
  std::vector<InOutNewParticle> newParticles_;    // the inlets' new particles of a step (inOutStep)
  DeviceArray<InOutNewParticle> newParticlesDev_;
  uint32_t inOutGrowths_ = 0;  // growParticles' since the last step's totals
  std::vector<double> zsurfSums_;
  ParticleArrayNeeds needs_;
  ExclusionLimits<T> limits_{};
  DtRule dtRule_;
  int verletCounter_ = 0;
  double dtNext_ = 0;  // symplectic: the next step's dt (physics/time_step.h)
  StepScalars lastScalars_{};  // of the last step (checkpoints)
  bool particlesChanged_ = true;
  bool exchangedForGauges_ = false;  // syncHalo: the last exchange came before force gauges
  ParkingLot parking_;    // axis -1: every axis is periodic, excluded particles are compacted at once
  uint32_t parked_ = 0;   // parked particles, all in [nBound, n)
  mutable Staging staging_;
  GaugeSumParams gaugeParams_;
  std::unique_ptr<DeviceGaugeSource<T>> deviceGauges_;
  std::unique_ptr<SnapshotGaugeSource> hostGauges_;
  ParticleSnapshot gaugeFrame_;  // CPU runs: the snapshot the gauges bin
  // Over several ranks: the gauges combining the ranks' sums, and in CPU runs the source of this
  // rank's with its snapshot (GPU runs sum on the device, deviceGauges_).
  std::unique_ptr<RankGauges> rankGauges_;
  std::unique_ptr<SnapshotGaugeSource> ownGauges_;
  std::unique_ptr<SnapshotGaugeSource> wallGauges_;  // force gauges: own particles and the halo's fluid
  ParticleSnapshot ownFrame_;
  std::unique_ptr<StepGraphs> graphs_;  // GPU runs unless --no-graphs (see the constructor)
  const parallel::Communicator& comm_;
  std::unique_ptr<gpu::SideStream> linkStream_;  // the stream of nccl_'s messages
  std::unique_ptr<parallel::NcclLink> nccl_;     // runs over several GPU ranks that ask for it
  std::unique_ptr<RankExchange<T>> ranks_;  // runs over several ranks only
  std::vector<uint32_t> mine_;              // with ranks_: the engine indices this rank starts with
  uint64_t globalParticles_ = 0;            // with ranks_: the run's particles on every rank
};

}  // namespace

SimParameters runParameters(const CaseDefinition& c, const RunOptions& o, const PluginOptions& plugin) {
  SimParameters p = deriveParameters(c, plugin);
  for (const auto& [key, value] : o.strategyOptions) {
    const auto option = std::find_if(plugin.options.begin(), plugin.options.end(),
                                     [&](const StrategyOption& s) { return s.key == key; });
    if (option == plugin.options.end()) {
      p.warnings.push_back(fmt::format("the {} neighbour plugin has no option {}: ignored", plugin.plugin, key));
      continue;
    }
    const std::string given = option->flag.empty() ? key : option->flag;
    const std::string problem = strategyOptionProblem(*option, value);
    if (!problem.empty())
      throw InputError(fmt::format("{} {}: must be {} (an option of the {} neighbour plugin: {})", given, value,
                                   problem, plugin.plugin, option->help));
    p.strategyOptions[key] = value;
    p.setFromCommandLine(key, value);
  }
  if (o.timeMax) {
    p.timeMax = *o.timeMax;
    p.setFromCommandLine("TimeMax", fmt::format("{}", p.timeMax));
  }
  if (o.timeOut) {
    p.timeOut = *o.timeOut;
    p.outputTimes.clear();  // the command line's interval replaces <special><timeout>
    p.setFromCommandLine("TimeOut", fmt::format("{}", p.timeOut));
  }
  if (auto w = floatPositionWarning(p, o.precision)) p.warnings.push_back(std::move(*w));
  return p;
}

std::unique_ptr<Simulation::Impl> makeSimulationCore(const CaseDefinition& c, const RunOptions& o, Device device,
                                                     NeighbourPlugin plugin, const parallel::Communicator& comm) {
  if (o.precision == Precision::Double)
    return std::make_unique<SimulationCore<double>>(c, o, device, std::move(plugin), comm);
  return std::make_unique<SimulationCore<float>>(c, o, device, std::move(plugin), comm);
}

}  // namespace sph
