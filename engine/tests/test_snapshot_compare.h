// Compares two snapshots of the same case particle by particle (matched by id, since runs with
// different devices or neighbour searches order particles differently).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>

#include "output/output.h"
#include "run/simulation.h"

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

// The case after `steps` steps on the GPU and on the CPU with the options `o` (its device aside):
// only the order of the neighbour sums differs between the two (what the host computes, motion
// and inputs, is applied identically), so the states agree to a few float roundings per step in
// single precision and to round-off in double. `label` names the setup in the printed line.
inline void expectGpuMatchesCpu(const CaseDefinition& c, RunOptions o, int steps, const std::string& label) {
  o.device = Device::Gpu;
  const ParticleSnapshot g = runSteps(c, o, steps);
  o.device = Device::Cpu;
  const ParticleSnapshot h = runSteps(c, o, steps);
  ASSERT_EQ(g.count(), h.count());
  const bool dbl = o.precision == Precision::Double;
  const StateDifferences d = compareById(g, h);
  std::printf("%s: max differences %.3g m, %.3g m/s, %.3g kg/m3\n", label.c_str(), d.pos, d.vel, d.rho);
  EXPECT_LT(d.pos, dbl ? 1e-10 : 2e-5);
  EXPECT_LT(d.vel, dbl ? 1e-8 : 2e-3);
  EXPECT_LT(d.rho, dbl ? 1e-6 : 5e-2);
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

// A single-precision GPU run that computes each pair once against the same run with every pair
// twice, after a few steps on a large case: equal but for the order of the sums (a few ulps of the
// state), far below what a neighbour missed or taken twice changes (tests that use it say how
// much).
inline void expectOnceMatchesTwice(const FinishedRun& once, const FinishedRun& twice) {
  const StateDifferences d = compareById(once.state, twice.state);
  std::printf("%llu fluid particles, once against twice: %.3g m, %.3g m/s, %.3g kg/m3\n",
              static_cast<unsigned long long>(once.report.nFluid), d.pos, d.vel, d.rho);
  EXPECT_LT(d.pos, 1e-6);
  EXPECT_LT(d.vel, 1e-4);
  EXPECT_LT(d.rho, 1e-2);
}

}  // namespace sph::test
