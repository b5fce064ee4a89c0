#include "run/report_builder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "platform/gpu_runtime.h"

namespace sph {

std::string setupPhaseSummary(const std::vector<std::pair<std::string, double>>& phases) {
  std::string text;
  for (const auto& [name, seconds] : phases) text += fmt::format("{}{} {:.2f} s", text.empty() ? "" : ", ", name, seconds);
  return text;
}

RunReport startReport(const Simulation::Impl& s) {
  RunReport r;
  r.caseName = s.name();
  r.casePath = s.path();
  r.strategy = s.pluginInfo().name;
  r.precision = precisionName(s.options().precision);
  r.device = deviceName(s.where());
  r.deviceName = s.where() == Device::Gpu ? gpu::deviceDescription() : "CPU (OpenMP)";
  r.nBound = s.boundInitially();
  r.nFluid = s.fluidInitially();
  r.nTotal = s.boundInitially() + s.fluidInitially();
  for (const SimParameters::Provenance& u : s.params().provenance) r.parameters.push_back({u.name, u.value, u.source});
  r.warnings = s.params().warnings;
  return r;
}

void completeReport(RunReport& r, const Simulation::Impl& s, const RunOutput& output, const std::string& status,
                    const std::string& error, double wallSeconds) {
  r.status = status;
  r.error = error;
  r.wallSeconds = wallSeconds;
  r.steps = s.stepsDone();
  r.simulatedTime = s.now();
  r.excluded = s.exclusions().total();
  r.excludedOutOfDomain = s.exclusions().outOfDomain;
  r.excludedDensity = s.exclusions().density;
  try {
    for (const PhaseTotal& t : s.phaseTimer().totals())
      r.phases.push_back({t.name, phaseGroupName(t.group), t.seconds, t.calls});
    r.strategyStats = s.neighbours().stats();
    r.peakDeviceBytes = s.engineDeviceBytes() + s.neighbours().peakDeviceBytes();
  } catch (const std::exception& e) {
    if (r.error.empty()) r.error = e.what();
  }
  const double computeSeconds = r.wallSeconds - output.outputSeconds();
  // A resumed run's wall time is this process's: so are the particle-steps it is divided by.
  const uint64_t particleSteps = s.particleStepCount() - s.firstParticleSteps();
  r.nsPerParticleStep = particleSteps ? computeSeconds * 1e9 / double(particleSteps) : 0;
  r.extra["wall_seconds_excluding_output"] = fmt::format("{:.6f}", computeSeconds);
  r.extra["phase_timers"] = s.options().phaseTimers ? "on" : "off";
  r.extra["step_graphs"] = s.stepGraphSummary();
  r.extra["dt_min_hits"] = fmt::format("{}", s.dtMinHitCount());
  r.extra["exclusion_compactions"] = fmt::format("{}", s.compactionCount());
  r.extra["output_parts"] = fmt::format("{}", output.parts());
  r.extra["checkpoints"] = fmt::format("{}", output.checkpoints());
  if (s.firstStep() > 0) r.extra["resumed_at_step"] = fmt::format("{}", s.firstStep());
  r.extra["plugin_path"] = s.pluginInfo().path;
  r.extra["step_algorithm"] = s.params().stepAlgorithm == 2 ? "symplectic" : "verlet";
  r.extra["setup_seconds"] = fmt::format("{:.3f}", s.setupSeconds());
  r.extra["setup_phases"] = setupPhaseSummary(s.setupPhases());
  if (s.deviceFreeAtStart > 0) r.extra["device_free_bytes_at_start"] = fmt::format("{:.0f}", s.deviceFreeAtStart);
  r.extra["kernel"] = s.params().kernel == KernelKind::Cubic ? "cubic" : "wendland";
  r.extra["ranks"] = fmt::format("{}", s.communicator().size());
  if (const RankExchangeTotals* x = s.rankExchangeTotals()) {
    // Rank 0's (the report is its): the phases MPI-Migrate and MPI-Halo time the same exchanges.
    r.extra["rank0_exchanges"] = fmt::format("{}", x->exchanges);
    r.extra["rank0_halo_refreshes"] = fmt::format("{}", x->refreshes);
    r.extra["rank0_overlapped_refreshes"] = fmt::format("{}", x->splitPasses);
    r.extra["rank0_mean_halo_particles"] =
        fmt::format("{:.1f}", x->exchanges ? double(x->haloParticles) / double(x->exchanges) : 0.0);
    r.extra["rank0_particles_migrated_in"] = fmt::format("{}", x->migrated);
    r.extra["rank0_bytes_sent"] = fmt::format("{}", x->bytesSent);
    r.extra["rank_rebalances"] = fmt::format("{}", x->rebalances);
    r.extra["rank_rebalance_checks"] = fmt::format("{}", x->rebalanceChecks);
    if (!x->rankBusySeconds.empty())
      r.extra["rank_force_pass_seconds"] = fmt::format("{:.4f}", fmt::join(x->rankBusySeconds, " "));
    r.extra["rank0_exchange_array_seconds"] = fmt::format("{:.6f}", x->arraySeconds);
    r.extra["rank0_exchange_staging_seconds"] = fmt::format("{:.6f}", x->stagingSeconds);
    r.extra["rank0_exchange_mpi_wait_seconds"] = fmt::format("{:.6f}", x->mpiWaitSeconds);
    if (x->timedTransfers > 0) {
      r.extra["rank0_halo_transfers_timed"] = std::to_string(x->timedTransfers);
      r.extra["rank0_halo_transfer_ms_mean"] = fmt::format("{:.4f}", 1e3 * x->transferSeconds / x->timedTransfers);
      r.extra["rank0_halo_transfer_exposed_ms_mean"] =
          fmt::format("{:.4f}", 1e3 * x->transferExposedSeconds / x->timedTransfers);
    }
    r.extra["rank0_exchange_mpi_seconds"] = fmt::format("{:.6f}", x->mpiSeconds);
  }
  if (const InOutTotals* io = s.inOutTotals()) {
    r.extra["inout_initial"] = fmt::format("{}", io->initial);
    r.extra["inout_created"] = fmt::format("{}", io->created);
    r.extra["inout_inflow"] = fmt::format("{}", io->inflow);
    r.extra["inout_outflow"] = fmt::format("{}", io->outflow);
    r.extra["inout_removed"] = fmt::format("{}", io->removed);
    r.extra["inout_array_growths"] = fmt::format("{}", io->growths);
    r.extra["particles_final"] = fmt::format("{}", s.particlesNow());
  }
}

}  // namespace sph
