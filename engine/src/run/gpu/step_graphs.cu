// CUDA graphs of steady steps (see run/step_graphs.h). All work of the build goes to the
// per-thread default stream (CMakeLists.txt: --default-stream=per-thread), which, unlike the
// legacy default stream, can be captured.
#include <cstdio>
#include <vector>

#include "run/step_graphs.h"
#include "sph/plugin/gpu/cuda_check.cuh"

namespace sph {
namespace {

// Enough for the two particle array sets a list strategy alternates between at its rebuilds,
// with room for a stale pair after the strategy's buffers moved.
constexpr size_t kCachedGraphs = 4;

class CudaStepGraphs final : public StepGraphs {
 public:
  CudaStepGraphs() { slots_.reserve(kCachedGraphs); }
  ~CudaStepGraphs() override {
    for (auto& s : slots_)
      if (s.exec) cudaGraphExecDestroy(s.exec);
  }

  void run(const StepGraphKey& key, const std::function<void()>& work,
           const std::function<void()>& replayed) override {
    lastSlot_ = -1;
    lastRecorded_ = false;
    if (!enabled_ || key.token == 0) {
      work();
      return;
    }
    ++clock_;
    for (auto& s : slots_) {
      if (s.exec && s.key == key) {
        s.lastUse = clock_;
        SPH_CUDA_CHECK(cudaGraphLaunch(s.exec, cudaStreamPerThread), "replaying a recorded time step");
        ++replays_;
        lastSlot_ = int(&s - slots_.data());
        replayed();
        return;
      }
    }
    lastRecorded_ = true;
    record(key, work);
  }

  bool capturing() const override { return capturing_; }
  int lastLaunchedSlot() const override { return lastSlot_; }
  bool lastRunRecorded() const override { return lastRecorded_; }
  bool enabled() const override { return enabled_; }
  const std::string& disabledReason() const override { return disabledReason_; }
  uint64_t recordings() const override { return recordings_; }
  uint64_t replays() const override { return replays_; }

 private:
  struct Slot {
    StepGraphKey key;
    cudaGraphExec_t exec = nullptr;
    uint64_t lastUse = 0;
  };

  // Captures `work` (thread-local mode: a synchronising or allocating call in it fails the
  // capture instead of running), puts the graph into the least recently used slot and runs it.
  void record(const StepGraphKey& key, const std::function<void()>& work) {
    SPH_CUDA_CHECK(cudaStreamBeginCapture(cudaStreamPerThread, cudaStreamCaptureModeThreadLocal),
                   "starting to record a time step");
    capturing_ = true;
    try {
      work();
    } catch (const std::exception& e) {
      capturing_ = false;
      abandonCapture(e.what());
      work();  // nothing of the captured work ran; its host bookkeeping repeats identically
      return;
    }
    capturing_ = false;
    cudaGraph_t graph = nullptr;
    const cudaError_t ended = cudaStreamEndCapture(cudaStreamPerThread, &graph);
    if (ended != cudaSuccess || !graph) {
      cudaGetLastError();
      disable(std::string("recording a step failed: ") + cudaGetErrorString(ended));
      work();
      return;
    }
    Slot& s = leastRecentlyUsed();
    try {
      install(s, graph);
    } catch (const std::exception& e) {
      // The captured work has not run: run it eagerly rather than lose the step.
      cudaGraphDestroy(graph);
      cudaGetLastError();
      disable(e.what());
      work();
      return;
    }
    cudaGraphDestroy(graph);
    s.key = key;
    s.lastUse = clock_;
    ++recordings_;
    SPH_CUDA_CHECK(cudaGraphLaunch(s.exec, cudaStreamPerThread), "running a recorded time step");
    lastSlot_ = int(&s - slots_.data());
  }

  // An update of an existing executable graph is cheaper than a new instantiation and works
  // whenever only kernel arguments changed (the usual case: the same step on moved buffers).
  static void install(Slot& s, cudaGraph_t graph) {
    if (s.exec) {
      cudaGraphExecUpdateResultInfo info{};
      if (cudaGraphExecUpdate(s.exec, graph, &info) == cudaSuccess) return;
      cudaGetLastError();
      cudaGraphExecDestroy(s.exec);
      s.exec = nullptr;
    }
    SPH_CUDA_CHECK(cudaGraphInstantiate(&s.exec, graph, 0), "instantiating a recorded time step");
  }

  Slot& leastRecentlyUsed() {
    if (slots_.size() < kCachedGraphs) return slots_.emplace_back();
    Slot* oldest = &slots_.front();
    for (auto& s : slots_)
      if (s.lastUse < oldest->lastUse) oldest = &s;
    return *oldest;
  }

  void abandonCapture(const std::string& why) {
    cudaGraph_t graph = nullptr;
    cudaStreamEndCapture(cudaStreamPerThread, &graph);
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();
    disable("recording a step failed: " + why);
  }

  void disable(const std::string& why) {
    enabled_ = false;
    disabledReason_ = why;
    std::fprintf(stderr, "\nCUDA graph replay of steps switched off (%s); steps run as before\n", why.c_str());
  }

  std::vector<Slot> slots_;  // at most kCachedGraphs: reserved, so slot addresses stay put
  bool enabled_ = true, capturing_ = false, lastRecorded_ = false;
  int lastSlot_ = -1;
  std::string disabledReason_;
  uint64_t clock_ = 0, recordings_ = 0, replays_ = 0;
};

}  // namespace

std::unique_ptr<StepGraphs> makeStepGraphs() { return std::make_unique<CudaStepGraphs>(); }

}  // namespace sph
