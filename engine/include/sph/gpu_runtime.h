// Host-side access to the GPU for code that must not include CUDA headers. Implemented in
// engine/src/gpu/gpu_runtime.cu when built with CUDA and in engine/src/nogpu/ otherwise (where
// every call but available() throws RunError).
#pragma once

#include <cstddef>
#include <string>

namespace sph::gpu {

bool builtWithCuda();
bool available();               // built with CUDA and at least one usable device
std::string deviceDescription(); // e.g. "NVIDIA H200 (sm_90, 139 GiB)"
size_t totalMemoryBytes();

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

}  // namespace sph::gpu
