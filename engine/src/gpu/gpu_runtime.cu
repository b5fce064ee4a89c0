// Host-callable GPU runtime functions (declared in sph/gpu_runtime.h).
#include <cstdio>

#include "sph/gpu/cuda_check.cuh"
#include "sph/gpu_runtime.h"

namespace sph::gpu {

bool builtWithCuda() { return true; }

namespace {
// Why no device is usable ("" when one is), from the first query.
std::string& unavailableReason() {
  static std::string reason = [] {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess) {
      cudaGetLastError();  // clear the sticky "no device" error
      return std::string(cudaGetErrorString(e));
    }
    return count > 0 ? std::string() : std::string("no CUDA device found");
  }();
  return reason;
}
}  // namespace

bool available() { return unavailableReason().empty(); }

std::string deviceDescription() {
  if (!available()) return "none: " + unavailableReason();
  int dev = 0;
  SPH_CUDA_CHECK(cudaGetDevice(&dev), "querying the current device");
  cudaDeviceProp p{};
  SPH_CUDA_CHECK(cudaGetDeviceProperties(&p, dev), "reading device properties");
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%s (sm_%d%d, %d SMs, %.0f GiB)", p.name, p.major, p.minor,
                p.multiProcessorCount, double(p.totalGlobalMem) / (1024.0 * 1024 * 1024));
  return buf;
}

size_t totalMemoryBytes() {
  size_t freeB = 0, total = 0;
  SPH_CUDA_CHECK(cudaMemGetInfo(&freeB, &total), "reading device memory size");
  return total;
}

void* allocBytes(size_t bytes, const char* what) {
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess)
    throw RunError("CUDA error while allocating " + std::to_string(bytes) + " bytes for " + what + ": " +
                   cudaGetErrorString(e));
  return p;
}
void freeBytes(void* p) noexcept {
  if (p) cudaFree(p);
}
void* allocPinned(size_t bytes, const char* what) {
  void* p = nullptr;
  const cudaError_t e = cudaMallocHost(&p, bytes);
  if (e != cudaSuccess)
    throw RunError("CUDA error while allocating " + std::to_string(bytes) + " bytes of pinned host memory for " +
                   what + ": " + cudaGetErrorString(e));
  return p;
}
void freePinned(void* p) noexcept {
  if (p) cudaFreeHost(p);
}
void copyToDevice(void* dst, const void* src, size_t bytes, const char* what) {
  SPH_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice), what);
}
void copyToHost(void* dst, const void* src, size_t bytes, const char* what) {
  SPH_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost), what);
}
void copyDeviceToDevice(void* dst, const void* src, size_t bytes, const char* what) {
  SPH_CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice), what);
}
void zeroBytes(void* p, size_t bytes, const char* what) { SPH_CUDA_CHECK(cudaMemset(p, 0, bytes), what); }
void synchronize(const char* what) { SPH_CUDA_CHECK(cudaDeviceSynchronize(), what); }

}  // namespace sph::gpu
