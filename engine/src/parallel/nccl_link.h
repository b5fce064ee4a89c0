// Messages between the ranks' GPUs through NCCL (over NVLink, PCIe or the network, as NCCL finds
// them), for runs that ask for it (sph run --rank-exchange nccl): the exchange's records then go
// from device memory to device memory, without the host's copies. NCCL is loaded when a run asks
// for it (libnccl.so.2 from the library path, or the file SPH_NCCL_LIBRARY names), so that
// builds and runs without it need nothing of it. NCCL's settings that its defaults get wrong for
// these messages are set unless the environment sets them (setNcclDefaults()).
#pragma once

#include <memory>
#include <span>

#include "parallel/communicator.h"
#include "parallel/message_transport.h"

namespace sph::parallel {

class NcclLink final : public MessageTransport {
 public:
  // Every rank calls it, its GPU chosen (gpu::useDeviceOfLocalRank); NCCL's id goes from rank 0 to
  // the others through `comm`. Throws RunError when NCCL cannot be loaded or refuses (NCCL
  // wants one rank a GPU).
  explicit NcclLink(const Communicator& comm);
  ~NcclLink() override;
  NcclLink(const NcclLink&) = delete;
  NcclLink& operator=(const NcclLink&) = delete;

  // Device buffers. The messages are queued on the CUDA stream queueOn() named (the default
  // stream unless it did), where the caller orders them after the kernels that fill them and
  // before those that read what came; between two ranks NCCL matches messages in the order they
  // are posted, so each rank posts its messages in tag order. The call does not wait for them.
  void transfer(std::span<const Send> sends, std::span<const Receive> receives) const override;
  void queueOn(void* stream) { stream_ = stream; }  // a cudaStream_t

 private:
  struct Api;
  std::unique_ptr<Api> api_;
  void* comm_ = nullptr;  // ncclComm_t
  void* stream_ = nullptr;  // cudaStream_t; null: the default stream
  int size_ = 1;
};

// Sets, unless the environment already does, what NcclLink needs of NCCL before it starts (NCCL's
// configuration files, read later, then no longer set these two):
// - NVLink multicast (NVLS) off (NCCL_NVLS_ENABLE=0): the exchanges are point to point.
// - At most 4 channels a point-to-point message (NCCL_MAX_P2P_NCHANNELS=4). With NCCL's own
//   number between GPUs joined by NVLink, posting a halo refresh held the host long enough for
//   the GPU to run out of queued work before the interior's kernels came. Four channels post
//   quickly and still move a refresh within the interior's kernels (tools/bench/RESULTS.md,
//   "NCCL's point-to-point channels").
void setNcclDefaults();

// Whether this process may run on one core only (mpirun binds each rank to a core by default):
// NCCL's helper thread then waits for the engine's thread whenever a message must progress.
bool boundToOneCore();

}  // namespace sph::parallel
