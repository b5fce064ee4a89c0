// CPU-only build: the GPU entry points exist so the engine links, and say why they cannot run.
#include <memory>

#include "../engine_ops.h"
#include "../phase_timers.h"
#include "../step_graphs.h"
#include "sph/plugin/errors.h"
#include "sph/gpu_runtime.h"

namespace sph {
namespace {
[[noreturn]] void noCuda(const char* what) {
  throw RunError(std::string("cannot ") + what + ": this build of sph has no CUDA support "
                 "(configure with nvcc available or -DSPH_CUDA=ON)");
}
}  // namespace

namespace gpu {
bool builtWithCuda() { return false; }
bool available() { return false; }
std::string deviceDescription() { return "none (built without CUDA)"; }
size_t totalMemoryBytes() { return 0; }
size_t freeMemoryBytes() { return 0; }
void* allocBytes(size_t, const char*) { noCuda("allocate device memory"); }
void freeBytes(void*) noexcept {}
void* allocPinned(size_t, const char*) { noCuda("allocate pinned host memory"); }
void freePinned(void*) noexcept {}
void copyToDevice(void*, const void*, size_t, const char*) { noCuda("copy to the device"); }
void copyToHost(void*, const void*, size_t, const char*) { noCuda("copy from the device"); }
void copyDeviceToDevice(void*, const void*, size_t, const char*) { noCuda("copy on the device"); }
void zeroBytes(void*, size_t, const char*) { noCuda("clear device memory"); }
void synchronize(const char*) { noCuda("synchronise the device"); }
}  // namespace gpu

template <typename T>
std::unique_ptr<EngineOps<T>> makeGpuOps() {
  noCuda("run on the GPU");
}
template std::unique_ptr<EngineOps<float>> makeGpuOps<float>();
template std::unique_ptr<EngineOps<double>> makeGpuOps<double>();

std::unique_ptr<RecordingTimer> makeGpuTimer() { noCuda("time GPU phases"); }
std::unique_ptr<StepGraphs> makeStepGraphs() { noCuda("record CUDA graphs"); }

}  // namespace sph
