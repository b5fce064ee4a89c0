// A host array that device data is copied into again and again (snapshots for gauges and VTK
// parts). It only grows, so repeated copies touch no fresh pages, and on a GPU run it is
// page-locked, so the copies go by DMA without the driver's intermediate buffer.
#pragma once

#include <algorithm>
#include <cstddef>
#include <utility>

#include "platform/gpu_runtime.h"
#include "sph/plugin/neighbour_strategy.h"

namespace sph {

template <typename U>
class HostStaging {
 public:
  HostStaging() = default;
  ~HostStaging() { release(); }
  HostStaging(const HostStaging&) = delete;
  HostStaging& operator=(const HostStaging&) = delete;

  // Room for `count` elements on a run on `d`; the contents are undefined after a growth.
  U* reserve(Device d, size_t count, const char* what) {
    if (count <= capacity_ && d == device_) return p_;
    release();
    const size_t want = std::max(count, capacity_ + capacity_ / 4);
    p_ = static_cast<U*>(d == Device::Gpu ? gpu::allocPinned(want * sizeof(U), what)
                                          : ::operator new(want * sizeof(U)));
    device_ = d;
    capacity_ = want;
    return p_;
  }
  const U& operator[](size_t i) const { return p_[i]; }
  U* data() const { return p_; }  // where the last reserve() put it

 private:
  void release() noexcept {
    if (!p_) return;
    if (device_ == Device::Gpu)
      gpu::freePinned(p_);
    else
      ::operator delete(p_);
    p_ = nullptr;
    capacity_ = 0;
  }
  U* p_ = nullptr;
  size_t capacity_ = 0;
  Device device_ = Device::Cpu;
};

}  // namespace sph
