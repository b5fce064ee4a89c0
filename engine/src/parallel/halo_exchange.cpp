#include "parallel/halo_exchange.h"

#include <array>
#include <cstring>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph::parallel {

int lowerRank(const Communicator& c, const Slab& s) {
  return c.rank() > 0 ? c.rank() - 1 : (s.periodic && c.size() > 1 ? c.size() - 1 : -1);
}

int upperRank(const Communicator& c, const Slab& s) {
  return c.rank() + 1 < c.size() ? c.rank() + 1 : (s.periodic && c.size() > 1 ? 0 : -1);
}

namespace {
// The sides of a slab whose boundary has a rank beyond it, `inset` inside the boundary; what
// crosses the seam (down from the first rank, up from the last) moves by the period.
Sides sidesWithin(const Communicator& c, const Slab& s, double inset) {
  Sides r;
  if (lowerRank(c, s) >= 0) {
    r.below = s.lo + inset;
    if (c.rank() == 0) r.lowerShift = s.period();
  }
  if (upperRank(c, s) >= 0) {
    r.above = s.hi - inset;
    if (c.rank() == c.size() - 1) r.upperShift = -s.period();
  }
  return r;
}

// Tags of the messages: a message that goes down arrives from the upper rank, one that goes up
// from the lower rank (with two ranks on a periodic axis both are the same rank).
enum Tag { kDownSize, kUpSize, kDown, kUp };
}  // namespace

Sides migrationSides(const Communicator& c, const Slab& s) { return sidesWithin(c, s, 0.0); }

Sides haloSides(const Communicator& c, const Slab& s, double reach) { return sidesWithin(c, s, reach); }

namespace {
void checkNeighbours(const Communicator& c, int lower, int upper, size_t toLower, size_t toUpper) {
  if (lower < 0 && toLower > 0) throw RunError(fmt::format("rank {}: bytes for a rank below the first", c.rank()));
  if (upper < 0 && toUpper > 0) throw RunError(fmt::format("rank {}: bytes for a rank above the last", c.rank()));
}
}  // namespace

Arrived swapWithNeighbours(const Communicator& c, const Slab& s, std::span<const uint8_t> toLower,
                           std::span<const uint8_t> toUpper, const std::function<uint8_t*(size_t)>& room,
                           const MessageTransport& bytes) {
  const int lower = lowerRank(c, s), upper = upperRank(c, s);
  checkNeighbours(c, lower, upper, toLower.size(), toUpper.size());
  const uint64_t sizes[2] = {toLower.size(), toUpper.size()};
  uint64_t incoming[2] = {0, 0};  // from the lower rank, from the upper one
  const std::array<Send, 2> sizeSends{
      {{&sizes[0], sizeof(uint64_t), lower, kDownSize}, {&sizes[1], sizeof(uint64_t), upper, kUpSize}}};
  const std::array<Receive, 2> sizeReceives{
      {{&incoming[0], sizeof(uint64_t), lower, kUpSize}, {&incoming[1], sizeof(uint64_t), upper, kDownSize}}};
  c.transfer(sizeSends, sizeReceives);
  Arrived a{size_t(incoming[0]), size_t(incoming[1])};
  uint8_t* into = room(a.total());
  const std::array<Send, 2> sends{
      {{toLower.data(), toLower.size(), lower, kDown}, {toUpper.data(), toUpper.size(), upper, kUp}}};
  const std::array<Receive, 2> receives{
      {{into, a.fromLower, lower, kUp}, {into + a.fromLower, a.fromUpper, upper, kDown}}};
  bytes.transfer(sends, receives);
  return a;
}

std::unique_ptr<PendingTransfer> startSwapWithNeighbours(const Communicator& c, const Slab& s,
                                                         std::span<const uint8_t> toLower,
                                                         std::span<const uint8_t> toUpper, std::span<uint8_t> fromLower,
                                                         std::span<uint8_t> fromUpper, const MessageTransport& bytes) {
  const int lower = lowerRank(c, s), upper = upperRank(c, s);
  checkNeighbours(c, lower, upper, toLower.size(), toUpper.size());
  checkNeighbours(c, lower, upper, fromLower.size(), fromUpper.size());
  const std::array<Send, 2> sends{
      {{toLower.data(), toLower.size(), lower, kDown}, {toUpper.data(), toUpper.size(), upper, kUp}}};
  const std::array<Receive, 2> receives{
      {{fromLower.data(), fromLower.size(), lower, kUp}, {fromUpper.data(), fromUpper.size(), upper, kDown}}};
  return bytes.start(sends, receives);
}

void checkArrivals(const Communicator& c, const Slab& s, const uint8_t* records, size_t count, size_t recordSize) {
  const bool first = c.rank() == 0, last = c.rank() == c.size() - 1;
  for (size_t i = 0; i < count; ++i) {
    double x;
    std::memcpy(&x, records + i * recordSize, sizeof x);
    // The first and last slabs of an open axis also hold what left the domain past their end.
    const bool below = x < s.lo && !(first && !s.periodic), above = x >= s.hi && !(last && !s.periodic);
    if (below || above)
      throw RunError(
          fmt::format("rank {}: a particle at {:.6g} m along the axis moved past the slab beside "
                      "[{:.6g}, {:.6g}) m since the last migration",
                      c.rank(), x, s.lo, s.hi));
  }
}

}  // namespace sph::parallel
