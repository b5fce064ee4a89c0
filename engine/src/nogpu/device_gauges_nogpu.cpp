// CPU-only build: the GPU gauge kernels exist so the engine links.
#include "../device_gauges.h"
#include "sph/errors.h"

namespace sph {

template <typename T>
void gaugeSumsGpu(const ParticleView<T>&, const GaugeSumParams&, const double*, uint32_t, GaugeChunkBox*, double*) {
  throw RunError("cannot evaluate gauges on the GPU: this build of sph has no CUDA support");
}
template void gaugeSumsGpu(const ParticleView<float>&, const GaugeSumParams&, const double*, uint32_t,
                           GaugeChunkBox*, double*);
template void gaugeSumsGpu(const ParticleView<double>&, const GaugeSumParams&, const double*, uint32_t,
                           GaugeChunkBox*, double*);

}  // namespace sph
