// Mesh gauges (gauges/mesh_gauge.h): the grid and the rules of each output on chosen samples, the
// reader's errors, and a run of MeshGauge2D_Def.xml (a small 2D dam break with three mesh gauges)
// whose files are compared with DualSPHysics 5.4's own run of the same particles (its CPU build;
// engine/tests/data/dualsphysics/MeshGauge2D_GaugesMesh_*.csv).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "case/jbinary_file.h"
#include "case/loader.h"
#include "case/mesh_data_file.h"
#include "dualsphysics_fixture.h"
#include "gauges/gauge_recorder.h"
#include "gauges/mesh_gauge.h"
#include "output/jbinary_writer.h"
#include "platform/gpu_runtime.h"
#include "platform/input_file.h"
#include "run/simulation.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace sph {
namespace {

namespace fs = std::filesystem;

GaugeSpec meshSpec() {
  GaugeSpec g;
  g.kind = GaugeKind::Mesh;
  g.name = "M";
  g.point = {1, 2, 3};
  return g;
}

// DualSPHysics' MakeMeshPt: floor(length / distpt + 0.01) + 1 points along an axis, unit vector
// times distpt between them; an axis with a zero vector, or a length under distpt, is left out.
TEST(MeshGaugeGrid, AxesAndCounts) {
  GaugeSpec g = meshSpec();
  g.mesh.axis[0] = {3, 0, 4};  // length 5: made a unit vector
  g.mesh.length[0] = 1.0;
  g.mesh.distPt[0] = 0.1;  // 1.0 / 0.1 is 9.999... in floating point: still 11 points
  g.mesh.axis[1] = {0, 1, 0};
  g.mesh.length[1] = 0.05;
  g.mesh.distPt[1] = 0.1;  // shorter than distpt: left out
  g.mesh.axis[2] = {0, 0, 2};
  g.mesh.length[2] = 0.35;
  g.mesh.distPt[2] = 0.1;  // 3.5 + 0.01 -> 3, plus the first
  const MeshGrid m = meshGaugeGrid(g);
  EXPECT_EQ(m.n[0], 11u);
  EXPECT_EQ(m.n[1], 1u);
  EXPECT_EQ(m.n[2], 4u);
  EXPECT_EQ(m.count(), 44u);
  EXPECT_EQ(m.columns(), 11u);
  EXPECT_NEAR(m.step[0].x, 0.06, 1e-15);
  EXPECT_NEAR(m.step[0].z, 0.08, 1e-15);
  EXPECT_EQ(m.step[1].y, 0.0);
  EXPECT_NEAR(m.step[2].z, 0.1, 1e-15);
  const std::vector<GaugePoint> pts = meshGridPoints(m);
  ASSERT_EQ(pts.size(), 44u);
  // The first axis fastest: point 12 is (1, 0, 1).
  EXPECT_NEAR(pts[12].x, 1 + 0.06, 1e-12);
  EXPECT_NEAR(pts[12].y, 2, 1e-12);
  EXPECT_NEAR(pts[12].z, 3 + 0.08 + 0.1, 1e-12);
}

// Samples of one column of 5 points (dz 0.1 from z = 0) with the Shepard sums given, the other
// fields from one particle-like value each.
std::vector<PointSample> column(const std::vector<double>& shepard) {
  std::vector<PointSample> out(shepard.size());
  for (size_t k = 0; k < shepard.size(); ++k) {
    out[k].shepard = shepard[k];
    out[k].vel[0] = 2;
    out[k].vel[2] = -1;
    out[k].rho = shepard[k] > 0 ? 1010 : 0;
  }
  return out;
}

GaugeSpec columnSpec() {
  GaugeSpec g = meshSpec();
  g.point = {0, 0, 0};
  g.mesh.axis[2] = {0, 0, 1};
  g.mesh.length[2] = 0.4;
  g.mesh.distPt[2] = 0.1;
  g.mesh.vel = g.mesh.velDir = g.mesh.rho = g.mesh.zsurf = true;
  g.mesh.dirDat = {0.6, 0, 0.8};
  return g;
}

// zsurf: where m sum V W falls below the limit after having been above it, linear between the two
// points; the column's start when never above, its end when never below again.
TEST(MeshGaugeValues, FreeSurfaceOfAColumn) {
  const GaugeSpec g = columnSpec();
  const MeshGrid m = meshGaugeGrid(g);
  ASSERT_EQ(m.count(), 5u);
  const double mass = 2.0, limit = 0.8;  // the limit is a Shepard sum of 0.4
  auto zsurf = [&](const std::vector<double>& shepard) {
    return meshGaugeValues(g, m, column(shepard).data(), mass, limit).zsurf.at(0);
  };
  // Above the limit at 0 and 0.1 (the last above: 0.9), below at 0.2 (0.1): 0.1 + 0.1 (0.4 -
  // 0.9) / (0.1 - 0.9).
  EXPECT_NEAR(zsurf({1, 0.9, 0.1, 0, 0}), 0.1 + 0.1 * 0.5 / 0.8, 1e-12);
  EXPECT_NEAR(zsurf({0, 0, 0, 0, 0}), 0.0, 1e-15);                          // dry
  EXPECT_NEAR(zsurf({1, 1, 1, 1, 0.5}), 0.4, 1e-12);                        // never below again: the end
  EXPECT_NEAR(zsurf({0.2, 0.3, 1, 0.1, 0}), 0.2 + 0.1 * 0.6 / 0.9, 1e-12);  // wet only from 0.2
  // Exactly at the limit neither counts as above nor below (DualSPHysics' strict tests).
  EXPECT_NEAR(zsurf({1, 0.4, 0.2, 0, 0}), 0.0 + 0.1 * (0.4 - 1) / (0.2 - 1) + 0.1, 1e-12);
}

// The kernel correction: values divided by sum V W where it reaches kclimit; below, kcdummy, or
// the raw sums when kcdummy is none; the raw sums everywhere when kclimit is none.
TEST(MeshGaugeValues, KernelCorrection) {
  GaugeSpec g = columnSpec();
  const MeshGrid m = meshGaugeGrid(g);
  const std::vector<PointSample> s = column({1, 0.6, 0.3, 0, 0});
  g.mesh.kcLimit = 0.5;
  g.mesh.kcDummy = -7.0;
  MeshGaugeValues v = meshGaugeValues(g, m, s.data(), 1, 0.4);
  EXPECT_DOUBLE_EQ(v.rho[0], 1010);
  EXPECT_DOUBLE_EQ(v.rho[1], 1010);
  EXPECT_DOUBLE_EQ(v.rho[2], -7);
  EXPECT_DOUBLE_EQ(v.vel[3 * 1 + 0], 2);
  EXPECT_DOUBLE_EQ(v.vel[3 * 2 + 2], -7);
  EXPECT_NEAR(v.velDir[1], 0.6 * 2 - 0.8, 1e-12);
  EXPECT_NEAR(v.velDir[2], -7 * 1.4, 1e-12);
  g.mesh.kcDummy.reset();
  v = meshGaugeValues(g, m, s.data(), 1, 0.4);
  EXPECT_NEAR(v.rho[2], 0.3 * 1010, 1e-9);
  EXPECT_NEAR(v.vel[3 * 2 + 0], 0.3 * 2, 1e-12);
  EXPECT_DOUBLE_EQ(v.rho[1], 1010);
  g.mesh.kcLimit.reset();
  v = meshGaugeValues(g, m, s.data(), 1, 0.4);
  EXPECT_NEAR(v.rho[1], 0.6 * 1010, 1e-9);
  EXPECT_NEAR(v.vel[3 * 0 + 2], -1, 1e-12);
  EXPECT_EQ(v.rho[4], 0.0);
}

// A grid of one point has no axes: DualSPHysics writes a "SimpleCSV" without them.
TEST(MeshGaugeCsv, OnePointHeader) {
  GaugeSpec g = meshSpec();
  g.mesh.rho = true;
  const std::string h = meshGaugeCsvHeader(g, meshGaugeGrid(g), "Rhop");
  EXPECT_EQ(h,
            "Format;DataName;DataUnits;DataType;Data12;Npt1;Npt2;Npt3;DirDat.x;DirDat.y;DirDat.z\n"
            "SimpleCSV;Rhop; [kg/m^3];float;false;1;1;1;  1.0000000E+00;  0.0000000E+00;  0.0000000E+00\n"
            "time [s];v(0:0:0)\n");
  MeshGaugeValues v;
  v.rho = {1000.5};
  EXPECT_EQ(meshGaugeCsvRow(v, "Rhop", 0.25), "  2.500000000000E-01;  1.0005000E+03\n");
}

const char* kMeshGauge = R"(<gauges>
  <mesh name="M">
    <point x="0.1" y="0" z="0.05" />
    <vec1 x="1" y="0" z="0" />
    <size1 length="0.2" distpt="0.05" />
    <outputdata value="vel" />
  </mesh>
</gauges>)";

std::string withGauge(const std::string& gauge) { return test::smallTankWithSpecial(gauge, ""); }

TEST(MeshGaugeReader, ReadsTheDefaults) {
  const auto dir = test::tempDir("mesh_reader");
  const CaseDefinition c = loadCase(test::writeFile(dir / "Mesh_Def.xml", withGauge(kMeshGauge)));
  ASSERT_EQ(c.gauges.items.size(), 1u);
  const GaugeSpec& g = c.gauges.items[0];
  EXPECT_EQ(g.kind, GaugeKind::Mesh);
  EXPECT_TRUE(g.mesh.vel);
  EXPECT_FALSE(g.mesh.rho || g.mesh.velDir || g.mesh.zsurf);
  EXPECT_EQ(g.mesh.kcLimit, 0.5);
  EXPECT_EQ(g.mesh.kcDummy, 0.0);
  EXPECT_EQ(g.mesh.dirDat.x, 1.0);
  EXPECT_EQ(meshGaugeGrid(g).n[0], 5u);
  EXPECT_EQ(gaugeFileNames(g), std::vector<std::string>{"M_Vel.csv"});
}

TEST(MeshGaugeReader, BadInputNamesTheElement) {
  auto bad = [&](const std::string& from, const std::string& to, const std::string& marker, const std::string& element,
                 const std::string& text) {
    std::string gauge = kMeshGauge;
    const size_t at = gauge.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    gauge.replace(at, from.size(), to);
    const std::string xml = withGauge(gauge);
    test::expectLoadError("mesh_bad", xml, marker, element, text);
  };
  bad(R"(<outputdata value="vel" />)", R"(<outputdata value="vel,speed" />)", "outputdata", "outputdata", "speed");
  bad(R"(<outputdata value="vel" />)", R"(<outputdata value=" , " />)", "outputdata", "outputdata", "no output data");
  bad(R"(<outputdata value="vel" />)", "", "<mesh", "mesh", "outputdata");
  bad(R"(<outputdata value="vel" />)", R"(<outputdata value="vel" /><outputfmt value="csv,vtk" />)", "outputfmt",
      "outputfmt", "vtk");
  bad(R"(<outputdata value="vel" />)", R"(<outputdata value="vel" /><outputfmt value=" , " />)", "outputfmt",
      "outputfmt", "no output format");
  bad(R"(<size1 length="0.2" distpt="0.05" />)", "", "vec1", "vec1", "size1");
  bad(R"(<outputdata value="vel" />)", R"(<outputdata value="vel" /><dirdat x="0" y="0" z="0" />)", "dirdat", "dirdat",
      "zero vector");
  bad(R"(<outputdata value="vel" />)", R"(<outputdata value="vel" /><kclimit value="lots" />)", "kclimit", "kclimit",
      "");
  bad(R"(<outputdata value="vel" />)", R"(<outputdata value="vel" /><masslimit value="1" coef="0.4" />)", "masslimit",
      "masslimit", "not both");
  bad(R"(<outputdata value="vel" />)", R"(<outputdata value="vel" /><colour value="red" />)", "colour", "colour", "");
}

// A file of DualSPHysics' mesh-gauge CSV: its three header lines and its rows of numbers.
struct MeshCsv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
};

MeshCsv readMeshCsv(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  MeshCsv out;
  std::string line;
  for (int k = 0; k < 3 && std::getline(in, line); ++k) out.header.push_back(line);
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ';');) row.push_back(std::stod(cell));
    out.rows.push_back(row);
  }
  return out;
}

// The second header line's fields (the grid) as numbers where they are.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string cell; std::getline(ss, cell, ';');) out.push_back(cell);
  return out;
}

// How far our row at the time of DualSPHysics' row `ds` is from it, in units of the tolerance
// abs + rel |value|: at most 1 passes.
double worstRatio(const std::vector<double>& ours, const std::vector<double>& ds, double abs, double rel) {
  double worst = 0;
  for (size_t k = 1; k < ds.size(); ++k)
    worst = std::max(worst, std::abs(ours[k] - ds[k]) / (abs + rel * std::abs(ds[k])));
  return worst;
}

// MeshGauge2D: 1,747 steps in both codes over 0.2 s. Measured (CPU, single precision): velocities
// within 2.1e-4 m/s, densities within 3e-3 kg/m^3 where corrected and 7.6e-5 relative where raw
// (DualSPHysics' 2D Wendland constant is 0.557/h^2, this engine's 7/(4 pi h^2): 7.6e-5 apart),
// zsurf within 3e-6 m. The bounds: velocity 1e-3 m/s + 2e-4 relative, density 1e-2 kg/m^3 + 2e-4
// relative, zsurf 3e-5 m (dp / 800). The header is DualSPHysics' but for the last digit of the
// direction, which its build rounds differently.
void expectMeshGaugesFollowDualSPHysics(Device device, const std::string& neighbours) {
  const auto dir = test::tempDir(std::string("mesh_dsph_") + neighbours);
  const CaseDefinition c = loadCase(test::dualsphysicsData("MeshGauge2D_Def.xml"));
  RunOptions o = test::gpuRunWithOutputs(neighbours, (dir / "out").string());
  o.device = device;
  o.threads = 2;
  Simulation sim(c, o);
  const RunReport r = sim.run();
  ASSERT_EQ(r.status, "completed") << r.error;
  EXPECT_EQ(r.steps, 1747u) << "DualSPHysics takes 1,747 steps";
  struct Output {
    const char* file;
    double abs, rel;
  };
  const Output outputs[] = {{"Section_Vel", 1e-3, 2e-4}, {"Section_VelDir", 1e-3, 2e-4}, {"Section_Rhop", 1e-2, 2e-4},
                            {"Section_Zsurf", 3e-5, 0},  {"Raw_Vel", 1e-3, 2e-4},        {"Raw_Rhop", 1e-2, 2e-4},
                            {"Raw_Zsurf", 3e-5, 0},      {"Thin_VelDir", 1e-3, 2e-4},    {"Thin_Rhop", 1e-2, 2e-4}};
  for (const Output& out : outputs) {
    SCOPED_TRACE(out.file);
    const MeshCsv ds = readMeshCsv(test::dualsphysicsData(std::string("MeshGauge2D_GaugesMesh_") + out.file + ".csv"));
    const MeshCsv ours = readMeshCsv((dir / "out" / "gauges" / (std::string(out.file) + ".csv")).string());
    ASSERT_EQ(ours.header.size(), 3u);
    EXPECT_EQ(ours.header[0], ds.header[0]);
    EXPECT_EQ(ours.header[2], ds.header[2]);
    const std::vector<std::string> a = fields(ours.header[1]), b = fields(ds.header[1]);
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
      if (k < 8)
        EXPECT_EQ(a[k], b[k]) << "field " << k;
      else
        EXPECT_NEAR(std::stod(a[k]), std::stod(b[k]), 1e-7) << "field " << k;
    }
    size_t matched = 0;
    for (const std::vector<double>& row : ds.rows) {
      const auto it = std::find_if(ours.rows.begin(), ours.rows.end(),
                                   [&](const std::vector<double>& q) { return std::abs(q[0] - row[0]) < 1e-6; });
      ASSERT_NE(it, ours.rows.end()) << "no row of ours at t = " << row[0];
      ASSERT_EQ(it->size(), row.size());
      const double worst = worstRatio(*it, row, out.abs, out.rel);
      EXPECT_LE(worst, 1.0) << "t = " << row[0];
      ++matched;
    }
    EXPECT_GE(matched, 3u);
  }
  // The Raw gauge's .mbi4 holds the values of its CSV files, and DualSPHysics' values within the
  // CSV's bounds.
  const std::string bin = (dir / "out" / "gauges" / "Raw.mbi4").string();
  const std::string dsBin = fmt::format("{}/engine/tests/data/meshdata/MeshGauge2D_Raw.mbi4", SPH_SOURCE_DIR);
  for (const Output& out : {Output{"Vel", 1e-3, 2e-4}, Output{"Rhop", 1e-2, 2e-4}, Output{"Zsurf", 3e-5, 0}}) {
    SCOPED_TRACE(std::string("Raw.mbi4 ") + out.file);
    const MeshData ours = readMeshData(bin, out.file);
    const MeshData csv = readMeshData((dir / "out" / "gauges" / (std::string("Raw_") + out.file + ".csv")).string(), "");
    const MeshData ds = readMeshData(dsBin, out.file);
    ASSERT_EQ(ours.values.size(), csv.values.size());
    for (size_t k = 0; k < ours.values.size(); ++k)
      ASSERT_NEAR(ours.values[k], csv.values[k], 1.2e-7 * std::fabs(ours.values[k])) << "value " << k;
    ASSERT_GE(ours.times.size(), ds.times.size());
    const size_t per = ds.valuesPerTime();
    for (size_t t = 0; t < ds.times.size(); ++t) {
      EXPECT_NEAR(ours.times[t], ds.times[t], 1e-6);
      const std::vector<double> a(ours.frame(t), ours.frame(t) + per), b(ds.frame(t), ds.frame(t) + per);
      EXPECT_LE(worstRatio(a, b, out.abs, out.rel), 1.0) << "t = " << ds.times[t];
    }
  }
}

TEST(MeshGaugeRun, FollowsDualSPHysics) { expectMeshGaugesFollowDualSPHysics(Device::Cpu, "cell"); }

class MeshGaugeRunGpu : public ::testing::TestWithParam<const char*> {};

TEST_P(MeshGaugeRunGpu, FollowsDualSPHysics) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  expectMeshGaugesFollowDualSPHysics(Device::Gpu, GetParam());
}

INSTANTIATE_TEST_SUITE_P(Strategies, MeshGaugeRunGpu, ::testing::Values("cell", "verlet"));

// The binary file against DualSPHysics' own (MeshGauge2D_Raw.mbi4, written by DualSPHysics 5.4 for
// the Raw gauge of MeshGauge2D_Def.xml): a time item made from DualSPHysics' values is its bytes
// exactly; the first item holds its values (but the application's name, and the direction's last
// digit, which DualSPHysics' build rounds to 0.99999994).
TEST(MeshGaugeBin, DualSPHysicsLayout) {
  const CaseDefinition c = loadCase(test::dualsphysicsData("MeshGauge2D_Def.xml"));
  const GaugeSpec* raw = nullptr;
  for (const GaugeSpec& g : c.gauges.items)
    if (g.name == "Raw") raw = &g;
  ASSERT_TRUE(raw);
  EXPECT_TRUE(raw->mesh.bin && raw->mesh.csv);
  const std::string path = fmt::format("{}/engine/tests/data/meshdata/MeshGauge2D_Raw.mbi4", SPH_SOURCE_DIR);
  const std::string ds = readInputFile(path, "fixture");
  // The second time item, from DualSPHysics' values.
  MeshGaugeValues v;
  double time = 0;
  for (const char* var : {"Vel", "Rhop", "Zsurf"}) {
    const MeshData m = readMeshData(path, var);
    std::vector<double>& out = std::string(var) == "Vel" ? v.vel : std::string(var) == "Rhop" ? v.rho : v.zsurf;
    out.assign(m.frame(1), m.frame(1) + m.valuesPerTime());
    time = m.times[1];
  }
  const std::string item = meshGaugeBinItem(*raw, v, 1, time);
  const size_t at = ds.find("TIME_000001") - 4 - 10 - 4;  // its size, "\nITEM\n" and its name's length
  const size_t end = ds.find("TIME_000002") - 4 - 10 - 4;
  ASSERT_LT(at, end);
  EXPECT_EQ(item.size(), end - at);
  EXPECT_TRUE(item == ds.substr(at, end - at)) << "the time item's bytes differ from DualSPHysics'";

  const MeshGrid grid = meshGaugeGrid(*raw);
  const std::string head = meshGaugeBinHeader(*raw, grid);
  const std::string ours = (test::tempDir("mesh_bin") / "Raw.mbi4").string();
  test::writeFile(ours, head);
  const jbd::File a(ours, "mesh-data file"), b(path, "mesh-data file");
  EXPECT_EQ(a.code(), b.code());
  EXPECT_EQ(a.root().name, b.root().name);
  ASSERT_EQ(a.root().values.size(), b.root().values.size());
  for (const auto& [key, value] : b.root().values) {
    SCOPED_TRACE(key);
    const jbd::Value* mine = a.root().value(key);
    ASSERT_TRUE(mine);
    EXPECT_EQ(mine->type, value.type);
    if (key == "AppName") {
      EXPECT_EQ(mine->text, jbd::writerAppName());
    } else {
      EXPECT_EQ(mine->text, value.text);
      for (int k = 0; k < 3; ++k) EXPECT_NEAR(mine->number[k], value.number[k], 1e-7);
    }
  }
  const size_t dsHead = ds.find("TIME_000000") - 4 - 10 - 4;
  EXPECT_EQ(head.size() - jbd::writerAppName().size(), dsHead - std::string("DualSPHysics5 v5.4.355 (08-04-2025)").size());
}

}  // namespace
}  // namespace sph
