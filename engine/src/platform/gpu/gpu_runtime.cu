// Host-callable GPU runtime functions (declared in platform/gpu_runtime.h).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "platform/gpu_runtime.h"
#include "sph/plugin/gpu/cuda_check.cuh"

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

int deviceCount() {
  if (!available()) return 0;
  int count = 0;
  SPH_CUDA_CHECK(cudaGetDeviceCount(&count), "counting the devices");
  return count;
}

int useDeviceOfLocalRank(int localRank) {
  if (!available()) return -1;
  int count = 0;
  SPH_CUDA_CHECK(cudaGetDeviceCount(&count), "counting the devices");
  const int dev = localRank % count;
  SPH_CUDA_CHECK(cudaSetDevice(dev), "choosing this rank's device");
  return dev;
}

namespace {

// SPH_DEVICE_MEMORY_LIMIT: bytes, or a number with K, M, G or T (powers of 1024, "GiB" or "G").
// 0 when unset.
size_t memoryLimitFromEnvironment() {
  const char* text = std::getenv("SPH_DEVICE_MEMORY_LIMIT");
  if (!text || !*text) return 0;
  char* end = nullptr;
  const double v = std::strtod(text, &end);
  double scale = 1;
  switch (*end) {
    case 'K': case 'k': scale = 1024.0; ++end; break;
    case 'M': case 'm': scale = 1024.0 * 1024; ++end; break;
    case 'G': case 'g': scale = 1024.0 * 1024 * 1024; ++end; break;
    case 'T': case 't': scale = 1024.0 * 1024 * 1024 * 1024; ++end; break;
    default: break;
  }
  if (scale > 1 && *end == 'i') ++end;
  if (*end == 'B') ++end;
  if (end == text || *end || !(v > 0) || !std::isfinite(v * scale))
    throw InputError(std::string("SPH_DEVICE_MEMORY_LIMIT=\"") + text +
                     "\": give the device memory to use in bytes, or with K, M, G or T (e.g. 8G)");
  return size_t(v * scale);
}

// The device as a run sees it. With SPH_DEVICE_MEMORY_LIMIT = L below the memory free when the
// process first asks, a ballast of (free - L) bytes is allocated then and held for the process's
// life: L bytes are left for the run, so every allocation of the engine and the plugins meets a
// real out-of-memory where a device with that much free memory would.
struct DeviceMemory {
  size_t total = 0;
  size_t ballast = 0;
};

const DeviceMemory& deviceMemory() {
  static const DeviceMemory m = [] {
    DeviceMemory d;
    size_t freeB = 0;
    SPH_CUDA_CHECK(cudaMemGetInfo(&freeB, &d.total), "reading device memory size");
    const size_t limit = memoryLimitFromEnvironment();
    if (limit > 0 && limit < freeB) {
      void* ballast = nullptr;
      SPH_CUDA_CHECK(cudaMalloc(&ballast, freeB - limit), "holding back device memory (SPH_DEVICE_MEMORY_LIMIT)");
      d.ballast = freeB - limit;
    }
    return d;
  }();
  return m;
}

}  // namespace

std::string deviceDescription() {
  if (!available()) return "none: " + unavailableReason();
  int dev = 0;
  SPH_CUDA_CHECK(cudaGetDevice(&dev), "querying the current device");
  cudaDeviceProp p{};
  SPH_CUDA_CHECK(cudaGetDeviceProperties(&p, dev), "reading device properties");
  char buf[512];
  std::snprintf(buf, sizeof(buf), "%s (sm_%d%d, %d SMs, %.0f GiB)", p.name, p.major, p.minor,
                p.multiProcessorCount, double(p.totalGlobalMem) / (1024.0 * 1024 * 1024));
  std::string text = buf;
  if (const DeviceMemory& m = deviceMemory(); m.ballast > 0) {
    std::snprintf(buf, sizeof(buf), ", %.2f GiB of it held back by SPH_DEVICE_MEMORY_LIMIT",
                  double(m.ballast) / (1024.0 * 1024 * 1024));
    text += buf;
  }
  return text;
}

size_t totalMemoryBytes() {
  const DeviceMemory& m = deviceMemory();
  return m.total - m.ballast;
}

size_t freeMemoryBytes() {
  (void)deviceMemory();  // the ballast first
  size_t freeB = 0, total = 0;
  SPH_CUDA_CHECK(cudaMemGetInfo(&freeB, &total), "reading free device memory");
  return freeB;
}

void* allocBytes(size_t bytes, const char* what) {
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e != cudaSuccess) {
    const std::string msg =
        "CUDA error while allocating " + std::to_string(bytes) + " bytes for " + what + ": " + cudaGetErrorString(e);
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      throw DeviceOutOfMemory(msg);
    }
    throw RunError(msg);
  }
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

SideStream::SideStream() {
  cudaStream_t s = nullptr;
  SPH_CUDA_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "creating a side stream");
  stream_ = s;
  void** events[] = {&event_, &started_, &ended_, &joined_};
  for (void** e : events) {
    cudaEvent_t made = nullptr;
    const cudaError_t r = cudaEventCreateWithFlags(&made, e == &event_ ? cudaEventDisableTiming : cudaEventDefault);
    if (r != cudaSuccess) {
      release();
      SPH_CUDA_CHECK(r, "creating a side stream's events");
    }
    *e = made;
  }
}
SideStream::~SideStream() { release(); }
void SideStream::release() noexcept {
  for (void* e : {event_, started_, ended_, joined_})
    if (e) cudaEventDestroy(static_cast<cudaEvent_t>(e));
  if (stream_) cudaStreamDestroy(static_cast<cudaStream_t>(stream_));
  event_ = started_ = ended_ = joined_ = stream_ = nullptr;
}
void SideStream::follow(const char* what) {
  const auto side = static_cast<cudaStream_t>(stream_);
  SPH_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(event_), 0), what);
  SPH_CUDA_CHECK(cudaStreamWaitEvent(side, static_cast<cudaEvent_t>(event_), 0), what);
  SPH_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(started_), side), what);
}
void SideStream::join(const char* what) {
  const auto side = static_cast<cudaStream_t>(stream_);
  SPH_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(ended_), side), what);
  SPH_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(joined_), 0), what);
  SPH_CUDA_CHECK(cudaEventRecord(static_cast<cudaEvent_t>(event_), side), what);
  SPH_CUDA_CHECK(cudaStreamWaitEvent(0, static_cast<cudaEvent_t>(event_), 0), what);
  spanPending_ = true;
}
bool SideStream::takeSpan(Span& span, const char* what) {
  if (!spanPending_) return false;
  spanPending_ = false;
  const auto ended = static_cast<cudaEvent_t>(ended_);
  for (const cudaEvent_t e : {ended, static_cast<cudaEvent_t>(joined_)}) {
    const cudaError_t done = cudaEventQuery(e);
    if (done == cudaErrorNotReady) {
      // Not an error, but left as the last one: a launch check (cudaGetLastError) would take it.
      if (cudaPeekAtLastError() == cudaErrorNotReady) (void)cudaGetLastError();
      return false;
    }
    SPH_CUDA_CHECK(done, what);
  }
  float side = 0, exposed = 0;
  SPH_CUDA_CHECK(cudaEventElapsedTime(&side, static_cast<cudaEvent_t>(started_), ended), what);
  SPH_CUDA_CHECK(cudaEventElapsedTime(&exposed, static_cast<cudaEvent_t>(joined_), ended), what);
  span.seconds = 1e-3 * side;
  span.exposedSeconds = exposed > 0 ? 1e-3 * exposed : 0.0;
  return true;
}

}  // namespace sph::gpu
