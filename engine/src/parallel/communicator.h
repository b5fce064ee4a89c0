// The ranks of one run and what they say to each other: the only place the engine talks MPI.
//
// A run started by an MPI launcher (mpirun, srun: the launcher's environment says so,
// launchedByMpi()) initialises MPI through an MpiSession in main(); every other run, and every
// build without MPI (SPH_MPI off), is the single rank of its own communicator, whose collectives
// return their argument. So the engine's code asks the same questions whether there is one rank
// or many, and a plain `sph run` never loads MPI.
//
// Collectives are blocking and must be called by every rank in the same order with the same
// sizes, as MPI's are. Errors (a failed MPI call) throw RunError naming what was being done.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "parallel/message_transport.h"

namespace sph::parallel {

// Whether this process was started by an MPI launcher (Open MPI's, PMIx or PMI based ones).
bool launchedByMpi();

// Whether this build can run over MPI.
bool builtWithMpi();

// MPI for the lifetime of the object: initialised by the constructor when the process was started
// by a launcher and the build has MPI, finalised by the destructor. One per process, in main().
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  bool active() const { return active_; }
  // Ends every rank of the run with `code` (MPI_Abort): one rank's failure must not leave the
  // others waiting in a collective. Returns only when MPI is not active.
  void abort(int code) const;

 private:
  bool active_ = false;
};

class Communicator final : public MessageTransport {
 public:
  // MPI_COMM_WORLD while an MpiSession is active; else the single rank of this process.
  static const Communicator& world();
  // The single rank of this process, also under a launcher (a run every rank does alone).
  static const Communicator& self();

  int rank() const { return rank_; }
  int size() const { return size_; }
  // The rank among those of the same machine, and how many share it: a rank's GPU is
  // localRank() modulo the machine's GPUs (several ranks may share one).
  int localRank() const { return localRank_; }
  int localSize() const { return localSize_; }
  bool single() const { return size_ == 1; }

  // Every rank gets the minimum, maximum or sum over all ranks.
  double minimum(double v) const;
  double maximum(double v) const;
  double sum(double v) const;
  uint64_t sum(uint64_t v) const;
  // Element-wise sums (maxima) of `count` values at `v`, the same count on every rank, in place.
  void sumInPlace(std::vector<double>& v) const;
  void sumInPlace(uint64_t* v, int count) const;
  void maximumInPlace(double* v, int count) const;
  // Element-wise sums added in rank order, in place: every rank gets the same bits (an MPI
  // reduction may add in another order on each rank). For small vectors: every rank gets all.
  void sumInRankOrder(std::vector<double>& v) const;
  // Every rank's value, in rank order.
  std::vector<double> gather(double v) const;
  // Every rank's vector (of any size), concatenated in rank order.
  std::vector<double> gatherv(const std::vector<double>& v) const;
  std::vector<uint8_t> gatherBytes(const std::vector<uint8_t>& v) const;
  // The same on rank `root` alone (the others get an empty vector).
  std::vector<uint8_t> gatherBytesTo(int root, const std::vector<uint8_t>& v) const;
  // Point-to-point messages between host buffers (message_transport.h), of any size (MPI counts
  // are ints: larger messages go in pieces).
  // A receive must get exactly the bytes it names: one of another size throws RunError.
  void transfer(std::span<const Send> sends, std::span<const Receive> receives) const override;
  std::unique_ptr<PendingTransfer> start(std::span<const Send> sends, std::span<const Receive> receives) const override;
  void barrier() const;
  // Whether every rank says true.
  bool all(bool v) const;

 private:
  Communicator() = default;
  friend class MpiSession;
  friend class SharedFile;
  int rank_ = 0, size_ = 1, localRank_ = 0, localSize_ = 1;
  bool mpi_ = false;
};

// One file of `bytes` bytes that every rank writes parts of: opened and sized by every rank
// together (MPI-IO: the ranks of several machines need a file system they share), each rank
// writing its own byte ranges, closed by every rank together. A failed write is kept and
// reported by close() on every rank, so that no rank is left waiting in a collective. A single
// rank writes with the C library.
class SharedFile {
 public:
  SharedFile(const Communicator& comm, const std::string& path, uint64_t bytes);
  ~SharedFile();
  SharedFile(const SharedFile&) = delete;
  SharedFile& operator=(const SharedFile&) = delete;
  void writeAt(uint64_t offset, const void* data, size_t bytes);
  // Every rank: closes the file, then throws RunError on every rank when a write of any failed.
  void close();

 private:
  struct Handle;
  const Communicator& comm_;
  std::string path_;
  std::unique_ptr<Handle> h_;
  std::string error_;  // this rank's first failure
};

}  // namespace sph::parallel
