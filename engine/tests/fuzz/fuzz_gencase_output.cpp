// Fuzz target: any bytes as GenCase's particle file (CASE.bi4) beside a valid CASE.xml (the 2D
// dam break fixture). The reader must load it or refuse it with an InputError naming the file;
// a crash, a hang, an allocation of what a corrupt header claims, or any other exception is a bug.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "case/loader.h"
#include "fuzz_target.h"
#include "model/case_model.h"
#include "sph/plugin/errors.h"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("sph_fuzz_bi4_" + std::to_string(getpid()));
    fs::create_directories(d);
    fs::copy_file(fs::path(SPH_SOURCE_DIR) / "engine/tests/data/gencase/DamBreak2D.xml", d / "DamBreak2D.xml",
                  fs::copy_options::overwrite_existing);
    return d;
  }();
  std::ofstream(dir / "DamBreak2D.bi4", std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  try {
    (void)sph::loadCase((dir / "DamBreak2D.xml").string());
  } catch (const sph::InputError&) {
  }
  return 0;
}
