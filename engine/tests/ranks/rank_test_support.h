// Helpers of the tests every rank runs (engine/tests/ranks).
#pragma once

#include <unistd.h>

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "parallel/communicator.h"

namespace sph::test {

// The same folder on every rank: rank 0's temporary one, emptied.
inline std::string sharedTempDir(const std::string& name) {
  const parallel::Communicator& world = parallel::Communicator::world();
  std::string path;
  if (world.rank() == 0) {
    path = (std::filesystem::temp_directory_path() / fmt::format("sph_ranks_{}_{}", name, ::getpid())).string();
    std::filesystem::remove_all(path);
  }
  const std::vector<uint8_t> all = world.gatherBytes(std::vector<uint8_t>(path.begin(), path.end()));
  return std::string(all.begin(), all.end());
}

}  // namespace sph::test
