// RAII device allocation for .cu files, with a byte count so owners can report memory use.
#pragma once

#include <cstddef>
#include <utility>

#include "sph/plugin/gpu/cuda_check.cuh"

namespace sph::gpu {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n, const char* what = "allocating a device buffer") { resize(n, what); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }

  // Discards contents when it grows; keeps the allocation when it is already large enough.
  void resize(size_t n, const char* what = "allocating a device buffer") {
    if (n <= n_) return;
    release();
    void* p = nullptr;
    SPH_CUDA_CHECK(cudaMalloc(&p, n * sizeof(T)), what);
    p_ = static_cast<T*>(p);
    n_ = n;
  }
  void release() noexcept {
    if (p_) cudaFree(p_);
    p_ = nullptr;
    n_ = 0;
  }
  T* data() const { return p_; }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(T); }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

}  // namespace sph::gpu
