#include "platform/install_paths.h"

#include <unistd.h>

#include <filesystem>

namespace sph {

std::string executableDir() {
  char buf[4096];
  const ssize_t len = readlink("/proc/self/exe", buf, sizeof(buf) - 1);
  if (len <= 0) return {};
  buf[len] = '\0';
  return std::filesystem::path(buf).parent_path().string();
}

std::string besideExecutable(const std::string& relative) {
  const std::string exe = executableDir();
  if (exe.empty()) return {};
  return (std::filesystem::path(exe) / ".." / relative).lexically_normal().string();
}

}  // namespace sph
