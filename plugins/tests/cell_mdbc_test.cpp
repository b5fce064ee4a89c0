// mDBC's boundary correction through the cell plugin equals a brute-force evaluation of
// mdbc_physics.h over every fluid particle, on both devices.
#include <gtest/gtest.h>

#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

#include "cell_test_support.h"
#include "sph/mdbc_physics.h"
#include "sph/particle_code.h"

namespace celltest {
namespace {

struct MdbcCaseParams {
  Device device;
  Precision precision;
  KernelKind kernel;
  int dim;
  CellMode mode;
};

// Normals for makeForceCase's two-layer floor (z = 0, dp; the fluid from 2 dp): up to the ghost
// node mirrored across z = 1.5 dp, tilted a little so that every entry of the moment matrix
// matters; every fifth floor particle has none. Every seventh fluid particle is made floating
// (it must not count).
template <typename T>
void addFloorNormals(HostParticles<T>& p, double dp, int dim) {
  p.normal.assign(p.size(), Real4<T>{});
  for (uint32_t i = 0; i < p.nBound; ++i) {
    if (i % 5 == 0) continue;
    const double z = double(p.pos[i].z);
    p.normal[i] = {T(0.1 * dp * std::sin(i)), T(dim == 3 ? 0.1 * dp * std::cos(i) : 0.0), T(2 * (1.5 * dp - z)), T(0)};
  }
  for (uint32_t i = p.nBound; i < p.size(); i += 7) p.code[i] = sph::code::makeFloating(0);
}

// O(N^2): the density mdbcDensity() gives every boundary particle with a normal (by id).
template <typename T>
std::unordered_map<uint32_t, T> bruteForceMdbc(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c) {
  std::unordered_map<uint32_t, T> rho;
  for (uint32_t b = 0; b < p.nBound; ++b) {
    const Real4<T> n = p.normal[b];
    if (!sph::hasNormal(n)) continue;
    const Real4<T> g{p.pos[b].x + n.x, p.pos[b].y + n.y, p.pos[b].z + n.z, T(0)};
    sph::MdbcSums<T> s;
    for (uint32_t j = p.nBound; j < p.size(); ++j) {
      if (sph::code::isFloating(p.code[j])) continue;
      const T dx = g.x - p.pos[j].x, dy = g.y - p.pos[j].y, dz = g.z - p.pos[j].z;
      const T r2 = dx * dx + dy * dy + dz * dz;
      if (!(r2 < c.support2)) continue;
      if (c.kernel == KernelKind::Cubic)
        sph::mdbcAddFluid<KernelKind::Cubic>(s, dx, dy, dz, r2, p.velrho[j].w, c);
      else
        sph::mdbcAddFluid<KernelKind::Wendland>(s, dx, dy, dz, r2, p.velrho[j].w, c);
    }
    rho[p.id[b]] = sph::mdbcDensity(s, n, c.dim, c.rho0);
  }
  return rho;
}

template <typename T>
void checkMdbcAgainstBruteForce(const MdbcCaseParams& mp) {
  const ForceCase fc = makeForceCase(mp.dim, 13);
  const auto c = makeConstants<T>(mp.dim, mp.kernel, fc.dp, fc.h, sph::DensityDiffusion::None);
  HostParticles<T> p = fc.particles.as<T>();
  addFloorNormals(p, fc.dp, mp.dim);
  setPressure(p, c);
  std::unordered_map<uint32_t, Real4<T>> before;
  for (uint32_t i = 0; i < p.size(); ++i) before[p.id[i]] = p.velrho[i];

  Harness<T> run(mp.device, p);
  sph::cell::CellStrategy cell;
  cell.configure(makeContext(mp.device, mp.precision, mp.dim, 2 * fc.h, domainAround(fc.particles, fc.dp), mp.mode,
                             run.reorderer()));
  cell.prepare(run.view(), sph::PrepareReason::Step);
  cell.correctBoundaries(run.view(), c);
  const HostParticles<T> after = run.particles();

  // The brute force reads the fluid's densities, which the correction leaves alone.
  const auto expected = bruteForceMdbc(after, c);
  // The sums run in another order than the brute force's, and the 3x3/4x4 inverse amplifies
  // their rounding by its condition number (~10^2 here): 2e-5 of rho0 in float, 1e-11 in double.
  const double tol = (sizeof(T) == sizeof(float) ? 2e-5 : 1e-11) * double(c.rho0);
  size_t corrected = 0;
  for (uint32_t i = 0; i < after.size(); ++i) {
    const uint32_t id = after.id[i];
    const auto it = expected.find(id);
    const double rho = double(after.velrho[i].w);
    if (it == expected.end()) {
      EXPECT_EQ(after.velrho[i].w, before[id].w) << "particle " << id << " has no normal and must keep its density";
      continue;
    }
    ++corrected;
    EXPECT_NEAR(rho, double(it->second), tol) << "boundary particle " << id;
    EXPECT_NEAR(double(after.pos[i].w), double(sph::taitPressure(after.velrho[i].w, c)),
                1e-5 * std::fabs(double(after.pos[i].w)) + 1e-3)
        << "pressure of boundary particle " << id;
    // The fluid's ghost-node sums differ from rho0 by the density field's structure only.
    EXPECT_GT(rho, 900.0) << "boundary particle " << id;
    EXPECT_LT(rho, 1100.0) << "boundary particle " << id;
  }
  EXPECT_EQ(corrected, expected.size());
  EXPECT_GT(corrected, size_t(p.nBound / 2));
}

class CellMdbc : public ::testing::TestWithParam<MdbcCaseParams> {};

TEST_P(CellMdbc, DensitiesEqualBruteForce) {
  const MdbcCaseParams& mp = GetParam();
  CELLTEST_SKIP_WITHOUT(mp.device);
  if (mp.precision == Precision::Double)
    checkMdbcAgainstBruteForce<double>(mp);
  else
    checkMdbcAgainstBruteForce<float>(mp);
}

std::vector<MdbcCaseParams> mdbcCases() {
  using K = KernelKind;
  std::vector<MdbcCaseParams> out;
  for (Device dev : {Device::Cpu, Device::Gpu}) {
    out.push_back({dev, Precision::Single, K::Wendland, 3, CellMode::Full});
    out.push_back({dev, Precision::Double, K::Cubic, 3, CellMode::Half});
    out.push_back({dev, Precision::Single, K::Cubic, 2, CellMode::Half});
    out.push_back({dev, Precision::Double, K::Wendland, 2, CellMode::Full});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cell, CellMdbc, ::testing::ValuesIn(mdbcCases()),
                         [](const ::testing::TestParamInfo<MdbcCaseParams>& info) {
                           const auto& f = info.param;
                           return fmt::format("{}_{}_{}_{}D_{}", sph::deviceName(f.device),
                                              sph::precisionName(f.precision),
                                              f.kernel == KernelKind::Cubic ? "cubic" : "wendland", f.dim,
                                              sph::cell::cellModeName(f.mode));
                         });

}  // namespace
}  // namespace celltest
