// Run output: particle snapshots in legacy VTK for ParaView and the end-of-run report (JSON
// file plus the phase table printed to the terminal). Every file is written to `path + ".tmp"`
// and renamed into place, so an interrupted run never leaves a truncated file under the final
// name. I/O failures throw sph::RunError naming the file.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace sph {

// One output time, copied to the host. Positions stay double so double-precision runs keep
// their resolution until the writer decides what to store; the rest is float.
struct ParticleSnapshot {
  double time = 0;
  std::vector<double> pos;     // 3n: x0 y0 z0 x1 ...
  std::vector<float> vel;      // 3n
  std::vector<float> rho;      // n
  std::vector<float> press;    // n
  std::vector<uint8_t> type;   // n: 0 boundary, 1 fluid
  std::vector<int32_t> mk;     // n
  std::vector<uint32_t> id;    // n: the particle's original number (Idp)

  size_t count() const { return rho.size(); }
};

// Precision of the POINTS array in the VTK file. Float is what DualSPHysics writes (half the
// size); Double keeps a double-precision run's positions exact.
enum class VtkPositionType { Float, Double };

// Legacy VTK (version 3.0) binary POLYDATA, big-endian as the format requires: POINTS,
// VERTICES (one per particle) and POINT_DATA arrays Vel (3 components), Rhop, Press, Type,
// Mk, Idp (Vel as VECTORS, the rest as one FIELD block). The title line records the time.
// Creates missing parent directories. Throws std::invalid_argument when the arrays' sizes
// disagree.
void writeVtkParticles(const std::string& path, const ParticleSnapshot& s,
                       VtkPositionType posType = VtkPositionType::Float);

// Where the bytes of a VTK file go: `bytes` bytes at `data` to byte `offset` of the file.
using VtkByteSink = std::function<void(uint64_t offset, const void* data, size_t bytes)>;
// The bytes writeVtkParticles writes, for a file of `total` particles of which s holds those from
// index `first` on (several ranks each write their own particles into one file): the headers when
// `headers` (one writer gives them) and s's values, each where the whole file has it. Returns the
// file's size, the same for every writer of the file. Throws std::invalid_argument as
// writeVtkParticles does, and when s's particles do not lie within the total.
uint64_t encodeVtkParticles(const ParticleSnapshot& s, uint64_t first, uint64_t total, VtkPositionType posType,
                            bool headers, const VtkByteSink& write);

struct PhaseTime {
  std::string name;   // DualSPHysics-style, e.g. "NL-RadixSort"
  std::string group;  // "sort" | "list" | "interaction" | "other" (phaseGroupName)
  double seconds = 0;
  uint64_t calls = 0;
};

struct RunReport {
  std::string caseName, casePath, strategy, precision, device, deviceName;
  std::string status;  // "completed" | "failed"
  std::string error;   // empty when none (written as null)
  uint64_t nBound = 0, nFluid = 0, nTotal = 0, steps = 0;
  uint64_t excluded = 0, excludedOutOfDomain = 0, excludedDensity = 0;
  double simulatedTime = 0, wallSeconds = 0, nsPerParticleStep = 0;
  uint64_t peakDeviceBytes = 0;
  std::vector<PhaseTime> phases;
  std::map<std::string, double> strategyStats;
  std::map<std::string, std::string> extra;
  // Every parameter and constant the run used: name, value and where it came from
  // (SimParameters::provenance), and the warnings about the case.
  struct Parameter {
    std::string name, value, source;
  };
  std::vector<Parameter> parameters;
  std::vector<std::string> warnings;
};

// The report as a JSON object (keys in snake_case; non-finite numbers as null; a phase's
// `share` is its fraction of the summed phase seconds).
std::string runReportJson(const RunReport& r);

void writeRunReport(const std::string& path, const RunReport& r);

// The table printed at the end of a run: one line per phase (ordered by group, then as
// recorded), then the totals of the groups sort, list, interaction, other, and the total.
// The strategy's statistics (RunReport::strategyStats), one "name value" line each, for the
// printed end-of-run report; empty when there are none.
std::string strategyStatsText(const RunReport& r);
std::string phaseTable(const RunReport& r);

// Writes `text` to `path + ".tmp"` and renames it to `path`; creates missing parent
// directories. Throws RunError naming the file on failure.
void writeTextFileAtomic(const std::string& path, std::string_view text);

}  // namespace sph
