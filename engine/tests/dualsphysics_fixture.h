// Reading the DualSPHysics outputs committed as fixtures (engine/tests/data/dualsphysics, made by
// tools/dualsphysics/make_fixtures.py) and matching their particles with ours.
#pragma once

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "output/output.h"
#include "run/simulation.h"

namespace sph::test {

// Options of a run that writes nothing and times nothing (the agreement tests read its state).
inline RunOptions silentRun(Device device, const std::string& neighbours, Precision precision) {
  RunOptions o;
  o.device = device;
  o.neighbours = neighbours;
  o.precision = precision;
  o.writeOutput = false;
  o.progress = false;
  o.phaseTimers = false;
  return o;
}

// Options of a whole run on the GPU with its output files (run.json, gauges, floating.csv) in
// outDir but no VTK parts, as the whole-run comparisons with DualSPHysics need.
inline RunOptions gpuRunWithOutputs(const std::string& neighbours, const std::string& outDir) {
  RunOptions o;
  o.device = Device::Gpu;
  o.neighbours = neighbours;
  o.outDir = outDir;
  o.writeVtk = false;
  o.progress = false;
  return o;
}

inline std::string dualsphysicsData(const std::string& file) {
  return std::string(SPH_SOURCE_DIR) + "/engine/tests/data/dualsphysics/" + file;
}

// The ';'-separated numeric rows of a fixture file, after its comment and header lines.
inline std::vector<std::vector<double>> readFixtureRows(const std::string& path, size_t columns) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open fixture " + path);
  std::vector<std::vector<double>> rows;
  std::string line;
  bool header = false;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    if (!header) {  // the column names
      header = true;
      continue;
    }
    std::vector<double> v;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ';');) v.push_back(std::stod(f));
    if (v.size() != columns) throw std::runtime_error(path + ": a row without " + std::to_string(columns) + " fields");
    rows.push_back(std::move(v));
  }
  return rows;
}

// DualSPHysics' time after each step (index = step; [0] = 0).
inline std::vector<double> readStepTimes(const std::string& path) {
  std::vector<double> t;
  for (const auto& r : readFixtureRows(path, 2)) {
    if (size_t(r[0]) != t.size()) throw std::runtime_error(path + ": steps out of order");
    t.push_back(r[1]);
  }
  return t;
}

struct FixtureParticle {
  double pos[3], vel[3], rho;
};

// DualSPHysics' particles by their id (Idp).
inline std::map<uint32_t, FixtureParticle> readState(const std::string& path) {
  std::map<uint32_t, FixtureParticle> s;
  for (const auto& r : readFixtureRows(path, 8)) s[uint32_t(r[0])] = {{r[1], r[2], r[3]}, {r[4], r[5], r[6]}, r[7]};
  return s;
}

// Our particle id -> DualSPHysics' id, matched by the initial positions (both generators put
// the particles on the same lattice points; a micrometre grid is far below dp). A fixture may
// hold every k-th particle only (subset): then ours without a twin are left out.
inline std::map<uint32_t, uint32_t> matchIds(const ParticleSnapshot& ours, const std::map<uint32_t, FixtureParticle>& ds,
                                             bool subset = false) {
  auto key = [](const double* p) {
    return std::make_tuple(std::llround(p[0] * 1e6), std::llround(p[1] * 1e6), std::llround(p[2] * 1e6));
  };
  std::map<std::tuple<long long, long long, long long>, uint32_t> byPos;
  for (const auto& [id, p] : ds) byPos[key(p.pos)] = id;
  std::map<uint32_t, uint32_t> m;
  for (size_t i = 0; i < ours.count(); ++i) {
    const auto it = byPos.find(key(&ours.pos[3 * i]));
    if (it != byPos.end())
      m[ours.id[i]] = it->second;
    else if (!subset)
      throw std::runtime_error("particle " + std::to_string(ours.id[i]) + " has no DualSPHysics twin");
  }
  if (m.size() != ds.size()) throw std::runtime_error("particles of the fixture have no twin among ours");
  if (!subset && ours.count() != ds.size()) throw std::runtime_error("the particle counts differ from DualSPHysics'");
  return m;
}

// The largest differences between our state and DualSPHysics' over one kind of particle.
// Position differences are counted beyond roundRel |x| per coordinate: the rounding of positions
// stored in float (DualSPHysics' parts, half an ulp: 2^-24 |x|), and of single-precision runs,
// which keep positions in float where DualSPHysics keeps them in double (half an ulp per step).
struct StateDifference {
  double pos = 0, vel = 0, rho = 0;
};

// The kinds of ParticleSnapshot::type.
enum class Kind : uint8_t { Walls = 0, Fluid = 1, Bodies = 2 };
inline const char* kindName(Kind k) { return k == Kind::Walls ? "walls" : k == Kind::Fluid ? "fluid" : "bodies"; }

inline StateDifference compareState(const ParticleSnapshot& ours, const std::map<uint32_t, FixtureParticle>& ds,
                                    const std::map<uint32_t, uint32_t>& ids, Kind kind, double roundRel = 0) {
  StateDifference d;
  for (size_t i = 0; i < ours.count(); ++i) {
    if (ours.type[i] != uint8_t(kind)) continue;
    const auto twin = ids.find(ours.id[i]);
    if (twin == ids.end()) continue;  // not in a subset fixture
    const FixtureParticle& p = ds.at(twin->second);
    for (int k = 0; k < 3; ++k) {
      d.pos = std::max(d.pos, std::abs(ours.pos[3 * i + k] - p.pos[k]) - roundRel * std::abs(p.pos[k]));
      d.vel = std::max(d.vel, std::abs(double(ours.vel[3 * i + k]) - p.vel[k]));
    }
    d.rho = std::max(d.rho, std::abs(double(ours.rho[i]) - p.rho));
  }
  return d;
}

}  // namespace sph::test
