#include "run/memory_estimate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <fmt/format.h>

#include "platform/host_memory.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

// What the estimate leaves out (cell tables, the radix sort's scratch, the CUDA context), as a
// share of it: about 4% with the cell plugin on DamBreak (tools/bench/RESULTS.md).
constexpr double kUnestimated = 1.06;
// And what does not grow with the particles: the cell tables, CUB's scratch, recorded steps and
// the 2 MiB rounding of each of some twenty device arrays: a small DamBreak needed 25-30 MiB more
// than its estimate (tools/bench/RESULTS.md, "Memory").
constexpr double kDeviceFixedBytes = 48.0 * 1024 * 1024;

}  // namespace

double estimateEngineMemory(const SimParameters& p, uint64_t particles, Precision precision) {
  const double n = double(particles);
  const double real4 = precision == Precision::Double ? 32 : 16, real = real4 / 4;
  // One set: position, velocity and density, the integrator's copy of it (and of the position
  // with the symplectic integrator), code and id.
  double perSet = real4 * (p.stepAlgorithm == 2 ? 4 : 3) + 8;
  if (p.viscosity == Viscosity::LaminarSps) perSet += 6 * real;  // the SPS stress
  if (p.mdbc()) perSet += real4;                                 // mDBC's normals
  if (p.mdbc2()) perSet += real4;                                // mDBC2's tangential velocities
  if (precision == Precision::Single) perSet += real4;           // positions' remainders (physics/position_split.h)
  double outputs = real4 + real + 4;  // acceleration, viscous dt, permutation
  if (p.shifting != Shifting::None) outputs += real4;
  if (p.viscosity == Viscosity::LaminarSps) outputs += 6 * real;  // the SPS strain rate
  return n * (2 * perSet + outputs);
}

double DeviceMemoryEstimate::strategyMinimum() const {
  for (const MemoryNeed& m : strategy)
    if (m.minimum) return m.bytes;
  return 0;
}

DeviceMemoryEstimate estimateDeviceMemory(const SimParameters& p, uint64_t particles, Precision precision,
                                          const NeighbourStrategy& strategy, Device device, uint32_t ranks) {
  DeviceMemoryEstimate e;
  e.engine = estimateEngineMemory(p, particles, precision);
  MemoryQuery q;
  q.device = device;
  q.precision = precision;
  q.dim = p.dim;
  q.dp = p.dp;
  q.support = p.support;
  q.particles = particles;
  q.options = p.strategyOptions;
  q.ranks = ranks;
  e.strategy = strategy.estimateMemory(q);
  return e;
}

namespace {
// The snapshot (output/output.h: position 24, velocity 12, density, pressure, mk and id 4 each, type 1)
// and the VTK writer's buffer of about as much.
constexpr double kSnapshotBytes = 2 * (24 + 12 + 4 + 4 + 4 + 4 + 1);
}  // namespace

double runHostBytesPerParticle(Device device, Precision precision) {
  if (device == Device::Gpu) return kSnapshotBytes;
  SimParameters usual;
  usual.stepAlgorithm = 2;
  usual.dim = 3;
  usual.dp = 1;
  usual.support = 2;
  return estimateEngineMemory(usual, 1, precision) * kUnestimated + kSnapshotBytes;
}

HostMemoryEstimate estimateHostMemory(const CaseDefinition& c, const SimParameters& p, Device device,
                                      Precision precision, const NeighbourStrategy& strategy) {
  HostMemoryEstimate h;
  const double n = double(c.positions.size());
  h.caseData = double(c.positions.capacity()) * sizeof(Vec3d) + double(c.mkIndex.capacity()) * sizeof(uint16_t) +
               double(c.normals.capacity()) * sizeof(Vec3d) + double(c.velocities.capacity()) * sizeof(Vec3f) +
               double(c.densities.capacity()) * sizeof(float);
  h.generatorPeak = c.generatorPeakBytes;
  if (device == Device::Gpu) {
    h.run = n * kSnapshotBytes;
  } else {
    const DeviceMemoryEstimate e = estimateDeviceMemory(p, c.positions.size(), precision, strategy, Device::Cpu);
    h.run = e.run() * kUnestimated + n * kSnapshotBytes;
  }
  return h;
}

void requireRunMemory(const HostMemoryEstimate& host, double hostBytes, const DeviceMemoryEstimate* device,
                      double deviceBytes, const SimParameters& p, const std::string& deviceName,
                      double boundShare) {
  constexpr double kGiB = 1024.0 * 1024 * 1024;
  const double hostNeed = host.peak();
  const double deviceNeed = device ? device->run() * kUnestimated + kDeviceFixedBytes : 0;
  const bool hostShort = hostBytes > 0 && hostNeed > hostBytes;
  const bool deviceShort = device && deviceBytes > 0 && deviceNeed > deviceBytes;
  if (!hostShort && !deviceShort) return;
  double fits = p.dp;
  if (hostBytes > 0) fits = std::max(fits, dpThatFits(p.dp, hostNeed, hostBytes, p.dim, boundShare));
  // The fixed part stays whatever the dp.
  const bool noDpFits = device && deviceBytes > 0 && deviceBytes <= kDeviceFixedBytes * 1.02;
  if (device && deviceBytes > 0 && !noDpFits)
    fits = std::max(fits, dpThatFits(p.dp, deviceNeed - kDeviceFixedBytes, deviceBytes - kDeviceFixedBytes, p.dim,
                                     boundShare));
  auto size = [&](double b) {
    return b >= kGiB ? fmt::format("{:.2f} GiB", b / kGiB) : fmt::format("{:.0f} MiB", b / (1024.0 * 1024));
  };
  std::string what;
  if (hostShort)
    what = fmt::format("the run needs about {} of host memory (the case {}, the run's arrays {}, the particle "
                       "generator at its peak {}), more than the {} available",
                       size(hostNeed), size(host.caseData), size(host.run), size(host.generatorPeak), size(hostBytes));
  if (deviceShort)
    what += fmt::format("{}the particles need about {} on the device (engine arrays and cell search), more than the "
                        "{} free on {}",
                        what.empty() ? "" : "; ", size(deviceNeed), size(deviceBytes), deviceName);
  if (noDpFits)
    throw InputError(fmt::format("dp {}: {}; no dp fits: a run needs {} on the device whatever its size", p.dp, what,
                                 size(kDeviceFixedBytes)));
  throw InputError(fmt::format("dp {}: {}; a dp of about {:.3g} or larger fits", p.dp, what, fits));
}

}  // namespace sph
