// Point-to-point messages between ranks, whatever carries them: MPI between host buffers (the
// Communicator) or NCCL between device buffers (nccl_link.h). Every send and receive of a
// transfer is posted at once and waited for together, so that a rank that swaps with both its
// neighbours pays one round, not two, and no order of calls can deadlock. A receive takes the
// message that rank `from` sends to this rank with the same tag (0 to kTags - 1); its size must
// be known beforehand (send the sizes first). Rank -1: no message.
#pragma once

#include <cstddef>
#include <memory>
#include <span>

namespace sph::parallel {

struct Send {
  const void* data;
  size_t bytes;
  int to, tag;
};
struct Receive {
  void* data;
  size_t bytes;
  int from, tag;
};

// Messages start() posted: wait() returns once they are all done (the destructor waits too).
class PendingTransfer {
 public:
  virtual ~PendingTransfer() = default;
  virtual void wait() = 0;
};
// Messages already done when start() returned.
class DoneTransfer final : public PendingTransfer {
 public:
  void wait() override {}
};

class MessageTransport {
 public:
  static constexpr int kTags = 16;
  virtual ~MessageTransport() = default;
  virtual void transfer(std::span<const Send> sends, std::span<const Receive> receives) const = 0;
  // The same without waiting, for work that can go on meanwhile: the sends' data must stay as it
  // is, and the receives' storage unread, until wait(). The default transfers at once.
  virtual std::unique_ptr<PendingTransfer> start(std::span<const Send> sends, std::span<const Receive> receives) const {
    transfer(sends, receives);
    return std::make_unique<DoneTransfer>();
  }
};

}  // namespace sph::parallel
