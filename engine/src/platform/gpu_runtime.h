// Host-side access to the GPU for code that must not include CUDA headers. Implemented in
// engine/src/platform/gpu/gpu_runtime.cu when built with CUDA and in engine/src/platform/nogpu/ otherwise (where
// every call but available() throws RunError).
#pragma once

#include <cstddef>
#include <string>

namespace sph::gpu {

bool builtWithCuda();
// A build without CUDA: throws RunError saying that it cannot `what` (its GPU entry points call it).
[[noreturn]] void unavailable(const char* what);
bool available();               // built with CUDA and at least one usable device
// A run over several ranks: the rank's device is its rank among the ranks of its machine modulo
// the machine's devices (several ranks may share one). Called before any other CUDA work of the
// process; nothing without a usable device. Returns the device's index (-1: none).
int useDeviceOfLocalRank(int localRank);
int deviceCount();               // the usable devices of this machine (0 without)
std::string deviceDescription(); // e.g. "NVIDIA H200 (sm_90, 139 GiB)"
// The device's memory, less what SPH_DEVICE_MEMORY_LIMIT holds back: with that variable set to L,
// the process holds back all but L bytes of the memory free when it first asks (for its whole
// life), so that it runs as it would with L bytes free.
size_t totalMemoryBytes();
// What is free on the device now (of the limited device, with the CUDA context's own taken).
size_t freeMemoryBytes();

void* allocBytes(size_t bytes, const char* what);
void freeBytes(void* p) noexcept;
// Page-locked host memory: device-to-host copies into it go straight by DMA instead of through
// the driver's own staging buffer.
void* allocPinned(size_t bytes, const char* what);
void freePinned(void* p) noexcept;
void copyToDevice(void* dst, const void* src, size_t bytes, const char* what);
void copyToHost(void* dst, const void* src, size_t bytes, const char* what);
void copyDeviceToDevice(void* dst, const void* src, size_t bytes, const char* what);
void zeroBytes(void* p, size_t bytes, const char* what);
void synchronize(const char* what);

// A stream beside the default one (where the engine queues its work), for work that may run
// while the default stream's kernels do: messages between GPUs. It never waits for the default
// stream by itself (a non-blocking stream): follow() and join() order the two.
class SideStream {
 public:
  SideStream();  // throws RunError without a usable GPU
  ~SideStream();
  SideStream(const SideStream&) = delete;
  SideStream& operator=(const SideStream&) = delete;
  void* handle() const { return stream_; }  // a cudaStream_t
  // What is queued on this stream from now on starts once all that the default stream holds now
  // is done.
  void follow(const char* what);
  // What is queued on the default stream from now on starts once all that this stream holds now
  // is done.
  void join(const char* what);

  // How the work queued between the last follow() and join() ran against the default stream:
  // its seconds on this stream, and the seconds of it still running when the default stream
  // reached the join (what the default stream's kernels in between did not hide). False when no
  // join came since the last call, or when that join's work is not done yet: a span is read
  // without waiting, or not at all (the next follow() records over it).
  struct Span {
    double seconds = 0, exposedSeconds = 0;
  };
  bool takeSpan(Span& span, const char* what);

 private:
  void release() noexcept;

  void* stream_ = nullptr;  // cudaStream_t
  void* event_ = nullptr;   // cudaEvent_t
  // Timing events: the side work's start and end, and the default stream at the join.
  void* started_ = nullptr;
  void* ended_ = nullptr;
  void* joined_ = nullptr;
  bool spanPending_ = false;
};

}  // namespace sph::gpu
