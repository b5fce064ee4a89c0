// The exchanges of a slab decomposition between neighbouring ranks: the halo (copies of the
// particles within reach of a slab's boundary, for the neighbour's force pass) and migration
// (particles that left a slab go to the rank whose slab they entered). Particles travel as
// fixed-size records of bytes, whatever their fields, with their coordinate along the slab axis
// a double at a known offset: across a periodic seam the copies are shifted by the period, so
// that a rank finds its neighbours by plain distances.
//
// Slabs are at least the reach thick (slab_plan.h), so a halo comes from the two neighbouring
// ranks alone; between migrations a particle may cross at most one boundary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "parallel/communicator.h"

namespace sph::parallel {

struct Records {
  size_t recordSize = 0;  // bytes a particle
  size_t axisOffset = 0;  // where its coordinate along the slab axis (a double) lies in a record
  std::vector<uint8_t> bytes;

  size_t count() const { return recordSize ? bytes.size() / recordSize : 0; }
  double along(size_t i) const;
  void setAlong(size_t i, double x);
  void append(const uint8_t* record) { bytes.insert(bytes.end(), record, record + recordSize); }
  const uint8_t* record(size_t i) const { return bytes.data() + i * recordSize; }
};

// This rank's slab [lo, hi) of the domain [domainLo, domainHi) along the axis.
struct Slab {
  double lo = 0, hi = 0;
  double domainLo = 0, domainHi = 0;
  bool periodic = false;  // the first and the last rank are neighbours, across the seam
  double period() const { return domainHi - domainLo; }
};

// Records this rank sent to its neighbours and received from them in one exchange.
struct ExchangeCounts {
  uint64_t sent = 0, received = 0;
};

// The halo this rank receives: copies of its neighbours' records within `reach` of the boundary
// they share with it (shifted by the period across a periodic seam). One rank has none (its own
// periodic images are its neighbour search's). Every rank calls it.
Records exchangeHalo(const Communicator& comm, const Records& own, const Slab& slab, double reach,
                     ExchangeCounts* counts = nullptr);
// The same into `out` (emptied first), whose storage a run reuses from exchange to exchange.
void exchangeHalo(const Communicator& comm, const Records& own, const Slab& slab, double reach, Records& out,
                  ExchangeCounts* counts = nullptr);

// This rank's records after migration: those still in its slab and those that entered it from a
// neighbour. A record across a periodic seam is wrapped into the domain first; one outside the
// domain of an open axis stays with the first or last rank. Every rank calls it. Throws RunError
// when a record has moved past a neighbour's slab.
Records migrate(const Communicator& comm, const Records& own, const Slab& slab, ExchangeCounts* counts = nullptr);
// The same into `out` (emptied first; not `own`), whose storage a run reuses.
void migrate(const Communicator& comm, const Records& own, const Slab& slab, Records& out,
             ExchangeCounts* counts = nullptr);

}  // namespace sph::parallel
