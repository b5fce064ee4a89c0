// VTK snapshot writer and run report (output/output.h).
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "output/output.h"
#include "sph/plugin/errors.h"

namespace fs = std::filesystem;
using namespace sph;

namespace {

fs::path scratchDir(const std::string& name) {
  fs::path d = fs::path(::testing::TempDir()) / ("sph_test_output_" + std::to_string(::getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string readFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

ParticleSnapshot threeParticles() {
  ParticleSnapshot s;
  s.time = 0.25;
  s.pos = {0.0, 0.0, 0.0, 1.5, -2.0, 3.0, 0.125, 0.5, 0.75};
  s.vel = {0, 0, 0, 1, 2, 3, -1, -2, -3};
  s.rho = {1000.f, 1001.5f, 999.f};
  s.press = {0.f, 10.f, -5.f};
  s.type = {0, 1, 1};
  s.mk = {11, 1, 1};
  s.id = {0, 1, 2};
  return s;
}

// Walks a legacy VTK file: each keyword line, then the binary block whose size the keyword
// implies, then the newline after it. Records the offset of each block's data.
struct VtkSections {
  std::vector<std::string> headerLines;  // the four lines before POINTS
  std::map<std::string, size_t> dataOffset;
  std::map<std::string, std::string> keywordLine;
  size_t endOffset = 0;
};

VtkSections parseVtk(const std::string& bytes, size_t n, size_t pointBytes) {
  VtkSections v;
  size_t at = 0;
  auto nextLine = [&] {
    const size_t e = bytes.find('\n', at);
    EXPECT_NE(e, std::string::npos);
    std::string l = bytes.substr(at, e - at);
    at = e + 1;
    return l;
  };
  auto block = [&](const std::string& key, const std::string& line, size_t size) {
    v.keywordLine[key] = line;
    v.dataOffset[key] = at;
    at += size;
    EXPECT_LT(at, bytes.size() + 1);
    if (at < bytes.size()) {
      EXPECT_EQ(bytes[at], '\n') << "after " << key;
    }
    ++at;
  };
  for (int k = 0; k < 4; ++k) v.headerLines.push_back(nextLine());
  block("POINTS", nextLine(), 3 * n * pointBytes);
  block("VERTICES", nextLine(), 2 * n * 4);
  v.keywordLine["POINT_DATA"] = nextLine();
  block("Vel", nextLine(), 3 * n * 4);
  v.keywordLine["FIELD"] = nextLine();
  const std::pair<const char*, size_t> fields[] = {{"Rhop", 4}, {"Press", 4}, {"Type", 1}, {"Mk", 4}, {"Idp", 4}};
  for (const auto& [name, size] : fields) block(name, nextLine(), n * size);
  v.endOffset = at;
  return v;
}

uint32_t bigEndianU32(const std::string& bytes, size_t at) {
  uint32_t u = 0;
  for (int k = 0; k < 4; ++k) u = (u << 8) | static_cast<unsigned char>(bytes[at + k]);
  return u;
}

float bigEndianFloat(const std::string& bytes, size_t at) {
  const uint32_t u = bigEndianU32(bytes, at);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

}  // namespace

TEST(VtkWriter, WritesLegacyBinaryPolydata) {
  const fs::path dir = scratchDir("vtk");
  const std::string path = (dir / "vtk" / "Part0001.vtk").string();  // parent is created
  writeVtkParticles(path, threeParticles());

  ASSERT_TRUE(fs::exists(path));
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  const std::string bytes = readFile(path);
  const VtkSections v = parseVtk(bytes, 3, 4);
  EXPECT_EQ(v.headerLines[0], "# vtk DataFile Version 3.0");
  EXPECT_NE(v.headerLines[1].find("time=0.25"), std::string::npos);
  EXPECT_EQ(v.headerLines[2], "BINARY");
  EXPECT_EQ(v.headerLines[3], "DATASET POLYDATA");
  EXPECT_EQ(v.keywordLine.at("POINTS"), "POINTS 3 float");
  EXPECT_EQ(v.keywordLine.at("VERTICES"), "VERTICES 3 6");
  EXPECT_EQ(v.keywordLine.at("POINT_DATA"), "POINT_DATA 3");
  EXPECT_EQ(v.keywordLine.at("Vel"), "VECTORS Vel float");
  EXPECT_EQ(v.keywordLine.at("FIELD"), "FIELD FieldData 5");
  EXPECT_EQ(v.keywordLine.at("Rhop"), "Rhop 1 3 float");
  EXPECT_EQ(v.keywordLine.at("Press"), "Press 1 3 float");
  EXPECT_EQ(v.keywordLine.at("Type"), "Type 1 3 unsigned_char");
  EXPECT_EQ(v.keywordLine.at("Mk"), "Mk 1 3 int");
  EXPECT_EQ(v.keywordLine.at("Idp"), "Idp 1 3 unsigned_int");
  EXPECT_EQ(v.endOffset, bytes.size());

  // 1.5f is 0x3FC00000; big-endian puts 0x3F first.
  const size_t x1 = v.dataOffset.at("POINTS") + 3 * 4;
  EXPECT_EQ(static_cast<unsigned char>(bytes[x1]), 0x3F);
  EXPECT_EQ(static_cast<unsigned char>(bytes[x1 + 1]), 0xC0);
  EXPECT_EQ(bigEndianFloat(bytes, x1), 1.5f);
  EXPECT_EQ(bigEndianFloat(bytes, x1 + 4), -2.0f);
  EXPECT_EQ(bigEndianFloat(bytes, v.dataOffset.at("Rhop") + 4), 1001.5f);
  EXPECT_EQ(bigEndianFloat(bytes, v.dataOffset.at("Vel") + 8 * 4), -3.0f);
  EXPECT_EQ(bigEndianU32(bytes, v.dataOffset.at("VERTICES") + 2 * 4), 1u);  // cell 1: count
  EXPECT_EQ(bigEndianU32(bytes, v.dataOffset.at("VERTICES") + 3 * 4), 1u);  // cell 1: index
  EXPECT_EQ(bigEndianU32(bytes, v.dataOffset.at("VERTICES") + 5 * 4), 2u);
  EXPECT_EQ(bytes[v.dataOffset.at("Type") + 1], 1);
  EXPECT_EQ(bigEndianU32(bytes, v.dataOffset.at("Mk")), 11u);
  EXPECT_EQ(bigEndianU32(bytes, v.dataOffset.at("Idp") + 8), 2u);
}

TEST(VtkWriter, DoublePositionsAndEmptySnapshot) {
  const fs::path dir = scratchDir("vtk_double");
  const std::string path = (dir / "d.vtk").string();
  writeVtkParticles(path, threeParticles(), VtkPositionType::Double);
  const std::string bytes = readFile(path);
  const VtkSections v = parseVtk(bytes, 3, 8);
  EXPECT_EQ(v.keywordLine.at("POINTS"), "POINTS 3 double");
  EXPECT_EQ(v.endOffset, bytes.size());
  // 0.125 as a double is 0x3FC0000000000000.
  const size_t x2 = v.dataOffset.at("POINTS") + 6 * 8;
  EXPECT_EQ(bigEndianU32(bytes, x2), 0x3FC00000u);
  EXPECT_EQ(bigEndianU32(bytes, x2 + 4), 0u);

  const std::string empty = (dir / "empty.vtk").string();
  writeVtkParticles(empty, ParticleSnapshot{});
  const std::string eb = readFile(empty);
  EXPECT_EQ(parseVtk(eb, 0, 4).endOffset, eb.size());
}

TEST(VtkWriter, RejectsMismatchedArrays) {
  ParticleSnapshot s = threeParticles();
  s.mk.pop_back();
  const fs::path dir = scratchDir("vtk_bad");
  EXPECT_THROW(writeVtkParticles((dir / "bad.vtk").string(), s), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir / "bad.vtk"));
}

TEST(VtkWriter, IoFailureNamesTheFile) {
  const fs::path dir = scratchDir("vtk_io");
  // The target's parent is a regular file, so neither the directory nor the file can be made.
  std::ofstream(dir / "blocker") << "x";
  const std::string path = (dir / "blocker" / "Part0000.vtk").string();
  try {
    writeVtkParticles(path, threeParticles());
    FAIL() << "expected RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
  }
  // A directory where the file should go: writing the temporary works, the rename fails.
  const fs::path target = dir / "Part0001.vtk";
  fs::create_directories(target / "occupied");
  EXPECT_THROW(writeVtkParticles(target.string(), threeParticles()), RunError);
  EXPECT_FALSE(fs::exists(target.string() + ".tmp"));
}

namespace {

// A strict recursive-descent JSON checker (RFC 8259 grammar; strings' escapes checked).
class JsonChecker {
 public:
  explicit JsonChecker(const std::string& s) : s_(s) {}
  bool valid() {
    ws();
    if (!value()) return false;
    ws();
    return i_ == s_.size();
  }

 private:
  void ws() {
    while (i_ < s_.size() && std::strchr(" \t\r\n", s_[i_]) && s_[i_]) ++i_;
  }
  bool lit(const char* w) {
    const size_t n = std::strlen(w);
    if (s_.compare(i_, n, w) != 0) return false;
    i_ += n;
    return true;
  }
  bool value() {
    if (i_ >= s_.size()) return false;
    switch (s_[i_]) {
      case '{': return object();
      case '[': return array();
      case '"': return string();
      case 't': return lit("true");
      case 'f': return lit("false");
      case 'n': return lit("null");
      default: return number();
    }
  }
  bool object() {
    ++i_;
    ws();
    if (i_ < s_.size() && s_[i_] == '}') return ++i_, true;
    for (;;) {
      ws();
      if (i_ >= s_.size() || s_[i_] != '"' || !string()) return false;
      ws();
      if (!lit(":")) return false;
      ws();
      if (!value()) return false;
      ws();
      if (lit("}")) return true;
      if (!lit(",")) return false;
    }
  }
  bool array() {
    ++i_;
    ws();
    if (lit("]")) return true;
    for (;;) {
      ws();
      if (!value()) return false;
      ws();
      if (lit("]")) return true;
      if (!lit(",")) return false;
    }
  }
  bool string() {
    ++i_;
    while (i_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[i_++]);
      if (c == '"') return true;
      if (c < 0x20) return false;
      if (c != '\\') continue;
      if (i_ >= s_.size()) return false;
      const char e = s_[i_++];
      if (e == 'u') {
        for (int k = 0; k < 4; ++k)
          if (i_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[i_++]))) return false;
      } else if (!std::strchr("\"\\/bfnrt", e) || !e) {
        return false;
      }
    }
    return false;
  }
  bool number() {
    const size_t start = i_;
    lit("-");
    if (lit("0")) {
    } else if (!digits()) {
      return false;
    }
    if (lit(".") && !digits()) return false;
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (!lit("+")) lit("-");
      if (!digits()) return false;
    }
    return i_ > start;
  }
  bool digits() {
    const size_t start = i_;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
    return i_ > start;
  }

  const std::string& s_;
  size_t i_ = 0;
};

bool validJson(const std::string& s) { return JsonChecker(s).valid(); }

RunReport sampleReport() {
  RunReport r;
  r.caseName = "DamBreak";
  r.casePath = "testcases/DamBreak.xml";
  r.strategy = "verlet";
  r.precision = "single";
  r.device = "cpu";
  r.deviceName = "2 threads";
  r.status = "completed";
  r.nBound = 100;
  r.nFluid = 900;
  r.nTotal = 1000;
  r.steps = 50;
  r.excluded = 3;
  r.excludedOutOfDomain = 2;
  r.excludedDensity = 1;
  r.simulatedTime = 0.125;
  r.wallSeconds = 10.0;
  r.nsPerParticleStep = std::numeric_limits<double>::quiet_NaN();
  r.peakDeviceBytes = 123456789012ull;
  r.phases = {{"CF-Forces", "interaction", 6.0, 50},
              {"NL-RadixSort", "sort", 1.0, 5},
              {"NL-ListBuild", "list", 2.0, 5},
              {"SU-ComputeStep", "other", 1.0, 50}};
  r.strategyStats = {{"mean_list_length", 170.5}, {"rebuilds", 5}, {"idle", std::numeric_limits<double>::infinity()}};
  r.extra = {{"note", "line1\nline2 \"quoted\" back\\slash \x01 tab\t"}, {"utf8", "\xc3\xa9t\xc3\xa9 \xff"}};
  return r;
}

TEST(StrategyStatsText, OneLinePerStatisticAndNothingWithoutThem) {
  RunReport r = sampleReport();
  r.strategyStats = {{"rebuilds", 3203}, {"mean_list_length", 157.196}};
  const std::string t = strategyStatsText(r);
  EXPECT_NE(t.find("  rebuilds          3203\n"), std::string::npos) << t;
  EXPECT_NE(t.find("  mean_list_length  157.196\n"), std::string::npos) << t;
  r.strategyStats.clear();
  EXPECT_EQ(strategyStatsText(r), "");
}

}  // namespace

TEST(RunReportJson, IsValidAndHasTheKeys) {
  const std::string j = runReportJson(sampleReport());
  EXPECT_TRUE(validJson(j)) << j;
  for (const char* expected :
       {"\"case\": \"DamBreak\"", "\"case_path\": \"testcases/DamBreak.xml\"", "\"strategy\": \"verlet\"",
        "\"precision\": \"single\"", "\"device\": \"cpu\"", "\"device_name\": \"2 threads\"",
        "\"status\": \"completed\"", "\"error\": null",
        "\"particles\": {\"bound\": 100, \"fluid\": 900, \"total\": 1000}", "\"steps\": 50",
        "\"simulated_time\": 0.125", "\"wall_seconds\": 10", "\"ns_per_particle_step\": null",
        "\"excluded\": {\"total\": 3, \"out_of_domain\": 2, \"density\": 1}",
        "\"peak_device_bytes\": 123456789012",
        "{\"name\": \"CF-Forces\", \"group\": \"interaction\", \"seconds\": 6, \"calls\": 50, \"share\": 0.6}",
        "\"strategy_stats\": {", "\"mean_list_length\": 170.5", "\"idle\": null", "\"extra\": {",
        "\"note\": \"line1\\nline2 \\\"quoted\\\" back\\\\slash \\u0001 tab\\t\"",
        "\"utf8\": \"\xc3\xa9t\xc3\xa9 \\ufffd\""}) {
    EXPECT_NE(j.find(expected), std::string::npos) << "missing " << expected << " in\n" << j;
  }
}

TEST(RunReportJson, FailedRunAndEmptyCollections) {
  RunReport r;
  r.status = "failed";
  r.error = "CUDA error: out of memory";
  const std::string j = runReportJson(r);
  EXPECT_TRUE(validJson(j)) << j;
  EXPECT_NE(j.find("\"error\": \"CUDA error: out of memory\""), std::string::npos);
  EXPECT_NE(j.find("\"phases\": []"), std::string::npos);
  EXPECT_NE(j.find("\"strategy_stats\": {}"), std::string::npos);
  EXPECT_NE(j.find("\"extra\": {}"), std::string::npos);
}

TEST(RunReportJson, CheckerRejectsBrokenJson) {
  EXPECT_FALSE(validJson("{\"a\": 1,}"));
  EXPECT_FALSE(validJson("{\"a\": nan}"));
  EXPECT_FALSE(validJson("{\"a\": \"x\ny\"}"));
  EXPECT_FALSE(validJson("{\"a\": [1, 2}"));
  EXPECT_TRUE(validJson("{\"a\": [1, -2.5e-3, \"\\u00e9\"], \"b\": {}}"));
}

TEST(RunReportFile, WritesAtomically) {
  const fs::path dir = scratchDir("report");
  const std::string path = (dir / "out" / "run.json").string();
  const RunReport r = sampleReport();
  writeRunReport(path, r);
  EXPECT_EQ(readFile(path), runReportJson(r));
  EXPECT_FALSE(fs::exists(path + ".tmp"));

  std::ofstream(dir / "blocker") << "x";
  const std::string bad = (dir / "blocker" / "run.json").string();
  try {
    writeRunReport(bad, r);
    FAIL() << "expected RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
}

TEST(PhaseTable, ListsPhasesGroupsAndTotal) {
  const std::string t = phaseTable(sampleReport());
  for (const char* expected : {"CF-Forces", "NL-RadixSort", "NL-ListBuild", "SU-ComputeStep", "[sort]", "[list]",
                               "[interaction]", "[other]", "Total", "60.0%", "100.0%", "10.000000"}) {
    EXPECT_NE(t.find(expected), std::string::npos) << "missing " << expected << " in\n" << t;
  }
  // Phases are listed in the row order of the tables of Takada et al. (2017), "Acceleration of
  // SPH-based fluid simulation on GPU": sort, list, interaction, other.
  EXPECT_LT(t.find("NL-RadixSort"), t.find("NL-ListBuild"));
  EXPECT_LT(t.find("NL-ListBuild"), t.find("CF-Forces"));
  EXPECT_LT(t.find("CF-Forces"), t.find("SU-ComputeStep"));
  // The group totals: sort 1 s, list 2 s, interaction 6 s (of 10 s).
  std::istringstream in(t);
  std::string line;
  int groupLines = 0;
  while (std::getline(in, line)) {
    if (line.rfind("[interaction]", 0) == 0) {
      EXPECT_NE(line.find("6.000000"), std::string::npos) << line;
      ++groupLines;
    }
    if (line.rfind("Total", 0) == 0) {
      EXPECT_NE(line.find("10.000000"), std::string::npos) << line;
    }
  }
  EXPECT_EQ(groupLines, 1);
}
