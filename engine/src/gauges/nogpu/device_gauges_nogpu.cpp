// CPU-only build: the GPU gauge kernels exist so the engine links.
#include "gauges/device_gauges.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {
[[noreturn]] void noGpu() { throw RunError("cannot evaluate gauges on the GPU: this build of sph has no CUDA support"); }
}  // namespace

template <typename T>
void gaugeBoxesGpu(const ParticleView<T>&, int, GaugeChunkBox*) {
  noGpu();
}
template <typename T>
void gaugeSumsGpu(const ParticleView<T>&, const GaugeSumParams&, const GaugeChunkBox*, const double*, uint32_t,
                  double*) {
  noGpu();
}
template <typename T>
void gaugeMaxZGpu(const ParticleView<T>&, int, const GaugeChunkBox*, const MaxZLine*, uint32_t, double*) {
  noGpu();
}
template <typename T>
void gaugeWallAceGpu(const ParticleView<T>&, const GaugeSumParams&, const GaugeChunkBox*, uint32_t, double*, double*) {
  noGpu();
}

template void gaugeBoxesGpu(const ParticleView<float>&, int, GaugeChunkBox*);
template void gaugeSumsGpu(const ParticleView<float>&, const GaugeSumParams&, const GaugeChunkBox*, const double*, uint32_t,
                           double*);
template void gaugeMaxZGpu(const ParticleView<float>&, int, const GaugeChunkBox*, const MaxZLine*, uint32_t, double*);
template void gaugeWallAceGpu(const ParticleView<float>&, const GaugeSumParams&, const GaugeChunkBox*, uint32_t, double*,
                              double*);
template void gaugeBoxesGpu(const ParticleView<double>&, int, GaugeChunkBox*);
template void gaugeSumsGpu(const ParticleView<double>&, const GaugeSumParams&, const GaugeChunkBox*, const double*, uint32_t,
                           double*);
template void gaugeMaxZGpu(const ParticleView<double>&, int, const GaugeChunkBox*, const MaxZLine*, uint32_t, double*);
template void gaugeWallAceGpu(const ParticleView<double>&, const GaugeSumParams&, const GaugeChunkBox*, uint32_t, double*,
                              double*);

}  // namespace sph
