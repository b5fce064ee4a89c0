#include "parallel/nccl_link.h"

#include <dlfcn.h>
#include <sched.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph::parallel {

// NCCL's C interface (nccl.h, stable since NCCL 2.7), declared here because NCCL is loaded at
// run time: results and data types are C enums (ints), communicators and CUDA streams pointers,
// the unique id a struct of 128 bytes passed by value.
struct NcclLink::Api {
  struct UniqueId {
    char internal[128];
  };
  static constexpr int kSuccess = 0;
  static constexpr int kInt8 = 0;  // ncclInt8: bytes
  void* library = nullptr;
  int (*getUniqueId)(UniqueId*) = nullptr;
  int (*commInitRank)(void** comm, int ranks, UniqueId id, int rank) = nullptr;
  int (*commDestroy)(void* comm) = nullptr;
  int (*send)(const void* data, size_t count, int type, int peer, void* comm, void* stream) = nullptr;
  int (*recv)(void* data, size_t count, int type, int peer, void* comm, void* stream) = nullptr;
  int (*groupStart)() = nullptr;
  int (*groupEnd)() = nullptr;
  const char* (*errorString)(int) = nullptr;

  void check(int result, const char* what) const {
    if (result != kSuccess)
      throw RunError(fmt::format("NCCL: {} failed: {}", what, errorString ? errorString(result) : "unknown error"));
  }
};

namespace {
template <typename F>
void bind(void* library, const std::string& path, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(library, name));
  if (!f) throw RunError(fmt::format("NCCL: {} has no {} (NCCL 2.7 or later is needed)", path, name));
}
}  // namespace

NcclLink::NcclLink(const Communicator& comm) : api_(std::make_unique<Api>()), size_(comm.size()) {
  const char* named = std::getenv("SPH_NCCL_LIBRARY");
  const std::string path = named && *named ? named : "libnccl.so.2";
  api_->library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!api_->library)
    throw RunError(
        fmt::format("--rank-exchange nccl: cannot load NCCL ({}): {}; put libnccl.so.2 on the library path or name it "
                    "in SPH_NCCL_LIBRARY",
                    path, dlerror()));
  Api& a = *api_;
  bind(a.library, path, "ncclGetErrorString", a.errorString);
  bind(a.library, path, "ncclGetUniqueId", a.getUniqueId);
  bind(a.library, path, "ncclCommInitRank", a.commInitRank);
  bind(a.library, path, "ncclCommDestroy", a.commDestroy);
  bind(a.library, path, "ncclSend", a.send);
  bind(a.library, path, "ncclRecv", a.recv);
  bind(a.library, path, "ncclGroupStart", a.groupStart);
  bind(a.library, path, "ncclGroupEnd", a.groupEnd);
  setNcclDefaults();
  Api::UniqueId id{};
  if (comm.rank() == 0) a.check(a.getUniqueId(&id), "making the communicator's id");
  std::vector<uint8_t> mine;
  if (comm.rank() == 0) mine.assign(id.internal, id.internal + sizeof id.internal);
  const std::vector<uint8_t> every = comm.gatherBytes(mine);
  if (every.size() != sizeof id.internal) throw RunError("NCCL: the communicator's id did not reach every rank");
  std::memcpy(id.internal, every.data(), sizeof id.internal);
  a.check(a.commInitRank(&comm_, comm.size(), id, comm.rank()), "building the communicator of the ranks' GPUs");
}

// The library stays loaded: NCCL's threads may outlive the communicator.
NcclLink::~NcclLink() {
  if (comm_) api_->commDestroy(comm_);
}

void NcclLink::transfer(std::span<const Send> sends, std::span<const Receive> receives) const {
  std::vector<Send> s(sends.begin(), sends.end());
  std::vector<Receive> r(receives.begin(), receives.end());
  std::stable_sort(s.begin(), s.end(), [](const Send& x, const Send& y) { return x.tag < y.tag; });
  std::stable_sort(r.begin(), r.end(), [](const Receive& x, const Receive& y) { return x.tag < y.tag; });
  for (const Send& m : s)
    if (m.to >= size_ || m.tag < 0 || m.tag >= kTags)
      throw RunError(fmt::format("NCCL: a message to rank {} (tag {}) among {} ranks", m.to, m.tag, size_));
  for (const Receive& m : r)
    if (m.from >= size_ || m.tag < 0 || m.tag >= kTags)
      throw RunError(fmt::format("NCCL: a message from rank {} (tag {}) among {} ranks", m.from, m.tag, size_));
  const Api& a = *api_;
  void* const stream = stream_;
  a.check(a.groupStart(), "starting the exchange's messages");
  for (const Send& m : s)
    if (m.to >= 0 && m.bytes > 0) a.check(a.send(m.data, m.bytes, Api::kInt8, m.to, comm_, stream), "sending");
  for (const Receive& m : r)
    if (m.from >= 0 && m.bytes > 0) a.check(a.recv(m.data, m.bytes, Api::kInt8, m.from, comm_, stream), "receiving");
  a.check(a.groupEnd(), "posting the exchange's messages");
}

void setNcclDefaults() {
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  setenv("NCCL_MAX_P2P_NCHANNELS", "4", 0);
}

bool boundToOneCore() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1;
}

}  // namespace sph::parallel
