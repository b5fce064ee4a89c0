#include "run/rank_domain.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
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

void RankLayout::moveTo(const parallel::SlabBegins& begin) {
  plan.begin = begin;
  const size_t me = size_t(rank);
  slab.lo = plan.origin + plan.layer * plan.begin[me];
  slab.hi = plan.origin + plan.layer * plan.begin[me + 1];
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
  // A buffer particle of a zone that extrapolates takes its values from the fluid around its
  // ghost node, mirrored up to twice the zone's width into the domain (inout_extrapolation.h): the
  // halo copies of buffer particles need that fluid too.
  double mirrored = 0;
  for (const InOutZoneDef& z : c.inout.zones)
    if (z.velocityMode == InOutVelocityMode::Extrapolated || z.densityMode == InOutDensityMode::Extrapolated) {
      const double d[3] = {z.unitDirection.x, z.unitDirection.y, z.unitDirection.z};
      mirrored = std::max(mirrored, 2 * z.layers * c.dp * std::abs(d[axis]) + p.support);
    }
  reach += mirrored;
  r.reach = reach;
  std::vector<double> along(c.positions.size());
  for (size_t k = 0; k < along.size(); ++k) along[k] = caseAlong(c, k, axis);
  r.plan = parallel::planSlabs(along, axis, lo[axis], hi[axis], reach, ranks, p.periodic[axis]);
  r.moveTo(r.plan.begin);
  r.slab.domainLo = lo[axis];
  r.slab.domainHi = hi[axis];
  r.slab.periodic = p.periodic[axis];
  return r;
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

void writeVtkOverRanks(const parallel::Communicator& comm, const std::string& path, const ParticleSnapshot& mine,
                       VtkPositionType posType) {
  const std::vector<double> counts = comm.gather(double(mine.count()));  // exact below 2^53
  uint64_t first = 0, total = 0;
  for (int r = 0; r < comm.size(); ++r) {
    if (r < comm.rank()) first += uint64_t(counts[size_t(r)]);
    total += uint64_t(counts[size_t(r)]);
  }
  ParticleSnapshot none;
  none.time = mine.time;
  const uint64_t bytes = encodeVtkParticles(none, 0, total, posType, false, [](uint64_t, const void*, size_t) {});
  const std::string tmp = path + ".tmp";
  parallel::SharedFile file(comm, tmp, bytes);
  encodeVtkParticles(mine, first, total, posType, comm.rank() == 0,
                     [&file](uint64_t offset, const void* data, size_t n) { file.writeAt(offset, data, n); });
  file.close();
  std::string error;
  if (comm.rank() == 0 && std::rename(tmp.c_str(), path.c_str()) != 0) {
    error = std::strerror(errno);
    std::remove(tmp.c_str());
  }
  if (!comm.all(error.empty()))
    throw RunError(fmt::format("cannot write VTK file '{}': rename from '{}' failed: {}", path, tmp,
                               error.empty() ? "(on rank 0)" : error));
}

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

// The records of a run's arrays (those null are absent) along `axis`.
template <typename T>
RecordLayout recordLayoutOf(const ReorderArrays<T>& a, int axis) {
  RecordLayout r;
  r.axis = axis;
  uint32_t at = sizeof(double);  // the coordinate first
  auto field = [&](RecordField f, const auto* array) {
    using E = std::remove_cv_t<std::remove_pointer_t<decltype(array)>>;
    static_assert(sizeof(E) % 4 == 0, "records are copied in 4-byte words");
    r.at[f] = array ? int32_t(at) : -1;
    if (array) at += uint32_t(sizeof(E));
  };
  field(kRecPos, a.pos);
  field(kRecVelrho, a.velrho);
  field(kRecVelrhoPre, a.velrhoPre);
  field(kRecPosPre, a.posPre);
  field(kRecCode, a.code);
  field(kRecId, a.id);
  field(kRecSpsTau, a.spsTau);
  field(kRecNormal, a.normal);
  field(kRecTangent, a.tangent);
  field(kRecMotionAce, a.motionAce);
  field(kRecPosLo, a.posLo);
  r.bytes = (at + 7) / 8 * 8;
  return r;
}

// Room for `bytes` in `b` on `d`, its first `keep` bytes kept; it grows with a margin, so that
// the exchanges of a run soon stop allocating.
void reserveBytes(DeviceArray<uint8_t>& b, Device d, size_t bytes, size_t keep, const char* what) {
  if (bytes <= b.size() && (b.device() == d || b.size() == 0)) return;
  DeviceArray<uint8_t> bigger(d, bytes + bytes / 4, what);
  if (b.device() == d) bigger.copyFrom(b, keep, what);
  b.swap(bigger);
}

using Clock = std::chrono::steady_clock;
// Adds the seconds since `t` to `into` and restarts `t`.
void lap(Clock::time_point& t, double& into) {
  const Clock::time_point now = Clock::now();
  into += std::chrono::duration<double>(now - t).count();
  t = now;
}

}  // namespace

// Room for `count` indices in `list` on `d` (nothing kept).
void reserveIndices(DeviceArray<uint32_t>& list, Device d, size_t count) {
  if (count <= list.size() && list.device() == d) return;
  list.allocate(d, count + count / 4 + 64, "the halo's index lists");
}

template <typename T>
uint32_t RankExchange<T>::pack(ParticleState<T>& s, double below, double above, double shift, size_t first,
                               DeviceArray<uint32_t>* kept) {
  ops_->markAlong(s.cur.pos.data(), s.cur.posLo.data(), s.cur.code.data(), s.n, records_.axis, below, above,
                  code::kRankSendBit);
  const uint32_t count =
      ops_->partitionByCode(s.cur.code.data(), s.n, s.perm.data(), code::kRankSendBit, code::kRankSendBit);
  if (kept && count > 0) {
    reserveIndices(*kept, s.cur.pos.device(), count);
    kept->copyFrom(s.perm, count, "keeping the halo's send list");
  }
  if (count == 0) return 0;
  const size_t at = first * records_.bytes;
  reserveBytes(out_, s.cur.pos.device(), at + size_t(count) * records_.bytes, at,
               "allocating the records of the particles that go to other ranks");
  ops_->packRecords(s.cur.reorderArrays(), s.perm.data(), count, records_, shift, out_.data() + at);
  return count;
}

template <typename T>
size_t RankExchange<T>::send(ParticleState<T>& s, const parallel::Sides& sides, Clock::time_point& t, bool keepHalo) {
  const size_t down = pack(s, sides.below, HUGE_VAL, sides.lowerShift, 0, keepHalo ? &sentLower_ : nullptr);
  const size_t up = pack(s, -HUGE_VAL, sides.above, sides.upperShift, down, keepHalo ? &sentUpper_ : nullptr);
  if (keepHalo) {
    sentLowerCount_ = uint32_t(down);
    sentUpperCount_ = uint32_t(up);
  }
  const parallel::Arrived got = swap(s, down, up, records_.bytes, t);
  if (keepHalo) {
    fromLower_ = got.fromLower / records_.bytes;
    fromUpper_ = got.fromUpper / records_.bytes;
  }
  return got.total() / records_.bytes;
}

template <typename T>
parallel::Arrived RankExchange<T>::swap(ParticleState<T>& s, size_t down, size_t up, size_t recordBytes,
                                        Clock::time_point& t) {
  const size_t bytes = (down + up) * recordBytes;
  lap(t, totals_.arraySeconds);
  // Through the host unless the records go from device to device.
  const bool staged = gpu_ && !link_;
  const uint8_t* out = out_.data();
  if (staged) {
    out = sent_.reserve(Device::Gpu, bytes, "staging the particles that go to other ranks");
    out_.downloadTo(sent_.data(), bytes, "reading the particles that go to other ranks");
    lap(t, totals_.stagingSeconds);
  }
  const auto room = [&](size_t b) -> uint8_t* {
    lap(t, totals_.mpiWaitSeconds);
    if (staged) return received_.reserve(Device::Gpu, b, "staging the particles that came from other ranks");
    reserveBytes(in_, s.cur.pos.device(), b, 0, "allocating the records of the particles that came from other ranks");
    return in_.data();
  };
  const std::span<const uint8_t> toLower{out, down * recordBytes},
      toUpper{out + down * recordBytes, up * recordBytes};
  if (link_ && linkStream_) linkStream_->follow("ordering the records' messages after their packing");
  const parallel::Arrived got = link_
                                    ? parallel::swapWithNeighbours(comm_, layout_.slab, toLower, toUpper, room, *link_)
                                    : parallel::swapWithNeighbours(comm_, layout_.slab, toLower, toUpper, room);
  if (link_ && linkStream_) linkStream_->join("ordering the records' unpacking after their messages");
  lap(t, totals_.mpiSeconds);
  if (got.fromLower % recordBytes != 0 || got.fromUpper % recordBytes != 0)
    throw RunError(fmt::format("rank {}: {} bytes received are not whole records of {} bytes", comm_.rank(),
                               got.total(), recordBytes));
  totals_.bytesSent += bytes;
  return got;
}

template <typename T>
const uint8_t* RankExchange<T>::arrivals(size_t count) {
  if (!gpu_) return in_.data();
  if (link_) {
    const size_t bytes = count * records_.bytes;
    received_.reserve(Device::Gpu, bytes, "staging the particles that came from other ranks");
    in_.downloadTo(received_.data(), bytes, "reading the particles that came from other ranks");
  }
  return received_.data();
}

template <typename T>
void RankExchange<T>::unpack(ParticleState<T>& s, const ParticleArrayNeeds& needs, size_t count, bool halo,
                             Clock::time_point& t) {
  if (count == 0) return;
  const size_t total = size_t(s.n) + count;
  if (total > UINT32_MAX) throw RunError(fmt::format("rank {}: more than 2^32 particles and halo", comm_.rank()));
  if (total > s.cur.pos.size()) s.grow(uint32_t(std::min<size_t>(UINT32_MAX, total + total / 4 + 1024)), needs);
  const size_t bytes = count * records_.bytes;
  if (gpu_ && !link_) {
    reserveBytes(in_, Device::Gpu, bytes, 0, "allocating the records of the particles that came from other ranks");
    in_.upload(received_.data(), bytes, "writing the particles that came from other ranks");
    lap(t, totals_.stagingSeconds);
  }
  ops_->unpackRecords(in_.data(), uint32_t(count), records_, s.cur.reorderArrays(), s.n, nullptr, halo);
  s.n = uint32_t(total);
  lap(t, totals_.arraySeconds);
}

template <typename T>
void RankExchange<T>::computeDone() {
  if (!inPass_) return;
  busySeconds_ += std::chrono::duration<double>(Clock::now() - passStart_).count();
  inPass_ = false;
}

template <typename T>
void RankExchange<T>::restoreSlabs(const parallel::SlabBegins& begin) {
  const parallel::SlabBegins& now = layout_.plan.begin;
  if (begin.size() != now.size() || begin.front() != 0 || begin.back() != now.back() ||
      !std::is_sorted(begin.begin(), begin.end()))
    throw InputError(
        fmt::format("the checkpoint's slabs ({} boundaries up to layer {}) do not fit the {} layers "
                    "of {} ranks",
                    begin.size(), begin.empty() ? 0u : begin.back(), now.back(), now.size() - 1));
  layout_.moveTo(begin);
}

namespace {
// The counts of a kept halo in a checkpoint (RankExchange::saveHalo).
struct KeptHaloCheckpoint {
  uint32_t sentLower, sentUpper;
  uint64_t fromLower, fromUpper;
  uint32_t halo, keepHalo;
};
}  // namespace

template <typename T>
void RankExchange<T>::saveHalo(CheckpointWriter& w) const {
  if (!haloKept_) return;
  w.putValue("rank_halo", KeptHaloCheckpoint{sentLowerCount_, sentUpperCount_, uint64_t(fromLower_),
                                             uint64_t(fromUpper_), halo_, uint32_t(keepHalo_)});
  w.putArray("rank_halo.sent_lower", sentLower_, sentLowerCount_);
  w.putArray("rank_halo.sent_upper", sentUpper_, sentUpperCount_);
  w.putArray("rank_halo.slots", haloSlots_, fromLower_ + fromUpper_);
}

template <typename T>
bool RankExchange<T>::restoreHalo(const CheckpointReader& r, ParticleState<T>& s) {
  if (!r.has("rank_halo")) return false;
  const KeptHaloCheckpoint k = r.value<KeptHaloCheckpoint>("rank_halo");
  const Device d = s.cur.pos.device();
  auto restoreList = [&](const char* name, DeviceArray<uint32_t>& list, size_t count) {
    const std::vector<uint32_t> v = count > 0 ? r.vector<uint32_t>(name) : std::vector<uint32_t>{};
    if (v.size() != count || std::any_of(v.begin(), v.end(), [&](uint32_t i) { return i >= s.n; }))
      throw InputError(
          fmt::format("{}: the kept halo's list {} does not fit its {} particles", r.path().string(), name, s.n));
    reserveIndices(list, d, count);
    if (count > 0) list.upload(v, "restoring the halo's index lists");
  };
  restoreList("rank_halo.sent_lower", sentLower_, k.sentLower);
  restoreList("rank_halo.sent_upper", sentUpper_, k.sentUpper);
  restoreList("rank_halo.slots", haloSlots_, size_t(k.fromLower + k.fromUpper));
  sentLowerCount_ = k.sentLower;
  sentUpperCount_ = k.sentUpper;
  fromLower_ = size_t(k.fromLower);
  fromUpper_ = size_t(k.fromUpper);
  halo_ = k.halo;
  keepHalo_ = k.keepHalo != 0;
  // As the exchange that kept it left them.
  gpu_ = d == Device::Gpu;
  records_ = recordLayoutOf(s.cur.reorderArrays(), layout_.plan.axis);
  s.reordered = [this](const uint32_t* perm, uint32_t n) { follow(perm, n); };
  haloKept_ = true;
  return true;
}

template <typename T>
bool RankExchange<T>::rebalanceIfDue(ParticleState<T>& s) {
  if (rebalanceEvery_ == 0 || rebalanceThreshold_ < 0 || ++sinceRebalance_ < rebalanceEvery_) return false;
  sinceRebalance_ = 0;
  return rebalance(s);
}

template <typename T>
bool RankExchange<T>::rebalance(ParticleState<T>& s) {
  ++totals_.rebalanceChecks;
  const std::vector<double> busy = comm_.gather(busySeconds_);
  busySeconds_ = 0;
  std::vector<double>& sums = totals_.rankBusySeconds;
  sums.resize(busy.size(), 0.0);
  for (size_t r = 0; r < busy.size(); ++r) sums[r] += busy[r];
  const parallel::SlabPlan& plan = layout_.plan;
  std::vector<double> counts(plan.begin.back());
  ops_->countLayers(s.cur.pos.data(), s.cur.posLo.data(), s.cur.code.data(), s.n, plan.axis, plan.origin, plan.layer,
                    counts);
  comm_.sumInPlace(counts);
  // Slabs of one layer at least, as planSlabs makes them: a halo comes from the slabs beside.
  const parallel::SlabBegins to =
      parallel::limitedMove(plan.begin, parallel::rebalancedSlabs(plan.begin, busy, counts, 1, rebalanceThreshold_), 1);
  if (to == plan.begin) return false;
  layout_.moveTo(to);
  ++totals_.rebalances;
  return true;
}

template <typename T>
void RankExchange<T>::takeRefreshSpan() {
  gpu::SideStream::Span span;
  if (!linkStream_ || !linkStream_->takeSpan(span, "timing the halo's messages") || !spanIsRefresh_) return;
  ++totals_.timedTransfers;
  totals_.transferSeconds += span.seconds;
  totals_.transferExposedSeconds += span.exposedSeconds;
}

template <typename T>
void RankExchange<T>::exchange(ParticleState<T>& s, const ParticleArrayNeeds& needs, PhaseTimer* timer) {
  if (pending_) throw RunError(fmt::format("rank {}: an exchange began during a halo refresh", comm_.rank()));
  takeRefreshSpan();
  spanIsRefresh_ = false;
  Clock::time_point t = Clock::now();
  gpu_ = s.cur.pos.device() == Device::Gpu;
  records_ = recordLayoutOf(s.cur.reorderArrays(), layout_.plan.axis);
  haloKept_ = false;
  s.reordered = [this](const uint32_t* perm, uint32_t n) { follow(perm, n); };
  const parallel::Slab& slab = layout_.slab;
  size_t came = 0;
  {
    ScopedPhase phase(timer, "MPI-Migrate", PhaseGroup::Other);
    // Leavers: past a boundary with a rank beyond it.
    const parallel::Sides leave = parallel::migrationSides(comm_, slab);
    came = send(s, leave, t);
    parallel::checkArrivals(comm_, slab, arrivals(came), came, records_.bytes);
    // This rank keeps its own that stay, in their order; the old halo and the parked go.
    ops_->markAlong(s.cur.pos.data(), s.cur.posLo.data(), s.cur.code.data(), s.n, records_.axis, leave.below,
                    leave.above, code::kRankSendBit);
    const uint32_t kept = ops_->partitionFlagged(s.cur.code.data(), s.n, s.perm.data(),
                                                 code::kHaloBit | code::kParkedBit | code::kRankSendBit);
    s.apply(s.perm.data(), s.n);
    s.n = kept;
    unpack(s, needs, came, false, t);
  }
  {
    ScopedPhase phase(timer, "MPI-Halo", PhaseGroup::Other);
    // The halo: copies of this rank's particles within reach of a boundary go to the rank beyond it.
    const parallel::Sides haloSides = parallel::haloSides(comm_, slab, layout_.reach);
    const size_t copies = send(s, haloSides, t, keepHalo_);
    ops_->markAlong(s.cur.pos.data(), s.cur.posLo.data(), s.cur.code.data(), s.n, records_.axis, -HUGE_VAL, HUGE_VAL,
                    code::kRankSendBit);  // clears the marks
    if (keepHalo_) {
      // What went as copies may have copies as neighbours until the next exchange (splitPassBegins).
      ops_->markAlong(s.cur.pos.data(), s.cur.posLo.data(), s.cur.code.data(), s.n, records_.axis, haloSides.below,
                      haloSides.above, code::kNearHaloBit);
      // The copies' places, which follow the reorders from here on (follow()).
      std::vector<uint32_t> slots(copies);
      for (size_t k = 0; k < copies; ++k) slots[k] = s.n + uint32_t(k);
      reserveIndices(haloSlots_, s.cur.pos.device(), copies);
      haloSlots_.upload(slots, "placing the halo's copies");
      haloKept_ = true;
    }
    unpack(s, needs, copies, true, t);
    halo_ = uint32_t(copies);
    // The engine's order: boundaries (fixed and moving, own and halo) first.
    s.nBound = ops_->partitionByCode(s.cur.code.data(), s.n, s.perm.data(), code::kBoundBit | code::kFloatingBit,
                                     code::kBoundBit);
    s.apply(s.perm.data(), s.n);
    lap(t, totals_.arraySeconds);
  }
  ++totals_.exchanges;
  totals_.haloParticles += halo_;
  totals_.migrated += came;
  passStart_ = Clock::now();
  inPass_ = true;
}

template <typename T>
void RankExchange<T>::follow(const uint32_t* perm, uint32_t n) {
  if (!haloKept_) return;
  reserveIndices(inverse_, gpu_ ? Device::Gpu : Device::Cpu, n);
  ops_->invertPermutation(perm, n, inverse_.data());
  ops_->mapIndices(inverse_.data(), n, sentLower_.data(), sentLowerCount_);
  ops_->mapIndices(inverse_.data(), n, sentUpper_.data(), sentUpperCount_);
  ops_->mapIndices(inverse_.data(), n, haloSlots_.data(), uint32_t(fromLower_ + fromUpper_));
}

namespace {
// What a refresh sends of each copy: only what a neighbour reads. The copies keep their ids, and
// nothing advances them, so the integrators' previous values stay behind.
template <typename T>
ReorderArrays<T> refreshedArrays(ParticleState<T>& s) {
  ReorderArrays<T> a = s.cur.reorderArrays();
  a.velrhoPre = a.posPre = nullptr;
  a.id = nullptr;
  return a;
}
}  // namespace

template <typename T>
void RankExchange<T>::beginRefresh(ParticleState<T>& s, PhaseTimer* timer) {
  if (!haloKept_)
    throw RunError(fmt::format("rank {}: the halo was refreshed without an exchange before", comm_.rank()));
  if (pending_) throw RunError(fmt::format("rank {}: a halo refresh began before the last one ended", comm_.rank()));
  ScopedPhase phase(timer, "MPI-Halo", PhaseGroup::Other);
  Clock::time_point t = Clock::now();
  takeRefreshSpan();
  const parallel::Sides sides = parallel::haloSides(comm_, layout_.slab, layout_.reach);
  const size_t down = sentLowerCount_, up = sentUpperCount_;
  const ReorderArrays<T> a = refreshedArrays(s);
  refreshRecords_ = recordLayoutOf(a, records_.axis);
  const size_t B = refreshRecords_.bytes, bytes = (down + up) * B, count = fromLower_ + fromUpper_;
  reserveBytes(out_, s.cur.pos.device(), bytes, 0, "allocating the records of the particles that go to other ranks");
  if (down > 0) ops_->packRecords(a, sentLower_.data(), uint32_t(down), refreshRecords_, sides.lowerShift, out_.data());
  if (up > 0)
    ops_->packRecords(a, sentUpper_.data(), uint32_t(up), refreshRecords_, sides.upperShift, out_.data() + down * B);
  lap(t, totals_.arraySeconds);
  // Through the host unless the records go from device to device.
  const bool staged = gpu_ && !link_;
  const uint8_t* out = out_.data();
  uint8_t* into = nullptr;
  if (staged) {
    out = sent_.reserve(Device::Gpu, bytes, "staging the particles that go to other ranks");
    out_.downloadTo(sent_.data(), bytes, "reading the particles that go to other ranks");
    into = received_.reserve(Device::Gpu, count * B, "staging the particles that came from other ranks");
    lap(t, totals_.stagingSeconds);
  } else {
    reserveBytes(in_, s.cur.pos.device(), count * B, 0,
                 "allocating the records of the particles that came from other ranks");
    into = in_.data();
  }
  const std::span<const uint8_t> toLower{out, down * B}, toUpper{out + down * B, up * B};
  const std::span<uint8_t> fromLower{into, fromLower_ * B}, fromUpper{into + fromLower_ * B, fromUpper_ * B};
  // Over a device link on a stream of its own, the messages go while the default stream's kernels run.
  if (link_ && linkStream_) linkStream_->follow("ordering the halo's messages after their packing");
  pending_ =
      link_ ? parallel::startSwapWithNeighbours(comm_, layout_.slab, toLower, toUpper, fromLower, fromUpper, *link_)
            : parallel::startSwapWithNeighbours(comm_, layout_.slab, toLower, toUpper, fromLower, fromUpper, comm_);
  totals_.bytesSent += bytes;
  lap(t, totals_.mpiSeconds);
}

template <typename T>
void RankExchange<T>::finishRefresh(ParticleState<T>& s, PhaseTimer* timer, bool forcePass) {
  if (!pending_) throw RunError(fmt::format("rank {}: a halo refresh ended that had not begun", comm_.rank()));
  ScopedPhase phase(timer, "MPI-Halo", PhaseGroup::Other);
  Clock::time_point t = Clock::now();
  // In a split pass the wait is no work of this rank's: it may last until a busier neighbour is
  // done with its interior (MPI moves large messages when both ends are in a call), and counted
  // it would make every rank look as busy as the busiest (rebalance()).
  if (inPass_) busySeconds_ += std::chrono::duration<double>(t - passStart_).count();
  {
    const std::unique_ptr<parallel::PendingTransfer> pending = std::move(pending_);
    pending->wait();
  }
  if (link_ && linkStream_) {
    linkStream_->join("ordering the halo's unpacking after its messages");
    spanIsRefresh_ = forcePass;  // the totals count the refreshes of force passes
  }
  lap(t, totals_.mpiSeconds);
  if (inPass_) passStart_ = t;  // the rest of the split pass's work begins
  const size_t count = fromLower_ + fromUpper_, B = refreshRecords_.bytes;
  if (count > 0) {
    if (gpu_ && !link_) {  // staged through the host; else they came where the particles live
      reserveBytes(in_, Device::Gpu, count * B, 0,
                   "allocating the records of the particles that came from other ranks");
      in_.upload(received_.data(), count * B, "writing the particles that came from other ranks");
      lap(t, totals_.stagingSeconds);
    }
    ops_->unpackRecords(in_.data(), uint32_t(count), refreshRecords_, refreshedArrays(s), 0, haloSlots_.data(), true);
    lap(t, totals_.arraySeconds);
  }
  if (!forcePass) return;
  ++totals_.refreshes;
  if (!inPass_) {
    passStart_ = Clock::now();
    inPass_ = true;
  }
}

template <typename T>
void RankExchange<T>::refresh(ParticleState<T>& s, PhaseTimer* timer, bool forcePass) {
  beginRefresh(s, timer);
  finishRefresh(s, timer, forcePass);
}

template <typename T>
void RankExchange<T>::splitPassBegins() {
  // The split pass's work begins here (timed for rebalancing from the end of the messages' start).
  passStart_ = Clock::now();
  inPass_ = true;
  ++totals_.splitPasses;
}

template class RankExchange<float>;
template class RankExchange<double>;

}  // namespace sph
