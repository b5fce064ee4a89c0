// GenCase's output as input (case/gencase_output.h, case/jbinary_file.h): the committed fixtures in
// data/gencase/ are GenCase 5.0's CASE.xml and CASE.bi4 of four cases at coarse dp (a 2D dam break,
// a 3D one, one with a moving boundary and a floating body, and a 2D mDBC case whose normals
// tools/dualsphysics/gencase_normals.py appended). They load with GenCase's particles and
// constants, run like the _Def.xml they came from, and every kind of broken input is an error that
// names the file and what is wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "case/jbinary_file.h"
#include "case/loader.h"
#include "model/case_model.h"
#include "model/sim_parameters.h"
#include "run/simulation.h"
#include "sph/plugin/errors.h"
#include "test_snapshot_compare.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using sph::CaseDefinition;
using sph::InputError;

fs::path fixture(const std::string& name) { return fs::path(SPH_SOURCE_DIR) / "engine/tests/data/gencase" / name; }

std::string readText(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A copy of fixture CASE (xml and bi4) in a fresh folder, the xml passed through `editXml`.
template <typename Edit>
fs::path copyFixture(const std::string& dirName, const std::string& name, Edit editXml) {
  const fs::path dir = sph::test::tempDir(dirName);
  std::string xml = readText(fixture(name + ".xml"));
  editXml(xml);
  sph::test::writeFile(dir / (name + ".xml"), xml);
  fs::copy_file(fixture(name + ".bi4"), dir / (name + ".bi4"));
  return dir / (name + ".xml");
}
fs::path copyFixture(const std::string& dirName, const std::string& name) {
  return copyFixture(dirName, name, [](std::string&) {});
}

void replaceOnce(std::string& s, const std::string& from, const std::string& to) {
  const size_t at = s.find(from);
  ASSERT_NE(at, std::string::npos) << from;
  s.replace(at, from.size(), to);
}

// The message of the InputError that loading `path` throws ("" and a failure when none).
std::string loadError(const fs::path& path, const sph::LoadOptions& opts = {}) {
  try {
    sph::loadCase(path.string(), opts);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error loading " << path;
  return "";
}

TEST(GenCaseOutput, ReadsParticlesBlocksAndConstants) {
  const CaseDefinition c = sph::loadCase(fixture("DamBreak.xml").string());
  EXPECT_EQ(c.particleFile, fixture("DamBreak.bi4").string());
  // <particles np="1274" nb="924">: mk 10, 11 and 20 fixed (859, 41, 24), mk 1 fluid (350).
  ASSERT_EQ(c.positions.size(), 1274u);
  EXPECT_EQ(c.nBound, 924u);
  EXPECT_EQ(c.nFluid, 350u);
  ASSERT_EQ(c.mks.size(), 4u);
  const int mk[4] = {10, 11, 20, 1};
  const uint32_t count[4] = {859, 41, 24, 350};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(c.mks[k].mk, mk[k]);
    EXPECT_EQ(c.mks[k].count, count[k]);
  }
  // GenCase's order: each block x slowest, z fastest; the first fluid particle is at
  // (0.07, 0.07, 0.07) (a dp of 0.06 above the lowest node at 0.01).
  EXPECT_NEAR(c.positions[924].x, 0.07, 1e-12);
  EXPECT_NEAR(c.positions[925].z, 0.13, 1e-12);
  for (size_t i = 0; i < c.positions.size(); ++i) EXPECT_EQ(c.mkIndex[i], i < 859 ? 0 : i < 900 ? 1 : i < 924 ? 2 : 3);
  // <constants>: h = sqrt(3) dp, B and the masses as GenCase wrote them.
  ASSERT_TRUE(c.constants.h && c.constants.massFluid && c.constants.massBound);
  EXPECT_NEAR(*c.constants.h, std::sqrt(3.0) * 0.06, 1e-11);
  EXPECT_FALSE(c.constants.b.isAuto);
  EXPECT_NEAR(*c.constants.massFluid, 1000 * 0.06 * 0.06 * 0.06, 1e-12);
  const sph::SimParameters p = sph::deriveParameters(c);
  EXPECT_EQ(p.h, *c.constants.h);
  EXPECT_EQ(p.cteB, c.constants.b.value);
  EXPECT_NEAR(p.c0, std::sqrt(p.cteB * p.gamma / p.rho0), 1e-9);
  // Velocities and densities from the file: at rest, hydrostatic fluid below the surface.
  ASSERT_EQ(c.densities.size(), c.positions.size());
  ASSERT_EQ(c.velocities.size(), c.positions.size());
  EXPECT_EQ(c.densities[0], 1000.0f);
  EXPECT_GT(c.densities[924], 1000.0f);
  EXPECT_EQ(c.velocities[924].z, 0.0f);
}

TEST(GenCaseOutput, TwoDimensionalCase) {
  const CaseDefinition c = sph::loadCase(fixture("DamBreak2D.xml").string());
  EXPECT_TRUE(c.twoD);
  EXPECT_EQ(c.positions.size(), 1501u);
  EXPECT_EQ(c.nBound, 251u);
  for (const sph::Vec3d& v : c.positions) EXPECT_EQ(v.y, 0.0);
  EXPECT_NEAR(*c.constants.h, std::sqrt(2.0) * 0.04, 1e-11);
}

// The moving boundary's motion and the floating body's definition come from <casedef>; the blocks
// are fixed, moving, floating, fluid, in that order.
TEST(GenCaseOutput, MotionAndFloatingBody) {
  const CaseDefinition c = sph::loadCase(fixture("FloatingSmall.xml").string());
  ASSERT_EQ(c.mks.size(), 4u);
  EXPECT_EQ(c.mks[0].mk, 30);
  EXPECT_EQ(c.mks[1].mk, 20);
  EXPECT_EQ(c.mks[2].mk, 60);
  EXPECT_EQ(c.mks[1].count, 112u);
  EXPECT_EQ(c.mks[2].count, 125u);
  ASSERT_EQ(c.motions.size(), 1u);
  EXPECT_EQ(c.motions[0].mkIndex, 1);
  ASSERT_EQ(c.floatings.size(), 1u);
}

TEST(GenCaseOutput, MdbcNormalsFromTheParticleFile) {
  const CaseDefinition c = sph::loadCase(fixture("MdbcDamBreak2D.xml").string());
  ASSERT_EQ(c.normals.size(), c.positions.size());
  size_t withNormal = 0;
  for (size_t i = 0; i < c.nBound; ++i) {
    const sph::Vec3d& n = c.normals[i];
    const double len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    if (len > 0) ++withNormal;
    EXPECT_LT(len, 10 * c.dp);  // a ghost node a few dp away, never more
  }
  EXPECT_EQ(withNormal, c.nBound);  // gencase_normals.py: 447 of 447
  for (size_t i = c.nBound; i < c.positions.size(); ++i) EXPECT_EQ(c.normals[i].x, 0.0);
  const sph::SimParameters p = sph::deriveParameters(c);
  EXPECT_TRUE(p.mdbc());
}

// The particles GenCase made are the particles our generator makes from the same _Def.xml, in the
// same order (so particle ids are GenCase's Idp): the same mk blocks, the same positions.
TEST(GenCaseOutput, SameParticlesAsTheGenerator) {
  struct Pair {
    const char* output;
    std::string def;
    double dp;
  };
  const std::string data = std::string(SPH_SOURCE_DIR) + "/engine/tests/data/dualsphysics/";
  const Pair pairs[] = {{"DamBreak2D", std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml", 0.04},
                        {"DamBreak", std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak.xml", 0.06},
                        {"FloatingSmall", data + "FloatingSmall_Def.xml", 0.1},
                        {"MdbcDamBreak2D", data + "MdbcDamBreak2D_Def.xml", 0.01}};
  for (const Pair& pair : pairs) {
    SCOPED_TRACE(pair.output);
    const CaseDefinition gc = sph::loadCase(fixture(std::string(pair.output) + ".xml").string());
    sph::LoadOptions o;
    o.dpOverride = pair.dp;
    const CaseDefinition ours = sph::loadCase(pair.def, o);
    ASSERT_EQ(gc.mks.size(), ours.mks.size());
    for (size_t k = 0; k < gc.mks.size(); ++k) {
      EXPECT_EQ(gc.mks[k].mk, ours.mks[k].mk);
      EXPECT_EQ(gc.mks[k].count, ours.mks[k].count) << "mk " << gc.mks[k].mk;
    }
    ASSERT_EQ(gc.positions.size(), ours.positions.size());
    // GenCase adds dp to pointmin in double; we multiply from the lattice origin: a few ulps.
    size_t wrong = 0;
    for (size_t i = 0; i < gc.positions.size(); ++i) {
      const sph::Vec3d &a = gc.positions[i], &b = ours.positions[i];
      if (std::abs(a.x - b.x) > 1e-9 || std::abs(a.y - b.y) > 1e-9 || std::abs(a.z - b.z) > 1e-9) {
        if (wrong++ == 0) ADD_FAILURE() << "particle " << i << ": GenCase (" << a.x << ", " << a.y << ", " << a.z
                                        << "), ours (" << b.x << ", " << b.y << ", " << b.z << ")";
      }
    }
    EXPECT_EQ(wrong, 0u);
  }
}

// The same case from GenCase's output and from its _Def.xml runs the same: after 20 steps the
// particles, matched by their initial position, agree to single-precision rounding. (GenCase
// stores densities in float, which the generated case computes in double.)
TEST(GenCaseOutput, RunsLikeTheDefinition) {
  const CaseDefinition gc = sph::loadCase(fixture("DamBreak2D.xml").string());
  sph::LoadOptions o;
  o.dpOverride = 0.04;
  const CaseDefinition ours = sph::loadCase(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml", o);
  for (const char* neighbours : {"cell", "verlet"}) {
    SCOPED_TRACE(neighbours);
    sph::RunOptions ro;
    ro.device = sph::Device::Cpu;
    ro.neighbours = neighbours;
    const sph::ParticleSnapshot a = sph::test::runSteps(gc, ro, 20);
    const sph::ParticleSnapshot b = sph::test::runSteps(ours, ro, 20);
    ASSERT_EQ(a.count(), b.count());
    // Particle ids are initial engine indices: match them through the initial positions.
    auto key = [&](const sph::Vec3d& v) { return std::make_pair(std::lround(v.x / 0.04), std::lround(v.z / 0.04)); };
    std::map<std::pair<long, long>, size_t> oursByPlace;
    for (size_t i = 0; i < ours.positions.size(); ++i) oursByPlace[key(ours.positions[i])] = i;
    std::vector<size_t> gcToOurs(gc.positions.size());
    for (size_t i = 0; i < gc.positions.size(); ++i) gcToOurs[i] = oursByPlace.at(key(gc.positions[i]));
    // Engine ids are the case indices here (no floating bodies: the engine keeps the case order).
    std::map<uint32_t, size_t> rowOfB;
    for (size_t j = 0; j < b.count(); ++j) rowOfB[b.id[j]] = j;
    double worst = 0;
    for (size_t i = 0; i < a.count(); ++i) {
      const size_t j = rowOfB.at(uint32_t(gcToOurs[a.id[i]]));
      for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(a.pos[3 * i + k] - b.pos[3 * j + k]));
    }
    EXPECT_LT(worst, 1e-6);
  }
}

TEST(GenCaseOutputErrors, DpOverrideRefused) {
  sph::LoadOptions o;
  o.dpOverride = 0.02;
  const std::string msg = loadError(fixture("DamBreak2D.xml"), o);
  // The dp its particles have, and the one asked for.
  EXPECT_NE(msg.find("holds the particles of dp 0.04; --dp 0.02 cannot change them"), std::string::npos) << msg;
}

// GenCase's output without its particle file (DualSPHysics' users run GenCase on such a file):
// the particles come from <casedef>'s geometry, GenCase's, with a warning naming the file.
TEST(GenCaseOutput, WithoutParticleFileGeneratesFromTheGeometry) {
  const fs::path xml = copyFixture("gc_missing", "DamBreak2D");
  const CaseDefinition withFile = sph::loadCase(xml.string());
  fs::remove(fs::path(xml).replace_extension(".bi4"));
  const CaseDefinition generated = sph::loadCase(xml.string());
  ASSERT_EQ(generated.warnings.size(), 1u);
  EXPECT_NE(generated.warnings[0].find("DamBreak2D.bi4 does not exist: the particles are generated"),
            std::string::npos) << generated.warnings[0];
  EXPECT_EQ(generated.warnings[0].rfind(xml.string() + ":", 0), 0u);  // names the XML file and line
  EXPECT_EQ(generated.nFluid, withFile.nFluid);
  EXPECT_EQ(generated.nBound, withFile.nBound);
  const auto sorted = [](const CaseDefinition& c) {
    std::vector<std::tuple<int, double, double, double>> out;
    for (size_t i = 0; i < c.positions.size(); ++i)
      out.emplace_back(c.mks[c.mkIndex[i]].mk, c.positions[i].x, c.positions[i].y, c.positions[i].z);
    std::sort(out.begin(), out.end());
    return out;
  };
  const auto a = sorted(withFile), b = sorted(generated);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(std::get<0>(a[i]), std::get<0>(b[i]));
    EXPECT_NEAR(std::get<1>(a[i]), std::get<1>(b[i]), 1e-6);  // the file holds floats
    EXPECT_NEAR(std::get<3>(a[i]), std::get<3>(b[i]), 1e-6);
  }
}

TEST(GenCaseOutputErrors, TruncatedOrCorruptParticleFile) {
  const fs::path xml = copyFixture("gc_truncated", "DamBreak2D");
  const fs::path bi4 = fs::path(xml).replace_extension(".bi4");
  const uintmax_t size = fs::file_size(bi4);
  for (const uintmax_t keep : {uintmax_t(size - 7), uintmax_t(size / 2), uintmax_t(300), uintmax_t(70), uintmax_t(10)}) {
    fs::resize_file(bi4, keep);
    const std::string msg = loadError(xml);
    EXPECT_EQ(msg.rfind(bi4.string() + ":", 0), 0u) << msg;
    EXPECT_TRUE(msg.find("truncated") != std::string::npos || msg.find("shorter than") != std::string::npos) << msg;
  }
  std::ofstream(bi4, std::ios::binary) << std::string(200, 'x');
  const std::string msg = loadError(xml);
  EXPECT_NE(msg.find("not a JBinaryData file"), std::string::npos) << msg;
}

TEST(GenCaseOutputErrors, BlocksThatDisagreeWithTheParticles) {
  struct Edit {
    const char* name;
    std::string from, to, expected;
  };
  const Edit edits[] = {
      {"np", "np=\"1501\"", "np=\"1502\"", "np=\"1502\" but the mk blocks hold 1501"},
      {"count", "count=\"1250\" />", "count=\"1251\" />", "1501 particles, but <particles> in"},
      {"gap", "begin=\"251\"", "begin=\"252\"", "should begin at 251"},
      {"mk", "mk=\"10\" begin", "mk=\"12\" begin", "mk 12 is not mkbound 0 + mkboundfirst 10"},
      {"constants", "<massfluid value=", "<_massfluid value=", "need <h>, <b>, <massbound> and <massfluid>"},
      {"2d", "<data2d value=\"true\" />", "<data2d value=\"false\" />", "data2d is false"},
      // GenCase writes b 0 for a case without fluid and hswl auto; DualSPHysics 5.4 stops on it too.
      {"b0", "<b value=\"1098720\"", "<b value=\"0\"", "b is zero: GenCase writes 0 when hswl is automatic"},
      {"dp", "<dp value=\"0.04\"", "<dp value=\"0.05\"", "dp 0.05 differs from the dp 0.04 of <definition>"},
  };
  for (const Edit& e : edits) {
    SCOPED_TRACE(e.name);
    const fs::path xml = copyFixture(std::string("gc_blocks_") + e.name, "DamBreak2D", [&](std::string& s) {
      if (std::string(e.name) == "count") {  // np as well, so that only the file disagrees
        replaceOnce(s, "np=\"1501\"", "np=\"1502\"");
      }
      replaceOnce(s, e.from, e.to);
    });
    const std::string msg = loadError(xml);
    EXPECT_NE(msg.find(e.expected), std::string::npos) << msg;
  }
}

// GenCase writes <definition>'s dp with 12 significant digits: DualSPHysics runs with that value.
TEST(GenCaseOutput, ConstantsDpRoundedByGenCase) {
  const fs::path xml = copyFixture("gc_dp_rounded", "DamBreak2D", [](std::string& s) {
    replaceOnce(s, "<dp value=\"0.04\"", "<dp value=\"0.0400000000001\"");
  });
  EXPECT_DOUBLE_EQ(sph::loadCase(xml.string()).dp, 0.0400000000001);
}

// A JBinaryData file written from scratch: the parts of the format GenCase uses.
class JbdWriter {
 public:
  std::string file(const std::string& rootValues, const std::string& partArrays, int nArrays) {
    std::string head = "#FileJBD JPartDataBi4";
    head.resize(58, ' ');
    head += '\n';
    head.resize(64, '\0');
    const std::string part = item("PART_0000", "", 0, nArrays, 0) + partArrays;
    return head + item("JPartDataBi4", rootValues, 0, 0, 1) + part;
  }
  static std::string u32(uint32_t v) { return std::string(reinterpret_cast<const char*>(&v), 4); }
  static std::string text(const std::string& s) { return u32(uint32_t(s.size())) + s; }
  static std::string item(const std::string& name, const std::string& values, int nValues, int nArrays, int nItems) {
    std::string block;
    if (nValues > 0) block = text("\nVALUES") + u32(uint32_t(nValues)) + values;
    const std::string def = text("\nITEM\n") + text(name) + u32(0) + u32(0) + text("%.7E") + text("%.15E") +
                            u32(uint32_t(nArrays)) + u32(uint32_t(nItems)) + u32(uint32_t(block.size()));
    return u32(uint32_t(def.size())) + def + block;
  }
  template <typename T>
  static std::string array(const std::string& name, sph::jbd::DataType type, const std::vector<T>& data,
                           uint32_t count) {
    const std::string def = text("\nARRAY") + text(name) + u32(0) + u32(uint32_t(type)) + u32(count) +
                            u32(uint32_t(data.size() * sizeof(T)));
    return u32(uint32_t(def.size())) + def + std::string(reinterpret_cast<const char*>(data.data()), data.size() * sizeof(T));
  }
};

// A two-particle case (one boundary, one fluid) whose particle file is written by the test.
fs::path tinyCase(const std::string& dirName, const std::string& bi4) {
  const fs::path dir = sph::test::tempDir(dirName);
  std::string xml = readText(fixture("DamBreak2D.xml"));
  const size_t a = xml.find("<particles "), b = xml.find("</particles>");
  xml.replace(a, b - a, R"(<particles np="2" nb="1" mkboundfirst="10" mkfluidfirst="1">
            <fixed mkbound="0" mk="10" begin="0" count="1" />
            <fluid mkfluid="0" mk="1" begin="1" count="1" />
        )");
  sph::test::writeFile(dir / "Tiny.xml", xml);
  std::ofstream(dir / "Tiny.bi4", std::ios::binary) << bi4;
  return dir / "Tiny.xml";
}

TEST(GenCaseOutput, FloatPositionsAndIdsInAnyOrder) {
  using sph::jbd::DataType;
  JbdWriter w;
  // Stored fluid first: the ids put each particle in its block.
  const std::string arrays = JbdWriter::array("Idp", DataType::UInt, std::vector<uint32_t>{1, 0}, 2) +
                             JbdWriter::array("Pos", DataType::Float3, std::vector<float>{0.5f, 0, 0.5f, 0, 0, 0}, 2) +
                             JbdWriter::array("Vel", DataType::Float3, std::vector<float>{1, 0, 0, 0, 0, 0}, 2) +
                             JbdWriter::array("Rhop", DataType::Float, std::vector<float>{1001, 1000}, 2);
  const CaseDefinition c = sph::loadCase(tinyCase("gc_tiny", w.file("", arrays, 4)).string());
  ASSERT_EQ(c.positions.size(), 2u);
  EXPECT_EQ(c.positions[0].x, 0.0);   // id 0: the boundary particle
  EXPECT_EQ(c.positions[1].x, 0.5);   // id 1: the fluid one
  EXPECT_EQ(c.velocities[1].x, 1.0f);
  EXPECT_EQ(c.densities[1], 1001.0f);
  EXPECT_EQ(c.mkIndex[0], 0);
  EXPECT_EQ(c.mkIndex[1], 1);
}

TEST(GenCaseOutputErrors, BadArrays) {
  using sph::jbd::DataType;
  JbdWriter w;
  const auto ids = JbdWriter::array("Idp", DataType::UInt, std::vector<uint32_t>{0, 1}, 2);
  const auto pos = JbdWriter::array("Posd", DataType::Double3, std::vector<double>{0, 0, 0, 0.5, 0, 0.5}, 2);
  const auto vel = JbdWriter::array("Vel", DataType::Float3, std::vector<float>(6, 0.0f), 2);
  const auto rho = JbdWriter::array("Rhop", DataType::Float, std::vector<float>{1000, 1000}, 2);
  struct Bad {
    const char* name;
    std::string arrays;
    int n;
    std::string expected;
  };
  const Bad cases[] = {
      {"short", ids + pos + vel + JbdWriter::array("Rhop", DataType::Float, std::vector<float>{1000}, 1), 4,
       "array Rhop has 1 values for 2 particles"},
      {"missing", ids + pos + vel, 3, "no array Rhop"},
      {"type", ids + pos + vel + JbdWriter::array("Rhop", DataType::Double, std::vector<double>{1000, 1000}, 2), 4,
       "holds double values, float expected"},
      {"bytes", ids + pos + vel + JbdWriter::array("Rhop", DataType::Float, std::vector<float>{1000, 1000}, 3), 4,
       "bytes declared for 3 values"},
      {"duplicate id", JbdWriter::array("Idp", DataType::UInt, std::vector<uint32_t>{1, 1}, 2) + pos + vel + rho, 4,
       "the id 1 appears twice"},
      {"id range", JbdWriter::array("Idp", DataType::UInt, std::vector<uint32_t>{0, 7}, 2) + pos + vel + rho, 4,
       "has the id 7, beyond the 2 particles"},
      {"density", ids + pos + vel + JbdWriter::array("Rhop", DataType::Float, std::vector<float>{1000, -1}, 2), 4,
       "has the density -1"},
      {"nan", ids + JbdWriter::array("Posd", DataType::Double3, std::vector<double>{0, 0, 0, NAN, 0, 0}, 2) + vel + rho,
       4, "not finite"},
  };
  for (const Bad& b : cases) {
    SCOPED_TRACE(b.name);
    const fs::path xml = tinyCase(std::string("gc_bad_") + b.name, w.file("", b.arrays, b.n));
    const std::string msg = loadError(xml);
    EXPECT_EQ(msg.rfind(fs::path(xml).replace_extension(".bi4").string() + ":", 0), 0u) << msg;
    EXPECT_NE(msg.find(b.expected), std::string::npos) << msg;
  }
}

// `sph info` and `sph run` take GenCase's output as they take a _Def.xml.
TEST(GenCaseOutput, CommandLine) {
  const sph::test::CommandResult info = sph::test::runSph("info " + fixture("DamBreak2D.xml").string());
  EXPECT_EQ(info.exitCode, 0) << info.output;
  EXPECT_NE(info.output.find("1501"), std::string::npos) << info.output;
  EXPECT_NE(info.output.find("DamBreak2D.bi4"), std::string::npos) << info.output;
  const fs::path out = sph::test::tempDir("gc_cli");
  const sph::test::CommandResult run = sph::test::runSph("run " + fixture("FloatingSmall.xml").string() +
                                                         " --device cpu --steps 5 --no-vtk --quiet --out " +
                                                         (out / "run").string());
  EXPECT_EQ(run.exitCode, 0) << run.output;
}

}  // namespace
