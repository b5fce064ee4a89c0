// The cell-list geometry option (DualSPHysics' -cellmode): cells of the full support 2h scanned
// 3 per axis, or cells of h scanned 5 per axis (smaller candidate volume, more ranges).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sph/plugin/neighbour_strategy.h"

namespace sph::cell {

enum class CellMode { Full, Half };

// Cells per support radius along one axis (1 for Full, 2 for Half); also the number of
// neighbour cells scanned on each side of a particle's own cell.
inline int cellsPerSupport(CellMode m) { return m == CellMode::Half ? 2 : 1; }

inline const char* cellModeName(CellMode m) { return m == CellMode::Half ? "half" : "full"; }

// Reads options["CellMode"]: "full" (default; also "2h") or "half" (also "h"), any case.
// Throws InputError for anything else.
CellMode parseCellMode(const std::map<std::string, std::string>& options);

// Reads options["CellRows"]: "reachable" (default: rows and cells beyond the support are
// skipped, see cell_iteration.h) or "all" (DualSPHysics' full rows). Throws InputError otherwise.
bool parseTrimRows(const std::map<std::string, std::string>& options);

// Where a force pass can compute each pair once: on the GPU in single precision (float4
// atomics), on the CPU in both (pair_once_cpu.h: no atomics).
inline bool pairsOnceRuns(Device device, Precision precision) {
  return device == Device::Cpu || precision == Precision::Single;
}

// Whether a run takes each pair once, given what its option (CellPairs, VerletPairs) says and
// whether it was given: once is the GPU's default; the CPU's pass is taken only when asked for.
// Its sums differ from every pair twice by rounding, in an order that follows the thread count,
// and marginal single-precision cases feel it: an inlet/outlet channel with an extrapolated inlet
// velocity (which DualSPHysics advises against) diverged on 2 threads, not on 1 or 3 nor in
// double precision. The CPU's default keeps the order that agrees with DualSPHysics' runs.
inline bool pairsOnceAsked(bool saysOnce, bool given, Device device) {
  return saysOnce && (given || device == Device::Gpu);
}

// Reads options["CellPairs"]: "once" (default: plain passes compute each pair once where
// pairsOnceRuns, gpu/pair_once.cuh and pair_once_cpu.h) or "twice" (every pair from both of its
// particles, in a fixed order: runs that repeat bit for bit). Throws InputError otherwise.
bool parsePairsOnce(const std::map<std::string, std::string>& options);

// Bytes a particle of what a pair-once pass keeps beside its outputs (at most).
double pairOnceScratchBytes(const MemoryQuery& q);

// CellPairs as a strategy option: the cell plugin's (the Verlet plugin gives its cell search
// its own VerletPairs).
StrategyOption cellPairsOption();

// CellMode and CellRows as strategy options, for the strategies that run the cell search.
std::vector<StrategyOption> cellSearchOptions();

// What the cell search holds for `q.particles` particles (its keys and indices, double-buffered
// for the radix sort): 16 bytes a particle, and at most 8 more for the pair-once passes' diffusion
// sums (GPU, single precision, CellPairs once; held only where walls can switch the diffusion off).
MemoryNeed cellSearchMemory(const MemoryQuery& q);

}  // namespace sph::cell
