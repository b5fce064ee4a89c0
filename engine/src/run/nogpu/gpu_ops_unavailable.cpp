// CPU-only build: the run's GPU entry points exist so the engine links, and say why they cannot run.
#include <memory>

#include "platform/gpu_runtime.h"
#include "run/engine_ops.h"
#include "run/step_graphs.h"

namespace sph {

template <typename T>
std::unique_ptr<EngineOps<T>> makeGpuOps() {
  gpu::unavailable("run on the GPU");
}
template std::unique_ptr<EngineOps<float>> makeGpuOps<float>();
template std::unique_ptr<EngineOps<double>> makeGpuOps<double>();

std::unique_ptr<StepGraphs> makeStepGraphs() { gpu::unavailable("record CUDA graphs"); }

}  // namespace sph
