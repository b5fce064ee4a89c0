// The communicator on 1 to 4 ranks (sph_rank_tests, started alone and by mpiexec): its
// collectives against the values each rank can compute alone, and the slabs of a decomposition
// built from the sum of the ranks' layer counts, the same on every rank.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "parallel/communicator.h"
#include "parallel/nccl_link.h"
#include "parallel/slab_decomposition.h"
#include "sph/plugin/errors.h"

namespace sph::parallel {
namespace {

const Communicator& world() { return Communicator::world(); }

TEST(Communicator, KnowsItsRanks) {
  const Communicator& w = world();
  const char* launched = std::getenv("OMPI_COMM_WORLD_SIZE");
  EXPECT_EQ(w.size(), launched && builtWithMpi() ? std::atoi(launched) : 1);
  EXPECT_EQ(w.single(), w.size() == 1);
  EXPECT_GE(w.rank(), 0);
  EXPECT_LT(w.rank(), w.size());
  // One machine: every rank is local.
  EXPECT_EQ(w.localSize(), w.size());
  EXPECT_EQ(w.localRank(), w.rank());
}

TEST(Communicator, ReducesOverEveryRank) {
  const Communicator& w = world();
  const int n = w.size(), r = w.rank();
  EXPECT_EQ(w.minimum(r + 1.5), 1.5);
  EXPECT_EQ(w.maximum(r + 1.5), n + 0.5);
  EXPECT_EQ(w.sum(double(r + 1)), n * (n + 1) / 2.0);
  EXPECT_EQ(w.sum(uint64_t(1) << 40), uint64_t(n) << 40);  // beyond 32 bits
  std::vector<double> v{double(r), 1.0, -2.0 * r};
  w.sumInPlace(v);
  EXPECT_EQ(v, (std::vector<double>{n * (n - 1) / 2.0, double(n), -double(n * (n - 1))}));
  EXPECT_TRUE(w.all(true));
  EXPECT_EQ(w.all(r != n - 1), false);  // the last rank says no
}

TEST(Communicator, GathersInRankOrder) {
  const Communicator& w = world();
  const int n = w.size(), r = w.rank();
  std::vector<double> expected;
  for (int k = 0; k < n; ++k) expected.push_back(2.0 * k);
  EXPECT_EQ(w.gather(2.0 * r), expected);
  // Rank k gives k + 1 copies of k (rank 0 one, the last n): sizes differ by rank.
  expected.clear();
  for (int k = 0; k < n; ++k) expected.insert(expected.end(), size_t(k + 1), double(k));
  EXPECT_EQ(w.gatherv(std::vector<double>(size_t(r + 1), double(r))), expected);
}

TEST(Communicator, TransfersWithNeighboursInARingAndAlongALine) {
  const Communicator& w = world();
  const int n = w.size(), r = w.rank();
  // A ring: r + 1 bytes of value r to the next rank, and 2 bytes to the one before (with one or
  // two ranks both are the same rank: the tags tell the messages apart).
  const int next = (r + 1) % n, before = (r + n - 1) % n;
  const std::vector<uint8_t> forward(size_t(r + 1), uint8_t(r)), back{uint8_t(r), 9};
  std::vector<uint8_t> fromBefore(size_t(before + 1)), fromNext(2);
  const Send sends[] = {{forward.data(), forward.size(), next, 0}, {back.data(), back.size(), before, 1}};
  const Receive receives[] = {{fromBefore.data(), fromBefore.size(), before, 0}, {fromNext.data(), 2, next, 1}};
  w.transfer(sends, receives);
  EXPECT_EQ(fromBefore, std::vector<uint8_t>(size_t(before + 1), uint8_t(before)));
  EXPECT_EQ(fromNext, (std::vector<uint8_t>{uint8_t(next), 9}));
  // A line (slabs): nothing comes from before rank 0, nothing goes past the last; empty messages
  // arrive empty.
  const std::vector<uint8_t> line(size_t(3 * r), 7);
  std::vector<uint8_t> got(r > 0 ? size_t(3 * (r - 1)) : 0);
  const Send lineSend[] = {{line.data(), line.size(), r + 1 < n ? r + 1 : -1, 2}};
  const Receive lineReceive[] = {{got.data(), got.size(), r - 1, 2}};
  w.transfer(lineSend, lineReceive);
  EXPECT_EQ(got, r > 0 ? std::vector<uint8_t>(size_t(3 * (r - 1)), 7) : std::vector<uint8_t>{});
  const Send past[] = {{nullptr, 0, n, 0}};
  EXPECT_THROW(w.transfer(past, {}), std::exception);
  const Send badTag[] = {{nullptr, 0, -1, MessageTransport::kTags}};
  EXPECT_THROW(w.transfer(badTag, {}), std::exception);
}

// start() posts the messages and returns; wait() completes them and checks that each receive got
// the bytes it named (a halo's refresh posts its messages without sending their sizes first).
TEST(Communicator, StartedTransfersArriveAtTheWaitAndCheckTheirSizes) {
  const Communicator& w = world();
  const int n = w.size(), r = w.rank();
  const int next = (r + 1) % n, before = (r + n - 1) % n;
  const std::vector<uint8_t> forward(size_t(r + 5), uint8_t(r));
  std::vector<uint8_t> fromBefore(size_t(before + 5), 0);
  const Send sends[] = {{forward.data(), forward.size(), next, 4}};
  const Receive receives[] = {{fromBefore.data(), fromBefore.size(), before, 4}};
  std::unique_ptr<PendingTransfer> pending = w.start(sends, receives);
  pending->wait();
  EXPECT_EQ(fromBefore, std::vector<uint8_t>(size_t(before + 5), uint8_t(before)));
  // Every rank sends 3 bytes and expects 5: its wait says so (one rank outside MPI: start()
  // finds no send that matches).
  const std::vector<uint8_t> shortMessage(3, 1);
  std::vector<uint8_t> room(5);
  const Send shortSend[] = {{shortMessage.data(), shortMessage.size(), next, 5}};
  const Receive longReceive[] = {{room.data(), room.size(), before, 5}};
  try {
    pending = w.start(shortSend, longReceive);
    pending->wait();
    ADD_FAILURE() << "a message of 3 bytes taken where 5 were expected";
  } catch (const RunError& e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.find("a message of 3 bytes from rank " + std::to_string(before) + " where 5 were expected") !=
                    std::string::npos ||
                (w.single() && what.find("no send of this rank matches") != std::string::npos))
        << what;
  }
}

// NCCL is loaded when a run asks for it; where it cannot be, every rank says which file it tried.
TEST(NcclLink, NamesTheLibraryItCannotLoad) {
  const char* before = std::getenv("SPH_NCCL_LIBRARY");
  const std::string saved = before ? before : "";
  setenv("SPH_NCCL_LIBRARY", "/nonexistent/libnccl.so.2", 1);
  try {
    NcclLink link(world());
    ADD_FAILURE() << "NCCL loaded from a file that does not exist";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot load NCCL (/nonexistent/libnccl.so.2)"), std::string::npos)
        << e.what();
  }
  if (before)
    setenv("SPH_NCCL_LIBRARY", saved.c_str(), 1);
  else
    unsetenv("SPH_NCCL_LIBRARY");
}

// Each rank counts the particles of its share in each layer; the sums give every rank the same
// slabs, those of the whole count.
TEST(Communicator, SlabsFromSummedLayerCountsAgreeOnEveryRank) {
  const Communicator& w = world();
  const int n = w.size(), r = w.rank();
  std::vector<double> all(60), mine(60, 0.0);
  for (size_t l = 0; l < all.size(); ++l) all[l] = double((l * 37) % 11 + 1);
  // Rank r holds every n-th particle of each layer, starting at its own.
  for (size_t l = 0; l < all.size(); ++l)
    for (int p = 0; p < int(all[l]); ++p)
      if (p % n == r) mine[l] += 1;
  w.sumInPlace(mine);
  EXPECT_EQ(mine, all);
  const SlabBegins slabs = balancedSlabs(mine, uint32_t(std::max(n, 2)), 3);
  std::vector<double> begins(slabs.begin(), slabs.end());
  const std::vector<double> everyone = w.gatherv(begins);
  for (int k = 0; k < n; ++k)
    EXPECT_EQ(std::vector<double>(everyone.begin() + k * begins.size(), everyone.begin() + (k + 1) * begins.size()),
              begins)
        << "rank " << k;
}

}  // namespace
}  // namespace sph::parallel
