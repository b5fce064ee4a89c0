#include "parallel/halo_exchange.h"

#include <cstring>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph::parallel {

double Records::along(size_t i) const {
  double x;
  std::memcpy(&x, bytes.data() + i * recordSize + axisOffset, sizeof x);
  return x;
}

void Records::setAlong(size_t i, double x) { std::memcpy(bytes.data() + i * recordSize + axisOffset, &x, sizeof x); }

namespace {

// The neighbouring ranks below and above this one along the axis (-1: none).
int lowerRank(const Communicator& c, const Slab& s) {
  return c.rank() > 0 ? c.rank() - 1 : (s.periodic && c.size() > 1 ? c.size() - 1 : -1);
}
int upperRank(const Communicator& c, const Slab& s) {
  return c.rank() + 1 < c.size() ? c.rank() + 1 : (s.periodic && c.size() > 1 ? 0 : -1);
}

// A record set of `like`'s layout, emptied, its storage kept from one exchange to the next: the
// exchanges of a run move megabytes each pass, and fresh buffers would fault in their pages each
// time (tools/bench/RESULTS.md, "One case over several ranks").
Records& reuse(Records& r, const Records& like) {
  r.recordSize = like.recordSize;
  r.axisOffset = like.axisOffset;
  r.bytes.clear();
  return r;
}

// The sending side's scratch, one set per thread.
struct Scratch {
  Records up, down;
  std::vector<uint8_t> received;
};
Scratch& scratch() {
  static thread_local Scratch s;
  return s;
}

// Sends `up` to the rank above and `down` to the rank below; appends what came from both to `got`.
void swap(const Communicator& c, const Slab& s, const Records& up, const Records& down, Records& got) {
  std::vector<uint8_t>& received = scratch().received;
  c.exchange(up.bytes, upperRank(c, s), received, lowerRank(c, s));
  got.bytes.insert(got.bytes.end(), received.begin(), received.end());
  c.exchange(down.bytes, lowerRank(c, s), received, upperRank(c, s));
  got.bytes.insert(got.bytes.end(), received.begin(), received.end());
  if (got.bytes.size() % got.recordSize != 0)
    throw RunError(fmt::format("rank {}: {} bytes received are not whole records of {} bytes", c.rank(),
                               got.bytes.size(), got.recordSize));
}

}  // namespace

void exchangeHalo(const Communicator& comm, const Records& own, const Slab& slab, double reach, Records& out,
                  ExchangeCounts* counts) {
  reuse(out, own);
  Records& up = reuse(scratch().up, own);
  Records& down = reuse(scratch().down, own);
  if (comm.size() == 1) {
    if (counts) *counts = {};
    return;
  }
  const bool first = comm.rank() == 0, last = comm.rank() == comm.size() - 1;
  for (size_t i = 0; i < own.count(); ++i) {
    const double x = own.along(i);
    if (x < slab.lo + reach) {
      down.append(own.record(i));
      // Across the seam the copy sits above the last rank's slab.
      if (first) down.setAlong(down.count() - 1, x + slab.period());
    }
    if (x >= slab.hi - reach) {
      up.append(own.record(i));
      if (last) up.setAlong(up.count() - 1, x - slab.period());
    }
  }
  swap(comm, slab, up, down, out);
  if (counts) *counts = {up.count() + down.count(), out.count()};
}

Records exchangeHalo(const Communicator& comm, const Records& own, const Slab& slab, double reach,
                     ExchangeCounts* counts) {
  Records out;
  exchangeHalo(comm, own, slab, reach, out, counts);
  return out;
}

void migrate(const Communicator& comm, const Records& own, const Slab& slab, Records& keep, ExchangeCounts* counts) {
  reuse(keep, own);
  Records& up = reuse(scratch().up, own);
  Records& down = reuse(scratch().down, own);
  const int lower = lowerRank(comm, slab), upper = upperRank(comm, slab);
  for (size_t i = 0; i < own.count(); ++i) {
    const double x = own.along(i);
    // The direction first (a record leaving rank 0 across the seam goes down, to the last rank),
    // then the coordinate wrapped into the domain.
    Records& to = x < slab.lo && lower >= 0 ? down : x >= slab.hi && upper >= 0 ? up : keep;
    to.append(own.record(i));
    if (slab.periodic && (x < slab.domainLo || x >= slab.domainHi))
      to.setAlong(to.count() - 1, x < slab.domainLo ? x + slab.period() : x - slab.period());
  }
  if (counts) *counts = {up.count() + down.count(), 0};
  if (comm.size() == 1) return;
  const size_t stayed = keep.count();
  swap(comm, slab, up, down, keep);
  if (counts) counts->received = keep.count() - stayed;
  const bool first = comm.rank() == 0, last = comm.rank() == comm.size() - 1;
  for (size_t i = stayed; i < keep.count(); ++i) {
    const double x = keep.along(i);
    // The first and last slabs of an open axis also hold what left the domain past their end.
    const bool below = x < slab.lo && !(first && !slab.periodic), above = x >= slab.hi && !(last && !slab.periodic);
    if (below || above)
      throw RunError(
          fmt::format("rank {}: a particle at {:.6g} m along the axis moved past the slab beside "
                      "[{:.6g}, {:.6g}) m since the last migration",
                      comm.rank(), x, slab.lo, slab.hi));
  }
}

Records migrate(const Communicator& comm, const Records& own, const Slab& slab, ExchangeCounts* counts) {
  Records keep;
  migrate(comm, own, slab, keep, counts);
  return keep;
}

}  // namespace sph::parallel
