// Helpers for engine tests: temporary case files and running the sph binary.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "case/loader.h"
#include "model/case_model.h"
#include "run/simulation.h"
#include "sph/plugin/errors.h"

namespace sph::test {

// The temporary folders of one test process live under one root named after its pid, removed
// when the process ends. ctest runs each test in its own process, two at a time, and tests of one
// file share folder names: with one root for all, a test starting would wipe the files of a test
// still running (seen in CI as a case file gone between writing and loading it).
class ProcessTempRoot {
 public:
  ProcessTempRoot()
      : path_(std::filesystem::temp_directory_path() / ("sph_test_" + std::to_string(::getpid()))) {}
  ~ProcessTempRoot() {
    std::error_code ignored;  // leaving files behind in /tmp is no reason to fail a test run
    std::filesystem::remove_all(path_, ignored);
  }
  ProcessTempRoot(const ProcessTempRoot&) = delete;
  ProcessTempRoot& operator=(const ProcessTempRoot&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline const std::filesystem::path& processTempRoot() {
  static const ProcessTempRoot root;
  return root.path();
}

// An empty folder `name` under this process's root (emptied if a test of this process used it).
inline std::filesystem::path tempDir(const std::string& name) {
  const auto d = processTempRoot() / name;
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

inline std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The particle count of a legacy VTK file (its POINTS line).
inline uint64_t vtkPointCount(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("POINTS ", 0) == 0) return std::stoull(line.substr(7));
  throw std::runtime_error("no POINTS in " + file.string());
}

inline std::string writeFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text;
  return path.string();
}

// Loading the case file `path` (whose text is `xml`) must fail with an InputError whose message
// starts with "PATH:LINE:" (the line of `marker`) and names `element` and `text` ("": any).
inline void expectInputErrorAt(const std::string& path, const std::string& xml, const std::string& marker,
                               const std::string& element, const std::string& text = "") {
  try {
    sph::loadCase(path);
    FAIL() << "no error for " << element;
  } catch (const InputError& e) {
    const std::string msg = e.what();
    const std::string where = path + ":" + std::to_string(lineOf(xml, marker)) + ":";
    EXPECT_EQ(msg.rfind(where, 0), 0u) << msg << "\nexpected prefix " << where;
    EXPECT_NE(msg.find(element), std::string::npos) << msg;
    if (!text.empty()) {
      EXPECT_NE(msg.find(text), std::string::npos) << msg;
    }
  }
}

// The same for `xml` written as bad_Def.xml in a fresh folder named after `folder`.
inline void expectLoadError(const std::string& folder, const std::string& xml, const std::string& marker,
                            const std::string& element, const std::string& text) {
  expectInputErrorAt(writeFile(tempDir(folder) / "bad_Def.xml", xml), xml, marker, element, text);
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

// Runs the case `xml` (written to dir/case.xml) to its end on the CPU with output (no VTK) in
// dir/out; `last`, when given, receives the final state.
inline RunReport runCpuCase(const std::filesystem::path& dir, const std::string& xml, const std::string& neighbours,
                            ParticleSnapshot* last = nullptr) {
  const CaseDefinition c = loadCase(writeFile(dir / "case.xml", xml));
  RunOptions o;
  o.device = Device::Cpu;
  o.neighbours = neighbours;
  o.outDir = (dir / "out").string();
  o.writeVtk = false;
  o.progress = false;
  Simulation sim(c, o);
  const RunReport r = sim.run();
  if (last) *last = sim.snapshot();
  return r;
}

inline CommandResult runSph(const std::string& args) { return runCommand(std::string(SPH_BINARY_PATH) + " " + args); }

// runSph stopped after `seconds` (exit code 124 then, as timeout(1) gives): for inputs that could
// make the binary wait for ever, so that a test fails instead of hanging.
inline CommandResult runSphWithin(int seconds, const std::string& args) {
  return runCommand("timeout " + std::to_string(seconds) + " " + std::string(SPH_BINARY_PATH) + " " + args);
}

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
          <setdrawmode mode="full" />
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

// A small 2D tank (0.2 x 0.2 m of water, dp 0.02 m, walls bottom, left and right) with `special`
// inside <special> and the parameters `parameters`: for the features a <special> element turns on.
inline std::string smallTankWithSpecial(const std::string& special, const std::string& parameters) {
  std::string xml = caseXml(
      R"(<definition dp="0.02"><pointmin x="-0.1" y="0" z="-0.1" /><pointmax x="1" y="0" z="1" /></definition>)",
      R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="0.2" y="2" z="0.2" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right</boxfill><point x="0" y="-1" z="0" /><size x="0.4" y="2" z="0.3" /></drawbox>)",
      parameters);
  xml.insert(xml.find("    <parameters>"), "<special>" + special + "</special>\n");
  return xml;
}

// A small 3D dam break: a 0.2 x 0.2 x 0.3 m column of water in a 0.6 x 0.2 x 0.4 m box open at
// the top, particle spacing dp, with the parameters `parameters`.
inline std::string smallDamBreak3D(double dp, const std::string& parameters) {
  return caseXml(R"(<definition dp=")" + std::to_string(dp) +
                     R"("><pointmin x="-0.1" y="-0.1" z="-0.1" /><pointmax x="1" y="1" z="1" /></definition>)",
                 R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="0.2" y="0.2" z="0.3" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right | front | back</boxfill><point x="0" y="0" z="0" /><size x="0.6" y="0.2" z="0.4" /></drawbox>)",
                 parameters);
}

// A 2D tank without a right wall: the water runs off the end of the floor and leaves the
// domain steadily (exclusions, parking and compactions; PartsOutMax 1: losing most of it is the
// point). `stepParameters` picks the integrator.
inline std::string spillwayCase(const std::string& stepParameters, double timeMax) {
  return caseXml(
      R"(<definition dp="0.01"><pointmin x="-0.05" y="0" z="-0.05" /><pointmax x="1" y="0" z="1" /></definition>)",
      R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="0" z="0" /><size x="0.3" y="0" z="0.3" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left</boxfill><point x="0" y="-0.1" z="0" /><size x="0.4" y="0.2" z="0.4" /></drawbox>)",
      stepParameters + R"(<parameter key="Kernel" value="2" />
<parameter key="Visco" value="0.05" /><parameter key="DensityDT" value="1" /><parameter key="PartsOutMax" value="1" />
<parameter key="TimeMax" value=")" + std::to_string(timeMax) + R"(" /><parameter key="TimeOut" value="0.1" />)");
}

// One row of OUT/floating.csv: "time;mk;cx;cy;cz;vx;vy;vz;wx;wy;wz".
struct FloatingRow {
  double t;
  int mk;
  double c[3], v[3], w[3];
};

// All rows of a floating.csv (header skipped); throws on a missing file or a malformed row.
inline std::vector<FloatingRow> readFloatingCsv(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  std::string line;
  std::getline(in, line);
  std::vector<FloatingRow> rows;
  while (std::getline(in, line)) {
    std::stringstream ss(line);
    std::vector<double> v;
    for (std::string f; std::getline(ss, f, ';');) v.push_back(std::stod(f));
    if (v.size() != 11) throw std::runtime_error(path.string() + ": a row without 11 fields: " + line);
    rows.push_back({v[0], int(v[1]), {v[2], v[3], v[4]}, {v[5], v[6], v[7]}, {v[8], v[9], v[10]}});
  }
  return rows;
}

}  // namespace sph::test
