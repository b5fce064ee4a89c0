// Timed replay of recorded steps (run/step_graphs.h): the glue between the graph cache and the
// phase timer, host code only.
#include "platform/phase_timers.h"
#include "run/step_graphs.h"

namespace sph {

void runTimedStep(StepGraphs& graphs, RecordingTimer& timer, const StepGraphKey& key,
                  const std::function<void()>& work, const std::function<void()>& replayed) {
  // Only while the work is captured do its phases' events go into the graph; the eager run of a
  // failed recording is timed as any other step.
  const auto recordedWork = [&] {
    if (!graphs.capturing()) return work();
    struct Recording {
      RecordingTimer& t;
      explicit Recording(RecordingTimer& timer) : t(timer) { t.beginRecording(); }
      ~Recording() { t.endRecording(); }
      Recording(const Recording&) = delete;
      Recording& operator=(const Recording&) = delete;
    } recording(timer);
    work();
  };
  graphs.run(key, recordedWork, replayed);
  const int slot = graphs.lastLaunchedSlot();
  if (graphs.lastRunRecorded()) timer.keepRecording(slot);
  timer.graphLaunched(slot);
}

}  // namespace sph
