// Checked CUDA calls and kernel launches for .cu files (engine and plugins). Every error names
// what was being done and where; nothing here calls exit(). (.cu files do not use fmt: fmt 9's
// compile-time format checks do not build under nvcc in C++20 mode.)
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "sph/plugin/errors.h"

namespace sph::gpu {

inline void check(cudaError_t e, const char* what, const char* file, int line) {
  if (e == cudaSuccess) return;
  const std::string msg = std::string("CUDA error while ") + what + ": " + cudaGetErrorString(e) + " (" +
                          cudaGetErrorName(e) + " at " + file + ":" + std::to_string(line) + ")";
  if (e == cudaErrorMemoryAllocation) {
    (void)cudaGetLastError();  // not sticky: clear it, so that a smaller alternative can go on
    throw DeviceOutOfMemory(msg);
  }
  throw RunError(msg);
}

// Launches `kernel` on a 1-D grid covering `n` items and checks the launch. Define
// SPH_SYNC_CHECK to also synchronise after every launch (debugging only: it serialises work).
template <typename Kernel, typename... Args>
void launch1d(const char* what, const char* file, int line, unsigned n, unsigned block,
              cudaStream_t stream, Kernel kernel, Args... args) {
  if (n == 0) return;
  const unsigned grid = (n + block - 1) / block;
  kernel<<<grid, block, 0, stream>>>(args...);
  check(cudaGetLastError(), what, file, line);
#ifdef SPH_SYNC_CHECK
  check(cudaStreamSynchronize(stream), what, file, line);
#endif
}

}  // namespace sph::gpu

#define SPH_CUDA_CHECK(call, what) ::sph::gpu::check((call), (what), __FILE__, __LINE__)
#define SPH_LAUNCH(what, n, block, stream, kernel, ...) \
  ::sph::gpu::launch1d((what), __FILE__, __LINE__, (n), (block), (stream), (kernel), __VA_ARGS__)
