// CPU-only build: the GPU backend does not exist.
#include "../cell_backend.h"
#include "sph/plugin/errors.h"

namespace sph::cell {

std::unique_ptr<CellBackend> makeCellGpuBackend() {
  throw RunError("cell neighbour search: GPU requested but this build has no GPU path (built without CUDA)");
}

}  // namespace sph::cell
