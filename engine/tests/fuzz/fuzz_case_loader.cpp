// Fuzz target: any bytes as a DualSPHysics case file (_Def.xml), loaded and its parameters
// derived. The loader must load it or refuse it with an InputError naming the file; a crash, a
// hang or any other exception is a bug. The lattice is capped so that inputs stay fast.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "case/loader.h"
#include "fuzz_target.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "sph/plugin/errors.h"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("sph_fuzz_case_" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
  }();
  const fs::path file = dir / "Fuzz_Def.xml";
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data), std::streamsize(size));
  sph::LoadOptions o;
  o.maxLatticeNodes = 2000000;
  try {
    const sph::CaseDefinition c = sph::loadCase(file.string(), o);
    (void)sph::deriveParameters(c);
  } catch (const sph::InputError&) {
  }
  return 0;
}
