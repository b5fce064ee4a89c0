// Brute-force references for the cell plugin tests: the pair set, the physics constants of a
// small case and the O(N^2) interaction with its round-off tolerance.
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include "neighbours/cell_particle_ops.h"
#include "cell_test_support.h"
#include "sph/plugin/particle_code.h"
#include "sph/plugin/sph_kernels.h"

namespace celltest {

template <typename T>
std::vector<uint64_t> bruteForcePairs(const HostParticles<T>& p, double radius, const sph::PeriodicBox<T>& box) {
  const T r2 = T(radius) * T(radius);
  std::vector<uint64_t> out;
  for (uint32_t a = 0; a < p.size(); ++a)
    for (uint32_t b = 0; b < p.size(); ++b) {
      if (a < p.nBound && b < p.nBound) continue;
      if (sph::cell::distance2(p.pos[a], p.pos[b], box) < r2) out.push_back(uint64_t(p.id[a]) << 32 | p.id[b]);
    }
  std::sort(out.begin(), out.end());
  return out;
}

template <typename T>
std::vector<std::string> pairSetMismatches(const HostParticles<T>& p, const std::vector<uint64_t>& expected,
                                           const std::vector<uint64_t>& found, double radius, double band,
                                           const sph::PeriodicBox<T>& box) {
  std::unordered_map<uint32_t, uint32_t> index;
  for (uint32_t i = 0; i < p.size(); ++i) index[p.id[i]] = i;
  std::vector<std::string> out;
  auto report = [&](const std::vector<uint64_t>& a, const std::vector<uint64_t>& b, const char* what) {
    std::vector<uint64_t> diff;
    std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(diff));
    for (uint64_t key : diff) {
      const auto& pa = p.pos[index.at(uint32_t(key >> 32))];
      const auto& pb = p.pos[index.at(uint32_t(key))];
      const double r2 = double(sph::cell::distance2(pa, pb, box));
      if (std::abs(r2 - radius * radius) > band * radius * radius && out.size() < 20)
        out.push_back(fmt::format("{} pair ids ({}, {}) at r/radius = {:.9f}", what, key >> 32, key & 0xffffffffu,
                                  std::sqrt(r2) / radius));
    }
  };
  report(expected, found, "missing");
  report(found, expected, "extra");
  return out;
}

ForceCase makeForceCase(int dim, uint32_t seed, int extraColumns) {
  ForceCase fc;
  fc.dp = 0.02;
  fc.h = std::sqrt(double(dim)) * fc.dp;  // coefh = 1: h = coefh sqrt(dim dp^2)
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const double dp = fc.dp;
  const int nFloor = (dim == 3 ? 12 : 30) + extraColumns, nyFloor = dim == 3 ? 12 : 1;
  const int nxFluid = (dim == 3 ? 8 : 20) + extraColumns, nyFluid = dim == 3 ? 8 : 1, nzFluid = dim == 3 ? 6 : 14;
  auto& p = fc.particles;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < nyFloor; ++y)
      for (int x = 0; x < nFloor; ++x) p.add(x * dp, dim == 3 ? y * dp : 0.0, z * dp, true);
  for (int z = 0; z < nzFluid; ++z)
    for (int y = 0; y < nyFluid; ++y)
      for (int x = 0; x < nxFluid; ++x) {
        const double jitter = 0.15 * dp;
        p.add((x + 2) * dp + jitter * u(rng), dim == 3 ? (y + 2) * dp + jitter * u(rng) : 0.0,
              (z + 2) * dp + jitter * u(rng), false);
      }
  for (uint32_t i = p.nBound; i < p.size(); ++i) {
    p.velrho[i].x = 0.3 * u(rng);
    p.velrho[i].y = dim == 3 ? 0.3 * u(rng) : 0.0;
    p.velrho[i].z = 0.3 * u(rng);
  }
  for (auto& v : p.velrho) v.w = 1000.0 * (1.0 + 0.01 * u(rng));
  return fc;
}

ForceCase makePeriodicForceCase(int dim, unsigned mask, uint32_t seed, Domain& domain) {
  ForceCase fc;
  fc.dp = 0.02;
  fc.h = std::sqrt(double(dim)) * fc.dp;
  const double dp = fc.dp;
  // 12 dp = 0.24 m across a periodic x or y: 3 cells of 2h (0.069 m in 3D) and 6 of h; 10 dp
  // across z: 5 cells of h.
  const int nx = dim == 3 ? 12 : 30, ny = dim == 3 ? 12 : 1, nz = dim == 3 ? 10 : 16;
  const int counts[3] = {nx, ny, nz};
  for (int k = 0; k < 3; ++k) {
    const bool periodic = (mask >> k & 1u) && !(dim == 2 && k == 1);
    // Periodic: the lattice from 0 to (n - 1) dp, period n dp (DualSPHysics' extent + dp).
    domain.min[k] = periodic ? -0.5 * dp : -3 * dp;
    domain.max[k] = periodic ? (counts[k] - 0.5) * dp : (counts[k] + 3) * dp;
  }
  if (dim == 2) domain.min[1] = domain.max[1] = 0;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto& p = fc.particles;
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) p.add(x * dp, y * dp, z * dp, true);
  for (int z = 2; z < nz; ++z)
    for (int y = 0; y < ny; ++y)
      for (int x = 0; x < nx; ++x) {
        const double jitter = 0.15 * dp;
        p.add(x * dp + jitter * u(rng), dim == 3 ? y * dp + jitter * u(rng) : 0.0, z * dp + jitter * u(rng), false);
      }
  for (uint32_t i = p.nBound; i < p.size(); ++i) {
    p.velrho[i].x = 0.3 * u(rng);
    p.velrho[i].y = dim == 3 ? 0.3 * u(rng) : 0.0;
    p.velrho[i].z = 0.3 * u(rng);
  }
  for (auto& v : p.velrho) v.w = 1000.0 * (1.0 + 0.01 * u(rng));
  wrapPositions(p, periodicBox(domain, mask));
  return fc;
}

template <typename T>
sph::PhysicsConstants<T> makeConstants(int dim, KernelKind kernel, double dp, double h, sph::DensityDiffusion ddt) {
  const double rho0 = 1000, c0 = 10, gamma = 7, gz = -9.81, alpha = 0.1, delta = 0.1;
  const double norm = sph::kernelNormalisation(kernel, dim, h);
  const double cteB = c0 * c0 * rho0 / gamma;
  sph::PhysicsConstants<T> c;
  c.dim = dim;
  c.kernel = kernel;
  c.h = T(h);
  c.support = T(2 * h);
  c.support2 = T(4 * h * h);
  c.eta2 = T(0.01 * h * h);
  c.kernelNorm = T(norm);
  c.cubicWdp = T(sph::kernelWValue(sph::KernelKind::Cubic, sph::cubicTensileSpacing(h), h,
                                   sph::kernelNormalisation(KernelKind::Cubic, dim, h)));
  c.massFluid = T(rho0 * std::pow(dp, dim));
  c.massBound = c.massFluid;
  c.rho0 = T(rho0);
  c.gamma = T(gamma);
  c.invGamma = T(1 / gamma);
  c.cteB = T(cteB);
  c.c0 = T(c0);
  c.visco = T(alpha);
  c.viscoBound = T(alpha);
  c.ddt = ddt;
  c.ddtCoef = T(2 * delta * h * c0);
  c.ddtGz = T(rho0 * gz / cteB);
  c.gz = T(gz);
  sph::foldDerivedConstants(c);
  return c;
}

template <typename T>
void setPressure(HostParticles<T>& p, const sph::PhysicsConstants<T>& c) {
  for (uint32_t i = 0; i < p.size(); ++i) p.pos[i].w = sph::taitPressure(p.velrho[i].w, c);
}

namespace {

// Adds one pair's |terms| to particle a's scale (forceMismatches' tolerance).
template <typename T>
void addTermScale(sph::PairAccum<T>& s, const sph::PairAccum<T>& one) {
  s.ax += std::abs(one.ax);
  s.ay += std::abs(one.ay);
  s.az += std::abs(one.az);
  s.arho += std::abs(one.arho) + std::abs(one.ddt);
}

template <KernelKind K, typename T>
ForceReference<T> bruteForce(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c) {
  ForceReference<T> ref;
  const uint32_t n = p.size();
  ref.result.resize(n);
  ref.scale.resize(n);
  ref.terms.assign(n, 0);
  for (uint32_t a = 0; a < n; ++a) {
    const bool boundA = a < p.nBound;
    for (uint32_t b = 0; b < n; ++b) {
      const bool boundB = b < p.nBound;
      sph::interactPair<K>(p.pos[a], p.velrho[a], boundA, p.pos[b], p.velrho[b], boundB, c, ref.result[a]);
      sph::PairAccum<T> one;
      sph::interactPair<K>(p.pos[a], p.velrho[a], boundA, p.pos[b], p.velrho[b], boundB, c, one);
      const T r2 = sph::cell::distance2(p.pos[a], p.pos[b], c.periodic);
      if (r2 >= c.support2 || r2 <= T(1e-18) * c.support2 || (boundA && boundB)) continue;
      T dx, dy, dz;
      sph::pairDelta(p.pos[a], p.pos[b], c.periodic, dx, dy, dz);
      ++ref.terms[a];
      auto& s = ref.scale[a];
      addTermScale(s, one);
      const T vr = std::abs((p.velrho[a].x - p.velrho[b].x) * dx) + std::abs((p.velrho[a].y - p.velrho[b].y) * dy) +
                   std::abs((p.velrho[a].z - p.velrho[b].z) * dz);
      s.viscdt = std::max(s.viscdt, vr / (r2 + c.eta2));
    }
  }
  return ref;
}

template <KernelKind K, typename T>
ForceReference<T> bruteForceCoded(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c) {
  ForceReference<T> ref;
  const uint32_t n = p.size();
  ref.result.resize(n);
  ref.scale.resize(n);
  ref.terms.assign(n, 0);
  for (uint32_t a = 0; a < n; ++a)
    for (uint32_t b = 0; b < n; ++b) {
      sph::interactPairCoded<K>(p.pos[a], p.velrho[a], p.code[a], p.pos[b], p.velrho[b], p.code[b], c,
                                ref.result[a]);
      sph::PairAccum<T> one;
      sph::interactPairCoded<K>(p.pos[a], p.velrho[a], p.code[a], p.pos[b], p.velrho[b], p.code[b], c, one);
      if (one.ax == 0 && one.ay == 0 && one.az == 0 && one.arho == 0 && one.ddt == 0) continue;
      ++ref.terms[a];
      addTermScale(ref.scale[a], one);
      ref.scale[a].viscdt = std::max(ref.scale[a].viscdt, std::abs(one.viscdt));
    }
  return ref;
}

}  // namespace

template <typename T>
ForceReference<T> bruteForceForces(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c) {
  return c.kernel == KernelKind::Cubic ? bruteForce<KernelKind::Cubic>(p, c) : bruteForce<KernelKind::Wendland>(p, c);
}

template <typename T>
ForceReference<T> bruteForceCodedForces(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c) {
  return c.kernel == KernelKind::Cubic ? bruteForceCoded<KernelKind::Cubic>(p, c)
                                       : bruteForceCoded<KernelKind::Wendland>(p, c);
}

template <typename T>
std::vector<std::string> forceMismatches(const ForceReference<T>& ref, const std::vector<Real4<T>>& ace,
                                         const std::vector<T>& viscdt, double perTerm) {
  const double eps = std::numeric_limits<T>::epsilon();
  std::vector<std::string> out;
  for (size_t a = 0; a < ref.result.size(); ++a) {
    const auto& r = ref.result[a];
    const auto& s = ref.scale[a];
    // Recursive summation of m terms in two different orders: each is within (m - 1) eps sum|t|
    // of the exact sum (Higham, Accuracy and Stability, 4.2); the density rate has two terms per
    // pair, hence 4 m. perTerm covers per-term differences (none on the CPU; FMA and the
    // device's sqrt/pow on the GPU).
    const double k = (4.0 * ref.terms[a] + perTerm) * eps;
    const double got[5] = {double(ace[a].x), double(ace[a].y), double(ace[a].z), double(ace[a].w), double(viscdt[a])};
    const double want[5] = {double(r.ax), double(r.ay), double(r.az), double(r.densityRate()), double(r.viscdt)};
    const double scale[5] = {double(s.ax), double(s.ay), double(s.az), double(s.arho), double(s.viscdt)};
    const char* names[5] = {"ax", "ay", "az", "arho", "viscdt"};
    for (int q = 0; q < 5; ++q) {
      const double tol = k * scale[q] + double(std::numeric_limits<T>::min());
      if (!(std::abs(got[q] - want[q]) <= tol) && out.size() < 20)
        out.push_back(fmt::format("particle {} {}: got {:.9g}, brute force {:.9g}, tolerance {:.3g} ({} terms)", a,
                                  names[q], got[q], want[q], tol, ref.terms[a]));
    }
  }
  return out;
}

template <typename T>
ShiftReference<T> bruteForceShift(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c) {
  ShiftReference<T> ref;
  const uint32_t n = p.size();
  ref.sums.resize(n);
  ref.scale.assign(n, Real4<T>{0, 0, 0, 0});
  ref.terms.assign(n, 0);
  for (uint32_t a = 0; a < n; ++a) {
    sph::PairAccum<T, true> sum;
    for (uint32_t b = 0; b < n; ++b) {
      sph::PairAccum<T, true> one;
      auto pair = [&](sph::PairAccum<T, true>& acc) {
        if (c.kernel == KernelKind::Cubic)
          sph::interactPairCoded<KernelKind::Cubic>(p.pos[a], p.velrho[a], p.code[a], p.pos[b], p.velrho[b],
                                                    p.code[b], c, acc);
        else
          sph::interactPairCoded<KernelKind::Wendland>(p.pos[a], p.velrho[a], p.code[a], p.pos[b], p.velrho[b],
                                                       p.code[b], c, acc);
      };
      pair(sum);
      pair(one);
      if (one.sx == 0 && one.sy == 0 && one.sz == 0 && one.sdiv == 0) continue;
      ++ref.terms[a];
      Real4<T>& s = ref.scale[a];
      s.x += std::abs(one.sx);
      s.y += std::abs(one.sy);
      s.z += std::abs(one.sz);
      s.w += std::abs(one.sdiv);
    }
    ref.sums[a] = sum.shiftSums();
  }
  return ref;
}

template <typename T>
std::vector<std::string> shiftMismatches(const ShiftReference<T>& ref, const std::vector<Real4<T>>& shift,
                                         double perTerm, uint32_t* stopped) {
  const double eps = std::numeric_limits<T>::epsilon();
  std::vector<std::string> out;
  uint32_t zeros = 0;
  for (size_t a = 0; a < ref.sums.size(); ++a) {
    const Real4<T>& r = ref.sums[a];
    if (r.x == 0 && r.y == 0 && r.z == 0 && r.w == 0 && ref.terms[a] > 0) ++zeros;
    // Two summation orders of m terms (see forceMismatches), two products per term.
    const double k = (2.0 * ref.terms[a] + perTerm) * eps;
    const double got[4] = {double(shift[a].x), double(shift[a].y), double(shift[a].z), double(shift[a].w)};
    const double want[4] = {double(r.x), double(r.y), double(r.z), double(r.w)};
    const double scale[4] = {double(ref.scale[a].x), double(ref.scale[a].y), double(ref.scale[a].z),
                             double(ref.scale[a].w)};
    const char* names[4] = {"grad C x", "grad C y", "grad C z", "div r"};
    for (int q = 0; q < 4; ++q) {
      const double tol = k * scale[q] + double(std::numeric_limits<T>::min());
      if (!(std::abs(got[q] - want[q]) <= tol) && out.size() < 20)
        out.push_back(fmt::format("particle {} {}: got {:.9g}, brute force {:.9g}, tolerance {:.3g} ({} terms)", a,
                                  names[q], got[q], want[q], tol, ref.terms[a]));
    }
  }
  if (stopped) *stopped = zeros;
  return out;
}

template <typename T>
SpsReference<T> bruteForceSps(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c,
                              const std::vector<sph::SymTensor<T>>& tau) {
  SpsReference<T> ref;
  const uint32_t n = p.size();
  ref.result.resize(n);
  ref.scale.resize(n);
  ref.terms.assign(n, 0);
  for (uint32_t a = 0; a < n; ++a) {
    ref.result[a].tauA = tau[a];
    for (uint32_t b = 0; b < n; ++b) {
      sph::PairAccum<T, false, true> one;
      one.tauA = tau[a];
      auto pair = [&](sph::PairAccum<T, false, true>& acc) {
        if (c.kernel == KernelKind::Cubic)
          sph::interactPairCoded<KernelKind::Cubic>(p.pos[a], p.velrho[a], p.code[a], p.pos[b], p.velrho[b],
                                                    p.code[b], c, acc, tau[b]);
        else
          sph::interactPairCoded<KernelKind::Wendland>(p.pos[a], p.velrho[a], p.code[a], p.pos[b], p.velrho[b],
                                                       p.code[b], c, acc, tau[b]);
      };
      pair(ref.result[a]);
      pair(one);
      const T r2 = sph::cell::distance2(p.pos[a], p.pos[b], c.periodic);
      if (r2 >= c.support2 || r2 <= T(1e-18) * c.support2 || (a < p.nBound && b < p.nBound)) continue;
      ++ref.terms[a];
      auto& s = ref.scale[a];
      s.ax += std::abs(one.ax);
      s.ay += std::abs(one.ay);
      s.az += std::abs(one.az);
      s.strain.xx += std::abs(one.strain.xx);
      s.strain.xy += std::abs(one.strain.xy);
      s.strain.xz += std::abs(one.strain.xz);
      s.strain.yy += std::abs(one.strain.yy);
      s.strain.yz += std::abs(one.strain.yz);
      s.strain.zz += std::abs(one.strain.zz);
    }
  }
  return ref;
}

template <typename T>
std::vector<std::string> spsMismatches(const SpsReference<T>& ref, const std::vector<Real4<T>>& ace,
                                       const std::vector<sph::SymTensor<T>>& strain, double perTerm) {
  const double eps = std::numeric_limits<T>::epsilon();
  std::vector<std::string> out;
  for (size_t a = 0; a < ref.result.size(); ++a) {
    const auto& r = ref.result[a];
    const auto& s = ref.scale[a];
    // Several terms per pair (pressure, laminar, stress; three products into each 2S entry).
    const double k = (6.0 * ref.terms[a] + perTerm) * eps;
    const double got[9] = {double(ace[a].x), double(ace[a].y), double(ace[a].z),
                           double(strain[a].xx), double(strain[a].xy), double(strain[a].xz),
                           double(strain[a].yy), double(strain[a].yz), double(strain[a].zz)};
    const double want[9] = {double(r.ax), double(r.ay), double(r.az), double(r.strain.xx), double(r.strain.xy),
                            double(r.strain.xz), double(r.strain.yy), double(r.strain.yz), double(r.strain.zz)};
    const double scale[9] = {double(s.ax), double(s.ay), double(s.az), double(s.strain.xx), double(s.strain.xy),
                             double(s.strain.xz), double(s.strain.yy), double(s.strain.yz), double(s.strain.zz)};
    const char* names[9] = {"ax", "ay", "az", "2S xx", "2S xy", "2S xz", "2S yy", "2S yz", "2S zz"};
    for (int q = 0; q < 9; ++q) {
      const double tol = k * scale[q] + double(std::numeric_limits<T>::min());
      if (!(std::abs(got[q] - want[q]) <= tol) && out.size() < 20)
        out.push_back(fmt::format("particle {} {}: got {:.9g}, brute force {:.9g}, tolerance {:.3g} ({} terms)", a,
                                  names[q], got[q], want[q], tol, ref.terms[a]));
    }
  }
  return out;
}

template <typename T>
std::vector<sph::SymTensor<T>> tauById(const HostParticles<T>& p) {
  std::vector<sph::SymTensor<T>> tau(p.size());
  for (uint32_t i = 0; i < p.size(); ++i) {
    if (i < p.nBound) continue;
    const double k = double(p.id[i] % 97) / 97.0 - 0.5;  // stresses of order 1 (Pa / (kg/m^3))
    tau[i] = {T(k), T(0.3 * k), T(-0.2 * k), T(-0.7 * k), T(0.5 * k), T(0.4 - k)};
  }
  return tau;
}

template <typename T>
void markLeftWallsMoving(HostParticles<T>& p) {
  double xmin = 1e30, xmax = -1e30;
  for (uint32_t i = 0; i < p.nBound; ++i) {
    xmin = std::min(xmin, double(p.pos[i].x));
    xmax = std::max(xmax, double(p.pos[i].x));
  }
  for (uint32_t i = 0; i < p.nBound; ++i)
    if (double(p.pos[i].x) < 0.5 * (xmin + xmax)) p.code[i] |= sph::code::kMovingBit;
}

template <typename T>
void expectShiftSums(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c,
                     const std::vector<Real4<T>>& shift, double perTerm) {
  uint32_t stopped = 0;
  const auto bad = shiftMismatches(bruteForceShift(p, c), shift, perTerm, &stopped);
  EXPECT_TRUE(bad.empty()) << fmt::format("{}", fmt::join(bad, "\n"));
  // The floor stops the shift of the fluid next to it unless the mode lets walls count.
  if (c.shifting == sph::Shifting::Full)
    EXPECT_EQ(stopped, 0u);
  else
    EXPECT_GT(stopped, 0u) << "some fluid particles should have a wall neighbour";
  for (uint32_t i = 0; i < p.nBound; ++i)
    EXPECT_TRUE(shift[i].x == 0 && shift[i].y == 0 && shift[i].z == 0 && shift[i].w == 0) << "boundary " << i;
}

#define CELLTEST_INSTANTIATE(T)                                                                              \
  template std::vector<uint64_t> bruteForcePairs(const HostParticles<T>&, double, const sph::PeriodicBox<T>&); \
  template std::vector<std::string> pairSetMismatches(const HostParticles<T>&, const std::vector<uint64_t>&, \
                                                      const std::vector<uint64_t>&, double, double,          \
                                                      const sph::PeriodicBox<T>&);                           \
  template sph::PhysicsConstants<T> makeConstants<T>(int, KernelKind, double, double, sph::DensityDiffusion); \
  template void setPressure(HostParticles<T>&, const sph::PhysicsConstants<T>&);                            \
  template ForceReference<T> bruteForceForces(const HostParticles<T>&, const sph::PhysicsConstants<T>&);    \
  template ForceReference<T> bruteForceCodedForces(const HostParticles<T>&, const sph::PhysicsConstants<T>&); \
  template std::vector<std::string> forceMismatches(const ForceReference<T>&, const std::vector<Real4<T>>&,  \
                                                    const std::vector<T>&, double);                         \
  template ShiftReference<T> bruteForceShift(const HostParticles<T>&, const sph::PhysicsConstants<T>&);      \
  template std::vector<std::string> shiftMismatches(const ShiftReference<T>&, const std::vector<Real4<T>>&,  \
                                                    double, uint32_t*);                                     \
  template void markLeftWallsMoving(HostParticles<T>&);                                                      \
  template SpsReference<T> bruteForceSps(const HostParticles<T>&, const sph::PhysicsConstants<T>&,           \
                                         const std::vector<sph::SymTensor<T>>&);                             \
  template std::vector<std::string> spsMismatches(const SpsReference<T>&, const std::vector<Real4<T>>&,      \
                                                  const std::vector<sph::SymTensor<T>>&, double);            \
  template std::vector<sph::SymTensor<T>> tauById(const HostParticles<T>&);                                  \
  template void expectShiftSums(const HostParticles<T>&, const sph::PhysicsConstants<T>&,                    \
                                const std::vector<Real4<T>>&, double);
CELLTEST_INSTANTIATE(float)
CELLTEST_INSTANTIATE(double)
#undef CELLTEST_INSTANTIATE

}  // namespace celltest
