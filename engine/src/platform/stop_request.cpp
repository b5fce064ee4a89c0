#include "platform/stop_request.h"

#include <atomic>

namespace sph {
namespace {

std::atomic<int> requested{0};
static_assert(std::atomic<int>::is_always_lock_free, "a signal handler may only store to a lock-free atomic");

}  // namespace

void requestStop(int signal) noexcept { requested.store(signal, std::memory_order_relaxed); }
int stopRequested() noexcept { return requested.load(std::memory_order_relaxed); }

}  // namespace sph
