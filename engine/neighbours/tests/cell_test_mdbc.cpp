// mDBC references of the plugin tests: normals on makeForceCase's floor, the brute-force
// corrected densities (mdbc_physics.h over every fluid particle) and the comparison.
#include <cmath>
#include <unordered_map>

#include <gtest/gtest.h>

#include "cell_test_support.h"
#include "sph/plugin/mdbc_physics.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/periodic.h"

namespace celltest {

// Normals for makeForceCase's two-layer floor (z = 0, dp; the fluid from 2 dp): up to the ghost
// node mirrored across z = 1.5 dp, tilted a little so that every entry of the moment matrix
// matters; every fifth floor particle has none. Every seventh fluid particle is made floating
// (it must not count).
template <typename T>
void addFloorNormals(HostParticles<T>& p, double dp, int dim) {
  p.normal.assign(p.size(), Real4<T>{});
  p.tangent.assign(p.size(), Real4<T>{});
  for (uint32_t i = 0; i < p.nBound; ++i) {
    if (i % 5 == 0) continue;
    const double z = double(p.pos[i].z);
    p.normal[i] = {T(0.1 * dp * std::sin(i)), T(dim == 3 ? 0.1 * dp * std::cos(i) : 0.0), T(2 * (1.5 * dp - z)), T(0)};
  }
  for (uint32_t i = p.nBound; i < p.size(); i += 7) p.code[i] = sph::code::makeFloating(0);
}

namespace {

// O(N^2): the ghost node sums of every boundary particle with a normal (by id), mDBC2's with
// them when c says so.
template <typename T>
std::unordered_map<uint32_t, sph::MdbcSums<T>> bruteForceMdbc(const HostParticles<T>& p,
                                                              const sph::PhysicsConstants<T>& c) {
  const bool slip = c.boundary == sph::BoundaryModel::MdbcNoSlip || c.boundary == sph::BoundaryModel::MdbcFreeSlip;
  std::unordered_map<uint32_t, sph::MdbcSums<T>> sums;
  for (uint32_t b = 0; b < p.nBound; ++b) {
    const Real4<T> n = p.normal[b];
    if (!sph::hasNormal(n)) continue;
    const Real4<T> g{p.pos[b].x + n.x, p.pos[b].y + n.y, p.pos[b].z + n.z, T(0)};
    sph::MdbcSums<T> s;
    for (uint32_t j = p.nBound; j < p.size(); ++j) {
      if (sph::code::isFloating(p.code[j])) continue;
      T dx, dy, dz;
      sph::pairDelta(g, p.pos[j], c.periodic, dx, dy, dz);  // the minimum image on periodic axes
      const T r2 = dx * dx + dy * dy + dz * dz;
      if (!(r2 < c.support2)) continue;
      const bool cubic = c.kernel == KernelKind::Cubic;
      if (slip)
        cubic ? sph::mdbcAddFluid<KernelKind::Cubic, true>(s, dx, dy, dz, r2, p.velrho[j], c)
              : sph::mdbcAddFluid<KernelKind::Wendland, true>(s, dx, dy, dz, r2, p.velrho[j], c);
      else
        cubic ? sph::mdbcAddFluid<KernelKind::Cubic>(s, dx, dy, dz, r2, p.velrho[j], c)
              : sph::mdbcAddFluid<KernelKind::Wendland>(s, dx, dy, dz, r2, p.velrho[j], c);
    }
    sums[p.id[b]] = s;
  }
  return sums;
}

}  // namespace

template <typename T>
std::unordered_map<uint32_t, T> densitiesById(const HostParticles<T>& p) {
  std::unordered_map<uint32_t, T> rho;
  for (uint32_t i = 0; i < p.size(); ++i) rho[p.id[i]] = p.velrho[i].w;
  return rho;
}

template <typename T>
void expectMdbcDensities(const std::unordered_map<uint32_t, T>& before, const HostParticles<T>& after,
                         const sph::PhysicsConstants<T>& c) {
  const bool slip = c.boundary == sph::BoundaryModel::MdbcNoSlip || c.boundary == sph::BoundaryModel::MdbcFreeSlip;
  // The brute force reads the fluid's densities and velocities, which the correction leaves alone.
  const auto sums = bruteForceMdbc(after, c);
  // The sums run in another order than the brute force's, and the 3x3/4x4 inverse amplifies
  // their rounding by its condition number (~10^2 here): 2e-5 of rho0 in float, 1e-11 in double.
  const double tol = (sizeof(T) == sizeof(float) ? 2e-5 : 1e-11) * double(c.rho0);
  const double velTol = sizeof(T) == sizeof(float) ? 1e-5 : 1e-12;
  size_t corrected = 0, off = 0;
  for (uint32_t i = 0; i < after.size(); ++i) {
    const uint32_t id = after.id[i];
    const auto it = sums.find(id);
    const double rho = double(after.velrho[i].w);
    if (it == sums.end()) {
      EXPECT_EQ(after.velrho[i].w, before.at(id)) << "particle " << id << " has no normal and must keep its density";
      continue;
    }
    ++corrected;
    if (slip) {
      const sph::Mdbc2Wall<T> w = sph::mdbc2Wall(it->second, after.normal[i], after.velrho[i], Real4<T>{}, c);
      EXPECT_NEAR(rho, double(w.rho), tol) << "boundary particle " << id;
      EXPECT_EQ((after.code[i] & sph::code::kMdbcOffBit) != 0, w.off) << "boundary particle " << id;
      off += w.off;
      EXPECT_NEAR(double(after.tangent[i].x), double(w.tangent.x), velTol) << "boundary particle " << id;
      EXPECT_NEAR(double(after.tangent[i].y), double(w.tangent.y), velTol) << "boundary particle " << id;
      EXPECT_NEAR(double(after.tangent[i].z), double(w.tangent.z), velTol) << "boundary particle " << id;
    } else {
      EXPECT_NEAR(rho, double(sph::mdbcDensity(it->second, after.normal[i], c.dim, c.rho0)), tol)
          << "boundary particle " << id;
    }
    EXPECT_NEAR(double(after.pos[i].w), double(sph::taitPressure(after.velrho[i].w, c)),
                1e-5 * std::fabs(double(after.pos[i].w)) + 1e-3)
        << "pressure of boundary particle " << id;
    // The fluid's ghost-node sums differ from rho0 by the density field's structure only.
    EXPECT_GT(rho, 900.0) << "boundary particle " << id;
    EXPECT_LT(rho, 1100.0) << "boundary particle " << id;
  }
  EXPECT_EQ(corrected, sums.size());
  EXPECT_GT(corrected, size_t(after.nBound / 2));
  if (slip) {
    EXPECT_LT(off, corrected) << "some walls must be under water";
  }
}

#define CELLTEST_INSTANTIATE(T)                                                                                \
  template void addFloorNormals(HostParticles<T>&, double, int);                                              \
  template std::unordered_map<uint32_t, T> densitiesById(const HostParticles<T>&);                            \
  template void expectMdbcDensities(const std::unordered_map<uint32_t, T>&, const HostParticles<T>&,          \
                                    const sph::PhysicsConstants<T>&);
CELLTEST_INSTANTIATE(float)
CELLTEST_INSTANTIATE(double)
#undef CELLTEST_INSTANTIATE

}  // namespace celltest

