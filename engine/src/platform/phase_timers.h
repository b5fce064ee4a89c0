// Recording implementations of sph::PhaseTimer: a steady clock for CPU runs and CUDA events for
// GPU runs (gpu/gpu_phase_timer.cu). Totals keep the order in which phases first appeared.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sph/plugin/phase_timer.h"

namespace sph {

struct PhaseTotal {
  std::string name;
  PhaseGroup group = PhaseGroup::Other;
  double seconds = 0;
  uint64_t calls = 0;
};

class PhaseAccumulator {
 public:
  void add(const char* name, PhaseGroup g, double seconds) {
    for (auto& t : totals_)
      if (t.name == name) {
        t.seconds += seconds;
        ++t.calls;
        return;
      }
    totals_.push_back({name, g, seconds, 1});
  }
  const std::vector<PhaseTotal>& totals() const { return totals_; }

 private:
  std::vector<PhaseTotal> totals_;
};

// Phases do not nest (PhaseTimer): the timers keep one open phase, and a phase begun inside
// another would lose the outer one's start (on the GPU, reuse its events twice). Throws
// std::logic_error naming both.
inline void checkNotNested(bool open, const char* name, const char* openName) {
  if (open)
    throw std::logic_error(std::string("phase '") + name + "' begun inside phase '" + openName +
                           "': phases do not nest");
}

class RecordingTimer : public PhaseTimer {
 public:
  // Resolves finished measurements (GPU: waits for the device to reach the last one).
  virtual void flush() = 0;
  virtual std::vector<PhaseTotal> totals() = 0;

  // Timed CUDA-graph replay (run/step_graphs.h; GPU timer only, no-ops elsewhere). Phases begun
  // between beginRecording() and endRecording() are being captured into a graph: their events
  // become nodes of it, are kept apart, and belong to the graph slot keepRecording() names (-1:
  // the recording was abandoned, forget them). Each launch of that slot's graph records the
  // same events again, so graphLaunched(slot) has them read by stepFinished(), which the engine
  // calls after the step's wait, before the graph can run again.
  virtual void beginRecording() {}
  virtual void endRecording() {}
  virtual void keepRecording(int /*slot*/) {}
  virtual void graphLaunched(int /*slot*/) {}
  virtual void stepFinished() {}
};

std::unique_ptr<RecordingTimer> makeCpuTimer();
std::unique_ptr<RecordingTimer> makeNullTimer();  // records nothing (--no-timers)
std::unique_ptr<RecordingTimer> makeGpuTimer();  // throws RunError in a CPU-only build

}  // namespace sph
