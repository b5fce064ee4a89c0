// The device-specific half of the cell search: where keys, tables and loops run. CellSearch
// (the search) owns options, timing and the reorderer call, and forwards the rest
// here. The CPU backend is plain C++/OpenMP; the GPU backend is implemented in gpu/*.cu and
// reached only through makeCellGpuBackend(), so host code never sees a CUDA header.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "cell_grid.h"
#include "cell_iteration.h"
#include "sph/plugin/inout_extrapolation.h"
#include "sph/plugin/particle_view.h"
#include "sph/plugin/physics_constants.h"

namespace sph::cell {

// Totals of one iteration over all particles.
struct CandidateTotals {
  uint64_t particles = 0;
  uint64_t candidates = 0;
  uint64_t inRange = 0;  // pairs within the support, self excluded
};

struct IndexPair {
  uint32_t a = 0, b = 0;
  bool operator==(const IndexPair&) const = default;
};

class CellBackend {
 public:
  virtual ~CellBackend() = default;

  virtual void setGrid(const CellGrid& g) = 0;
  // NL-PreSort: key and identity index of every particle in [0, n).
  virtual void computeKeys(const ParticleView<float>& p) = 0;
  virtual void computeKeys(const ParticleView<double>& p) = 0;
  // NL-RadixSort: sorts (key, index) pairs; sortedIndex() is the permutation, on the device
  // the particles live on.
  virtual void sortKeys() = 0;
  virtual const uint32_t* sortedIndex() const = 0;
  // NL-CellBegin: the start table of the sorted keys.
  virtual void buildCellStart() = 0;
  // The tables of the last buildCellStart(), for strategies that iterate cells themselves.
  virtual CellLookup lookup() const = 0;

  virtual void interact(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                        const ForceOutputs<float>& out) = 0;
  virtual void interact(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                        const ForceOutputs<double>& out) = 0;

  // mDBC: what every boundary particle with a normal takes from its ghost node (density and
  // pressure; with mDBC2 also its on/off bit and tangential velocity: mdbc_physics.h,
  // mdbcStoreWall), with the tables of the last buildCellStart().
  virtual void correctBoundaries(const ParticleView<float>& p, const PhysicsConstants<float>& c) = 0;
  virtual void correctBoundaries(const ParticleView<double>& p, const PhysicsConstants<double>& c) = 0;
  // Inlets/outlets: what each listed buffer particle takes from its ghost node
  // (inout_extrapolation.h), with the tables of the last buildCellStart().
  virtual void extrapolateInOut(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                                const InOutExtrapolation& x) = 0;
  virtual void extrapolateInOut(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                                const InOutExtrapolation& x) = 0;

  // CellPairs once: the GPU's plain single-precision passes compute each pair once
  // (gpu/pair_once.cuh); the CPU takes every pair from both of its particles whatever it says.
  virtual void setPairsOnce(bool) {}
  // How many passes since configure() computed each pair once.
  virtual uint64_t passesPairsOnce() const { return 0; }

  // The halo's skin in runs over several ranks (CellSearch::trackPlaces): the place of every
  // particle at the last reset, kept in the particles' order. followPlaces() comes between
  // sortKeys() and the reorder by sortedIndex(), and permutes the saved places alike; `reset`
  // first takes them from `p` (its arrays as they are before the reorder).
  virtual void followPlaces(const ParticleView<float>& p, bool reset) = 0;
  virtual void followPlaces(const ParticleView<double>& p, bool reset) = 0;
  // The largest squared distance a particle of [0, p.n) has moved since the last reset (the
  // minimum image on periodic axes; parked particles, nobody's neighbours, do not count);
  // +infinity when no places were saved for p.n particles. Waits for the device.
  virtual double maxDisplacement2(const ParticleView<float>& p) = 0;
  virtual double maxDisplacement2(const ParticleView<double>& p) = 0;
  // The saved places for a checkpoint: a SavedPlacesHeader, then the places (empty when none are
  // kept); restorePlaces() takes them back, RunError when the bytes are not such.
  virtual std::vector<uint8_t> savePlaces() const = 0;
  virtual void restorePlaces(const std::vector<uint8_t>& bytes) = 0;

  // A pass split around a halo's refresh, whose copies were sorted before it: haloDrift() is how
  // far (in the support's cells) the farthest halo copy (code::kHaloBit) of `p` now lies outside
  // the cell it was sorted into (cellOutside; waits for the device); a parked copy, parked since
  // and nobody's neighbour, does not count. setHaloDrift() makes the
  // passes after it scan that much farther (CellLookup::drift; 0 again for the ordinary passes).
  virtual float haloDrift(const ParticleView<float>& p) = 0;
  virtual float haloDrift(const ParticleView<double>& p) = 0;
  virtual void setHaloDrift(float drift) = 0;

  // Candidate totals of the last interaction pass, if any (the GPU counts them on demand).
  virtual std::optional<CandidateTotals> candidateTotals() const = 0;

  // Diagnostics through the same iteration: ordered index pairs (a, b) with r^2 < radius2 in
  // the particles' precision; `p` is the view after the last prepare().
  virtual std::vector<IndexPair> pairsWithin(const ParticleView<float>& p, double radius) const = 0;
  virtual std::vector<IndexPair> pairsWithin(const ParticleView<double>& p, double radius) const = 0;
  virtual uint64_t countPairsWithin(const ParticleView<float>& p, double radius) const = 0;
  virtual uint64_t countPairsWithin(const ParticleView<double>& p, double radius) const = 0;

  virtual size_t deviceBytes() const = 0;
  virtual size_t peakDeviceBytes() const = 0;
};

// The float and double overloads of a backend written once: CellBackendFor<B> implements them by
// calling B's member templates computeKeysT, followPlacesT, maxDisplacement2T, haloDriftT, interactT,
// correctBoundariesT, pairsWithinT and countPairsWithinT (B befriends it when they are private).
template <class B>
class CellBackendFor : public CellBackend {
 public:
  void computeKeys(const ParticleView<float>& p) override { self().computeKeysT(p); }
  void computeKeys(const ParticleView<double>& p) override { self().computeKeysT(p); }
  void followPlaces(const ParticleView<float>& p, bool reset) override { self().followPlacesT(p, reset); }
  void followPlaces(const ParticleView<double>& p, bool reset) override { self().followPlacesT(p, reset); }
  double maxDisplacement2(const ParticleView<float>& p) override { return self().maxDisplacement2T(p); }
  double maxDisplacement2(const ParticleView<double>& p) override { return self().maxDisplacement2T(p); }
  float haloDrift(const ParticleView<float>& p) override { return self().haloDriftT(p); }
  float haloDrift(const ParticleView<double>& p) override { return self().haloDriftT(p); }
  void interact(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                const ForceOutputs<float>& out) override {
    self().interactT(p, c, out);
  }
  void interact(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                const ForceOutputs<double>& out) override {
    self().interactT(p, c, out);
  }
  void correctBoundaries(const ParticleView<float>& p, const PhysicsConstants<float>& c) override {
    self().correctBoundariesT(p, c);
  }
  void correctBoundaries(const ParticleView<double>& p, const PhysicsConstants<double>& c) override {
    self().correctBoundariesT(p, c);
  }
  void extrapolateInOut(const ParticleView<float>& p, const PhysicsConstants<float>& c,
                        const InOutExtrapolation& x) override {
    self().extrapolateInOutT(p, c, x);
  }
  void extrapolateInOut(const ParticleView<double>& p, const PhysicsConstants<double>& c,
                        const InOutExtrapolation& x) override {
    self().extrapolateInOutT(p, c, x);
  }
  std::vector<IndexPair> pairsWithin(const ParticleView<float>& p, double radius) const override {
    return self().pairsWithinT(p, radius);
  }
  std::vector<IndexPair> pairsWithin(const ParticleView<double>& p, double radius) const override {
    return self().pairsWithinT(p, radius);
  }
  uint64_t countPairsWithin(const ParticleView<float>& p, double radius) const override {
    return self().countPairsWithinT(p, radius);
  }
  uint64_t countPairsWithin(const ParticleView<double>& p, double radius) const override {
    return self().countPairsWithinT(p, radius);
  }

 private:
  B& self() { return static_cast<B&>(*this); }
  const B& self() const { return static_cast<const B&>(*this); }
};

// What savePlaces() writes before the places: how many, and the bytes of each (16: float, 32: double).
struct SavedPlacesHeader {
  uint32_t n = 0;
  uint32_t placeBytes = 0;
};
// The bytes of savePlaces() for `n` places of `placeBytes` each at `data`, and the check of
// restorePlaces() (returns the header; RunError when they do not hold whole places).
std::vector<uint8_t> packSavedPlaces(uint32_t n, uint32_t placeBytes, const void* data);
SavedPlacesHeader checkSavedPlaces(const std::vector<uint8_t>& bytes);

// Throws RunError: `what` was called without a prepare() on the same n particles.
[[noreturn]] void throwNotPrepared(const char* what, uint32_t n, uint32_t preparedN);

std::unique_ptr<CellBackend> makeCellCpuBackend(int threads);
// Defined in gpu/ with CUDA; in nogpu/ it throws RunError("built without CUDA").
std::unique_ptr<CellBackend> makeCellGpuBackend();

// Storage sizes grow by a quarter beyond what is needed, so a slowly growing particle count
// does not reallocate every step.
inline size_t withHeadroom(size_t needed) { return needed + needed / 4 + 256; }

}  // namespace sph::cell
