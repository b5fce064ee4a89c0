// Where the running sph finds what is installed beside it: plugins in <bin>/../lib/sph/plugins
// (platform/plugin_loader.cpp) and the bundled materials in <bin>/../share/sph/materials
// (case/floating_reader.cpp), the layout `cmake --install` gives (engine/CMakeLists.txt).
#pragma once

#include <string>

namespace sph {

// The directory of the running executable; empty when /proc/self/exe cannot be read.
std::string executableDir();

// <executableDir>/../<relative>, normalised; empty when the executable's directory is unknown.
std::string besideExecutable(const std::string& relative);

}  // namespace sph
