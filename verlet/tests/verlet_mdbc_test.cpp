// mDBC's boundary correction through the Verlet plugin, which runs it on the cell tables of its
// last rebuild: after the fluid has moved (less than half the skin, so no rebuild) the
// corrected densities still equal the brute force over the current positions.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <unordered_map>

#include <fmt/format.h>

#include "cell_test_support.h"
#include "verlet_strategy.h"

namespace celltest {
namespace {

using sph::verlet::VerletStrategy;

struct MdbcParams {
  Device device;
  Precision precision;
  KernelKind kernel;
  int dim;
  sph::BoundaryModel model = sph::BoundaryModel::MdbcVel0;
};

template <typename T>
void checkMdbcBetweenRebuilds(const MdbcParams& mp) {
  const ForceCase fc = makeForceCase(mp.dim, 17);
  auto c = makeConstants<T>(mp.dim, mp.kernel, fc.dp, fc.h, sph::DensityDiffusion::None);
  c.boundary = mp.model;
  c.dp = T(fc.dp);
  HostParticles<T> p = fc.particles.as<T>();
  addFloorNormals(p, fc.dp, mp.dim);
  setPressure(p, c);
  Harness<T> run(mp.device, p);
  Domain d;
  for (int k = 0; k < 3; ++k) {
    d.min[k] = -1;
    d.max[k] = 2;
  }
  VerletStrategy v;
  v.configure(makeContext(mp.device, mp.precision, mp.dim, 2 * fc.h, d, CellMode::Half, run.reorderer()));
  v.beginStep(1e-4);
  v.prepare(run.view(), sph::PrepareReason::Step);
  ASSERT_EQ(v.rebuilds(), 0u);  // the lists are built by the first pass
  v.correctBoundaries(run.view(), c);
  expectMdbcDensities(densitiesById(p), run.particles(), c);

  // Move every fluid particle by up to 0.45 of half the skin, in a random direction.
  v.buildPendingLists(run.view());
  const double skin = v.listRadius() - 2 * fc.h;
  ASSERT_GT(skin, 0.0);
  HostParticles<T> moved = run.particles();
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double step = 0.45 * skin / 2 / std::sqrt(double(mp.dim));
  for (uint32_t i = moved.nBound; i < moved.size(); ++i) {
    moved.pos[i].x += T(step * u(rng));
    if (mp.dim == 3) moved.pos[i].y += T(step * u(rng));
    moved.pos[i].z += T(step * u(rng));
  }
  run.setParticles(moved);
  v.beginStep(1e-4);
  v.prepare(run.view(), sph::PrepareReason::Step);
  v.buildPendingLists(run.view());
  ASSERT_EQ(v.rebuilds(), 1u) << "the move was meant to stay within half the skin";
  const auto before = densitiesById(run.particles());
  v.correctBoundaries(run.view(), c);
  expectMdbcDensities(before, run.particles(), c);
}

class VerletMdbc : public ::testing::TestWithParam<MdbcParams> {};

TEST_P(VerletMdbc, DensitiesEqualBruteForceBetweenRebuilds) {
  const MdbcParams& mp = GetParam();
  CELLTEST_SKIP_WITHOUT(mp.device);
  if (mp.precision == Precision::Double)
    checkMdbcBetweenRebuilds<double>(mp);
  else
    checkMdbcBetweenRebuilds<float>(mp);
}

INSTANTIATE_TEST_SUITE_P(Verlet, VerletMdbc,
                         ::testing::Values(MdbcParams{Device::Cpu, Precision::Single, KernelKind::Wendland, 3},
                                           MdbcParams{Device::Cpu, Precision::Double, KernelKind::Cubic, 2},
                                           MdbcParams{Device::Gpu, Precision::Single, KernelKind::Wendland, 3},
                                           MdbcParams{Device::Gpu, Precision::Double, KernelKind::Cubic, 2},
                                           MdbcParams{Device::Cpu, Precision::Single, KernelKind::Wendland, 3,
                                                      sph::BoundaryModel::MdbcNoSlip},
                                           MdbcParams{Device::Gpu, Precision::Double, KernelKind::Wendland, 2,
                                                      sph::BoundaryModel::MdbcFreeSlip}),
                         [](const ::testing::TestParamInfo<MdbcParams>& info) {
                           const auto& f = info.param;
                           return fmt::format("{}_{}_{}_{}D_slip{}", sph::deviceName(f.device),
                                              sph::precisionName(f.precision),
                                              f.kernel == KernelKind::Cubic ? "cubic" : "wendland", f.dim,
                                              int(f.model));
                         });

}  // namespace
}  // namespace celltest
