// Acceleration inputs (<special><accinputs>): the per-particle formula against hand-computed
// values (physics/acc_input_physics.h), which particles it touches, the tables' interpolation and their
// velocities integrated row by row (motion/acc_inputs.h), the reader and its errors, the data file in
// the checkpoint's case fingerprint, and a CPU run where a free block of water accelerates as
// the input says.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "case/loader.h"
#include "motion/acc_inputs.h"
#include "output/checkpoint.h"
#include "physics/acc_input_physics.h"
#include "run/simulation.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kG = -9.81;

struct OneParticle {
  Real4<double> pos{1.5, 0.25, -0.5, 0};
  Real4<double> vel{0.4, -0.1, 0.2, 1000};
  Real4<double> ace{0.1, -0.2, 0.3, 5};
  uint32_t code = code::make(false, 0);
  int16_t slot = 0;
  AccInputValues v;

  OneParticle() {
    v.active = 1;
    v.accLin[0] = 1, v.accLin[1] = 2, v.accLin[2] = 3;
  }
  Real4<double> run(double gz = kG) {
    AccInputTable t;
    t.slotOfMk = &slot;
    t.nMk = 1;
    t.inputs = &v;
    t.gravity[2] = gz;
    accInputParticle<double>(0, &pos, &vel, &code, &ace, t);
    return ace;
  }
};

TEST(AccInputPhysics, LinearAccelerationWithAndWithoutGlobalGravity) {
  OneParticle p;
  const Real4<double> a = p.run();
  EXPECT_DOUBLE_EQ(a.x, 1.1);
  EXPECT_DOUBLE_EQ(a.y, 1.8);
  EXPECT_DOUBLE_EQ(a.z, 3.3);
  EXPECT_EQ(a.w, 5.0);  // drho/dt untouched
  // globalgravity 0: the gravity the integrator adds afterwards is taken away here.
  OneParticle q;
  q.v.globalGravity = 0;
  const Real4<double> b = q.run();
  EXPECT_DOUBLE_EQ(b.x, 1.1);
  EXPECT_DOUBLE_EQ(b.z, 3.3 + 9.81);
}

// d = r - c = (0.5, 0.25, -1); dW = (0.5, -1, 2), W = (1, 2, -0.5), V = (3, -4, 5),
// v = (0.4, -0.1, 0.2):
//   dW x d          = (0.5, 1.5, 0.625)
//   W x (W x d)     = (-1.125, 1.6875, 4.5)
//   Coriolis as DualSPHysics writes it:
//     x: 2 Wy vz - 2 Wz (vy - Vy) = 0.8 + 3.9  = 4.7
//     y: 2 Wz vx - 2 Wx (vz - Vz) = -0.4 + 9.6 = 9.2
//     z: 2 Wx vy - 2 Wy (vx - Vx) = -0.2 + 10.4 = 10.2
// (2 W x (v - V) would give (-15.3, 9.2, 5.4) instead: the test tells them apart).
TEST(AccInputPhysics, RotatingFrameTermsAsDualSPHysicsWritesThem) {
  for (bool gravity : {true, false}) {
    OneParticle p;
    p.v.globalGravity = gravity ? 1 : 0;
    p.v.angular = 1;
    const double c[3] = {1, 0, 0.5}, dw[3] = {0.5, -1, 2}, w[3] = {1, 2, -0.5}, vl[3] = {3, -4, 5};
    for (int k = 0; k < 3; ++k) {
      p.v.centre[k] = c[k];
      p.v.accAng[k] = dw[k];
      p.v.velAng[k] = w[k];
      p.v.velLin[k] = vl[k];
    }
    const Real4<double> a = p.run();
    // Each sum has a handful of terms of order 10: a few ulps of 16.
    const double tol = 1e-13;
    EXPECT_NEAR(a.x, 0.1 + 1 + 0.5 - 1.125 + 4.7, tol);
    EXPECT_NEAR(a.y, -0.2 + 2 + 1.5 + 1.6875 + 9.2, tol);
    EXPECT_NEAR(a.z, 0.3 + 3 + 0.625 + 4.5 + 10.2 + (gravity ? 0 : 9.81), tol);
  }
}

TEST(AccInputPhysics, TouchesOnlyActiveInputsOfItsMk) {
  const uint32_t fluid = code::make(false, 0);
  struct Case {
    uint32_t code;
    int16_t slot;
    bool active;
    bool changed;
  };
  const Case cases[] = {
      {fluid, 0, true, true},
      {code::makeFloating(0), 0, true, true},  // a floating body's particles, by their mk
      {fluid, -1, true, false},                // another mk
      {fluid, 0, false, false},                // outside [start, end]
      {code::make(true, 0), 0, true, false},   // a wall
      {fluid | code::kParkedBit, 0, true, false},
      {fluid | code::kExcludedBit, 0, true, false},
  };
  for (const Case& k : cases) {
    OneParticle p;
    p.code = k.code;
    p.slot = k.slot;
    p.v.active = k.active ? 1 : 0;
    const Real4<double> a = p.run();
    EXPECT_EQ(a.x != 0.1, k.changed) << std::hex << k.code << " slot " << k.slot;
  }
  // An mk index past the table's end (a case's mk without any input may be last).
  OneParticle p;
  p.code = code::make(false, 3);
  EXPECT_EQ(p.run().x, 0.1);
}

TEST(AccInputPhysics, SinglePrecisionRoundsOnce) {
  Real4<float> pos{1.5f, 0.25f, -0.5f, 0}, vel{0.4f, -0.1f, 0.2f, 1000}, ace{0.1f, -0.2f, 0.3f, 5};
  const uint32_t code = code::make(false, 0);
  const int16_t slot = 0;
  AccInputValues v;
  v.active = 1;
  v.accLin[0] = 1e-9;  // lost in float unless the sum is done in double and rounded once
  AccInputTable t{&slot, 1, &v, {0, 0, kG}};
  accInputParticle<float>(0, &pos, &vel, &code, &ace, t);
  EXPECT_EQ(ace.x, float(double(0.1f) + 1e-9));
}

AccInput table(std::vector<double> time, std::vector<std::array<double, 6>> acc) {
  AccInput in;
  in.time = std::move(time);
  in.acc = std::move(acc);
  accInputVelocities(in);
  return in;
}

TEST(AccInputSeries, VelocitiesIntegrateEachRowsAcceleration) {
  // CaseForces' CaseForcesData_0.csv begins so: 15 m/s^2 up at t = 1 gives 15 m/s there, the
  // acceleration of the row times the interval before it (not the interval's mean, 7.5 m/s).
  const AccInput in = table({0, 1, 3, 3.1}, {{0, 0, 0, 0, 0, 0}, {0, 0, 15, 0, 0, 0}, {0, 0, 0, 0, 0, 0},
                                             {1, 0, 0, 0, 6.18, 0}});
  ASSERT_EQ(in.vel.size(), 4u);
  EXPECT_EQ(in.vel[0][2], 0.0);
  EXPECT_DOUBLE_EQ(in.vel[1][2], 15.0);
  EXPECT_DOUBLE_EQ(in.vel[2][2], 15.0);
  EXPECT_NEAR(in.vel[3][0], 0.1, 1e-15);  // 1 * (3.1 - 3): the interval carries 3.1's rounding
  EXPECT_NEAR(in.vel[3][4], 0.618, 1e-15);
  EXPECT_DOUBLE_EQ(in.vel[3][2], 15.0);
}

TEST(AccInputSeries, InterpolatesInTimeAndHoldsTheEnds) {
  AccInput in = table({0.5, 1, 1, 2}, {{1, 0, 0, 0, 0, 0}, {3, 0, 0, 0, 2, 0}, {5, 0, 0, 0, 0, 0}, {9, 0, 0, 0, 0, 0}});
  // Velocities: 0, 3 * 0.5 = 1.5, 1.5 (no interval), 1.5 + 9 = 10.5.
  auto at = [&](double t) { return accInputValuesAt(in, t); };
  EXPECT_EQ(at(0).accLin[0], 1.0);  // before the first row: the first row's
  EXPECT_EQ(at(0).velLin[0], 0.0);
  EXPECT_DOUBLE_EQ(at(0.75).accLin[0], 2.0);
  EXPECT_DOUBLE_EQ(at(0.75).velLin[0], 0.75);
  EXPECT_DOUBLE_EQ(at(0.75).accAng[1], 1.0);
  EXPECT_EQ(at(0.75).angular, 1u);
  EXPECT_EQ(at(1).accLin[0], 3.0);  // a time given twice: the first row's at it
  EXPECT_DOUBLE_EQ(at(1.5).accLin[0], 7.0);
  EXPECT_DOUBLE_EQ(at(1.5).velLin[0], 6.0);
  EXPECT_EQ(at(1.5).angular, 0u);  // no angular acceleration: no rotating-frame terms
  EXPECT_EQ(at(7).accLin[0], 9.0);  // after the last row: the last row's
  EXPECT_DOUBLE_EQ(at(7).velLin[0], 10.5);
  EXPECT_EQ(at(7).active, 1u);
  in.start = 1;
  in.end = 2;
  EXPECT_EQ(at(0.99).active, 0u);
  EXPECT_EQ(at(1).active, 1u);  // both ends included
  EXPECT_EQ(at(2).active, 1u);
  EXPECT_EQ(at(2.01).active, 0u);
}

// A 2D tank with two fluid mks (0 on the left, 1 on the right) and a floating box (mkbound 2),
// `special` inside <special>.
std::string accCase(const std::string& special) {
  return fmt::format(R"(<?xml version="1.0" encoding="UTF-8" ?>
<case>
  <casedef>
    <constantsdef><gravity x="0" y="0" z="-9.81" /><rhop0 value="1000" /><hswl value="0" auto="true" />
      <gamma value="7" /><speedsystem value="0" auto="true" /><coefsound value="20" />
      <speedsound value="0" auto="true" /><coefh value="1.0" /><cflnumber value="0.2" /></constantsdef>
    <mkconfig boundcount="240" fluidcount="9" />
    <geometry>
      <definition dp="0.02"><pointmin x="-0.1" y="0" z="-0.1" /><pointmax x="0.7" y="0" z="0.6" /></definition>
      <commands>
        <mainlist>
          <setdrawmode mode="full" />
          <setmkfluid mk="0" />
          <drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="0.28" y="2" z="0.2" /></drawbox>
          <setmkfluid mk="1" />
          <drawbox><boxfill>solid</boxfill><point x="0.3" y="-1" z="0" /><size x="0.3" y="2" z="0.2" /></drawbox>
          <setmkbound mk="0" />
          <drawbox><boxfill>bottom | left | right</boxfill><point x="0" y="-1" z="0" /><size x="0.6" y="2" z="0.4" /></drawbox>
          <setmkbound mk="2" />
          <drawbox><boxfill>solid</boxfill><point x="0.2" y="-1" z="0.24" /><size x="0.06" y="2" z="0.06" /></drawbox>
          <setmkbound mk="3" />
          <drawbox><boxfill>solid</boxfill><point x="0.5" y="-1" z="0.3" /><size x="0.04" y="2" z="0.04" /></drawbox>
        </mainlist>
      </commands>
    </geometry>
    <floatings><floating mkbound="2" relativeweight="0.5" /></floatings>
  </casedef>
  <execution>
    <special>
{special}
    </special>
    <parameters><parameter key="TimeMax" value="1" /></parameters>
  </execution>
</case>
)",
                     fmt::arg("special", special));
}

TEST(AccInputReader, ReadsInlineRowsAndDataFiles) {
  const auto dir = test::tempDir("accinputs_read");
  // Every separator DualSPHysics' data files allow, comments and blank lines.
  test::writeFile(dir / "acc.csv", "# time linx liny linz angx angy angz\n0;1;0;0;0;0.5;0\n\n1, 2, 0, 0, 0, 1.5, 0\n"
                                   "2\t2 0 0\t0 1.5 0\n");
  const std::string xml = accCase(R"(<accinputs>
  <accinput mkfluid="0-1">
    <time start="0.5" end="4" />
    <acccentre x="0.1" y="0" z="0.3" />
    <globalgravity value="0" />
    <acctimes><timevalue time="0" linx="1" /><timevalue time="2" linz="-3" angy="4" /><_timevalue time="9" /></acctimes>
  </accinput>
  <accinput mkbound="2">
    <acccentre x="0" y="0" z="0" comment="the box" />
    <globalgravity value="true" />
    <acctimesfile value="acc.csv" />
  </accinput>
  <accinput mkfluid="0" active="false"><acccentre x="0" y="0" z="0" /></accinput>
  <_accinput mkfluid="0" />
</accinputs>)");
  const CaseDefinition c = loadCase(test::writeFile(dir / "Read_Def.xml", xml));
  ASSERT_EQ(c.accInputs.size(), 2u);
  const AccInput& a = c.accInputs[0];
  EXPECT_FALSE(a.bound);
  EXPECT_EQ(a.mks, (std::vector<int>{0, 1}));
  ASSERT_EQ(a.mkIndex.size(), 2u);
  for (size_t k = 0; k < 2; ++k) {
    EXPECT_FALSE(c.mks[a.mkIndex[k]].bound);
    EXPECT_EQ(c.mks[a.mkIndex[k]].local, int(k));
  }
  EXPECT_EQ(a.start, 0.5);
  EXPECT_EQ(a.end, 4.0);
  EXPECT_FALSE(a.globalGravity);
  EXPECT_EQ(a.centre.x, 0.1f);  // DualSPHysics' single-precision centre
  EXPECT_EQ(a.centre.z, 0.3f);
  EXPECT_TRUE(a.file.empty());
  ASSERT_EQ(a.time.size(), 2u);  // the commented-out row is left out
  EXPECT_EQ(a.acc[0], (std::array<double, 6>{1, 0, 0, 0, 0, 0}));  // values left out are 0
  EXPECT_EQ(a.acc[1], (std::array<double, 6>{0, 0, -3, 0, 4, 0}));
  EXPECT_DOUBLE_EQ(a.vel[1][4], 8.0);
  const AccInput& b = c.accInputs[1];
  EXPECT_TRUE(b.bound);
  EXPECT_EQ(b.end, std::numeric_limits<double>::infinity());
  EXPECT_TRUE(b.globalGravity);
  ASSERT_EQ(b.mkIndex.size(), 1u);
  EXPECT_TRUE(c.mks[b.mkIndex[0]].bound);
  EXPECT_EQ(c.mks[b.mkIndex[0]].local, 2);
  EXPECT_EQ(b.file, (dir / "acc.csv").string());
  ASSERT_EQ(b.time.size(), 3u);
  EXPECT_EQ(b.acc[2], (std::array<double, 6>{2, 0, 0, 0, 1.5, 0}));
  EXPECT_DOUBLE_EQ(b.vel[2][4], 3.0);  // 1.5 * 1 + 1.5 * 1
}

TEST(AccInputReader, RefusesBadInputsNamingLineAndElement) {
  const std::string centre = "<acccentre x=\"0\" y=\"0\" z=\"0\" />\n";
  const std::string gravity = "<globalgravity value=\"1\" />\n";
  const std::string rows = "<acctimes>\n<timevalue time=\"0\" />\n<timevalue time=\"1\" linx=\"1\" />\n</acctimes>\n";
  auto input = [&](const std::string& attrs, const std::string& body) {
    return "<accinputs>\n<accinput " + attrs + ">\n" + body + "</accinput>\n</accinputs>";
  };
  struct Bad {
    const char* name;
    std::string special;
    const char* file;  // a data file acc.csv beside the case, or null
    const char* marker;
    const char* element;
    const char* what;
  };
  const std::vector<Bad> bad = {
      {"NoCentre", input("mkfluid=\"0\"", gravity + rows), nullptr, "<accinput ", "<accinput>",
       "missing element <acccentre>"},
      {"NoGravity", input("mkfluid=\"0\"", centre + rows), nullptr, "<accinput ", "<accinput>",
       "missing element <globalgravity>"},
      {"GravityWithoutValue", input("mkfluid=\"0\"", centre + "<globalgravity />\n" + rows), nullptr,
       "<globalgravity", "<globalgravity>", "value"},
      {"BothTables", input("mkfluid=\"0\"", centre + gravity + rows + "<acctimesfile value=\"acc.csv\" />\n"),
       "0;0;0;0;0;0;0\n1;0;0;0;0;0;0\n", "<acctimesfile", "<acctimesfile>", "not both"},
      {"NoTable", input("mkfluid=\"0\"", centre + gravity), nullptr, "<accinput ", "<accinput>",
       "<acctimes> with <timevalue> rows, or <acctimesfile>"},
      {"NoMk", input("", centre + gravity + rows), nullptr, "<accinput >", "<accinput>", "needs mkfluid"},
      {"BothMks", input("mkfluid=\"0\" mkbound=\"2\"", centre + gravity + rows), nullptr, "<accinput ", "<accinput>",
       "not both"},
      {"MkWithoutParticles", input("mkfluid=\"4\"", centre + gravity + rows), nullptr, "<accinput ", "<accinput>",
       "mkfluid 4 has no particles"},
      {"BoundNotFloating", input("mkbound=\"3\"", centre + gravity + rows), nullptr, "<accinput ", "<accinput>",
       "mkbound 3 is not a floating body"},
      {"MkTwice",
       "<accinputs>\n<accinput mkfluid=\"0-1\">\n" + centre + gravity + rows + "</accinput>\n<accinput mkfluid=\"1\">\n" +
           centre + gravity + rows + "</accinput>\n</accinputs>",
       nullptr, "<accinput mkfluid=\"1\"", "<accinput>", "mkfluid 1 already has the acceleration input of line"},
      {"OneRow", input("mkfluid=\"0\"", centre + gravity + "<acctimes>\n<timevalue time=\"0\" />\n</acctimes>\n"),
       nullptr, "<acctimes>", "<acctimes>", "1 <timevalue> row, an acceleration input needs at least two"},
      {"TimeGoesBack",
       input("mkfluid=\"0\"", centre + gravity +
                                  "<acctimes>\n<timevalue time=\"1\" />\n<timevalue time=\"0.5\" />\n</acctimes>\n"),
       nullptr, "<timevalue time=\"0.5\"", "<timevalue>", "times must not decrease"},
      {"UnknownChild", input("mkfluid=\"0\"", centre + gravity + rows + "<datafile value=\"x\" />\n"), nullptr,
       "<datafile", "<datafile>", "unknown element"},
      {"UnknownRow",
       input("mkfluid=\"0\"", centre + gravity + "<acctimes>\n<timevalue time=\"0\" />\n<value />\n</acctimes>\n"),
       nullptr, "<value", "<value>", "unknown element"},
      {"UnknownInput", "<accinputs>\n<accinputx />\n</accinputs>", nullptr, "<accinputx", "<accinputx>",
       "unknown element"},
      {"FileOneRow", input("mkfluid=\"0\"", centre + gravity + "<acctimesfile value=\"acc.csv\" />\n"),
       "# t\n0;0;0;0;0;0;0\n", "<acctimesfile", "<acctimesfile>",
       "acc.csv: 1 row of data, an acceleration input needs at least two"},
      {"FileTimeGoesBack", input("mkfluid=\"0\"", centre + gravity + "<acctimesfile value=\"acc.csv\" />\n"),
       "1;0;0;0;0;0;0\n0;0;0;0;0;0;0\n", "<acctimesfile", "<acctimesfile>", "acc.csv:2: time 0 comes before"},
      {"FileShortRow", input("mkfluid=\"0\"", centre + gravity + "<acctimesfile value=\"acc.csv\" />\n"),
       "0;0;0;0;0;0;0\n\n1;2;3\n", "<acctimesfile", "<acctimesfile>",
       "acc.csv:3: 3 values on the row, the acceleration input reads rows of 7"},
      {"FileNotANumber", input("mkfluid=\"0\"", centre + gravity + "<acctimesfile value=\"acc.csv\" />\n"),
       "0;0;0;0;0;0;0\n1;0;x;0;0;0;0\n", "<acctimesfile", "<acctimesfile>", "acc.csv:2: value 3 \"x\" is not a number"},
      {"FileMissing", input("mkfluid=\"0\"", centre + gravity + "<acctimesfile value=\"none.csv\" />\n"), nullptr,
       "<acctimesfile", "<acctimesfile>", "none.csv: cannot open the acceleration data file"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.name);
    const auto dir = test::tempDir(std::string("accinputs_bad_") + b.name);
    if (b.file) test::writeFile(dir / "acc.csv", b.file);
    const std::string xml = accCase(b.special);
    test::expectInputErrorAt(test::writeFile(dir / "bad_Def.xml", xml), xml, b.marker, b.element, b.what);
  }
}

// A FIFO would block the loader for ever and /dev/zero would be read without end: both are
// refused at once (through the binary, with a time limit, so that a wait fails the test).
TEST(AccInputReader, AFifoOrADeviceAsTheDataFileIsRefused) {
  for (const bool fifo : {true, false}) {
    const auto dir = test::tempDir(fifo ? "accinputs_fifo" : "accinputs_zero");
    if (fifo) ASSERT_EQ(::mkfifo((dir / "acc.csv").c_str(), 0644), 0);
    else std::filesystem::create_symlink("/dev/zero", dir / "acc.csv");
    const std::string path = test::writeFile(dir / "Fifo_Def.xml", accCase(R"(<accinputs><accinput mkfluid="0">
<acccentre x="0" y="0" z="0" /><globalgravity value="1" /><acctimesfile value="acc.csv" /></accinput></accinputs>)"));
    const test::CommandResult r = test::runSphWithin(30, "info " + path);
    EXPECT_NE(r.exitCode, 124) << "sph was still reading after 30 s";
    EXPECT_EQ(r.exitCode, 2) << r.output;
    EXPECT_NE(r.output.find(fifo ? "the acceleration data file is not a regular file (a FIFO)"
                                  : "the acceleration data file is not a regular file (a character device)"),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("<acctimesfile>"), std::string::npos) << r.output;
  }
}

TEST(AccInputCheckpoint, TheDataFileCountsInTheCaseFingerprint) {
  const auto dir = test::tempDir("accinputs_fingerprint");
  test::writeFile(dir / "acc.csv", "0;0;0;0;0;0;0\n1;1;0;0;0;0;0\n");
  const std::string xml = accCase(R"(<accinputs><accinput mkfluid="0"><acccentre x="0" y="0" z="0" />
<globalgravity value="1" /><acctimesfile value="acc.csv" /></accinput></accinputs>)");
  const std::string path = test::writeFile(dir / "Print_Def.xml", xml);
  const CaseDefinition c = loadCase(path);
  const uint64_t before = caseFingerprint(c, deriveParameters(c));
  test::writeFile(dir / "acc.csv", "0;0;0;0;0;0;0\n1;2;0;0;0;0;0\n");
  const CaseDefinition d = loadCase(path);
  EXPECT_NE(caseFingerprint(d, deriveParameters(d)), before);
}

// A block of water in the air, far from the only wall: its particles' pair forces cancel
// (equal masses, antisymmetric terms), so the mean acceleration of the block is the input's,
// A + g with global gravity and A alone without, and its mean velocity after the steps is that
// times the time run (the symplectic step adds dt times the pass's acceleration).
TEST(AccInputRun, FreeBlockOfWaterAcceleratesAsTheInputSays) {
  for (bool gravity : {true, false}) {
    SCOPED_TRACE(gravity ? "global gravity" : "no global gravity");
    const std::string xml = fmt::format(R"(<?xml version="1.0" encoding="UTF-8" ?>
<case>
  <casedef>
    <constantsdef><gravity x="0" y="0" z="-9.81" /><rhop0 value="1000" /><rhopgradient value="1" />
      <hswl value="0.2" auto="false" /><gamma value="7" /><speedsystem value="0" auto="true" />
      <coefsound value="20" /><speedsound value="0" auto="true" /><coefh value="1.0" /><cflnumber value="0.2" />
    </constantsdef>
    <mkconfig boundcount="240" fluidcount="9" />
    <geometry>
      <definition dp="0.02"><pointmin x="-1" y="0" z="-1" /><pointmax x="1" y="0" z="1" /></definition>
      <commands>
        <mainlist>
          <setdrawmode mode="full" />
          <setmkfluid mk="0" />
          <drawbox><boxfill>solid</boxfill><point x="-0.1" y="-1" z="0" /><size x="0.2" y="2" z="0.2" /></drawbox>
          <setmkbound mk="0" />
          <drawbox><boxfill>solid</boxfill><point x="-1" y="-1" z="-1" /><size x="0.04" y="2" z="0.04" /></drawbox>
        </mainlist>
      </commands>
    </geometry>
  </casedef>
  <execution>
    <special><accinputs><accinput mkfluid="0"><acccentre x="0" y="0" z="0" />
      <globalgravity value="{gravity}" />
      <acctimes><timevalue time="0" linx="2" linz="3" /><timevalue time="1" linx="2" linz="3" /></acctimes>
    </accinput></accinputs></special>
    <parameters><parameter key="StepAlgorithm" value="2" /><parameter key="TimeMax" value="1" />
      <simulationdomain><posmin x="default - 1" y="default" z="default - 1" />
        <posmax x="default + 1" y="default" z="default + 1" /></simulationdomain></parameters>
  </execution>
</case>
)",
                                        fmt::arg("gravity", gravity ? 1 : 0));
    const CaseDefinition c = loadCase(test::writeFile(test::tempDir("accinputs_block") / "Block_Def.xml", xml));
    RunOptions o;
    o.device = Device::Cpu;
    o.precision = Precision::Double;
    o.writeOutput = false;
    o.progress = false;
    Simulation sim(c, o);
    for (int k = 0; k < 100; ++k) sim.step();
    const ParticleSnapshot p = sim.snapshot();
    double v[3] = {0, 0, 0};
    int n = 0;
    for (size_t i = 0; i < p.count(); ++i) {
      if (p.type[i] != 1) continue;
      for (int a = 0; a < 3; ++a) v[a] += p.vel[3 * i + a];
      ++n;
    }
    ASSERT_GT(n, 50);
    const double t = sim.time();
    const double expect[3] = {2 * t, 0, (3 + (gravity ? kG : 0)) * t};
    // The snapshot's velocities are floats (an ulp of 2^-24 relative, ~1e-9 m/s here) and the
    // pair sums cancel to double rounding; 1e-7 m/s is far below the 0.01-0.2 m/s expected.
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(v[a] / n, expect[a], 1e-7) << "axis " << a << ", t " << t;
  }
}

}  // namespace
}  // namespace sph
