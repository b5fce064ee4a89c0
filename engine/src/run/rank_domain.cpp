#include "run/rank_domain.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <type_traits>

#include <fmt/format.h>

#include "physics/position_split.h"
#include "sph/plugin/errors.h"
#include "sph/plugin/particle_code.h"

namespace sph {

double caseAlong(const CaseDefinition& c, size_t k, int axis) {
  const Vec3d& x = c.positions[k];
  return axis == 0 ? x.x : axis == 1 ? x.y : x.z;
}

int RankLayout::ownerOf(double along) const {
  // Outside an open axis's domain: the end slab's; across a periodic seam: wrapped first.
  if (slab.periodic && (along < slab.domainLo || along >= slab.domainHi))
    along = along < slab.domainLo ? along + slab.period() : along - slab.period();
  const double layers = double(plan.layerParticles.size());
  const double l = std::clamp(std::floor((along - plan.origin) / plan.layer), 0.0, layers - 1);
  return int(parallel::rankOfLayer(plan.begin, uint32_t(l)));
}

RankLayout planRanks(const CaseDefinition& c, const SimParameters& p, double reach, uint32_t ranks, int rank) {
  const double lo[3] = {p.domainMin.x, p.domainMin.y, p.domainMin.z};
  const double hi[3] = {p.domainMax.x, p.domainMax.y, p.domainMax.z};
  RankLayout r;
  r.rank = rank;
  const int axis = parallel::longestAxis(lo, hi);
  // mDBC corrects a wall particle from the fluid around its ghost node, r + n away from it: the
  // halo reaches that much further.
  if (p.mdbc()) {
    double longest = 0;
    for (size_t k = 0; k < c.normals.size(); ++k) {
      const Vec3d& n = c.normals[k];
      longest = std::max(longest, std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z));
    }
    reach += longest;
  }
  r.reach = reach;
  std::vector<double> along(c.positions.size());
  for (size_t k = 0; k < along.size(); ++k) along[k] = caseAlong(c, k, axis);
  r.plan = parallel::planSlabs(along, axis, lo[axis], hi[axis], reach, ranks, p.periodic[axis]);
  const size_t me = size_t(r.rank);
  r.slab.lo = r.plan.origin + r.plan.layer * r.plan.begin[me];
  r.slab.hi = r.plan.origin + r.plan.layer * r.plan.begin[me + 1];
  r.slab.domainLo = lo[axis];
  r.slab.domainHi = hi[axis];
  r.slab.periodic = p.periodic[axis];
  return r;
}

std::string rankRefusal(const CaseDefinition& c) {
  if (!c.floatings.empty())
    return "floating bodies (<floatings>): their sums over particles are not combined across ranks yet";
  if (c.inout.active) return "inlets/outlets (<inout>): the particles they create are not numbered across ranks yet";
  for (const MotionObject& m : c.motions)
    if (m.paddle && m.paddle->awas)
      return "wave absorption (<awas_zsurf>): its gauge, which moves the paddle, is measured on rank 0 alone";
  return {};
}

namespace {
// Each field of snapshot particle i, in the order a gathered record holds them, with its bytes.
template <typename F>
void forEachSnapshotField(ParticleSnapshot& s, size_t i, F&& f) {
  f(&s.pos[3 * i], 3 * sizeof(double));
  f(&s.vel[3 * i], 3 * sizeof(float));
  f(&s.rho[i], sizeof(float));
  f(&s.press[i], sizeof(float));
  f(&s.type[i], 1);
  f(&s.mk[i], sizeof(int32_t));
  f(&s.id[i], sizeof(uint32_t));
}
}  // namespace

void gatherSnapshot(const parallel::Communicator& comm, ParticleSnapshot& s) {
  constexpr size_t kBytes = 3 * sizeof(double) + 5 * sizeof(float) + 1 + sizeof(int32_t) + sizeof(uint32_t);
  const size_t n = s.count();
  std::vector<uint8_t> mine(n * kBytes);
  for (size_t i = 0; i < n; ++i) {
    uint8_t* q = mine.data() + i * kBytes;
    forEachSnapshotField(s, i, [&q](const void* v, size_t b) {
      std::memcpy(q, v, b);
      q += b;
    });
  }
  const std::vector<uint8_t> all = comm.gatherBytesTo(0, mine);
  const size_t total = all.size() / kBytes;
  s.pos.resize(3 * total);
  s.vel.resize(3 * total);
  s.rho.resize(total);
  s.press.resize(total);
  s.type.resize(total);
  s.mk.resize(total);
  s.id.resize(total);
  for (size_t i = 0; i < total; ++i) {
    const uint8_t* q = all.data() + i * kBytes;
    forEachSnapshotField(s, i, [&q](void* v, size_t b) {
      std::memcpy(v, q, b);
      q += b;
    });
  }
}

namespace {

// Each array of a particle set, in record order; absent arrays (size 0) are skipped by the caller.
template <typename T, typename F>
void forEachArray(ParticleArraySet<T>& a, F&& f) {
  f(a.pos);
  f(a.posLo);
  f(a.velrho);
  f(a.velrhoPre);
  f(a.posPre);
  f(a.code);
  f(a.id);
  f(a.spsTau);
  f(a.normal);
  f(a.tangent);
  f(a.motionAce);
}

}  // namespace

template <typename T>
void RankExchange<T>::describe(ParticleState<T>& s) {
  fields_.clear();
  recordSize_ = sizeof(double);
  forEachArray(s.cur, [&](auto& a) {
    using U = std::remove_pointer_t<decltype(a.data())>;
    fields_.push_back({a.size() > 0 ? sizeof(U) : 0, recordSize_});
    if (a.size() > 0) recordSize_ += sizeof(U);
  });
  if (fields_.size() != kArrays) throw RunError("the ranks' exchange does not know every particle array");
}

template <typename T>
void RankExchange<T>::take(ParticleState<T>& s, parallel::Records& r) {
  r.recordSize = recordSize_;
  r.axisOffset = 0;
  r.bytes.clear();
  const uint32_t count =
      ops_->partitionByCode(s.cur.code.data(), s.n, s.perm.data(), code::kRankSendBit, code::kRankSendBit);
  if (count == 0) return;
  ops_->gather(s.cur.reorderArrays(), s.spare.reorderArrays(), s.perm.data(), count);
  std::array<uint8_t*, kArrays> h{};
  size_t k = 0;
  forEachArray(s.spare, [&](auto& a) {
    using U = std::remove_pointer_t<decltype(a.data())>;
    const size_t f = k++;
    if (a.size() == 0) return;
    h[f] = host_[f].reserve(a.device(), size_t(count) * sizeof(U), "staging the particles that go to other ranks");
    a.downloadTo(reinterpret_cast<U*>(h[f]), count, "reading the particles that go to other ranks");
  });
  const int axis = layout_.plan.axis;
  const Real4<T>* pos = reinterpret_cast<const Real4<T>*>(h[0]);
  const Real4<T>* lo = fields_[1].size ? reinterpret_cast<const Real4<T>*>(h[1]) : nullptr;
  r.bytes.resize(size_t(count) * recordSize_);
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (int64_t k = 0; k < int64_t(count); ++k) {
    const uint32_t i = uint32_t(k);
    uint8_t* rec = r.bytes.data() + size_t(i) * recordSize_;
    double x[3];
    loadPosition(pos[i], lo ? lo + i : nullptr, x);
    std::memcpy(rec, &x[axis], sizeof(double));
    for (size_t f = 0; f < fields_.size(); ++f)
      if (fields_[f].size)
        std::memcpy(rec + fields_[f].offset, h[f] + size_t(i) * fields_[f].size, fields_[f].size);
    // The record goes without this rank's mark (codes are the sixth array).
    uint32_t c;
    std::memcpy(&c, rec + fields_[5].offset, sizeof c);
    c &= ~code::kRankSendBit;
    std::memcpy(rec + fields_[5].offset, &c, sizeof c);
  }
}

template <typename T>
void RankExchange<T>::append(ParticleState<T>& s, const ParticleArrayNeeds& needs, const parallel::Records& r,
                             bool halo) {
  const size_t count = r.count();
  if (count == 0) return;
  const size_t total = size_t(s.n) + count;
  if (total > UINT32_MAX) throw RunError(fmt::format("rank {}: more than 2^32 particles and halo", comm_.rank()));
  if (total > s.cur.pos.size()) s.grow(uint32_t(std::min<size_t>(UINT32_MAX, total + total / 4 + 1024)), needs);
  const int axis = layout_.plan.axis;
  std::array<uint8_t*, kArrays> h{};
  for (size_t f = 0; f < fields_.size(); ++f)
    if (fields_[f].size)
      h[f] = host_[f].reserve(s.cur.pos.device(), count * fields_[f].size,
                              "staging the particles that came from other ranks");
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (int64_t k = 0; k < int64_t(count); ++k) {
    const size_t i = size_t(k);
    const uint8_t* rec = r.record(i);
    for (size_t f = 0; f < fields_.size(); ++f)
      if (fields_[f].size) std::memcpy(h[f] + i * fields_[f].size, rec + fields_[f].offset, fields_[f].size);
    Real4<T>* p = reinterpret_cast<Real4<T>*>(h[0]) + i;
    Real4<T>* l = fields_[1].size ? reinterpret_cast<Real4<T>*>(h[1]) + i : nullptr;
    // Across a periodic seam the record's coordinate was shifted by the period: so is the particle.
    const double to = r.along(i);
    double x[3];
    loadPosition(*p, l, x);
    if (to != x[axis]) {
      const double shift = to - x[axis];
      x[axis] = to;
      storePosition(*p, l, x);
      if (fields_[4].size) {
        Real4<T>& pre = reinterpret_cast<Real4<T>*>(h[4])[i];
        (axis == 0 ? pre.x : axis == 1 ? pre.y : pre.z) += T(shift);
      }
    }
    uint32_t& c = reinterpret_cast<uint32_t*>(h[5])[i];
    c = halo ? (c | code::kHaloBit) : (c & ~code::kHaloBit);
  }
  size_t k = 0;
  forEachArray(s.cur, [&](auto& a) {
    using U = std::remove_pointer_t<decltype(a.data())>;
    const size_t f = k++;
    if (a.size() == 0) return;
    a.upload(reinterpret_cast<const U*>(h[f]), count, "writing the particles that came from other ranks", s.n);
  });
  s.n = uint32_t(total);
}

namespace {
using Clock = std::chrono::steady_clock;
// Adds the seconds since `t` to `into` and restarts `t`.
void lap(Clock::time_point& t, double& into) {
  const Clock::time_point now = Clock::now();
  into += std::chrono::duration<double>(now - t).count();
  t = now;
}
}  // namespace

template <typename T>
void RankExchange<T>::exchange(ParticleState<T>& s, const ParticleArrayNeeds& needs) {
  Clock::time_point t = Clock::now();
  describe(s);
  const parallel::Slab& slab = layout_.slab;
  const int axis = layout_.plan.axis;
  const bool periodicRing = slab.periodic && comm_.size() > 1;
  const bool lower = comm_.rank() > 0 || periodicRing, upper = comm_.rank() + 1 < comm_.size() || periodicRing;
  constexpr double kNone = HUGE_VAL;
  auto mark = [&](double below, double above) {
    ops_->markAlong(s.cur.pos.data(), s.cur.posLo.data(), s.cur.code.data(), s.n, axis, below, above,
                    code::kRankSendBit);
  };
  // Leavers: past a boundary with a rank beyond it (an open axis's end slabs keep what leaves the
  // domain there).
  RankExchangeTotals& x = totals_;
  mark(lower ? slab.lo : -kNone, upper ? slab.hi : kNone);
  take(s, leaving_);
  lap(t, x.stagingSeconds);
  // This rank keeps its own that stay, in their order.
  const uint32_t kept = ops_->partitionFlagged(s.cur.code.data(), s.n, s.perm.data(),
                                               code::kHaloBit | code::kParkedBit | code::kRankSendBit);
  s.apply(s.perm.data(), s.n);
  s.n = kept;
  lap(t, x.arraySeconds);
  parallel::ExchangeCounts moved, copied;
  parallel::migrate(comm_, leaving_, slab, arrived_, &moved);
  lap(t, x.mpiSeconds);
  append(s, needs, arrived_, false);
  // The halo: copies of this rank's particles within reach of a boundary go to the rank beyond it.
  mark(lower ? slab.lo + layout_.reach : -kNone, upper ? slab.hi - layout_.reach : kNone);
  take(s, near_);
  mark(-kNone, kNone);  // clears the marks
  lap(t, x.stagingSeconds);
  parallel::exchangeHalo(comm_, near_, slab, layout_.reach, halo_in_, &copied);
  lap(t, x.mpiSeconds);
  append(s, needs, halo_in_, true);
  halo_ = uint32_t(halo_in_.count());
  lap(t, x.stagingSeconds);
  // The engine's order: boundaries (fixed and moving, own and halo) first.
  s.nBound = ops_->partitionByCode(s.cur.code.data(), s.n, s.perm.data(), code::kBoundBit | code::kFloatingBit,
                                   code::kBoundBit);
  s.apply(s.perm.data(), s.n);
  lap(t, x.arraySeconds);
  ++totals_.exchanges;
  totals_.haloParticles += halo_;
  totals_.migrated += moved.received;
  totals_.bytesSent += (moved.sent + copied.sent) * recordSize_;
}

template class RankExchange<float>;
template class RankExchange<double>;

}  // namespace sph
