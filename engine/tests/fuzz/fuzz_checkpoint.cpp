// Fuzz target: any bytes as a checkpoint (OUT/checkpoint/checkpoint.bin). The reader must accept
// it or refuse it with an InputError naming the file, as must reading its header, its records and
// their sizes; a crash, a hang, an allocation of what a corrupt size claims or any other exception
// is a bug. Seeds: checkpoints written by a small run at the first input.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_target.h"
#include "output/checkpoint.h"
#include "sph/plugin/errors.h"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fs::path file = [] {
    const fs::path d = fs::temp_directory_path() / ("sph_fuzz_checkpoint_" + std::to_string(getpid()));
    fs::create_directories(d);
    return d / "checkpoint.bin";
  }();
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  try {
    const sph::CheckpointReader r(file);
    sph::CheckpointHeader other = r.header();
    other.caseHash ^= 1;  // what a resumption of another case compares, with its message
    try {
      r.requireMatch(other);
    } catch (const sph::InputError&) {
    }
    for (const std::string& name : r.names()) {
      (void)r.bytes(name);
      try {
        (void)r.value<uint64_t>(name);
      } catch (const sph::InputError&) {
      }
    }
  } catch (const sph::InputError&) {
  }
  return 0;
}
