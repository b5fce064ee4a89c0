// CPU-only build: the GPU entry points exist so the engine links, and say why they cannot run.
#include <memory>
#include <string>

#include "platform/gpu_runtime.h"
#include "platform/phase_timers.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace gpu {
void unavailable(const char* what) {
  throw RunError(std::string("cannot ") + what + ": this build of sph has no CUDA support "
                 "(configure with nvcc available or -DSPH_CUDA=ON)");
}

bool builtWithCuda() { return false; }
bool available() { return false; }
int useDeviceOfLocalRank(int) { return -1; }
int deviceCount() { return 0; }
std::string deviceDescription() { return "none (built without CUDA)"; }
size_t totalMemoryBytes() { return 0; }
size_t freeMemoryBytes() { return 0; }
void* allocBytes(size_t, const char*) { gpu::unavailable("allocate device memory"); }
void freeBytes(void*) noexcept {}
void* allocPinned(size_t, const char*) { gpu::unavailable("allocate pinned host memory"); }
void freePinned(void*) noexcept {}
void copyToDevice(void*, const void*, size_t, const char*) { gpu::unavailable("copy to the device"); }
void copyToHost(void*, const void*, size_t, const char*) { gpu::unavailable("copy from the device"); }
void copyDeviceToDevice(void*, const void*, size_t, const char*) { gpu::unavailable("copy on the device"); }
void zeroBytes(void*, size_t, const char*) { gpu::unavailable("clear device memory"); }
void synchronize(const char*) { gpu::unavailable("synchronise the device"); }
SideStream::SideStream() { gpu::unavailable("create a side stream"); }
SideStream::~SideStream() = default;
void SideStream::follow(const char*) { gpu::unavailable("order a side stream"); }
void SideStream::join(const char*) { gpu::unavailable("order a side stream"); }
bool SideStream::takeSpan(Span&, const char*) { gpu::unavailable("time a side stream"); }
}  // namespace gpu

std::unique_ptr<RecordingTimer> makeGpuTimer() { gpu::unavailable("time GPU phases"); }

}  // namespace sph
