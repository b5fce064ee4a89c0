// Shared fixtures of the strategy tests (plugins/tests, verlet/tests): particle sets, reorderers
// for host and device arrays, contexts, physics constants and brute-force references.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "neighbours/cell_search.h"
#include "sph/plugin/neighbour_strategy.h"
#include "sph/plugin/pair_physics.h"

namespace celltest {

using sph::Device;
using sph::KernelKind;
using sph::Precision;
using sph::Real4;
using sph::cell::CellMode;

// Particles on the host, boundary ones first.
template <typename T>
struct HostParticles {
  std::vector<Real4<T>> pos, velrho;
  std::vector<uint32_t> code, id;
  std::vector<Real4<T>> normal;   // mDBC normals, empty unless a test sets them
  std::vector<Real4<T>> tangent;  // mDBC2 walls' tangential velocities, empty unless a test sets them
  uint32_t nBound = 0;

  uint32_t size() const { return uint32_t(pos.size()); }
  void add(double x, double y, double z, bool bound);
  sph::ParticleView<T> view();
  template <typename U>
  HostParticles<U> as() const;  // the same particles in another precision
};

// Gathers every host array: new[i] = old[perm[i]].
template <typename T>
class HostReorderer final : public sph::ParticleReorderer {
 public:
  explicit HostReorderer(HostParticles<T>& p) : p_(p) {}
  void apply(const uint32_t* perm, uint32_t n) override;
  int calls = 0;

 private:
  HostParticles<T>& p_;
};

// The same particles in device memory (through the engine's platform/gpu_runtime.h), plus outputs.
template <typename T>
class DeviceParticles {
 public:
  explicit DeviceParticles(const HostParticles<T>& h);
  ~DeviceParticles();
  DeviceParticles(const DeviceParticles&) = delete;
  DeviceParticles& operator=(const DeviceParticles&) = delete;
  sph::ParticleView<T> view() const;
  sph::ForceOutputs<T> outputs(bool withShift = false, bool withSps = false) const;
  HostParticles<T> download() const;
  void downloadOutputs(std::vector<Real4<T>>& ace, std::vector<T>& viscdt) const;
  void downloadShift(std::vector<Real4<T>>& shift) const;
  void downloadStrain(std::vector<sph::SymTensor<T>>& strain) const;
  void uploadTau(const std::vector<sph::SymTensor<T>>& tau);
  void upload(const HostParticles<T>& h);

 private:
  uint32_t n_ = 0, nBound_ = 0;
  Real4<T>* pos_ = nullptr;
  Real4<T>* velrho_ = nullptr;
  uint32_t* code_ = nullptr;
  uint32_t* id_ = nullptr;
  Real4<T>* normal_ = nullptr;
  Real4<T>* tangent_ = nullptr;
  bool withNormal_ = false, withTangent_ = false;
  Real4<T>* ace_ = nullptr;
  T* viscdt_ = nullptr;
  Real4<T>* shift_ = nullptr;
  sph::SymTensor<T>* tau_ = nullptr;
  sph::SymTensor<T>* strain_ = nullptr;
  bool withTau_ = false;
};

// Gathers on the host through copies: slow, simple, enough for tests.
template <typename T>
class DeviceReorderer final : public sph::ParticleReorderer {
 public:
  explicit DeviceReorderer(DeviceParticles<T>& d) : d_(d) {}
  void apply(const uint32_t* perm, uint32_t n) override;

 private:
  DeviceParticles<T>& d_;
};

bool gpuAvailable();

// Skips a GPU test when no device can run it.
#define CELLTEST_SKIP_WITHOUT(device)                                                   \
  if ((device) != ::sph::Device::Gpu || ::celltest::gpuAvailable()) {                 \
  } else                                                                                \
    GTEST_SKIP() << "no usable CUDA device (sph::gpu::available() is false): GPU path not run"

// Particles where a strategy of either device wants them, with a matching reorderer and
// force outputs. Not copyable: the reorderer refers to the arrays held here.
template <typename T>
class Harness {
 public:
  Harness(Device device, const HostParticles<T>& p);
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;
  sph::ParticleReorderer* reorderer();
  sph::ParticleView<T> view();
  // withShift: the pass also writes the shifting sums (shiftToHost); withSps: the SPS model's 2S
  // (strainToHost).
  sph::ForceOutputs<T> outputs(bool withShift = false, bool withSps = false);
  // The SPS tau/rho the next view() hands to the strategy, in the current particle order.
  void setSpsTau(const std::vector<sph::SymTensor<T>>& tau);
  void strainToHost(std::vector<sph::SymTensor<T>>& strain) const;
  HostParticles<T> particles() const;  // the current (reordered) particles, on the host
  void setParticles(const HostParticles<T>& p);  // same count
  void outputsToHost(std::vector<Real4<T>>& ace, std::vector<T>& viscdt) const;
  void shiftToHost(std::vector<Real4<T>>& shift) const;

 private:
  Device device_;
  HostParticles<T> host_;
  std::vector<Real4<T>> ace_;
  std::vector<T> viscdt_;
  std::vector<Real4<T>> shift_;
  std::vector<sph::SymTensor<T>> tau_, strain_;
  bool withTau_ = false;
  std::unique_ptr<HostReorderer<T>> hostReorderer_;
  std::unique_ptr<DeviceParticles<T>> deviceParticles_;
  std::unique_ptr<DeviceReorderer<T>> deviceReorderer_;
};

struct Domain {
  double min[3] = {0, 0, 0};
  double max[3] = {1, 1, 1};
};

// The box around the particles, `margin` beyond the outermost on every side.
Domain domainAround(const HostParticles<double>& p, double margin);

sph::StrategyContext makeContext(Device device, Precision precision, int dim, double support, const Domain& d,
                                 CellMode mode, sph::ParticleReorderer* reorderer,
                                 bool trimRows = true);

// Random particles: dense clusters, a uniform region, empty regions and a few particles outside
// the domain. 2D sets lie in the x-z plane at constant y.
HostParticles<double> randomParticles(int dim, uint32_t n, uint32_t nBound, const Domain& d, uint32_t seed);
// A lattice with spacing dp from `origin`; the lowest `boundLayers` z-layers are boundary.
HostParticles<double> latticeParticles(int dim, int nx, int ny, int nz, double dp, const double origin[3],
                                       int boundLayers);

// Periodic axes for tests: bit d of `mask` makes axis d wrap over [d.min, d.max).
sph::PeriodicBox<double> periodicBox(const Domain& d, unsigned mask);
template <typename T>
sph::PeriodicBox<T> boxAs(const sph::PeriodicBox<double>& b);
void setPeriodic(sph::StrategyContext& ctx, unsigned mask);
// Puts every position back into the period of each periodic axis (what the integrators do).
template <typename T>
void wrapPositions(HostParticles<T>& p, const sph::PeriodicBox<double>& box);
// Random particles for a domain with periodic axes: uniform, slabs within `band` of both faces
// of every periodic axis (so pairs straddle each boundary), and a dense cluster on the domain's
// minimum corner, which the wrap splits over up to eight corners. Positions on periodic axes
// are wrapped into the period; on open axes 3% lie up to 15% outside the domain.
HostParticles<double> periodicRandomParticles(int dim, uint32_t n, uint32_t nBound, const Domain& d, unsigned mask,
                                              double band, uint32_t seed);

// Ordered pairs by id, encoded id_a << 32 | id_b, sorted.
std::vector<uint64_t> pairsById(const std::vector<sph::cell::IndexPair>& pairs, const std::vector<uint32_t>& id);
// Brute force over all ordered pairs with r^2 < radius^2 (in T, as the plugin; the minimum image
// along the periodic axes of `box`), boundary-boundary pairs excluded, a == b included for fluid a.
template <typename T>
std::vector<uint64_t> bruteForcePairs(const HostParticles<T>& p, double radius, const sph::PeriodicBox<T>& box = {});
// Pairs in one list and not the other whose |r^2 - radius^2| exceeds band * radius^2: a decision
// at the support edge may flip with the rounding of r^2 (FMA on the GPU), nothing else may differ.
template <typename T>
std::vector<std::string> pairSetMismatches(const HostParticles<T>& p, const std::vector<uint64_t>& expected,
                                           const std::vector<uint64_t>& found, double radius, double band,
                                           const sph::PeriodicBox<T>& box = {});

// A small weakly compressible case: jittered fluid lattice above a two-layer boundary floor,
// random velocities, densities around rho0 and the Tait pressure in pos.w.
struct ForceCase {
  HostParticles<double> particles;
  double dp = 0, h = 0;
};
// extraColumns: the floor and the fluid that many particles longer along x.
ForceCase makeForceCase(int dim, uint32_t seed, int extraColumns = 0);
// The same kind of case filling a periodic domain: a floor of two boundary layers and a
// jittered fluid lattice that continue across the periodic axes of `mask` (x and y, or z too),
// wrapped into the period. `domain` receives the domain (period n dp on periodic axes).
ForceCase makePeriodicForceCase(int dim, unsigned mask, uint32_t seed, Domain& domain);

template <typename T>
sph::PhysicsConstants<T> makeConstants(int dim, KernelKind kernel, double dp, double h,
                                       sph::DensityDiffusion ddt);
// Fills pos.w with the Tait pressure of velrho.w.
template <typename T>
void setPressure(HostParticles<T>& p, const sph::PhysicsConstants<T>& c);

// mDBC (cell_test_mdbc.cpp). Normals on makeForceCase's floor towards ghost nodes mirrored
// across its surface, tilted a little, none on every fifth floor particle; every seventh fluid
// particle made floating (which must not count).
template <typename T>
void addFloorNormals(HostParticles<T>& p, double dp, int dim);
template <typename T>
std::unordered_map<uint32_t, T> densitiesById(const HostParticles<T>& p);
// After a correction: every boundary particle with a normal has the brute-force density
// (mdbc_physics.h over every fluid particle) and its pressure, every other particle the density
// it had (`before`, by id).
template <typename T>
void expectMdbcDensities(const std::unordered_map<uint32_t, T>& before, const HostParticles<T>& after,
                         const sph::PhysicsConstants<T>& c);

// Brute-force O(N^2) interaction (minimum image along c.periodic): result, sum of |term| per
// component, in-range count.
template <typename T>
struct ForceReference {
  std::vector<sph::PairAccum<T>> result;
  std::vector<sph::PairAccum<T>> scale;  // sum over b of |contribution of b|; viscdt: max scale
  std::vector<uint32_t> terms;
};
template <typename T>
ForceReference<T> bruteForceForces(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c);

// The same for a coded pass (interactPairCoded over all pairs: floating bodies and their table).
template <typename T>
ForceReference<T> bruteForceCodedForces(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c);

// Describes differences beyond tol_a = (4 m_a + perTerm) eps scale_a + tiny, one line each.
template <typename T>
std::vector<std::string> forceMismatches(const ForceReference<T>& ref, const std::vector<Real4<T>>& ace,
                                         const std::vector<T>& viscdt, double perTerm);

// Brute-force shifting sums (ShiftAccum::shiftSums, pair_physics.h) of every particle from
// interactPairCoded() over all pairs (the code words of p, moving-boundary bits included), the
// sum of |term| per component and the in-range count.
template <typename T>
struct ShiftReference {
  std::vector<Real4<T>> sums, scale;
  std::vector<uint32_t> terms;
};
template <typename T>
ShiftReference<T> bruteForceShift(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c);
// As forceMismatches, for the shifting sums; `stopped` counts the particles whose shift a
// neighbour stopped (sums all zero in the reference).
template <typename T>
std::vector<std::string> shiftMismatches(const ShiftReference<T>& ref, const std::vector<Real4<T>>& shift,
                                         double perTerm, uint32_t* stopped = nullptr);

// Brute-force force pass of the SPS model (interactPairCoded with Sps over all pairs, tau/rho of
// every particle given): the sums, the sum of |term| per component and the in-range count.
template <typename T>
struct SpsReference {
  std::vector<sph::PairAccum<T, false, true>> result, scale;
  std::vector<uint32_t> terms;
};
template <typename T>
SpsReference<T> bruteForceSps(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c,
                              const std::vector<sph::SymTensor<T>>& tau);
// As forceMismatches, for the accelerations and the 2S of an SPS pass.
template <typename T>
std::vector<std::string> spsMismatches(const SpsReference<T>& ref, const std::vector<Real4<T>>& ace,
                                       const std::vector<sph::SymTensor<T>>& strain, double perTerm);
// A tau/rho per particle that depends on its id only (so it survives any reordering), zero for
// boundary particles.
template <typename T>
std::vector<sph::SymTensor<T>> tauById(const HostParticles<T>& p);

// Marks the boundary particles of the left half (in x) as moving (code::kMovingBit).
template <typename T>
void markLeftWallsMoving(HostParticles<T>& p);
// Expects the shifting sums of a pass over p (in p's order) to be the brute force's, zero for
// boundary particles, and zero for some fluid particle next to a wall unless c.shifting is Full.
template <typename T>
void expectShiftSums(const HostParticles<T>& p, const sph::PhysicsConstants<T>& c,
                     const std::vector<Real4<T>>& shift, double perTerm);

}  // namespace celltest
