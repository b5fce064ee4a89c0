// mDBC's boundary correction through the cell plugin equals a brute-force evaluation of
// mdbc_physics.h over every fluid particle, on both devices.
#include <gtest/gtest.h>

#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

#include "cell_test_support.h"

namespace celltest {
namespace {

struct MdbcCaseParams {
  Device device;
  Precision precision;
  KernelKind kernel;
  int dim;
  CellMode mode;
  sph::BoundaryModel model = sph::BoundaryModel::MdbcVel0;
};

// Constants and particles of a case with normals on its floor (cell_test_mdbc.cpp).
template <typename T>
HostParticles<T> floorWithNormals(const MdbcCaseParams& mp, const ForceCase& fc, sph::PhysicsConstants<T>& c) {
  c = makeConstants<T>(mp.dim, mp.kernel, fc.dp, fc.h, sph::DensityDiffusion::None);
  c.boundary = mp.model;
  c.dp = T(fc.dp);
  HostParticles<T> p = fc.particles.as<T>();
  addFloorNormals(p, fc.dp, mp.dim);
  setPressure(p, c);
  return p;
}

// The particles after the cell plugin's correction (periodic axes: bits of periodicMask).
template <typename T>
HostParticles<T> correctedByCell(const MdbcCaseParams& mp, const HostParticles<T>& p, double support,
                                 const Domain& domain, unsigned periodicMask, const sph::PhysicsConstants<T>& c) {
  Harness<T> run(mp.device, p);
  sph::cell::CellStrategy cell;
  sph::StrategyContext ctx = makeContext(mp.device, mp.precision, mp.dim, support, domain, mp.mode, run.reorderer());
  setPeriodic(ctx, periodicMask);
  cell.configure(ctx);
  cell.prepare(run.view(), sph::PrepareReason::Step);
  cell.correctBoundaries(run.view(), c);
  return run.particles();
}

template <typename T>
void checkMdbcAgainstBruteForce(const MdbcCaseParams& mp) {
  const ForceCase fc = makeForceCase(mp.dim, 13);
  sph::PhysicsConstants<T> c;
  const HostParticles<T> p = floorWithNormals(mp, fc, c);
  const Domain domain = domainAround(fc.particles, fc.dp);
  expectMdbcDensities(densitiesById(p), correctedByCell(mp, p, 2 * fc.h, domain, 0, c), c);
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
    out.push_back({dev, Precision::Single, K::Wendland, 3, CellMode::Half, sph::BoundaryModel::MdbcNoSlip});
    out.push_back({dev, Precision::Double, K::Cubic, 2, CellMode::Full, sph::BoundaryModel::MdbcFreeSlip});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Cell, CellMdbc, ::testing::ValuesIn(mdbcCases()),
                         [](const ::testing::TestParamInfo<MdbcCaseParams>& info) {
                           const auto& f = info.param;
                           return fmt::format("{}_{}_{}_{}D_{}_slip{}", sph::deviceName(f.device),
                                              sph::precisionName(f.precision),
                                              f.kernel == KernelKind::Cubic ? "cubic" : "wendland", f.dim,
                                              sph::cell::cellModeName(f.mode), int(f.model));
                         });

// Periodic x and y (x only in 2D): ghost nodes near a periodic face gather fluid through it, at its
// minimum image (makePeriodicForceCase: a floor and water that continue across the faces).
class CellMdbcPeriodic : public ::testing::TestWithParam<MdbcCaseParams> {};

template <typename T>
void checkPeriodicMdbc(const MdbcCaseParams& mp) {
  Domain domain;
  const unsigned mask = mp.dim == 3 ? 0b011 : 0b001;
  const ForceCase fc = makePeriodicForceCase(mp.dim, mask, 29, domain);
  sph::PhysicsConstants<T> c;
  const HostParticles<T> p = floorWithNormals(mp, fc, c);
  c.periodic = boxAs<T>(periodicBox(domain, mask));
  const HostParticles<T> after = correctedByCell(mp, p, 2 * fc.h, domain, mask, c);
  expectMdbcDensities(densitiesById(p), after, c);
  // Without the images the walls near the faces would get other densities.
  sph::PhysicsConstants<T> open = c;
  open.periodic = {};
  const std::unordered_map<uint32_t, T> withImages = densitiesById(after),
                                        without = densitiesById(correctedByCell(mp, p, 2 * fc.h, domain, 0, open));
  int differ = 0;
  for (const auto& [id, rho] : withImages) differ += std::fabs(double(rho) - double(without.at(id))) > 0.01;
  EXPECT_GE(differ, 4) << "the periodic images should change the walls near the faces";
}

TEST_P(CellMdbcPeriodic, DensitiesEqualBruteForceWithMinimumImage) {
  const MdbcCaseParams& mp = GetParam();
  CELLTEST_SKIP_WITHOUT(mp.device);
  if (mp.precision == Precision::Double)
    checkPeriodicMdbc<double>(mp);
  else
    checkPeriodicMdbc<float>(mp);
}

INSTANTIATE_TEST_SUITE_P(Cell, CellMdbcPeriodic,
                         ::testing::Values(MdbcCaseParams{Device::Cpu, Precision::Single, KernelKind::Wendland, 3, CellMode::Full},
                                           MdbcCaseParams{Device::Cpu, Precision::Double, KernelKind::Cubic, 2, CellMode::Half},
                                           MdbcCaseParams{Device::Gpu, Precision::Single, KernelKind::Wendland, 3, CellMode::Half},
                                           MdbcCaseParams{Device::Gpu, Precision::Double, KernelKind::Cubic, 2, CellMode::Full}),
                         [](const ::testing::TestParamInfo<MdbcCaseParams>& info) {
                           const auto& f = info.param;
                           return fmt::format("{}_{}_{}_{}D_{}", sph::deviceName(f.device),
                                              sph::precisionName(f.precision),
                                              f.kernel == KernelKind::Cubic ? "cubic" : "wendland", f.dim,
                                              sph::cell::cellModeName(f.mode));
                         });

}  // namespace
}  // namespace celltest
