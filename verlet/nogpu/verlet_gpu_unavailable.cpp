// CPU-only builds: the GPU backend does not exist.
#include "../verlet_backend.h"
#include "sph/plugin/errors.h"

namespace sph::verlet {

std::unique_ptr<VerletBackend> makeVerletGpuBackend() {
  throw RunError("verlet neighbour search: this build has no CUDA support (use --device cpu)");
}

}  // namespace sph::verlet
