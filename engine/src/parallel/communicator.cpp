#include "parallel/communicator.h"

#include <cstdlib>
#include <limits>
#include <numeric>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

#if defined(SPH_HAVE_MPI)
#include <mpi.h>
#endif

namespace sph::parallel {

namespace {
#if defined(SPH_HAVE_MPI)
// Throws RunError for a failed MPI call (the world's error handler returns errors, so that a
// failure is reported as the engine reports any other).
void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw RunError(fmt::format("MPI: {} failed: {}", what, std::string(text, size_t(length))));
}
int peer(int rank) { return rank < 0 ? MPI_PROC_NULL : rank; }
#endif

enum class Kind { Double, U64, Int };
enum class Op { Min, Max, Sum, And };

// `count` values at `data` replaced by their reduction over every rank (unchanged on one rank).
void allReduce(bool mpi, void* data, int count, Kind kind, Op op, const char* what) {
#if defined(SPH_HAVE_MPI)
  if (!mpi || count == 0) return;
  const MPI_Datatype type = kind == Kind::Double ? MPI_DOUBLE : kind == Kind::U64 ? MPI_UINT64_T : MPI_INT;
  const MPI_Op how = op == Op::Min ? MPI_MIN : op == Op::Max ? MPI_MAX : op == Op::Sum ? MPI_SUM : MPI_LAND;
  check(MPI_Allreduce(MPI_IN_PLACE, data, count, type, how, MPI_COMM_WORLD), what);
#else
  (void)mpi, (void)data, (void)count, (void)kind, (void)op, (void)what;
#endif
}
}  // namespace

bool launchedByMpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

bool builtWithMpi() {
#if defined(SPH_HAVE_MPI)
  return true;
#else
  return false;
#endif
}

const Communicator& Communicator::world() {
  static Communicator w;  // the single rank until an MpiSession fills it in
  return w;
}

const Communicator& Communicator::self() {
  static const Communicator s;
  return s;
}

MpiSession::MpiSession() {
#if defined(SPH_HAVE_MPI)
  if (!launchedByMpi()) return;
  int provided = 0;
  // The engine calls MPI from its main thread only (OpenMP threads never do).
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "initialising");
  active_ = true;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  Communicator& w = const_cast<Communicator&>(Communicator::world());
  check(MPI_Comm_rank(MPI_COMM_WORLD, &w.rank_), "asking this rank");
  check(MPI_Comm_size(MPI_COMM_WORLD, &w.size_), "asking the number of ranks");
  MPI_Comm local;
  check(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, w.rank_, MPI_INFO_NULL, &local),
        "grouping the ranks of each machine");
  check(MPI_Comm_rank(local, &w.localRank_), "asking the rank on this machine");
  check(MPI_Comm_size(local, &w.localSize_), "asking the ranks on this machine");
  MPI_Comm_free(&local);
  w.mpi_ = true;
#endif
}

MpiSession::~MpiSession() {
#if defined(SPH_HAVE_MPI)
  if (!active_) return;
  Communicator& w = const_cast<Communicator&>(Communicator::world());
  w.mpi_ = false;
  w.rank_ = w.localRank_ = 0;
  w.size_ = w.localSize_ = 1;
  MPI_Finalize();
#endif
}

void MpiSession::abort(int code) const {
#if defined(SPH_HAVE_MPI)
  if (active_) MPI_Abort(MPI_COMM_WORLD, code);
#else
  (void)code;
#endif
}

double Communicator::minimum(double v) const {
  allReduce(mpi_, &v, 1, Kind::Double, Op::Min, "reducing a minimum");
  return v;
}

double Communicator::maximum(double v) const {
  allReduce(mpi_, &v, 1, Kind::Double, Op::Max, "reducing a maximum");
  return v;
}

double Communicator::sum(double v) const {
  allReduce(mpi_, &v, 1, Kind::Double, Op::Sum, "reducing a sum");
  return v;
}

uint64_t Communicator::sum(uint64_t v) const {
  allReduce(mpi_, &v, 1, Kind::U64, Op::Sum, "reducing a count");
  return v;
}

void Communicator::sumInPlace(std::vector<double>& v) const {
  allReduce(mpi_, v.data(), int(v.size()), Kind::Double, Op::Sum, "reducing sums");
}

void Communicator::sumInPlace(uint64_t* v, int count) const {
  allReduce(mpi_, v, count, Kind::U64, Op::Sum, "reducing counts");
}

void Communicator::maximumInPlace(double* v, int count) const {
  allReduce(mpi_, v, count, Kind::Double, Op::Max, "reducing maxima");
}

std::vector<double> Communicator::gather(double v) const {
  std::vector<double> all(size_t(size_), v);
#if defined(SPH_HAVE_MPI)
  if (mpi_) check(MPI_Allgather(&v, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, MPI_COMM_WORLD), "gathering values");
#endif
  return all;
}

std::vector<double> Communicator::gatherv(const std::vector<double>& v) const {
#if defined(SPH_HAVE_MPI)
  if (mpi_) {
    const int mine = int(v.size());
    std::vector<int> counts(static_cast<size_t>(size_)), offsets(static_cast<size_t>(size_));
    check(MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "gathering sizes");
    std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
    std::vector<double> all(size_t(offsets.back() + counts.back()));
    check(MPI_Allgatherv(v.data(), mine, MPI_DOUBLE, all.data(), counts.data(), offsets.data(), MPI_DOUBLE,
                         MPI_COMM_WORLD),
          "gathering vectors");
    return all;
  }
#endif
  return v;
}

namespace {
#if defined(SPH_HAVE_MPI)
// Every rank's bytes concatenated in rank order, on every rank (root < 0) or on `root` alone.
std::vector<uint8_t> gatherAll(const std::vector<uint8_t>& v, int size, int root) {
  if (v.size() > size_t(std::numeric_limits<int>::max()))
    throw RunError(fmt::format("MPI: gathering {} bytes from one rank (at most 2 GiB)", v.size()));
  const int mine = int(v.size());
  std::vector<int> counts(static_cast<size_t>(size)), offsets(static_cast<size_t>(size));
  check(MPI_Allgather(&mine, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD), "gathering sizes");
  std::vector<long long> wide(counts.begin(), counts.end());
  const long long total = std::accumulate(wide.begin(), wide.end(), 0LL);
  if (total > std::numeric_limits<int>::max())
    throw RunError(fmt::format("MPI: gathering {} bytes (at most 2 GiB at once)", total));
  std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
  int rank = 0;
  check(MPI_Comm_rank(MPI_COMM_WORLD, &rank), "asking this rank");
  std::vector<uint8_t> all(root < 0 || rank == root ? size_t(total) : 0);
  if (root < 0)
    check(MPI_Allgatherv(v.data(), mine, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, MPI_COMM_WORLD),
          "gathering bytes");
  else
    check(MPI_Gatherv(v.data(), mine, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, root,
                      MPI_COMM_WORLD),
          "gathering bytes to one rank");
  return all;
}
#endif
}  // namespace

std::vector<uint8_t> Communicator::gatherBytes(const std::vector<uint8_t>& v) const {
#if defined(SPH_HAVE_MPI)
  if (mpi_) return gatherAll(v, size_, -1);
#endif
  return v;
}

std::vector<uint8_t> Communicator::gatherBytesTo(int root, const std::vector<uint8_t>& v) const {
  if (root < 0 || root >= size_) throw RunError(fmt::format("MPI: gathering to rank {} among {} ranks", root, size_));
#if defined(SPH_HAVE_MPI)
  if (mpi_) return gatherAll(v, size_, root);
#endif
  return v;
}

void Communicator::exchange(const std::vector<uint8_t>& send, int to, std::vector<uint8_t>& received, int from) const {
  if (to >= size_ || from >= size_)
    throw RunError(fmt::format("MPI: an exchange with rank {} among {} ranks", to >= size_ ? to : from, size_));
#if defined(SPH_HAVE_MPI)
  if (mpi_) {
    // MPI counts are ints: a larger buffer would have to go in pieces.
    if (send.size() > size_t(std::numeric_limits<int>::max()))
      throw RunError(fmt::format("MPI: a buffer of {} bytes for rank {} (at most 2 GiB a message)", send.size(), to));
    uint64_t outgoing = send.size(), incoming = 0;
    MPI_Status status;
    check(MPI_Sendrecv(&outgoing, 1, MPI_UINT64_T, peer(to), 0, &incoming, 1, MPI_UINT64_T, peer(from), 0,
                       MPI_COMM_WORLD, &status),
          "exchanging buffer sizes");
    received.resize(from < 0 ? 0 : size_t(incoming));
    check(MPI_Sendrecv(send.data(), int(send.size()), MPI_BYTE, peer(to), 1, received.data(), int(received.size()),
                       MPI_BYTE, peer(from), 1, MPI_COMM_WORLD, &status),
          "exchanging buffers");
    return;
  }
#endif
  // One rank: what it sends to itself is what it receives.
  received = (to == 0 && from == 0) ? send : std::vector<uint8_t>{};
}

void Communicator::barrier() const {
#if defined(SPH_HAVE_MPI)
  if (mpi_) check(MPI_Barrier(MPI_COMM_WORLD), "waiting for every rank");
#endif
}

bool Communicator::all(bool v) const {
  int x = v ? 1 : 0;
  allReduce(mpi_, &x, 1, Kind::Int, Op::And, "agreeing");
  return x != 0;
}

}  // namespace sph::parallel
