// Gauges on the GPU (gauges/device_gauges.h) against the host sampler (gauges/gauge_sampler.h) on the very same
// particles: a dam break is run for a while on the GPU, then the gauge sums at a grid of points
// over the whole tank (in the water, at its surface, in the air, outside the particles) and along
// the case's swl lines are taken both ways; so are maxz gauges on a grid of vertical lines and
// force gauges on every boundary mk. Skips without a usable GPU; run on the GPU machine whenever
// CUDA code changes.
//
// Tolerance: the host snapshot stores velocity, density and pressure as float (7 significant
// digits) and sums in another order, the device sums the run's own values in double; the two
// differ by float round-off of each term, ~1e-7 of the largest value. 1e-5 of the field's scale
// (1 for the Shepard sum, the largest speed, the largest pressure, rho0 for the density) is a hundred times that and
// still far below any physical difference (a point moved by dp/100 changes the sums by ~1e-2).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "case/loader.h"
#include "gauges/gauge_recorder.h"
#include "gauges/gauge_sampler.h"
#include "model/case_model.h"
#include "platform/gpu_runtime.h"
#include "run/simulation_core.h"

namespace sph {
namespace {

struct GaugeCase {
  const char* file;
  double dp;
  const char* kernel;  // the Kernel parameter: "1" cubic, "2" Wendland
  int steps;
};

// The case of `gc` run for its steps on the GPU.
struct GpuRun {
  CaseDefinition c;
  std::unique_ptr<Simulation::Impl> core;
};

GpuRun runOnGpu(const GaugeCase& gc, Precision precision) {
  LoadOptions lo;
  lo.dpOverride = gc.dp;
  GpuRun r{loadCase(std::string(SPH_SOURCE_DIR) + "/testcases/" + gc.file, lo), nullptr};
  r.c.parameters["Kernel"].value = gc.kernel;
  RunOptions o;
  o.device = Device::Gpu;
  o.precision = precision;
  o.writeOutput = false;
  o.progress = false;
  r.core = makeSimulationCore(r.c, o, Device::Gpu, loadNeighbourPlugin(r.c, o), parallel::Communicator::self());
  for (int s = 0; s < gc.steps; ++s) r.core->step();
  return r;
}

// The host's gauges on snapshots of `core`, taken into `frame`, with the gauges' kernel (Wendland, also
// in the cubic-spline cases, as the run's device gauges).
SnapshotGaugeSource hostSourceOf(Simulation::Impl& core, ParticleSnapshot& frame) {
  const SimParameters& p = core.params();
  return SnapshotGaugeSource(
      [&core, &frame]() -> const ParticleSnapshot& {
        core.snapshotInto(frame);
        return frame;
      },
      GaugeKernel{kGaugeKernel, p.dim, p.h, p.massFluid});
}

void expectDeviceSumsMatchTheHost(const GaugeCase& gc, Precision precision) {
  const GpuRun run = runOnGpu(gc, precision);
  const CaseDefinition& c = run.c;
  const auto& core = run.core;

  // A grid over the domain and a margin beyond it, plus the case's swl lines.
  const SimParameters& p = core->params();
  std::vector<GaugePoint> points;
  const double lo3[3] = {p.domainMin.x, p.domainMin.y, p.domainMin.z};
  const double hi3[3] = {p.domainMax.x, p.domainMax.y, p.domainMax.z};
  const int per = p.dim == 2 ? 60 : 16;
  auto at = [&](int a, int q) { return lo3[a] - 0.1 + (hi3[a] - lo3[a] + 0.2) * q / per; };
  for (int i = 0; i <= per; ++i) {
    for (int j = 0; j <= (p.dim == 2 ? 0 : per); ++j) {
      for (int k = 0; k <= per; ++k) points.push_back({at(0, i), p.dim == 2 ? 0.0 : at(1, j), at(2, k)});
    }
  }
  size_t swlPointCount = 0;
  for (const GaugeSpec& g : c.gauges.items) {
    const std::vector<GaugePoint> line = gaugePoints(resolveGauge(g, p));
    points.insert(points.end(), line.begin(), line.end());
    swlPointCount += line.size();
  }
  if (p.dim == 2) {
    EXPECT_GT(swlPointCount, 100u) << "DamBreak2D's swl lines are part of the check";
  }

  std::vector<PointSample> device, host;
  core->gaugeSource().samplePoints(points, device);
  ParticleSnapshot frame;
  SnapshotGaugeSource hostSource = hostSourceOf(*core, frame);
  hostSource.samplePoints(points, host);
  ASSERT_EQ(device.size(), points.size());
  ASSERT_EQ(host.size(), points.size());

  double vmax = 0, pmax = 0;
  size_t wet = 0, dry = 0;
  for (const PointSample& s : host) {
    for (double v : s.vel) vmax = std::max(vmax, std::fabs(v));
    pmax = std::max(pmax, std::fabs(s.press));
    if (s.shepard > 0.5) ++wet;
    if (s.shepard == 0) ++dry;
  }
  // The check means something only with water, air and a moving fluid among the points (171 of
  // 4913 grid points wet in 3D, where the domain is mostly air).
  EXPECT_GT(wet, points.size() / 50);
  EXPECT_GT(dry, points.size() / 4);
  EXPECT_GT(vmax, 0.1);
  for (size_t k = 0; k < points.size(); ++k) {
    const PointSample& d = device[k];
    const PointSample& h = host[k];
    const std::string at = "point " + std::to_string(k) + " (" + std::to_string(points[k].x) + ", " +
                           std::to_string(points[k].y) + ", " + std::to_string(points[k].z) + ")";
    ASSERT_NEAR(d.shepard, h.shepard, 1e-5) << at;
    for (int a = 0; a < 3; ++a) ASSERT_NEAR(d.vel[a], h.vel[a], 1e-5 * vmax) << at << " axis " << a;
    ASSERT_NEAR(d.press, h.press, 1e-5 * pmax) << at;
    ASSERT_NEAR(d.rho, h.rho, 1e-5 * 1000) << at;  // densities of about rho0 = 1000 kg/m^3
  }
}

// maxz: both sides compare the same positions (the run's to double accuracy: pos + posLo in
// single precision) with the same test, so they agree exactly. force: the host takes density and pressure
// from the snapshot's floats, the device the run's values, and they sum in other orders: float
// round-off of each term, ~1e-7 of the force; 1e-5 of the force's size is allowed.
void expectDeviceMaxZAndForceMatchTheHost(const GaugeCase& gc, Precision precision) {
  const GpuRun run = runOnGpu(gc, precision);
  const CaseDefinition& c = run.c;
  const auto& core = run.core;

  const SimParameters& p = core->params();
  GaugeRequest req;
  const int per = p.dim == 2 ? 80 : 12;
  const double lo3[3] = {p.domainMin.x, p.domainMin.y, p.domainMin.z};
  const double hi3[3] = {p.domainMax.x, p.domainMax.y, p.domainMax.z};
  const double height = hi3[2] - lo3[2];
  for (int i = 0; i <= per; ++i)
    for (int j = 0; j <= (p.dim == 2 ? 0 : per); ++j) {
      const double x = lo3[0] + (hi3[0] - lo3[0]) * i / per;
      const double y = p.dim == 2 ? 0.0 : lo3[1] + (hi3[1] - lo3[1]) * j / per;
      for (double d : {0.5 * p.dp, 2 * p.dp, 6 * p.dp}) {
        req.lines.push_back({{x, y, lo3[2]}, height, d});
        req.lines.push_back({{x, y, lo3[2] + 0.1 * height}, 0.2 * height, d});  // ends inside the water
      }
    }
  for (size_t k = 0; k < c.mks.size(); ++k) {
    const MkEntry& m = c.mks[k];
    const bool floating = std::any_of(c.floatings.begin(), c.floatings.end(), [&](const FloatingDef& f) {
      return std::find(f.mkBound.begin(), f.mkBound.end(), m.local) != f.mkBound.end();
    });
    if (m.bound && m.count > 0 && !floating) req.targets.push_back({m.mk, uint32_t(k)});
  }
  ASSERT_FALSE(req.targets.empty());

  GaugeResults device, host;
  core->gaugeSource().sample(req, device);
  ParticleSnapshot frame;
  SnapshotGaugeSource hostSource = hostSourceOf(*core, frame);
  hostSource.sample(req, host);
  ASSERT_EQ(device.maxZ.size(), req.lines.size());
  ASSERT_EQ(host.maxZ.size(), req.lines.size());
  ASSERT_EQ(device.ace.size(), req.targets.size());
  ASSERT_EQ(host.ace.size(), req.targets.size());

  size_t found = 0;
  for (size_t k = 0; k < req.lines.size(); ++k) {
    const MaxZLine& l = req.lines[k];
    ASSERT_EQ(device.maxZ[k], host.maxZ[k]) << "line " << k << " at (" << l.point0.x << ", " << l.point0.y << ", "
                                            << l.point0.z << ") distlimit " << l.distLimit;
    if (host.maxZ[k] != kNoMaxZ) ++found;
  }
  // Lines over the water and over dry floor both.
  EXPECT_GT(found, req.lines.size() / 10);
  EXPECT_LT(found, req.lines.size());

  double largest = 0;
  for (size_t t = 0; t < req.targets.size(); ++t) {
    const auto& h = host.ace[t];
    const double size = std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
    largest = std::max(largest, size);
    for (int a = 0; a < 3; ++a)
      EXPECT_NEAR(device.ace[t][size_t(a)], h[size_t(a)], 1e-5 * size) << "mk " << req.targets[t].mk << " axis " << a;
  }
  EXPECT_GT(largest * p.massBound, 1.0) << "the water presses on some boundary (N)";
}

TEST(GaugesGpu, DeviceMaxZAndForceMatchTheHostDamBreak2D) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  for (Precision pr : {Precision::Single, Precision::Double}) {
    SCOPED_TRACE(pr == Precision::Single ? "single" : "double");
    expectDeviceMaxZAndForceMatchTheHost({"DamBreak2D.xml", 0.01, "2", 600}, pr);
  }
}

TEST(GaugesGpu, DeviceMaxZAndForceMatchTheHostDamBreak3DCubic) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  for (Precision pr : {Precision::Single, Precision::Double}) {
    SCOPED_TRACE(pr == Precision::Single ? "single" : "double");
    expectDeviceMaxZAndForceMatchTheHost({"DamBreak.xml", 0.03, "1", 300}, pr);
  }
}

TEST(GaugesGpu, DeviceSumsMatchTheHostSamplerDamBreak2D) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  for (Precision pr : {Precision::Single, Precision::Double}) {
    SCOPED_TRACE(pr == Precision::Single ? "single" : "double");
    expectDeviceSumsMatchTheHost({"DamBreak2D.xml", 0.01, "2", 600}, pr);
  }
}

TEST(GaugesGpu, DeviceSumsMatchTheHostSamplerDamBreak3DCubic) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  for (Precision pr : {Precision::Single, Precision::Double}) {
    SCOPED_TRACE(pr == Precision::Single ? "single" : "double");
    expectDeviceSumsMatchTheHost({"DamBreak.xml", 0.03, "1", 300}, pr);
  }
}

}  // namespace
}  // namespace sph
