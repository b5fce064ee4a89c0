#include "run/rank_domain.h"

#include <algorithm>
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

RankLayout planRanks(const CaseDefinition& c, const SimParameters& p, double reach,
                     const parallel::Communicator& comm) {
  const double lo[3] = {p.domainMin.x, p.domainMin.y, p.domainMin.z};
  const double hi[3] = {p.domainMax.x, p.domainMax.y, p.domainMax.z};
  RankLayout r;
  r.rank = comm.rank();
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
  r.plan = parallel::planSlabs(along, axis, lo[axis], hi[axis], reach, uint32_t(comm.size()), p.periodic[axis]);
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

void gatherSnapshot(const parallel::Communicator& comm, ParticleSnapshot& s) {
  // A particle's fields one after another: positions, velocities, density, pressure, type, mk, id.
  constexpr size_t kBytes = 3 * sizeof(double) + 5 * sizeof(float) + 1 + sizeof(int32_t) + sizeof(uint32_t);
  const size_t n = s.count();
  std::vector<uint8_t> mine(n * kBytes);
  for (size_t i = 0; i < n; ++i) {
    uint8_t* q = mine.data() + i * kBytes;
    const auto put = [&q](const void* v, size_t b) {
      std::memcpy(q, v, b);
      q += b;
    };
    put(&s.pos[3 * i], 3 * sizeof(double));
    put(&s.vel[3 * i], 3 * sizeof(float));
    put(&s.rho[i], sizeof(float));
    put(&s.press[i], sizeof(float));
    put(&s.type[i], 1);
    put(&s.mk[i], sizeof(int32_t));
    put(&s.id[i], sizeof(uint32_t));
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
    const auto get = [&q](void* v, size_t b) {
      std::memcpy(v, q, b);
      q += b;
    };
    get(&s.pos[3 * i], 3 * sizeof(double));
    get(&s.vel[3 * i], 3 * sizeof(float));
    get(&s.rho[i], sizeof(float));
    get(&s.press[i], sizeof(float));
    get(&s.type[i], 1);
    get(&s.mk[i], sizeof(int32_t));
    get(&s.id[i], sizeof(uint32_t));
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
void RankExchange<T>::exchange(ParticleState<T>& s, const ParticleArrayNeeds& needs) {
  const uint32_t n = s.n;
  const int axis = layout_.plan.axis;
  // Where each present array's element lies in a record, after the coordinate along the axis.
  struct Field {
    size_t size, offset;
  };
  std::vector<Field> fields;
  size_t recordSize = sizeof(double);
  forEachArray(s.cur, [&](auto& a) {
    using U = std::remove_pointer_t<decltype(a.data())>;
    fields.push_back({a.size() > 0 ? sizeof(U) : 0, recordSize});
    if (a.size() > 0) recordSize += sizeof(U);
  });
  host_.resize(fields.size());
  size_t k = 0;
  forEachArray(s.cur, [&](auto& a) {
    using U = std::remove_pointer_t<decltype(a.data())>;
    std::vector<uint8_t>& h = host_[k++];
    if (a.size() == 0) return;
    h.resize(size_t(n) * sizeof(U));
    a.downloadTo(reinterpret_cast<U*>(h.data()), n, "reading the particles for the ranks' exchange");
  });
  const Real4<T>* pos = reinterpret_cast<const Real4<T>*>(host_[0].data());
  const Real4<T>* lo = fields[1].size ? reinterpret_cast<const Real4<T>*>(host_[1].data()) : nullptr;
  const uint32_t* code = reinterpret_cast<const uint32_t*>(host_[5].data());
  const auto alongOf = [&](const Real4<T>& p, const Real4<T>* l) {
    double x[3];
    loadPosition(p, l, x);
    return x[axis];
  };

  parallel::Records own{recordSize, 0, {}};
  own.bytes.reserve(size_t(n) * recordSize);
  std::vector<uint8_t> record(recordSize);
  for (uint32_t i = 0; i < n; ++i) {
    if (code[i] & (code::kHaloBit | code::kParkedBit)) continue;  // replaced; excluded
    const double x = alongOf(pos[i], lo ? lo + i : nullptr);
    std::memcpy(record.data(), &x, sizeof x);
    for (size_t f = 0; f < fields.size(); ++f)
      if (fields[f].size)
        std::memcpy(record.data() + fields[f].offset, host_[f].data() + i * fields[f].size, fields[f].size);
    own.append(record.data());
  }
  parallel::ExchangeCounts moved, copied;
  const parallel::Records mine = parallel::migrate(comm_, own, layout_.slab, &moved);
  const parallel::Records halo = parallel::exchangeHalo(comm_, mine, layout_.slab, layout_.reach, &copied);

  // The engine's order: boundaries first (own, then halo), then the rest (own, then halo).
  const size_t codeOffset = fields[5].offset;
  const auto bound = [&](const parallel::Records& r, size_t i) {
    uint32_t c;
    std::memcpy(&c, r.record(i) + codeOffset, sizeof c);
    return code::isBound(c) && !code::isFloating(c);
  };
  const size_t total = mine.count() + halo.count();
  if (total > UINT32_MAX) throw RunError(fmt::format("rank {}: more than 2^32 particles and halo", comm_.rank()));
  if (total > s.cur.pos.size()) s.grow(uint32_t(std::min<size_t>(UINT32_MAX, total + total / 4 + 1024)), needs);
  for (size_t f = 0; f < fields.size(); ++f) host_[f].resize(total * fields[f].size);
  uint32_t slot = 0, nBound = 0;
  const auto place = [&](const parallel::Records& r, size_t i, bool isHalo) {
    const uint8_t* rec = r.record(i);
    for (size_t f = 0; f < fields.size(); ++f)
      if (fields[f].size) std::memcpy(host_[f].data() + slot * fields[f].size, rec + fields[f].offset, fields[f].size);
    Real4<T>* p = reinterpret_cast<Real4<T>*>(host_[0].data()) + slot;
    Real4<T>* l = fields[1].size ? reinterpret_cast<Real4<T>*>(host_[1].data()) + slot : nullptr;
    // Across a periodic seam the record's coordinate was shifted by the period: so is the particle.
    const double to = r.along(i);
    double x[3];
    loadPosition(*p, l, x);
    if (to != x[axis]) {
      const double shift = to - x[axis];
      x[axis] = to;
      storePosition(*p, l, x);
      if (fields[4].size) {
        Real4<T>& pre = reinterpret_cast<Real4<T>*>(host_[4].data())[slot];
        (axis == 0 ? pre.x : axis == 1 ? pre.y : pre.z) += T(shift);
      }
    }
    uint32_t& c = reinterpret_cast<uint32_t*>(host_[5].data())[slot];
    c = isHalo ? (c | code::kHaloBit) : (c & ~code::kHaloBit);
    ++slot;
  };
  for (int pass = 0; pass < 2; ++pass) {  // boundaries, then the rest
    const bool wantBound = pass == 0;
    for (size_t i = 0; i < mine.count(); ++i)
      if (bound(mine, i) == wantBound) place(mine, i, false);
    for (size_t i = 0; i < halo.count(); ++i)
      if (bound(halo, i) == wantBound) place(halo, i, true);
    if (wantBound) nBound = slot;
  }
  k = 0;
  forEachArray(s.cur, [&](auto& a) {
    using U = std::remove_pointer_t<decltype(a.data())>;
    const std::vector<uint8_t>& h = host_[k++];
    if (a.size() == 0 || total == 0) return;
    a.upload(reinterpret_cast<const U*>(h.data()), total, "writing the particles after the ranks' exchange");
  });
  s.n = uint32_t(total);
  s.nBound = nBound;
  ++s.reorders;
  owned_ = uint32_t(mine.count());
  halo_ = uint32_t(halo.count());
  ++totals_.exchanges;
  totals_.haloParticles += halo_;
  totals_.migrated += moved.received;
  totals_.bytesSent += (moved.sent + copied.sent) * recordSize;
}

template class RankExchange<float>;
template class RankExchange<double>;

}  // namespace sph
