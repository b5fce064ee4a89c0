// Reading a case: DualSPHysics' XML (a _Def.xml to generate, or GenCase's output beside its .bi4)
// into a CaseDefinition.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/case_model.h"

namespace sph {

struct LoadOptions {
  std::optional<double> dpOverride;  // replaces definition/dp (benchmark ladders)
  // The most lattice nodes the geometry may span (0: as many as memory allows): an input error
  // beyond, so that tools feeding arbitrary files (the fuzz targets) stay small and fast.
  uint64_t maxLatticeNodes = 0;
  // Host bytes a particle of the run to come will take beyond the case's own (run/memory_estimate.h,
  // runHostBytesPerParticle): the generator's refusals then name a dp at which the run fits too.
  double runHostBytesPerParticle = 0;
};

// Parses the XML, generates particles and resolves the domain. Throws InputError naming the
// file, line and element on any problem.
CaseDefinition loadCase(const std::string& path, const LoadOptions& opts = {});

}  // namespace sph
