// A request to stop a run at the end of its current step (SIGINT, SIGTERM): the run then ends as
// "interrupted", with its report and complete gauge files, instead of dying mid-write. Set from a
// signal handler, so only a lock-free atomic store.
#pragma once

namespace sph {

// Records `signal` (non-zero) as the reason to stop; async-signal-safe.
void requestStop(int signal) noexcept;
// The signal that asked the run to stop, or 0.
int stopRequested() noexcept;

}  // namespace sph
