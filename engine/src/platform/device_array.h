// An owning array that lives on the host (CPU runs) or on the device (GPU runs). Host code
// handles device memory only through the plain functions of platform/gpu_runtime.h.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <utility>
#include <vector>

#include "platform/gpu_runtime.h"
#include "sph/plugin/neighbour_strategy.h"

namespace sph {

template <typename U>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(Device d, size_t n, const char* what) { allocate(d, n, what); }
  ~DeviceArray() { release(); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& o) noexcept { swap(o); }
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    swap(o);
    return *this;
  }

  void allocate(Device d, size_t n, const char* what) {
    release();
    dev_ = d;
    if (n == 0) return;
    if (d == Device::Gpu) {
      p_ = static_cast<U*>(gpu::allocBytes(n * sizeof(U), what));
    } else {
      p_ = static_cast<U*>(::operator new[](n * sizeof(U), std::align_val_t(alignof(U) < 64 ? 64 : alignof(U))));
    }
    n_ = n;
  }
  void release() noexcept {
    if (!p_) return;
    if (dev_ == Device::Gpu)
      gpu::freeBytes(p_);
    else
      ::operator delete[](p_, std::align_val_t(alignof(U) < 64 ? 64 : alignof(U)));
    p_ = nullptr;
    n_ = 0;
  }
  void swap(DeviceArray& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    std::swap(dev_, o.dev_);
  }

  void upload(const std::vector<U>& src, const char* what) { upload(src.data(), src.size(), what); }
  // Into elements [first, first + count).
  void upload(const U* src, size_t count, const char* what, size_t first = 0) {
    if (count == 0) return;
    if (dev_ == Device::Gpu)
      gpu::copyToDevice(p_ + first, src, count * sizeof(U), what);
    else
      std::copy(src, src + count, p_ + first);
  }
  // Elements [0, count) of another array on the same device.
  void copyFrom(const DeviceArray& o, size_t count, const char* what) {
    if (count == 0) return;
    if (dev_ == Device::Gpu)
      gpu::copyDeviceToDevice(p_, o.p_, count * sizeof(U), what);
    else
      std::copy(o.p_, o.p_ + count, p_);
  }
  // Elements [first, first + count).
  std::vector<U> download(size_t count, const char* what, size_t first = 0) const {
    std::vector<U> out(count);
    downloadTo(out.data(), count, what, first);
    return out;
  }
  // The same into host memory the caller keeps (platform/host_staging.h: snapshots taken again and again).
  void downloadTo(U* dst, size_t count, const char* what, size_t first = 0) const {
    if (count == 0) return;
    if (dev_ == Device::Gpu)
      gpu::copyToHost(dst, p_ + first, count * sizeof(U), what);
    else
      std::copy(p_ + first, p_ + first + count, dst);
  }

  U* data() const { return p_; }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(U); }
  Device device() const { return dev_; }

 private:
  U* p_ = nullptr;
  size_t n_ = 0;
  Device dev_ = Device::Cpu;
};

}  // namespace sph
