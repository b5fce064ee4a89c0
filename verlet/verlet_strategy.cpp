#include "verlet_strategy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "neighbours/cell_mode.h"
#include "neighbours/interaction_variant.h"
#include "sph/plugin/errors.h"
#include "verlet_memory_estimate.h"

namespace sph::verlet {
namespace {

double positiveOption(const StrategyContext& ctx, const char* key, double fallback) {
  const auto it = ctx.options.find(key);
  if (it == ctx.options.end()) return fallback;
  try {
    size_t used = 0;
    const double v = std::stod(it->second, &used);
    if (used == it->second.size() && v > 0 && std::isfinite(v)) return v;
  } catch (const std::exception&) {
  }
  throw InputError(fmt::format("verlet neighbour search: {} must be a positive number, not '{}'", key, it->second));
}

// The largest list radius the periodic axes allow (infinity without any). The build sorts by
// cells of Rc/2 and the cell grid needs 5 of them across a periodic axis, so Rc <= 0.4 L, which
// also keeps Rc below L/2, the limit of the minimum image. The factor below 1 keeps
// floor(L / (Rc/2 (1 + slack))) at 5 whatever the rounding.
double maxListRadius(const StrategyContext& ctx, int* axis) {
  double rc = std::numeric_limits<double>::infinity();
  for (int d = 0; d < 3; ++d) {
    if (!ctx.periodic[d]) continue;
    const double period = ctx.domainMax[d] - ctx.domainMin[d];
    const double limit = 2.0 * period / (5.0 * (1.0 + cell::kCellSizeSlack)) * (1.0 - 1e-9);
    if (limit < rc) {
      rc = limit;
      *axis = d;
    }
  }
  return rc;
}

// The layouts a build tries, in order: the one asked for (VerletLayout), else kAutoLayouts.
std::vector<ListLayout> layoutOrder(const StrategyContext& ctx) {
  const auto it = ctx.options.find("VerletLayout");
  if (it == ctx.options.end() || it->second.empty() || it->second == "auto")
    return {std::begin(kAutoLayouts), std::end(kAutoLayouts)};
  const std::optional<ListLayout> l = parseLayout(it->second);
  if (!l)
    throw InputError(fmt::format("verlet neighbour search: VerletLayout must be auto, indices, bitmask or clusters, not '{}'",
                                 it->second));
  return {*l};
}

}  // namespace

std::vector<StrategyOption> VerletStrategy::options() const {
  std::vector<StrategyOption> o = {
      {"VerletListSteps",
       "--verlet-steps",
       "C",
       {},
       fmt::format("steps a list should last at the current top speed, C in the skin dh = 2 Vmax C dt; default {:g} "
                   "in 3D, {:g} in 2D",
                   kDefaultListSteps3D, kDefaultListSteps2D)},
      {"VerletLayout",
       "--verlet-layout",
       "auto|indices|clusters|bitmask",
       {"auto", "indices", "clusters", "bitmask"},
       "how lists are stored: indices (a 32-bit index per neighbour, the fastest), clusters (lists shared by "
       "clusters of 8 particles, about a ninth of the memory, slower), bitmask (a bit per build candidate, about a "
       "tenth, slower still) or auto (indices; clusters when they do not fit; then bitmask; then the cell search "
       "until the next rebuild); default auto"},
      {"VerletPairs",
       "--verlet-pairs",
       "once|twice",
       {"once", "twice"},
       "once: index lists hold each pair once and the force pass adds each pair's terms to both particles (on the "
       "GPU in single precision only, by atomic additions: results vary between runs by rounding; on the CPU in "
       "both, bit-reproducible on the same number of threads); twice: every particle sums over all its neighbours, "
       "bit-reproducible; runs with floating bodies, mDBC2 walls, shifting or the SPS model, GPU double precision "
       "and the other layouts always take twice; default " +
           std::string(kDefaultPairs)},
      {"VerletMemoryLimit", "", "BYTES", {}, "the most bytes the lists may take; default: what the device has"}};
  // The cell search's, for the rebuild points where no list layout fits.
  for (StrategyOption c : cell::cellSearchOptions()) {
    c.help = "for the cell search when no list layout fits: " + c.help;
    o.push_back(std::move(c));
  }
  return o;
}

std::vector<MemoryNeed> VerletStrategy::estimateMemory(const MemoryQuery& q) const { return estimateVerletMemory(q); }

void VerletStrategy::configure(const StrategyContext& ctx) {
  if (!(ctx.support > 0.0) || !std::isfinite(ctx.support))
    throw InputError(fmt::format("verlet neighbour search: support radius must be positive, not {}", ctx.support));
  if (!ctx.reorderer) throw RunError("verlet neighbour search: the context has no particle reorderer");
  rule_ = SkinRule{};
  rule_.support = ctx.support;
  rule_.steps = positiveOption(ctx, "VerletListSteps", defaultListSteps(ctx.dim));
  int axis = 0;
  const double rcMax = maxListRadius(ctx, &axis);
  if (rcMax < std::numeric_limits<double>::infinity()) {
    const double room = rcMax / ctx.support - 1.0;  // the largest skin dh / 2h the period allows
    if (!(room > 0.0))
      throw InputError(fmt::format(
          "verlet neighbour search: the periodic axis {} is {:g} m long; the list radius Rc = 2h + dh must stay "
          "below half of it, and the list build's cells of Rc/2 need 5 across it, so Rc <= {:g} m, but 2h alone "
          "is {:g} m; use the cell search (--neighbours cell) or a longer period",
          "xyz"[axis], ctx.domainMax[axis] - ctx.domainMin[axis], rcMax, ctx.support));
    rule_.minFraction = std::min(rule_.minFraction, room);
    rule_.maxFraction = std::min(rule_.maxFraction, room);
  }
  layouts_ = layoutOrder(ctx);
  const std::string pairMode = pairsOption(ctx.options);
  if (pairMode != "once" && pairMode != "twice")
    throw InputError(fmt::format("verlet neighbour search: VerletPairs must be once or twice, not '{}'",
                                 ctx.options.at("VerletPairs")));
  pairsOnce_ = cell::pairsOnceRuns(ctx.device, ctx.precision) &&
               cell::pairsOnceAsked(pairMode == "once", ctx.options.count("VerletPairs") > 0, ctx.device);
  listsOnce_ = false;
  const double cap = positiveOption(ctx, "VerletMemoryLimit", 0.0);
  memoryCap_ = size_t(cap);
  if (!backend_ || ctx_.device != ctx.device)
    backend_ = ctx.device == Device::Gpu ? makeVerletGpuBackend() : makeVerletCpuBackend(ctx.threads);
  ctx_ = ctx;
  // The cell search (fallback and the passes half lists cannot take) pairs as the lists do.
  ctx_.options["CellPairs"] = pairsOnce_ ? "once" : "twice";
  built_ = pendingBuild_ = fallback_ = false;
  firstLayout_ = 0;
  buildsSinceRetry_ = 0;
  dh_ = rule_.minFraction * ctx.support;
  rc_ = ctx.support + dh_;
}

void VerletStrategy::requireConfigured(const char* what) const {
  if (!backend_) throw RunError(fmt::format("verlet neighbour search: {} before configure()", what));
}

// Queues the displacement check of the positions the next step starts from, so that the first
// prepare() of that step reads it without a wait of its own (the engine's end-of-step wait
// finishes it). Later prepare()s of a step (Symplectic's corrector pass) check synchronously.
template <typename T>
void VerletStrategy::endStepT(const ParticleView<T>& p) {
  checkQueued_ = false;
  if (!backend_ || !built_ || fallback_ || pendingBuild_ || p.n != builtN_) return;
  ScopedPhase phase(ctx_.timer, "VL-Check", PhaseGroup::List);
  backend_->queueDisplacement2(p);
  checkQueued_ = true;
  queuedN_ = p.n;
}

// Between rebuilds a step's force pass and queued check launch the same kernels on the same
// lists: replayable while the backend's launch arguments stay (a rebuild into the same buffers
// keeps them; the engine's arrays, swapped by the rebuild's reorder, are the engine's key).
uint64_t VerletStrategy::replayToken() const {
  if (!backend_ || !built_ || fallback_ || pendingBuild_) return 0;
  if (!corrects_) return backend_->launchGeneration();
  // With mDBC every rebuild's cell tables make a new token (rebuilds_ >= 1 here: never 0).
  return (backend_->launchGeneration() << 32) ^ (rebuilds_ & 0xFFFFFFFFu);
}

// What interactT() and endStepT() keep on the host in a step with lists in use.
void VerletStrategy::replayedStep() {
  checkQueued_ = true;
  queuedN_ = builtN_;
  backend_->markQueuedByReplay();
}

void VerletStrategy::beginStep(double lastDt) {
  lastDt_ = lastDt;
  ++steps_;
  if (fallback_) ++stepsInFallback_;
}

// Sorts the particles by cells of Rc/2 for a rebuild (the engine's cell search, neighbours/cell_search.h).
template <typename T>
void VerletStrategy::sortForRebuild(const ParticleView<T>& p, PrepareReason why) {
  double vmax;
  {
    ScopedPhase phase(ctx_.timer, "VL-Skin", PhaseGroup::List);
    vmax = backend_->maxSpeed(p);
  }
  dh_ = skinWidth(rule_, vmax, lastDt_);
  rc_ = ctx_.support + dh_;
  StrategyContext c = ctx_;
  c.support = rc_;
  c.options["CellMode"] = "half";
  c.options["CellRows"] = "reachable";
  bool fits = true;
  try {
    cell_.configure(c);
    cell_.prepare(p, why);
    pendingBuild_ = true;
  } catch (const DeviceOutOfMemory&) {
    fits = false;
  } catch (const std::bad_alloc&) {  // the host's memory, on the CPU
    fits = false;
  }
  if (!fits) {
    // The build's grid (cells of Rc/2: eight times the cells of 2h) does not fit either: the
    // cell search as the cell plugin runs it, whose memory the run was checked for.
    cell_.configure(ctx_);
    cell_.prepare(p, why);
    enterFallback(0);
  }
}

void VerletStrategy::enterFallback(size_t listBytes) {
  fallback_ = true;
  built_ = false;
  pendingBuild_ = false;
  stepsInFallback_ = 0;
  ++fallbackEvents_;
  if (!warned_) {
    warned_ = true;
    const std::string need = listBytes > 0 ? fmt::format("the lists need {:.1f} MiB", double(listBytes) / (1024.0 * 1024.0))
                                           : std::string("the list build's buffers do not fit");
    std::fprintf(stderr,
                 "\nverlet neighbour search: %s, more than the device (or VerletMemoryLimit) allows in any "
                 "layout; using the cell search until the next rebuild (counted in run.json, said once)\n",
                 need.c_str());
  }
}

template <typename T>
void VerletStrategy::prepareT(const ParticleView<T>& p, PrepareReason why) {
  requireConfigured("prepare()");
  const bool decided = decided_;
  decided_ = false;
  if (fallback_) {
    // Back to lists at what would have been the next rebuild, else sort again like the cell plugin does.
    if (stepsInFallback_ >= uint64_t(std::ceil(rule_.steps))) {
      fallback_ = false;
      built_ = false;
    } else {
      cell_.prepare(p, why);
      return;
    }
  }
  bool rebuild = !built_ || why == PrepareReason::ParticlesChanged || p.n != builtN_;
  if (!rebuild) rebuild = decided ? decidedRebuild_ : needsRebuild(displacement2(p), dh_);
  if (rebuild) sortForRebuild(p, why);
}

template <typename T>
double VerletStrategy::displacement2(const ParticleView<T>& p) {
  // The check queued at the end of the last step saw these very positions (nothing moves
  // particles between endStep() and the next step's first prepare()), and the engine's
  // end-of-step wait finished it: reading it is host work, not timed as a phase.
  const bool queued = checkQueued_ && queuedN_ == p.n;
  checkQueued_ = false;
  if (queued) {
    ++queuedChecks_;
    return backend_->queuedDisplacement2();
  }
  ScopedPhase phase(ctx_.timer, "VL-Check", PhaseGroup::List);
  ++waitedChecks_;
  return backend_->maxDisplacement2(p);
}

template <typename T>
bool VerletStrategy::rebuildDueT(const ParticleView<T>& p) {
  requireConfigured("rebuildDue()");
  // In the fallback the cell search sorts at every pass.
  decidedRebuild_ = fallback_ || !built_ || p.n != builtN_ || needsRebuild(displacement2(p), dh_);
  decided_ = true;
  return decidedRebuild_;
}

template <typename T>
void VerletStrategy::rememberView(const ParticleView<T>& p) {
  if constexpr (sizeof(T) == sizeof(double)) {
    lastD_ = p;
    lastIsDouble_ = true;
  } else {
    lastF_ = p;
    lastIsDouble_ = false;
  }
}

template <typename T>
void VerletStrategy::buildPendingT(const ParticleView<T>& p) {
  requireConfigured("buildPendingLists()");
  rememberView(p);
  if (!pendingBuild_) return;
  pendingBuild_ = false;
  BuildResult r;
  {
    ScopedPhase phase(ctx_.timer, "VL-Build", PhaseGroup::List);
    BuildRequest req{
        rc_, memoryCap_, lanesPerParticle(ctx_.dim), countLanesPerParticle(ctx_.dim), layouts_.front(), pairsOnce_};
    // After the preferred layout did not fit, the next builds start with the one that did (a
    // failed attempt costs a count pass), trying from the preferred one again every kRetryBuilds.
    const bool retry = buildsSinceRetry_ >= kRetryBuilds;
    for (size_t i = retry ? 0 : firstLayout_; i < layouts_.size(); ++i) {
      const ListLayout layout = layouts_[i];
      req.layout = layout;
      req.lanes = layout == ListLayout::Bitmask    ? maskLanesPerParticle(ctx_.dim)
                  : layout == ListLayout::Clusters ? kClusterLanes
                                                   : lanesPerParticle(ctx_.dim);
      r = backend_->build(p, cell_.lookup(), req);
      if (r.built) {
        ++layoutBuilds_[size_t(layout)];
        if (i > 0) ++layoutFallbacks_;
        buildsSinceRetry_ = (i == 0 || retry) ? 0 : buildsSinceRetry_ + 1;
        firstLayout_ = i;
        break;
      }
    }
  }
  if (r.built) {
    built_ = true;
    builtN_ = p.n;
    listsOnce_ = r.pairsOnce;
    onceBuilds_ += r.pairsOnce ? 1 : 0;
    ++rebuilds_;
    sumMeanLength_ += p.n ? double(r.members) / p.n : 0.0;
    listBytes_ = r.bytes;
    peakListBytes_ = std::max(peakListBytes_, r.bytes);
  } else {
    enterFallback(r.bytes);
  }
}

template <typename T>
void VerletStrategy::interactT(const ParticleView<T>& p, const PhysicsConstants<T>& c, const ForceOutputs<T>& out) {
  requireConfigured("interact()");
  if (double(c.support) > ctx_.support * (1.0 + 1e-6))
    throw RunError(fmt::format("verlet neighbour search: the physics' support {:g} exceeds the configured {:g}",
                               double(c.support), ctx_.support));
  // Each pair once only in plain passes (pair_physics.h, interactPairMass's Mirror); from the first
  // other pass on, full lists.
  const bool plain = neighbours::pairOncePass(c, out, p.tangent != nullptr);
  if (!plain) pairsOnce_ = false;
  // A split pass (ForcePart) takes its interior over the lists in hand. Without them (a build
  // pending, the fallback, half lists in a pass that needs full ones) the Border call computes
  // the whole pass, as one call would.
  if (out.part != ForcePart::All) {
    if (out.part == ForcePart::Interior) {
      interiorDone_ = built_ && !pendingBuild_ && !fallback_ && !(listsOnce_ && !plain);
      if (!interiorDone_) return;
    } else if (!std::exchange(interiorDone_, false)) {
      ForceOutputs<T> whole = out;
      whole.part = ForcePart::All;
      interactT(p, c, whole);
      return;
    }
  }
  buildPendingT(p);
  rememberView(p);
  cell::requireSamePeriodicBox(c.periodic, cell_.grid(), "verlet");
  if (fallback_) {
    ++fallbackPasses_;
    cell_.interact(p, c, out);  // times itself as CF-Forces
    return;
  }
  if (listsOnce_ && !plain) {
    // Half lists in hand: this pass takes the cell search over their build's tables (cells of
    // Rc/2 sorted at the build, which reach every pair within 2h until the next rebuild, as for
    // the fallback); the next step builds full lists.
    ++fallbackPasses_;
    built_ = false;
    listsOnce_ = false;
    cell_.interact(p, c, out);
    return;
  }
  ScopedPhase phase(ctx_.timer, "CF-Forces", PhaseGroup::Interaction);
  backend_->interact(p, c, out);
}

StrategyStats VerletStrategy::stats() const {
  StrategyStats s;
  if (!backend_) return s;
  s["list_steps_C"] = rule_.steps;
  s["list_radius_last"] = rc_;
  s["skin_last"] = dh_;
  s["rebuilds"] = double(rebuilds_);
  s["mean_rebuild_interval_steps"] = rebuilds_ ? double(steps_) / double(rebuilds_) : 0.0;
  s["mean_list_length"] = rebuilds_ ? sumMeanLength_ / double(rebuilds_) : 0.0;
  s["list_bytes_last"] = double(listBytes_);
  s["list_bytes_peak"] = double(peakListBytes_);
  s["builds_indices_layout"] = double(layoutBuilds_[size_t(ListLayout::Indices)]);
  s["builds_bitmask_layout"] = double(layoutBuilds_[size_t(ListLayout::Bitmask)]);
  s["builds_clusters_layout"] = double(layoutBuilds_[size_t(ListLayout::Clusters)]);
  s["layout_fallbacks"] = double(layoutFallbacks_);
  s["builds_pairs_once"] = double(onceBuilds_);
  s["fallback_events"] = double(fallbackEvents_);
  s["fallback_passes"] = double(fallbackPasses_);
  s["displacement_checks_queued"] = double(queuedChecks_);
  s["displacement_checks_waited"] = double(waitedChecks_);
  const uint32_t lastN = lastIsDouble_ ? lastD_.n : lastF_.n;
  if (built_ && !fallback_ && lastN == builtN_ && lastN > 0) {
    const ListStats l = lastIsDouble_ ? backend_->stats(lastD_, ctx_.support) : backend_->stats(lastF_, ctx_.support);
    s["idle_ratio_last_lists"] = l.idleRatio;
    s["in_support_ratio_last_lists"] = l.inSupportRatio;
    s["mean_list_length_last"] = l.meanLength;
    s["longest_list_last"] = l.longest;
  }
  return s;
}

size_t VerletStrategy::deviceBytes() const {
  return (backend_ ? backend_->deviceBytes() : 0) + cell_.deviceBytes();
}
size_t VerletStrategy::peakDeviceBytes() const {
  return (backend_ ? backend_->peakDeviceBytes() : 0) + cell_.peakDeviceBytes();
}

HostLists VerletStrategy::lists() const {
  requireConfigured("lists()");
  return backend_->download();
}

template void VerletStrategy::prepareT(const ParticleView<float>&, PrepareReason);
template void VerletStrategy::prepareT(const ParticleView<double>&, PrepareReason);
template bool VerletStrategy::rebuildDueT(const ParticleView<float>&);
template bool VerletStrategy::rebuildDueT(const ParticleView<double>&);
template void VerletStrategy::endStepT(const ParticleView<float>&);
template void VerletStrategy::endStepT(const ParticleView<double>&);
template void VerletStrategy::buildPendingT(const ParticleView<float>&);
template void VerletStrategy::buildPendingT(const ParticleView<double>&);
template void VerletStrategy::interactT(const ParticleView<float>&, const PhysicsConstants<float>&,
                                        const ForceOutputs<float>&);
template void VerletStrategy::interactT(const ParticleView<double>&, const PhysicsConstants<double>&,
                                        const ForceOutputs<double>&);

}  // namespace sph::verlet
