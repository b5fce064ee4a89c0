// The run report (output/output.h, RunReport) of a simulation: what is known at the start (case,
// strategy, device, particles) and what the end adds (status, steps, exclusions, phases, the
// strategy's statistics, memory, the compute time without output).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "output/output.h"
#include "run/run_output.h"
#include "run/simulation_core.h"

namespace sph {

// "parameters 0.01 s, device arrays 0.52 s, ...": the set-up's parts (Impl::setupPhases).
std::string setupPhaseSummary(const std::vector<std::pair<std::string, double>>& phases);

RunReport startReport(const Simulation::Impl& s);

// Completes `r` at the end of a run ("completed" or "failed", with the error). Never throws for
// what the strategy or the timers cannot give: their first error goes into r.error.
void completeReport(RunReport& r, const Simulation::Impl& s, const RunOutput& output, const std::string& status,
                    const std::string& error, double wallSeconds);

}  // namespace sph
