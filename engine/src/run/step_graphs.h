// CUDA-graph replay of steady time steps (GPU only).
//
// At DamBreak2D's 21k particles a steady Verlet-list step is four small kernels and a 48-byte
// copy, and the host's launches take longer than the device's work; replaying the same work as
// one CUDA graph takes about half the host time of launching its kernels one by one
// (tools/bench/launch_cost.cu measures both). So when a step would launch exactly what an
// earlier step launched (same kernels, arguments and grid sizes; the engine and the strategy
// say so with a key), the engine records that work once and replays it.
//
// Recording runs the work's host code as usual (its device work is captured instead of run,
// then the graph is launched once), so the host bookkeeping of a recorded step is the same as
// of an eager one. A replay runs no host code of the work at all: the caller's `replayed`
// callback keeps what the work's host code would have kept.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace sph {

class RecordingTimer;

// What a recorded graph depends on: the strategy's replay token (NeighbourStrategy::
// replayToken) and every engine-side launch argument that can change between steps.
struct StepGraphKey {
  uint64_t token = 0;            // the strategy's; 0 never replays
  const void* arrays = nullptr;  // the current particle array set (reorders swap two sets)
  uint32_t n = 0, nBound = 0;
  bool operator==(const StepGraphKey&) const = default;
};

class StepGraphs {
 public:
  virtual ~StepGraphs() = default;
  // Replays the graph recorded under `key` and calls `replayed()`, or, when there is none,
  // records `work` under `key` (evicting the least recently used graph) and launches it.
  // If recording fails (the work synchronised or allocated, which a recorded step must not),
  // the capture is ended, replay is switched off for the rest of the run (disabledReason()
  // says why) and `work` runs eagerly: the captured work never ran, so nothing is lost.
  virtual void run(const StepGraphKey& key, const std::function<void()>& work,
                   const std::function<void()>& replayed) = 0;
  // True while run() captures `work` (its device work is being recorded, not run).
  virtual bool capturing() const = 0;
  // What the last run() did: the slot (0-3) of the graph it launched, or -1 when it ran the
  // work eagerly; and whether it recorded that graph (true also for a recording that failed).
  virtual int lastLaunchedSlot() const = 0;
  virtual bool lastRunRecorded() const = 0;
  virtual bool enabled() const = 0;
  virtual const std::string& disabledReason() const = 0;
  virtual uint64_t recordings() const = 0;  // captures (each followed by an instantiation or update)
  virtual uint64_t replays() const = 0;     // steps replayed from a recorded graph
};

// The GPU implementation; throws in builds without CUDA.
std::unique_ptr<StepGraphs> makeStepGraphs();

// graphs.run(key, work, replayed) with the phases `timer` measures in `work` kept in the graph
// when it is recorded, and read after each launch (RecordingTimer::beginRecording and after).
// The caller calls timer.stepFinished() after the step's wait.
void runTimedStep(StepGraphs& graphs, RecordingTimer& timer, const StepGraphKey& key,
                  const std::function<void()>& work, const std::function<void()>& replayed);

}  // namespace sph
