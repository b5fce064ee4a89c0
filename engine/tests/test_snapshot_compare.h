// Compares two snapshots of the same case particle by particle (matched by id, since runs with
// different devices or neighbour searches order particles differently).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "sph/output.h"
#include "sph/simulation.h"

namespace sph::test {

struct StateDifferences {
  double pos = 0, vel = 0, rho = 0;  // largest |difference| of any component
};

inline StateDifferences compareById(const ParticleSnapshot& a, const ParticleSnapshot& b) {
  EXPECT_EQ(a.count(), b.count());
  std::map<uint32_t, size_t> byId;
  for (size_t i = 0; i < b.count(); ++i) byId[b.id[i]] = i;
  StateDifferences d;
  for (size_t i = 0; i < a.count(); ++i) {
    const auto it = byId.find(a.id[i]);
    if (it == byId.end()) {
      ADD_FAILURE() << "particle " << a.id[i] << " is missing from the second snapshot";
      continue;
    }
    const size_t j = it->second;
    for (int k = 0; k < 3; ++k) {
      d.pos = std::max(d.pos, std::abs(a.pos[3 * i + k] - b.pos[3 * j + k]));
      d.vel = std::max(d.vel, double(std::abs(a.vel[3 * i + k] - b.vel[3 * j + k])));
    }
    d.rho = std::max(d.rho, double(std::abs(a.rho[i] - b.rho[j])));
  }
  return d;
}

// Runs `steps` steps (no output files) and returns the final state.
inline ParticleSnapshot runSteps(const CaseDefinition& c, RunOptions o, int steps) {
  o.maxSteps = steps;
  o.writeOutput = false;
  o.progress = false;
  Simulation sim(c, o);
  while (!sim.finished()) sim.step();
  return sim.snapshot();
}

// A whole run (to TimeMax or o.maxSteps) without files or progress line: its report and its
// final state.
struct FinishedRun {
  RunReport report;
  ParticleSnapshot state;
};
inline FinishedRun runQuietly(const CaseDefinition& c, RunOptions o) {
  o.writeOutput = false;
  o.progress = false;
  Simulation sim(c, o);
  FinishedRun r;
  r.report = sim.run();
  r.state = sim.snapshot();
  return r;
}

}  // namespace sph::test
