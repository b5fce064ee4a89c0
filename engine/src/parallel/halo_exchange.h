// The exchanges of a slab decomposition between neighbouring ranks: the halo (copies of the
// particles within reach of a slab's boundary, for the neighbour's force pass) and migration
// (particles that left a slab go to the rank whose slab they entered). Which particles go where
// is a rule on their coordinate along the slab axis (Sides), applied where the particles live
// (run/rank_domain.h); what travels is bytes, sent to both neighbours at once. Across a periodic
// seam the coordinate of what travels is shifted by the period, so that a rank finds its
// neighbours by plain distances.
//
// Slabs are at least the reach thick (slab_plan.h), so a halo comes from the two neighbouring
// ranks alone; between migrations a particle may cross at most one boundary.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>

#include "parallel/communicator.h"

namespace sph::parallel {

// This rank's slab [lo, hi) of the domain [domainLo, domainHi) along the axis.
struct Slab {
  double lo = 0, hi = 0;
  double domainLo = 0, domainHi = 0;
  bool periodic = false;  // the first and the last rank are neighbours, across the seam
  double period() const { return domainHi - domainLo; }
};

// The ranks beside this one along the axis (-1: none).
int lowerRank(const Communicator& c, const Slab& s);
int upperRank(const Communicator& c, const Slab& s);

// Which particles of a slab an exchange sends to the ranks beside it, and how their coordinate
// along the axis changes on the way: those below `below` go to the lower rank, moved by
// `lowerShift`; those at or above `above` to the upper rank, moved by `upperShift`. A particle
// may go both ways (a halo of a slab thinner than twice the reach).
struct Sides {
  double below = -HUGE_VAL, lowerShift = 0;
  double above = HUGE_VAL, upperShift = 0;
  bool toLower(double x) const { return x < below; }
  bool toUpper(double x) const { return x >= above; }
};

// Migration: the particles that left the slab across a boundary with a rank beyond it (the first
// and last ranks of an open axis keep what leaves the domain past their end), wrapped into the
// domain across a periodic seam.
Sides migrationSides(const Communicator& c, const Slab& s);
// The halo: copies of the particles within `reach` of such a boundary. One rank has none (its
// own periodic images are its neighbour search's).
Sides haloSides(const Communicator& c, const Slab& s, double reach);

// What came from the ranks beside this one, in bytes.
struct Arrived {
  size_t fromLower = 0, fromUpper = 0;
  size_t total() const { return fromLower + fromUpper; }
};

// Sends `toLower` to the rank below and `toUpper` to the rank above (nothing where there is
// none) and receives what they send this rank into room(total bytes), the lower rank's first.
// The sizes go by `c`, the bytes by `bytes`: `c` itself for host memory, an NcclLink for device
// memory. `room` gives storage the caller keeps. Every rank calls it.
Arrived swapWithNeighbours(const Communicator& c, const Slab& s, std::span<const uint8_t> toLower,
                           std::span<const uint8_t> toUpper, const std::function<uint8_t*(size_t)>& room,
                           const MessageTransport& bytes);
inline Arrived swapWithNeighbours(const Communicator& c, const Slab& s, std::span<const uint8_t> toLower,
                                  std::span<const uint8_t> toUpper, const std::function<uint8_t*(size_t)>& room) {
  return swapWithNeighbours(c, s, toLower, toUpper, room, c);
}

// swapWithNeighbours for messages whose sizes both sides know beforehand (a halo's refresh):
// the bytes go without their sizes first, and it returns once they are posted
// (MessageTransport::start), what comes from the lower and the upper rank going to `fromLower`
// and `fromUpper`, of exactly their sizes.
std::unique_ptr<PendingTransfer> startSwapWithNeighbours(const Communicator& c, const Slab& s,
                                                         std::span<const uint8_t> toLower,
                                                         std::span<const uint8_t> toUpper, std::span<uint8_t> fromLower,
                                                         std::span<uint8_t> fromUpper, const MessageTransport& bytes);

// Particles that migrated to this rank: `count` records of `recordSize` bytes, each starting with
// its coordinate along the axis (a double). Throws RunError for one outside this slab: it moved
// past the slab beside its old one since the last migration.
void checkArrivals(const Communicator& c, const Slab& s, const uint8_t* records, size_t count, size_t recordSize);

}  // namespace sph::parallel
