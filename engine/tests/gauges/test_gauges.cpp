// Gauges: SPH interpolation at points (gauges/gauge_sampler.h) against fields with known values, the
// timing and files of the recorder (gauges/gauge_recorder.h), and a short run of testcases/DamBreak2D.xml
// that writes OUT/gauges/*.csv.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "case/loader.h"
#include "gauges/gauge_recorder.h"
#include "gauges/gauge_sampler.h"
#include "platform/gpu_runtime.h"
#include "run/simulation.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace sph {
namespace {

namespace fs = std::filesystem;

constexpr double kRho0 = 1000;
constexpr double kG = 9.81;

// A tank of water at rest, `depth` m deep and 0.5 m wide (and long in 3D), with floor and walls.
CaseDefinition tank(bool twoD, double dp, double depth, const std::string& name) {
  const std::string y = twoD ? R"(y="0")" : R"(y="-0.1")";
  const std::string y1 = twoD ? R"(y="0")" : R"(y="0.6")";
  const std::string definition = R"(<definition dp=")" + std::to_string(dp) + R"("><pointmin x="-0.1" )" + y +
                                 R"( z="-0.1" /><pointmax x="0.6" )" + y1 + R"( z="1" /></definition>)";
  const std::string boxY = twoD ? R"(y="-1")" : R"(y="0")";
  const std::string sizeY = twoD ? R"(y="2")" : R"(y="0.5")";
  const std::string commands = R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" )" + boxY + R"( z="0" /><size x="0.5" )" + sizeY + R"( z=")" +
                               std::to_string(depth) + R"(" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right | front | back</boxfill><point x="0" )" + boxY +
                               R"( z="0" /><size x="0.5" )" + sizeY + R"( z="0.8" /></drawbox>)";
  const auto dir = test::tempDir("gauges_" + name);
  return loadCase(test::writeFile(dir / "Tank_Def.xml",
                                  test::caseXml(definition, commands, R"(<parameter key="Kernel" value="2" />
<parameter key="TimeMax" value="0.1" />
<parameter key="TimeOut" value="0.01" />)")));
}

// The initial state of a case (hydrostatic densities from rhopgradient 2), on the CPU.
ParticleSnapshot initialState(const CaseDefinition& c, SimParameters* p) {
  RunOptions o;
  o.device = Device::Cpu;
  o.writeOutput = false;
  o.progress = false;
  o.threads = 2;
  Simulation sim(c, o);
  *p = sim.parameters();
  return sim.snapshot();
}

GaugeKernel kernelOf(const SimParameters& p) { return {p.kernel, p.dim, p.h, p.massFluid}; }

double topFluid(const ParticleSnapshot& s) {
  double top = -1e300;
  for (size_t i = 0; i < s.count(); ++i)
    if (s.type[i] == 1) top = std::max(top, s.pos[3 * i + 2]);
  return top;
}

class SwlAtRest : public ::testing::TestWithParam<bool> {};

// The swl gauge on a flat free surface: a lattice particle stands for the cube of side dp around
// it, so the water ends dp/2 above the top particle row. With DualSPHysics' default mass limit
// (0.5 m in 3D, 0.4 m in 2D) the crossing lies where about half the kernel is in water, i.e. at
// that surface up to the lattice's discreteness: within 0.3 dp of it (measured: +0.18 dp in 2D,
// where 0.4 m sits a little above the half-covered kernel, and within 0.05 dp in 3D; the gauge's
// points are dp/4 apart, so the interpolation between them adds little).
TEST_P(SwlAtRest, FindsTheWaterDepth) {
  const bool twoD = GetParam();
  const double dp = twoD ? 0.02 : 0.05;
  const double depth = 0.4;
  const CaseDefinition c = tank(twoD, dp, depth, twoD ? "swl2d" : "swl3d");
  SimParameters p;
  const ParticleSnapshot s = initialState(c, &p);
  const double surface = topFluid(s) + 0.5 * dp;
  ASSERT_NEAR(surface, depth, 0.6 * dp) << "the tank holds the water column asked for";
  const FluidGrid grid(s, kernelOf(p));
  const GaugeSpec spec = [&] {
    GaugeSpec g;
    g.kind = GaugeKind::Swl;
    g.pointDp = 0.25;
    g.pointDpIsCoef = true;
    return g;
  }();
  const ResolvedGauge r = resolveGauge(spec, p);
  for (double x : {0.1, 0.25, 0.37}) {
    const double y = twoD ? 0.0 : 0.25;
    const GaugePoint w = surfaceAlongLine(grid, {x, y, -0.05}, {x, y, 0.9}, r.pointDp, r.massLimit);
    EXPECT_NEAR(w.z, surface, 0.3 * dp) << "x=" << x;
    EXPECT_DOUBLE_EQ(w.x, x);
  }
  // A line that starts in the air finds no water (point0); one that stays in the water, point2.
  const GaugePoint dry = surfaceAlongLine(grid, {0.25, 0, 0.6}, {0.25, 0, 0.9}, r.pointDp, r.massLimit);
  EXPECT_EQ(dry.z, 0.6);
  const GaugePoint wet = surfaceAlongLine(grid, {0.25, 0.25, 0.1}, {0.25, 0.25, 0.2}, r.pointDp, r.massLimit);
  EXPECT_EQ(wet.z, 0.2);
}

INSTANTIATE_TEST_SUITE_P(Dims, SwlAtRest, ::testing::Values(true, false),
                         [](const auto& info) { return info.param ? "2D" : "3D"; });

TEST(GaugeSampler, SwlLinePieces) {
  // DualSPHysics' rule: round down, plus one piece when the remainder is at least a tenth.
  EXPECT_EQ(swlSegments(1.0, 0.1), 10);
  EXPECT_EQ(swlSegments(1.0, 0.3), 4);    // remainder 0.1 >= 0.03
  EXPECT_EQ(swlSegments(1.0, 0.33), 3);   // remainder 0.01 < 0.033
  EXPECT_EQ(swlSegments(0.05, 0.3), 1);
}

// A 3D block of fluid moving with one velocity, densities varying by a few percent (so the
// particle volumes differ): the Shepard-normalised interpolation returns that velocity exactly
// (to float rounding of the stored values, relative 1e-6) anywhere a particle is in reach, also at
// the block's face where only half the kernel is covered; in air it reports 0 with shepard 0.
TEST(GaugeSampler, UniformVelocityFieldIsReturned) {
  const double dp = 0.05;
  const float v[3] = {0.3f, -0.2f, 0.7f};
  ParticleSnapshot s;
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j)
      for (int k = 0; k < 12; ++k) {
        s.pos.insert(s.pos.end(), {i * dp, j * dp, k * dp});
        s.vel.insert(s.vel.end(), {v[0], v[1], v[2]});
        s.rho.push_back(float(kRho0 * (1 + 0.03 * std::sin(i + 2.0 * j + 3.0 * k))));
        s.press.push_back(0);
        s.type.push_back(1);
      }
  // One boundary particle moving fast near the probe must be ignored (gauges read fluid only).
  s.pos.insert(s.pos.end(), {0.27, 0.27, 0.27});
  s.vel.insert(s.vel.end(), {50, 50, 50});
  s.rho.push_back(float(kRho0));
  s.press.push_back(0);
  s.type.push_back(0);
  const double h = std::sqrt(3.0) * dp;
  const FluidGrid grid(s, {KernelKind::Wendland, 3, h, kRho0 * dp * dp * dp});
  for (const GaugePoint x : {GaugePoint{0.27, 0.27, 0.27}, GaugePoint{0.3, 0.31, 0.55}, GaugePoint{0.3, 0.3, 0.57},
                             GaugePoint{-0.02, 0.2, 0.2}}) {
    const PointSample r = samplePoint(grid, x);
    ASSERT_GT(r.shepard, 0);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(r.vel[a], v[a], 1e-6 * std::fabs(v[a])) << "axis " << a;
  }
  // Inside, the kernel sum is the lattice's partition of unity: 1 within a few percent.
  EXPECT_NEAR(samplePoint(grid, {0.27, 0.27, 0.27}).shepard, 1.0, 0.03);
  // At the face (z = 0.55 + dp/2 is the block's edge) about half the kernel is covered.
  EXPECT_LT(samplePoint(grid, {0.3, 0.3, 0.575}).shepard, 0.7);
  const PointSample air = samplePoint(grid, {0.3, 0.3, 1.5});
  EXPECT_EQ(air.shepard, 0);
  EXPECT_EQ(air.vel[0], 0);
  EXPECT_EQ(air.press, 0);
}

// Fluid spread far apart (a splash 1 km away): the grid coarsens its cells instead of allocating
// billions of them, and every point still sees exactly its own neighbours.
TEST(GaugeSampler, SpreadOutFluid) {
  const double dp = 0.05;
  ParticleSnapshot s;
  auto add = [&](double x, double y, double z, float vx) {
    s.pos.insert(s.pos.end(), {x, y, z});
    s.vel.insert(s.vel.end(), {vx, 0.f, 0.f});
    s.rho.push_back(float(kRho0));
    s.press.push_back(0);
    s.type.push_back(1);
  };
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 6; ++k) add(i * dp, j * dp, k * dp, 1.f);
  add(1000, 1000, 1000, -2.f);
  const FluidGrid grid(s, {KernelKind::Wendland, 3, std::sqrt(3.0) * dp, kRho0 * dp * dp * dp});
  EXPECT_EQ(samplePoint(grid, {0.1, 0.1, 0.1}).vel[0], 1.0);
  EXPECT_EQ(samplePoint(grid, {1000, 1000, 1000.02}).vel[0], -2.0);
  EXPECT_EQ(samplePoint(grid, {500, 500, 500}).shepard, 0.0);
}

// The pressure gauge in a 2D tank at rest (initial hydrostatic densities, rhopgradient 2): the
// particles' Tait pressure is rho0 g (top - z) with `top` the top particle row, and the
// Shepard-normalised interpolation of this linear field is exact up to the lattice's
// discreteness (and float storage of the particle pressures): against rho0 g (top - z) within
// 0.02 rho0 g dp (about 4 Pa here). Against rho0 g (H - z) with H = top + dp/2, the water surface,
// the difference is rho0 g dp/2 plus that error: within rho0 g dp.
TEST(GaugeSampler, HydrostaticPressure) {
  const double dp = 0.02;
  const CaseDefinition c = tank(true, dp, 0.4, "press2d");
  SimParameters p;
  const ParticleSnapshot s = initialState(c, &p);
  const double surface = topFluid(s) + 0.5 * dp;
  const FluidGrid grid(s, kernelOf(p));
  int checked = 0;
  for (double x : {0.13, 0.25, 0.36})
    for (double z = 0.05; z < surface - 2 * dp; z += 0.047) {
      const PointSample r = samplePoint(grid, {x, 0, z});
      EXPECT_NEAR(r.press, kRho0 * kG * (surface - z), kRho0 * kG * dp) << "x=" << x << " z=" << z;
      EXPECT_NEAR(r.press, kRho0 * kG * (surface - 0.5 * dp - z), 0.02 * kRho0 * kG * dp) << "x=" << x << " z=" << z;
      ++checked;
    }
  EXPECT_GE(checked, 18);
}

// A recorder fed snapshots at chosen times: computedt 0.005 inside computetime [0.004, 0.03],
// rows every outputdt 0.01; a gauge with output off writes nothing; computedt 0 samples every call.
TEST(GaugeRecorder, TimingAndFiles) {
  const auto dir = test::tempDir("gauges_recorder") / "gauges";
  fs::create_directories(dir);
  test::writeFile(dir / "Stale.csv", "old run\n");
  CaseGauges gauges;
  GaugeSpec a;
  a.kind = GaugeKind::Pressure;
  a.name = "A";
  a.point = {0.05, 0, 0.05};
  a.timing.output = true;
  a.timing.computeDt = 0.005;
  a.timing.computeStart = 0.004;
  a.timing.computeEnd = 0.03;
  a.timing.outputDt = 0.01;
  GaugeSpec b = a;
  b.name = "B";
  b.timing = {};
  b.timing.output = true;
  b.timing.computeDt = 0.0;
  b.timing.outputDt = 0.0;
  GaugeSpec off = a;
  off.name = "Off";
  off.timing.output = false;
  gauges.items = {a, b, off};
  SimParameters p;
  p.dim = 2;
  p.dp = 0.05;
  p.h = std::sqrt(2.0) * p.dp;
  p.massFluid = kRho0 * p.dp * p.dp;
  p.timeOut = 0.1;
  GaugeRecorder rec(gauges, p, dir);
  // Not a gauge of this case: the engine did not write it, so it stays (an earlier run's files
  // of this case's gauges are the output folder's to remove, output/output_folder.h).
  EXPECT_TRUE(fs::exists(dir / "Stale.csv")) << "a file the engine did not write was removed";

  ParticleSnapshot s;
  s.pos = {0.05, 0, 0.05};
  s.vel = {0, 0, 0};
  s.rho = {float(kRho0)};
  s.press = {123.5f};
  s.type = {1};
  const std::vector<double> times = {0, 0.003, 0.0049999999999, 0.0062, 0.0099, 0.0101, 0.0152, 0.0201, 0.0305, 0.04};
  std::vector<double> due;
  for (double t : times) {
    if (!rec.due(t)) continue;
    due.push_back(t);
    s.time = t;
    rec.sample(s);
    if (t == 0.0101) rec.flush();
  }
  EXPECT_EQ(due, times) << "gauge B (computedt 0) is due at every call";
  EXPECT_TRUE(fs::exists(dir / "A.csv.part")) << "rows are appended to .part files while the run goes on";
  EXPECT_FALSE(fs::exists(dir / "A.csv"));
  rec.finish();
  EXPECT_FALSE(fs::exists(dir / "A.csv.part"));
  EXPECT_FALSE(fs::exists(dir / "Off.csv"));
  auto lines = [&](const char* name) {
    std::ifstream in(dir / name);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  };
  // A: computed at 0.0049999999999 (a multiple within rounding), 0.0101, 0.0152, 0.0201 (0.0305 is
  // past computetime's end); rows when outputdt allows: 0.0049999999999 (first), 0.0101 and
  // 0.0201.
  const std::vector<std::string> rowsA = lines("A.csv");
  ASSERT_EQ(rowsA.size(), 4u);
  EXPECT_EQ(rowsA[0], "time [s];press [Pa];posx [m];posy [m];posz [m];shepard [-]");
  EXPECT_EQ(rowsA[1].rfind("0.005;123.5;", 0), 0u) << rowsA[1];  // 9 significant digits
  EXPECT_EQ(rowsA[2].rfind("0.0101;", 0), 0u) << rowsA[2];
  EXPECT_EQ(rowsA[3].rfind("0.0201;", 0), 0u) << rowsA[3];
  EXPECT_EQ(lines("B.csv").size(), times.size() + 1);
}

// DualSPHysics' gauges sum with the Wendland kernel even when the case uses the cubic spline: a
// recorder of a cubic-spline run writes the Wendland interpolation (the two differ by percents).
TEST(GaugeRecorder, SumsWithWendlandWhateverTheCaseKernel) {
  const CaseDefinition c = tank(true, 0.02, 0.4, "press_cubic");
  SimParameters p;
  ParticleSnapshot s = initialState(c, &p);
  s.time = 0;
  p.kernel = KernelKind::Cubic;
  const GaugePoint x{0.25, 0, 0.385};  // near the surface, where the kernel's shape shows
  const double wendland = samplePoint(FluidGrid(s, {KernelKind::Wendland, p.dim, p.h, p.massFluid}), x).shepard;
  const double cubic = samplePoint(FluidGrid(s, {KernelKind::Cubic, p.dim, p.h, p.massFluid}), x).shepard;
  ASSERT_GT(std::abs(cubic - wendland), 1e-4 * wendland) << "the test needs kernels that differ here";
  const auto dir = test::tempDir("gauges_cubic") / "gauges";
  fs::create_directories(dir);
  CaseGauges gauges;
  GaugeSpec g;
  g.kind = GaugeKind::Pressure;
  g.name = "P";
  g.point = x;
  g.timing.output = true;
  gauges.items = {g};
  GaugeRecorder rec(gauges, p, dir);
  ASSERT_TRUE(rec.due(0));
  rec.sample(s);
  rec.finish();
  std::ifstream in(dir / "P.csv");
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  const double written = std::stod(row.substr(row.rfind(';') + 1));  // the shepard column
  EXPECT_NEAR(written, wendland, 1e-6 * wendland);
}

std::vector<std::vector<double>> readCsv(const fs::path& path, std::string* header) {
  std::ifstream in(path);
  std::getline(in, *header);
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<double> row;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ';');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

// testcases/DamBreak2D.xml at dp 0.05 (about 1,000 particles) for 0.012 s with TimeOut 0.002:
// both swl gauges write a CSV with DualSPHysics' columns, a row at t = 0 and then one at the first
// step at or after each multiple of computedt (TimeOut 0.002 for Swl_x02, 0.005 for Swl_z003).
// A whole run on `device` (the GPU sums on the device, gauges/device_gauges.h; the CPU bins snapshots).
void expectDamBreak2DGaugeFiles(Device device) {
  LoadOptions lo;
  lo.dpOverride = 0.05;
  const CaseDefinition c = loadCase(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml", lo);
  const auto out = test::tempDir(device == Device::Gpu ? "gauges_dambreak2d_gpu" : "gauges_dambreak2d");
  RunOptions o;
  o.device = device;
  o.outDir = out.string();
  o.timeMax = 0.012;
  o.timeOut = 0.002;
  o.writeVtk = false;
  o.progress = false;
  o.threads = 2;
  Simulation sim(c, o);
  const RunReport r = sim.run();
  ASSERT_EQ(r.status, "completed");
  EXPECT_FALSE(fs::exists(out / "gauges" / "Swl_x02.csv.part"));
  uint64_t gaugeCalls = 0;
  for (const PhaseTime& ph : r.phases)
    if (ph.name == "SU-Gauges") gaugeCalls = ph.calls;

  const double dp = 0.05;
  std::string header;
  for (const auto& [name, dt] : {std::pair<std::string, double>{"Swl_x02", 0.002}, {"Swl_z003", 0.005}}) {
    const auto rows = readCsv(out / "gauges" / (name + ".csv"), &header);
    EXPECT_EQ(header, "time [s];swlx [m];swly [m];swlz [m];pos0x [m];pos0y [m];pos0z [m];pos2x [m];pos2y [m];pos2z [m]");
    // 1e-9 s: the rounding allowance of the recorder's "at or after a multiple".
    ASSERT_EQ(rows.size(), size_t(std::floor(r.simulatedTime / dt + 1e-9)) + 1) << name;
    for (size_t k = 0; k < rows.size(); ++k) {
      ASSERT_EQ(rows[k].size(), 10u);
      EXPECT_GE(rows[k][0], k * dt - 1e-9) << name << " row " << k;
      EXPECT_LT(rows[k][0], k * dt + 1e-3) << name << " row " << k << ": a step is ~1e-4 s here";
    }
    EXPECT_EQ(rows[0][0], 0.0);
  }
  // Swl_x02, a vertical line at x = 0.2 through the 2 m column: the surface at 2 m + dp/2 within
  // dp/2 (as for the tank at rest); it barely moves in 12 ms.
  const auto x02 = readCsv(out / "gauges" / "Swl_x02.csv", &header);
  for (const auto& row : x02) {
    EXPECT_NEAR(row[3], 2.0 + 0.5 * dp, 0.5 * dp) << "t=" << row[0];
    EXPECT_DOUBLE_EQ(row[1], 0.2);
  }
  // Swl_z003, a horizontal line 3 cm above the floor: the front of the column, at x = 1 m + dp/2
  // at first; within 12 ms it has moved less than dp (it starts from rest).
  const auto z003 = readCsv(out / "gauges" / "Swl_z003.csv", &header);
  for (const auto& row : z003) EXPECT_NEAR(row[1], 1.0 + 0.5 * dp, dp) << "t=" << row[0];
  EXPECT_GE(gaugeCalls, x02.size());
  EXPECT_LE(gaugeCalls, x02.size() + z003.size() - 1) << "one snapshot serves every gauge due at a step";
}

// Every point of a swl line is evaluated at each sample: a line of over a million points (a
// pointdp typed in the wrong unit) is refused before the run, naming the gauge.
TEST(GaugeRecorder, ASwlLineOfOverAMillionPointsIsAnErrorNamingTheGauge) {
  SimParameters p;
  p.dim = 2;
  p.dp = 0.01;
  p.timeOut = 0.1;
  p.massFluid = 0.1;
  CaseGauges gauges;
  GaugeSpec g;
  g.kind = GaugeKind::Swl;
  g.name = "TooFine";
  g.line = 42;
  g.point0 = {0, 0, 0};
  g.point2 = {0, 0, 2};
  g.pointDp = 1e-6;  // 2 million pieces
  g.timing.output = true;
  gauges.items.push_back(g);
  try {
    GaugeRecorder rec(gauges, p, test::tempDir("gauges_toofine"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("gauge 'TooFine' (line 42)"), std::string::npos) << e.what();
  }
  gauges.items[0].pointDp = 2e-6;  // exactly a million pieces is still accepted
  EXPECT_NO_THROW(GaugeRecorder(gauges, p, test::tempDir("gauges_toofine")));

  // ... but not eleven such lines, evaluated together at every sample.
  for (int k = 1; k <= 10; ++k) {
    gauges.items.push_back(gauges.items[0]);
    gauges.items.back().name = "Line" + std::to_string(k);
  }
  try {
    GaugeRecorder rec(gauges, p, test::tempDir("gauges_toofine"));
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("11000011 points in all"), std::string::npos) << e.what();
  }
}

TEST(GaugeRun, DamBreak2DWritesGaugeFiles) { expectDamBreak2DGaugeFiles(Device::Cpu); }

TEST(GaugeRun, DamBreak2DWritesGaugeFilesOnTheGpu) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  expectDamBreak2DGaugeFiles(Device::Gpu);
}

TEST(GaugeRun, NoOutputWritesNoGauges) {
  LoadOptions lo;
  lo.dpOverride = 0.05;
  const CaseDefinition c = loadCase(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml", lo);
  const auto out = test::tempDir("gauges_nooutput");
  RunOptions o;
  o.device = Device::Cpu;
  o.outDir = out.string();
  o.maxSteps = 5;
  o.writeOutput = false;
  o.progress = false;
  o.threads = 2;
  Simulation sim(c, o);
  const RunReport r = sim.run();
  EXPECT_FALSE(fs::exists(out / "gauges"));
  for (const PhaseTime& ph : r.phases) EXPECT_NE(ph.name, "SU-Gauges");
}

}  // namespace
}  // namespace sph
