// Phase timer on the GPU: a pair of CUDA events per measured phase on the default stream,
// resolved lazily (flush) so timing adds no synchronisation of its own to the step. Phases of a
// step recorded as a CUDA graph (run/step_graphs.h) keep their events as the graph's nodes: each
// launch records them again, and they are read after that step's wait (stepFinished).
#include <vector>

#include "platform/phase_timers.h"
#include "sph/plugin/gpu/cuda_check.cuh"

namespace sph {
namespace {

class GpuTimer final : public RecordingTimer {
 public:
  ~GpuTimer() override {
    for (auto& p : pending_) release(p);
    releaseAll(recorded_);
    for (auto& g : graphPhases_) releaseAll(g);
    for (cudaEvent_t e : pool_) cudaEventDestroy(e);
  }
  void begin(const char* name, PhaseGroup g) override {
    checkNotNested(open_, name, current_.name);
    open_ = true;
    current_ = {name, g, take(), nullptr};
    SPH_CUDA_CHECK(record(current_.start), "recording a phase-start event");
  }
  void end() override {
    open_ = false;
    current_.stop = take();
    if (recording_) {
      // end() runs in ScopedPhase's destructor, also while an exception from the captured work
      // unwinds (a wait inside a recorded step invalidates the capture, and then this record
      // fails too): the step graphs abandon the capture and run the step eagerly, and
      // keepRecording(-1) forgets these events, so the error is cleared here, not thrown.
      if (record(current_.stop) != cudaSuccess) cudaGetLastError();
      recorded_.push_back(current_);
      return;
    }
    SPH_CUDA_CHECK(record(current_.stop), "recording a phase-stop event");
    pending_.push_back(current_);
    if (pending_.size() > 4096) flush();
  }

  void beginRecording() override {
    releaseAll(recorded_);  // of a recording that was never kept
    recording_ = true;
  }
  void endRecording() override { recording_ = false; }
  void keepRecording(int slot) override {
    if (slot < 0) {
      releaseAll(recorded_);
      return;
    }
    if (size_t(slot) >= graphPhases_.size()) graphPhases_.resize(size_t(slot) + 1);
    releaseAll(graphPhases_[size_t(slot)]);  // the slot's previous graph is gone
    graphPhases_[size_t(slot)].swap(recorded_);
  }
  void graphLaunched(int slot) override {
    if (slot >= 0 && size_t(slot) < graphPhases_.size()) launched_.push_back(slot);
  }
  void stepFinished() override {
    if (launched_.empty()) return;
    flush();  // earlier eager phases first, so totals keep their order (their events are done)
    for (int slot : launched_)
      for (const Pending& p : graphPhases_[size_t(slot)]) accumulate(p);
    launched_.clear();
  }

  void flush() override {
    if (pending_.empty()) return;
    SPH_CUDA_CHECK(cudaEventSynchronize(pending_.back().stop), "waiting for phase timers");
    for (auto& p : pending_) {
      accumulate(p);
      release(p);
    }
    pending_.clear();
  }
  std::vector<PhaseTotal> totals() override {
    SPH_CUDA_CHECK(cudaStreamSynchronize(0), "waiting for the last timed phases");
    stepFinished();
    flush();
    return acc_.totals();
  }

 private:
  struct Pending {
    const char* name;
    PhaseGroup group;
    cudaEvent_t start, stop;
  };
  cudaEvent_t take() {
    if (!pool_.empty()) {
      cudaEvent_t e = pool_.back();
      pool_.pop_back();
      return e;
    }
    cudaEvent_t e;
    SPH_CUDA_CHECK(cudaEventCreate(&e), "creating a timing event");
    return e;
  }
  // While a step is captured, a plain cudaEventRecord only orders the captured work (an
  // internal dependency, never recorded at run time); an external record becomes a node of the
  // graph that records the event at each launch.
  cudaError_t record(cudaEvent_t e) const {
    return recording_ ? cudaEventRecordWithFlags(e, 0, cudaEventRecordExternal) : cudaEventRecord(e, 0);
  }
  void accumulate(const Pending& p) {
    float ms = 0;
    SPH_CUDA_CHECK(cudaEventElapsedTime(&ms, p.start, p.stop), "reading a phase timer");
    acc_.add(p.name, p.group, ms * 1e-3);
  }
  void release(Pending& p) {
    pool_.push_back(p.start);
    pool_.push_back(p.stop);
  }
  void releaseAll(std::vector<Pending>& v) {
    for (auto& p : v) release(p);
    v.clear();
  }
  Pending current_{};
  bool open_ = false;
  std::vector<Pending> pending_;
  bool recording_ = false;
  std::vector<Pending> recorded_;                  // phases of the step being recorded
  std::vector<std::vector<Pending>> graphPhases_;  // per graph slot: the phases its graph records
  std::vector<int> launched_;                      // slots launched since the last stepFinished
  std::vector<cudaEvent_t> pool_;
  PhaseAccumulator acc_;
};

}  // namespace

std::unique_ptr<RecordingTimer> makeGpuTimer() { return std::make_unique<GpuTimer>(); }

}  // namespace sph
