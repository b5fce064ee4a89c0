// Helpers for engine tests: temporary case files and running the sph binary.
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/wait.h>

namespace sph::test {

inline std::filesystem::path tempDir(const std::string& name) {
  const auto d = std::filesystem::temp_directory_path() / ("sph_test_" + name);
  std::filesystem::remove_all(d);
  std::filesystem::create_directories(d);
  return d;
}

// The 1-based line of the first occurrence of `needle` in `text` (0 when absent, which no
// message names, so a check against it fails).
inline int lineOf(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  if (at == std::string::npos) return 0;
  int line = 1;
  for (size_t i = 0; i < at; ++i) line += text[i] == '\n';
  return line;
}

inline std::string writeFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

struct CommandResult {
  int exitCode = -1;
  std::string output;  // stdout and stderr together
};

inline CommandResult runCommand(const std::string& cmd) {
  CommandResult r;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int status = pclose(p);
  r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

inline CommandResult runSph(const std::string& args) { return runCommand(std::string(SPH_BINARY_PATH) + " " + args); }

// A DualSPHysics case with the given mainlist commands and parameters (2D when y0 == y1).
inline std::string caseXml(const std::string& definition, const std::string& commands, const std::string& parameters,
                           const std::string& constants = "") {
  return R"(<?xml version="1.0" encoding="UTF-8" ?>
<case>
  <casedef>
    <constantsdef>
      <gravity x="0" y="0" z="-9.81" />
      <rhop0 value="1000" />
      <rhopgradient value="2" />
      <hswl value="0" auto="true" />
      <gamma value="7" />
      <speedsystem value="0" auto="true" />
      <coefsound value="20" />
      <speedsound value="0" auto="true" />
      <coefh value="1.0" />
      <cflnumber value="0.2" />
)" + constants + R"(
    </constantsdef>
    <mkconfig boundcount="240" fluidcount="9" />
    <geometry>
)" + definition + R"(
      <commands>
        <mainlist>
)" + commands + R"(
        </mainlist>
      </commands>
    </geometry>
  </casedef>
  <execution>
    <parameters>
)" + parameters + R"(
    </parameters>
  </execution>
</case>
)";
}

}  // namespace sph::test
