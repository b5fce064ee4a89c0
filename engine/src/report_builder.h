// The run report (sph/output.h, RunReport) of a simulation: what is known at the start (case,
// strategy, device, particles) and what the end adds (status, steps, exclusions, phases, the
// strategy's statistics, memory, the compute time without output).
#pragma once

#include <string>

#include "run_output.h"
#include "simulation_core.h"
#include "sph/output.h"

namespace sph {

RunReport startReport(const Simulation::Impl& s);

// Completes `r` at the end of a run ("completed" or "failed", with the error). Never throws for
// what the strategy or the timers cannot give: their first error goes into r.error.
void completeReport(RunReport& r, const Simulation::Impl& s, const RunOutput& output, const std::string& status,
                    const std::string& error, double wallSeconds);

}  // namespace sph
