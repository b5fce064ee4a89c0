// CPU-only build: the GPU passes of inlet/outlet zones exist so the engine links.
#include "inout/inout_ops.h"
#include "sph/plugin/errors.h"

namespace sph {

template <typename T>
std::unique_ptr<InOutOps<T>> makeInOutGpuOps() {
  throw RunError("cannot run inlet/outlet zones on the GPU: this build of sph has no CUDA support");
}
template std::unique_ptr<InOutOps<float>> makeInOutGpuOps();
template std::unique_ptr<InOutOps<double>> makeInOutGpuOps();

}  // namespace sph
