#include "parallel/communicator.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

void Communicator::sumInRankOrder(std::vector<double>& v) const {
  if (single()) return;
  const size_t n = v.size();
  if (n > size_t(std::numeric_limits<int>::max()))
    throw RunError(fmt::format("MPI: summing {} values in rank order (at most 2^31 - 1)", n));
  std::vector<double> all(n * size_t(size_));
#if defined(SPH_HAVE_MPI)
  // One collective (the count is every rank's, as the contract says), not gatherv's two: this runs
  // every force pass of a run with floating bodies.
  check(MPI_Allgather(v.data(), int(n), MPI_DOUBLE, all.data(), int(n), MPI_DOUBLE, MPI_COMM_WORLD),
        "gathering sums to add in rank order");
#endif
  for (size_t i = 0; i < n; ++i) {
    double s = all[i];
    for (int r = 1; r < size_; ++r) s += all[size_t(r) * n + i];
    v[i] = s;
  }
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

#if defined(SPH_HAVE_MPI)
namespace {
// The pieces a message goes in: MPI counts are ints.
constexpr size_t kPiece = size_t(1) << 30;
size_t pieces(size_t bytes) { return (bytes + kPiece - 1) / kPiece; }
}  // namespace

// Posted messages: their requests, and what each receive expects (sends expect nothing).
class MpiPending final : public PendingTransfer {
 public:
  ~MpiPending() override {
    if (requests_.empty()) return;
    // Unwound past wait(): the buffers must outlive the messages. Errors are not thrown here.
    MPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  }
  // Piece k of a message carries tag + kTags k; every rank knows a message's size, so both sides
  // cut it alike.
  template <typename Start>
  void post(Start&& start, uint8_t* data, size_t bytes, int peer, int tag, bool receive) {
    if (peer < 0) return;
    for (size_t k = 0; k < pieces(bytes); ++k) {
      const size_t size = std::min(kPiece, bytes - k * kPiece);
      if (size_t(tag) + MessageTransport::kTags * k > size_t(std::numeric_limits<int16_t>::max()))
        throw RunError(fmt::format("MPI: a message of {} bytes is too large", bytes));
      requests_.emplace_back();
      expected_.push_back(receive ? int64_t(size) : -1);
      peers_.push_back(peer);
      check(start(data + k * kPiece, int(size), peer, tag + MessageTransport::kTags * int(k), &requests_.back()),
            "posting a message");
    }
  }
  void wait() override {
    std::vector<MPI_Status> statuses(requests_.size());
    const int n = int(requests_.size());
    const int code = MPI_Waitall(n, requests_.data(), statuses.data());
    requests_.clear();
    check(code, "exchanging messages");
    for (size_t i = 0; i < statuses.size(); ++i) {
      if (expected_[i] < 0) continue;
      int got = 0;
      check(MPI_Get_count(&statuses[i], MPI_BYTE, &got), "counting a message's bytes");
      if (got != expected_[i])
        throw RunError(fmt::format("MPI: a message of {} bytes from rank {} where {} were expected", got, peers_[i],
                                   expected_[i]));
    }
  }

 private:
  std::vector<MPI_Request> requests_;
  std::vector<int64_t> expected_;
  std::vector<int> peers_;
};
#endif

std::unique_ptr<PendingTransfer> Communicator::start(std::span<const Send> sends,
                                                     std::span<const Receive> receives) const {
  auto checkPeer = [this](int peer, int tag) {
    if (peer >= size_ || tag < 0 || tag >= kTags)
      throw RunError(fmt::format("MPI: a message with rank {} (tag {}) among {} ranks", peer, tag, size_));
  };
  for (const Send& m : sends) checkPeer(m.to, m.tag);
  for (const Receive& m : receives) checkPeer(m.from, m.tag);
#if defined(SPH_HAVE_MPI)
  if (mpi_) {
    auto pending = std::make_unique<MpiPending>();
    for (const Receive& m : receives)
      pending->post([](void* d, int n, int p, int t,
                       MPI_Request* r) { return MPI_Irecv(d, n, MPI_BYTE, p, t, MPI_COMM_WORLD, r); },
                    static_cast<uint8_t*>(m.data), m.bytes, m.from, m.tag, true);
    for (const Send& m : sends)
      pending->post([](void* d, int n, int p, int t,
                       MPI_Request* r) { return MPI_Isend(d, n, MPI_BYTE, p, t, MPI_COMM_WORLD, r); },
                    static_cast<uint8_t*>(const_cast<void*>(m.data)), m.bytes, m.to, m.tag, false);
    return pending;
  }
#endif
  // One rank: a receive from itself takes its own send of the same tag.
  for (const Receive& m : receives) {
    if (m.from < 0) continue;
    const Send* s = nullptr;
    for (const Send& c : sends)
      if (c.to == 0 && c.tag == m.tag) s = &c;
    if (!s || s->bytes != m.bytes)
      throw RunError(fmt::format("a receive of {} bytes (tag {}) that no send of this rank matches", m.bytes, m.tag));
    std::memcpy(m.data, s->data, m.bytes);
  }
  return std::make_unique<DoneTransfer>();
}

void Communicator::transfer(std::span<const Send> sends, std::span<const Receive> receives) const {
  start(sends, receives)->wait();
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

struct SharedFile::Handle {
#if defined(SPH_HAVE_MPI)
  MPI_File file = MPI_FILE_NULL;
#endif
  std::FILE* c = nullptr;
};

SharedFile::SharedFile(const Communicator& comm, const std::string& path, uint64_t bytes)
    : comm_(comm), path_(path), h_(std::make_unique<Handle>()) {
#if defined(SPH_HAVE_MPI)
  if (comm_.mpi_) {
    // Every rank opens and sizes it (a shorter file left by an earlier run is cut to size).
    const int opened =
        MPI_File_open(MPI_COMM_WORLD, path.c_str(), MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &h_->file);
    if (opened != MPI_SUCCESS) h_->file = MPI_FILE_NULL;
    if (!comm_.all(opened == MPI_SUCCESS)) {
      if (h_->file != MPI_FILE_NULL) MPI_File_close(&h_->file);
      throw RunError(
          fmt::format("cannot create '{}' on every rank (the ranks of several machines need a file "
                      "system they share)",
                      path));
    }
    check(MPI_File_set_size(h_->file, MPI_Offset(bytes)), "sizing a file every rank writes");
    return;
  }
#endif
  (void)bytes;
  h_->c = std::fopen(path.c_str(), "wb");
  if (!h_->c) throw RunError(fmt::format("cannot create '{}': {}", path, std::strerror(errno)));
}

SharedFile::~SharedFile() {
  // Only on an exception's way out (close() was not reached): the C file; an MPI file is left to
  // MPI_Finalize, since closing it would wait for the other ranks.
  if (h_->c) std::fclose(h_->c);
}

void SharedFile::writeAt(uint64_t offset, const void* data, size_t bytes) {
  if (!error_.empty() || bytes == 0) return;
#if defined(SPH_HAVE_MPI)
  if (comm_.mpi_) {
    constexpr size_t kPiece = size_t(1) << 30;  // MPI counts are ints
    const char* p = static_cast<const char*>(data);
    for (size_t done = 0; done < bytes; done += kPiece) {
      const int count = int(std::min(kPiece, bytes - done));
      const int code =
          MPI_File_write_at(h_->file, MPI_Offset(offset + done), p + done, count, MPI_BYTE, MPI_STATUS_IGNORE);
      if (code != MPI_SUCCESS) {
        char text[MPI_MAX_ERROR_STRING];
        int length = 0;
        MPI_Error_string(code, text, &length);
        error_ = fmt::format("rank {}: writing {} bytes at byte {}: {}", comm_.rank(), count, offset + done,
                             std::string(text, size_t(length)));
        return;
      }
    }
    return;
  }
#endif
  if (fseeko(h_->c, off_t(offset), SEEK_SET) != 0 || std::fwrite(data, 1, bytes, h_->c) != bytes)
    error_ = fmt::format("writing {} bytes at byte {}: {}", bytes, offset, std::strerror(errno));
}

void SharedFile::close() {
#if defined(SPH_HAVE_MPI)
  if (comm_.mpi_) {
    const int code = MPI_File_close(&h_->file);
    if (code != MPI_SUCCESS && error_.empty()) error_ = fmt::format("rank {}: closing the file", comm_.rank());
  }
#endif
  if (h_->c) {
    const bool bad = std::ferror(h_->c) != 0;
    if (std::fclose(h_->c) != 0 || bad) error_ = fmt::format("closing: {}", std::strerror(errno));
    h_->c = nullptr;
  }
  if (!comm_.all(error_.empty()))
    throw RunError(
        fmt::format("cannot write '{}': {}", path_, error_.empty() ? "another rank's write failed" : error_));
}

}  // namespace sph::parallel
