// Phase timer on the GPU: a pair of CUDA events per measured phase on the default stream,
// resolved lazily (flush) so timing adds no synchronisation of its own to the step.
#include <vector>

#include "../phase_timers.h"
#include "sph/gpu/cuda_check.cuh"

namespace sph {
namespace {

class GpuTimer final : public RecordingTimer {
 public:
  ~GpuTimer() override {
    for (auto& p : pending_) release(p);
    for (cudaEvent_t e : pool_) cudaEventDestroy(e);
  }
  void begin(const char* name, PhaseGroup g) override {
    current_ = {name, g, take(), nullptr};
    SPH_CUDA_CHECK(cudaEventRecord(current_.start, 0), "recording a phase-start event");
  }
  void end() override {
    current_.stop = take();
    SPH_CUDA_CHECK(cudaEventRecord(current_.stop, 0), "recording a phase-stop event");
    pending_.push_back(current_);
    if (pending_.size() > 4096) flush();
  }
  void flush() override {
    if (pending_.empty()) return;
    SPH_CUDA_CHECK(cudaEventSynchronize(pending_.back().stop), "waiting for phase timers");
    for (auto& p : pending_) {
      float ms = 0;
      SPH_CUDA_CHECK(cudaEventElapsedTime(&ms, p.start, p.stop), "reading a phase timer");
      acc_.add(p.name, p.group, ms * 1e-3);
      release(p);
    }
    pending_.clear();
  }
  std::vector<PhaseTotal> totals() override {
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
  void release(Pending& p) {
    pool_.push_back(p.start);
    pool_.push_back(p.stop);
  }
  Pending current_{};
  std::vector<Pending> pending_;
  std::vector<cudaEvent_t> pool_;
  PhaseAccumulator acc_;
};

}  // namespace

std::unique_ptr<RecordingTimer> makeGpuTimer() { return std::make_unique<GpuTimer>(); }

}  // namespace sph
