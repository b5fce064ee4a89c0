// Checkpoints on the CPU: a run resumed from a checkpoint ends bit for bit where the run made
// straight through ends, with the same output files (gauges, floating bodies, moving walls,
// excluded particles, both integrators); a checkpoint is replaced atomically; one that does not
// belong to the run is refused with the file and what differs.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "case/loader.h"
#include "output/checkpoint.h"
#include "run/simulation.h"
#include "sph/plugin/errors.h"
#include "test_motion_cases.h"
#include "test_resume_runs.h"
#include "test_support.h"

namespace sph {
namespace {

namespace fs = std::filesystem;

// Every particle array, bit for bit and in the same order.
void expectSameState(const ParticleSnapshot& a, const ParticleSnapshot& b) {
  ASSERT_EQ(a.count(), b.count());
  EXPECT_EQ(a.time, b.time);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.type, b.type);
  EXPECT_EQ(a.mk, b.mk);
  auto same = [](const auto& x, const auto& y) {
    return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
  };
  EXPECT_TRUE(same(a.pos, b.pos)) << "positions differ";
  EXPECT_TRUE(same(a.vel, b.vel)) << "velocities differ";
  EXPECT_TRUE(same(a.rho, b.rho)) << "densities differ";
  EXPECT_TRUE(same(a.press, b.press)) << "pressures differ";
}

// One thread: bit-identity does not depend on it, and CI's two cores are shared with other tests.
RunOptions cpuOptions() {
  RunOptions o;
  o.device = Device::Cpu;
  o.threads = 1;
  o.progress = false;
  o.checkpointAtStepLimit = true;  // the tests stop at a step to resume from
  return o;
}

void expectResumeIdentical(const std::string& name, const CaseDefinition& c, const RunOptions& o, uint64_t k,
                           uint64_t m, uint64_t n) {
  const test::ResumedRun r = test::runStraightAndResumed(c, o, k, m, n, test::tempDir("checkpoint_" + name));
  expectSameState(r.straight, r.resumed);
  test::expectSameResultFiles(r.straightDir, r.resumedDir);
}

// DamBreak2D at dp 0.05 (about 1,000 particles) with its two swl gauges, a mesh gauge (two CSV files
// and a .mbi4) and a VTK part every 2 ms: the Verlet integrator's Euler step (VerletSteps 40) comes after the
// checkpoint.
TEST(CheckpointResume, DamBreak2DWithGaugesIsBitIdentical) {
  LoadOptions lo;
  lo.dpOverride = 0.05;
  CaseDefinition c = loadCase(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml", lo);
  GaugeSpec mesh;
  mesh.kind = GaugeKind::Mesh;
  mesh.name = "Mesh";
  mesh.point = {0.1, 0, 0};
  mesh.mesh.axis[0] = {1, 0, 0};
  mesh.mesh.length[0] = 1;
  mesh.mesh.distPt[0] = 0.25;
  mesh.mesh.axis[2] = {0, 0, 1};
  mesh.mesh.length[2] = 2.2;
  mesh.mesh.distPt[2] = 0.05;
  mesh.mesh.vel = mesh.mesh.zsurf = true;
  mesh.mesh.bin = true;  // and its .mbi4, whose items are numbered across the resume
  mesh.timing.output = true;
  c.gauges.items.push_back(mesh);
  RunOptions o = cpuOptions();
  o.timeOut = 0.002;
  expectResumeIdentical("dambreak2d", c, o, 25, 45, 60);
  const auto out = test::processTempRoot() / "checkpoint_dambreak2d" / "resumed";
  EXPECT_TRUE(fs::exists(out / "gauges" / "Swl_x02.csv"));
  EXPECT_FALSE(fs::exists(out / "gauges" / "Swl_x02.csv.part"));
  EXPECT_TRUE(fs::exists(out / "gauges" / "Mesh_Vel.csv"));
  EXPECT_TRUE(fs::exists(out / "gauges" / "Mesh_Zsurf.csv"));
  EXPECT_TRUE(fs::exists(out / "gauges" / "Mesh.mbi4"));
}

// A light box floating up in a small 2D tank, with DualSPHysics' symplectic integrator and
// floating.csv (rows after the checkpoint are cut off on resume), its rows every TimeOutExtra
// (0.5 ms) between the parts' (2 ms).
TEST(CheckpointResume, FloatingSymplecticIsBitIdentical) {
  std::string xml = test::caseXml(
      R"(<definition dp="0.02"><pointmin x="-0.1" y="0" z="-0.1" /><pointmax x="1.1" y="0" z="0.6" /></definition>)",
      R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="1" y="2" z="0.3" /></drawbox>
<setmkvoid />
<drawbox><boxfill>solid</boxfill><point x="0.42" y="-1" z="0.12" /><size x="0.16" y="2" z="0.16" /></drawbox>
<setmkbound mk="50" />
<drawbox><boxfill>solid</boxfill><point x="0.44" y="-1" z="0.14" /><size x="0.12" y="2" z="0.12" /></drawbox>
<setmkbound mk="0" />
<drawbox><boxfill>bottom | left | right</boxfill><point x="0" y="-1" z="0" /><size x="1" y="2" z="0.5" /></drawbox>)",
      R"(<parameter key="StepAlgorithm" value="2" /><parameter key="Kernel" value="2" />
<parameter key="Visco" value="0.05" /><parameter key="DensityDT" value="2" /><parameter key="TimeMax" value="1" />
<parameter key="TimeOut" value="0.002" /><parameter key="TimeOutExtra" value="0.0005" />)");
  xml.insert(xml.find("</casedef>"),
             R"(<floatings><floating mkbound="50"><massbody value="5" /></floating></floatings>)");
  const CaseDefinition c =
      loadCase(test::writeFile(test::tempDir("checkpoint_floating_case") / "Floating_Def.xml", xml));
  ASSERT_EQ(c.floatings.size(), 1u);
  RunOptions o = cpuOptions();
  o.writeVtk = false;
  expectResumeIdentical("floating", c, o, 30, 50, 70);
  const auto rows = test::readFloatingCsv(test::processTempRoot() / "checkpoint_floating" / "resumed" / "floating.csv");
  ASSERT_GT(rows.size(), 4u);
  EXPECT_NE(rows.back().v[2], rows.front().v[2]) << "the box does not move: the test lost its point";
  // A row at the start, then one at the first step at or after each multiple of 0.5 ms (the
  // parts' times among them, once each): no gap of a whole interval, none in the same interval.
  const double extra = 0.0005;
  // (The times are written to 1e-6 s: a row just past a multiple may read a little before it.)
  auto interval = [&](double t) { return std::floor(t / extra + 0.002); };
  EXPECT_EQ(rows.front().t, 0);
  for (size_t k = 1; k < rows.size(); ++k) {
    SCOPED_TRACE(k);
    EXPECT_GT(rows[k].t, rows[k - 1].t);
    EXPECT_EQ(interval(rows[k].t), interval(rows[k - 1].t) + 1);
  }
  EXPECT_GT(rows.back().t, 4 * extra);
}

// A piston that waits, then oscillates: the motion chain hands over before the checkpoint.
TEST(CheckpointResume, MovingPistonVerletIsBitIdentical) {
  test::PistonTank t;
  t.stepAlgorithm = 1;
  t.extraParameters = R"(<parameter key="VerletSteps" value="7" />)";
  t.motion = R"(<objreal ref="1"><begin mov="1" start="0" />
<wait id="1" duration="0.002" next="2" />
<mvrectsinu id="2" duration="10">
  <freq x="2" y="0" z="0" /><ampl x="0.02" y="0" z="0" /></mvrectsinu>
</objreal>)";
  const CaseDefinition c =
      loadCase(test::writeFile(test::tempDir("checkpoint_piston_case") / "Piston_Def.xml", test::pistonTankXml(t)));
  RunOptions o = cpuOptions();
  o.timeOut = 0.002;
  expectResumeIdentical("piston", c, o, 20, 30, 45);
}

// A piston going round a circle, then to and fro as a data file says, then waiting, in a loop:
// the checkpoint falls after the circle has run more than once, so that its reference point
// (where the circle goes on from) comes from the checkpoint.
TEST(CheckpointResume, CircleAndFileMotionsAreBitIdentical) {
  test::PistonTank t;
  t.motion = R"(<objreal ref="1"><begin mov="1" start="0" />
<mvcir id="1" duration="0.002" next="2"><vel ang="3000" /><ref x="0" y="0" z="0.05" />
  <axisp1 x="0" y="-1" z="0.06" /><axisp2 x="0" y="1" z="0.06" /></mvcir>
<mvfile id="2" duration="0.002" next="3"><file name="piston.dat" fields="2" fieldtime="0" fieldx="1" /></mvfile>
<wait id="3" duration="0.001" next="1" />
</objreal>)";
  const fs::path dir = test::tempDir("checkpoint_circle_case");
  test::writeFile(dir / "piston.dat", "0 0\n0.001 0.002\n0.002 0\n");
  const CaseDefinition c = loadCase(test::writeFile(dir / "Circle_Def.xml", test::pistonTankXml(t)));
  RunOptions o = cpuOptions();
  o.timeOut = 0.002;
  expectResumeIdentical("circle", c, o, 20, 30, 45);
}

// Water running off the end of a floor: particles are excluded, parked and compacted before and
// after the checkpoint; excluded.csv is rewritten from the checkpoint's log.
TEST(CheckpointResume, ExclusionsAreBitIdentical) {
  const CaseDefinition c = loadCase(test::writeFile(
      test::tempDir("checkpoint_spill_case") / "Spill_Def.xml",
      test::spillwayCase(R"(<parameter key="StepAlgorithm" value="2" />)", 1.0)));
  RunOptions o = cpuOptions();
  o.writeVtk = false;
  expectResumeIdentical("spill", c, o, 1300, 1500, 1700);
  const std::string log = test::fileText(test::processTempRoot() / "checkpoint_spill" / "resumed" / "excluded.csv");
  EXPECT_GT(std::count(log.begin(), log.end(), '\n'), 2) << "no particle was excluded: the test lost its point";
}

// A small run with a checkpoint at step 5, in dir/out.
struct SmallRun {
  CaseDefinition c;
  RunOptions o;
  fs::path out, checkpoint;
};

// `c` run to step 5 (a checkpoint, no VTK) into `out`; resumed, it would go on to step 8.
SmallRun smallRunFrom(const CaseDefinition& c, const fs::path& out) {
  SmallRun s;
  s.c = c;
  s.o = cpuOptions();
  s.o.writeVtk = false;
  s.out = out;
  s.o.outDir = s.out.string();
  s.o.maxSteps = 5;
  Simulation(s.c, s.o).run();
  s.checkpoint = checkpointPath(s.out);
  s.o.resume = true;
  s.o.maxSteps = 8;
  return s;
}

SmallRun smallRunWithCheckpoint(const std::string& name) {
  LoadOptions lo;
  lo.dpOverride = 0.05;
  return smallRunFrom(loadCase(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml", lo),
                      test::tempDir(name) / "out");
}

// Constructing the resumed simulation throws an InputError naming the checkpoint and `what`.
void expectRefused(const SmallRun& s, const RunOptions& o, const std::string& what) {
  try {
    Simulation sim(s.c, o);
    FAIL() << "resumed a checkpoint that should be refused (" << what << ")";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(s.checkpoint.string()), std::string::npos) << msg;
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
  }
}

TEST(CheckpointRefusal, MismatchesAreInputErrorsNamingTheFile) {
  const SmallRun s = smallRunWithCheckpoint("checkpoint_refusal");
  RunOptions o = s.o;
  o.precision = Precision::Double;
  expectRefused(s, o, "precision");
  o = s.o;
  o.timeOut = 0.123;  // another output schedule: another run
  expectRefused(s, o, "another case or other parameters");
  expectRefused(s, o, "parameter TimeOut was ");
  expectRefused(s, o, ", is now 0.123");
  LoadOptions finer;
  finer.dpOverride = 0.04;
  SmallRun other = s;
  other.c = loadCase(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml", finer);
  expectRefused(other, s.o, "another case or other parameters");
  expectRefused(other, s.o, fmt::format("{} particles, this run has {}", s.c.positions.size(), other.c.positions.size()));
  o = s.o;
  o.timeMax = 5;  // going further is allowed
  EXPECT_NO_THROW(Simulation(s.c, o));
}

// A motion data file changed since the checkpoint makes another run.
TEST(CheckpointRefusal, AChangedMotionDataFileIsRefused) {
  test::PistonTank t;
  t.motion = R"(<objreal ref="1"><begin mov="1" start="0" />
<mvfile id="1" duration="1"><file name="piston.dat" fields="2" fieldtime="0" fieldx="1" /></mvfile></objreal>)";
  const fs::path dir = test::tempDir("checkpoint_motion_file");
  test::writeFile(dir / "piston.dat", "0 0\n1 0.01\n");
  const std::string path = test::writeFile(dir / "File_Def.xml", test::pistonTankXml(t));
  SmallRun s = smallRunFrom(loadCase(path), dir / "out");
  EXPECT_NO_THROW(Simulation(s.c, s.o));
  test::writeFile(dir / "piston.dat", "0 0\n1 0.02\n");
  s.c = loadCase(path);
  expectRefused(s, s.o, "another case or other parameters");
  expectRefused(s, s.o, "the data file " + (dir / "piston.dat").string() + " changed");
}

// An edited case file is named with the first line that differs.
TEST(CheckpointRefusal, AChangedCaseFileNamesTheLine) {
  const fs::path dir = test::tempDir("checkpoint_case_line");
  std::string xml = test::fileText(std::string(SPH_SOURCE_DIR) + "/testcases/DamBreak2D.xml");
  const std::string path = test::writeFile(dir / "Edited_Def.xml", xml);
  LoadOptions lo;
  lo.dpOverride = 0.05;
  SmallRun s = smallRunFrom(loadCase(path, lo), dir / "out");
  // A comment added on line 2 moves nothing else; the message names that line.
  const size_t nl = xml.find('\n');
  xml.insert(nl + 1, "<!-- edited -->\n");
  test::writeFile(path, xml);
  s.c = loadCase(path, lo);
  expectRefused(s, s.o, "the case file changed at line 2: was ");
  expectRefused(s, s.o, "is now \"<!-- edited -->\"");
}

TEST(CheckpointRefusal, AnotherVersionIsRefused) {
  const SmallRun s = smallRunWithCheckpoint("checkpoint_version");
  {
    const CheckpointReader r(s.checkpoint);
    CheckpointHeader h = r.header();
    h.engineVersion = "0.0.1 (engine headers 0123456789abcdef)";
    CheckpointWriter w(s.checkpoint, h);
    for (const std::string& name : r.names())
      if (name.rfind("header.", 0) != 0) w.putString(name, r.bytes(name));
    w.commit();
  }
  expectRefused(s, s.o, "0.0.1");
}

TEST(CheckpointRefusal, DamagedOrMissingCheckpointsAreRefused) {
  const SmallRun s = smallRunWithCheckpoint("checkpoint_damaged");
  const std::string good = test::fileText(s.checkpoint);
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x10;
  test::writeFile(s.checkpoint, flipped);
  expectRefused(s, s.o, "damaged");
  test::writeFile(s.checkpoint, good.substr(0, good.size() - 20));
  expectRefused(s, s.o, "truncated");
  test::writeFile(s.checkpoint, good.substr(0, good.size() / 3));
  expectRefused(s, s.o, "truncated");
  test::writeFile(s.checkpoint, "<run></run>\n");
  expectRefused(s, s.o, "not an sph checkpoint");
  fs::remove(s.checkpoint);
  expectRefused(s, s.o, "no checkpoint");
  test::writeFile(s.checkpoint, good);
  EXPECT_NO_THROW(Simulation(s.c, s.o));
}

// A writer that never commits, abandoned (an error) or killed mid-write (a crash), leaves the
// previous checkpoint the current one, and the run resumes from it.
TEST(CheckpointAtomicity, AnUnfinishedWriteLeavesThePreviousCheckpoint) {
  const SmallRun s = smallRunWithCheckpoint("checkpoint_atomic");
  const std::string before = test::fileText(s.checkpoint);
  const CheckpointHeader header = CheckpointReader(s.checkpoint).header();
  const std::vector<char> block(1 << 20, 'x');
  {
    CheckpointWriter w(s.checkpoint, header);
    w.put("particles.pos", block.data(), block.size());
  }
  EXPECT_FALSE(fs::exists(s.checkpoint.string() + ".tmp")) << "an abandoned write left its temporary file";
  EXPECT_EQ(test::fileText(s.checkpoint), before);

  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    CheckpointWriter w(s.checkpoint, header);
    for (int k = 0; k < 8; ++k) w.put("particles.pos", block.data(), block.size());
    _exit(0);  // dies mid-write: no commit, no clean-up
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(fs::exists(s.checkpoint.string() + ".tmp"));
  EXPECT_EQ(test::fileText(s.checkpoint), before);
  Simulation sim(s.c, s.o);
  EXPECT_EQ(sim.steps(), 5u);
  EXPECT_EQ(sim.run().status, "completed");
  EXPECT_EQ(sim.steps(), 8u);
}

// Every regular file under `dir` with its bytes.
std::map<std::string, std::string> folderBytes(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).string()] = test::fileText(e.path());
  return files;
}

// A resumption refused for a damaged result file changes no file of the folder: not the gauge
// files checked before the damaged one, not the ended .csv files a resumption reopens as .part.
TEST(CheckpointRefusal, ARefusedResumptionLeavesEveryFileAsItWas) {
  SmallRun s = smallRunWithCheckpoint("checkpoint_refused_files");
  {
    // On past the checkpoint without checkpoints: the gauge files now hold rows it must cut off.
    RunOptions further = s.o;
    further.maxSteps = 12;
    further.checkpointEvery = 0;
    Simulation(s.c, further).run();
  }
  ASSERT_GE(s.c.gauges.items.size(), 2u);
  const fs::path last = s.out / "gauges" / (s.c.gauges.items.back().name + ".csv");
  ASSERT_TRUE(fs::exists(last));
  fs::resize_file(last, 10);
  const auto before = folderBytes(s.out);
  try {
    Simulation sim(s.c, s.o);
    sim.run();
    FAIL() << "resumed into a folder whose gauge file is shorter than at the checkpoint";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(last.string()), std::string::npos) << e.what();
  }
  const auto after = folderBytes(s.out);
  EXPECT_EQ(before.size(), after.size());
  for (const auto& [name, bytes] : before) {
    const auto it = after.find(name);
    ASSERT_NE(it, after.end()) << name << " is gone";
    EXPECT_TRUE(it->second == bytes) << name << " changed (" << bytes.size() << " -> " << it->second.size()
                                     << " bytes)";
  }
  for (const auto& [name, bytes] : after) EXPECT_TRUE(before.count(name)) << name << " appeared";
}

// A resumption that would run no step is refused, not a success that did nothing.
TEST(CheckpointRefusal, AResumptionThatWouldRunNoStepIsRefused) {
  const SmallRun s = smallRunWithCheckpoint("checkpoint_no_step");
  RunOptions o = s.o;
  o.maxSteps = 5;  // the checkpoint's step
  expectRefused(s, o, "would run no step");
  o.maxSteps = 3;
  expectRefused(s, o, "would run no step");
  o = s.o;
  o.maxSteps.reset();
  o.timeMax = 1e-6;  // before the checkpoint's time
  expectRefused(s, o, "the run is complete");
}

TEST(CheckpointOutput, ResumeNeedsAFolderAndKeepsTheLockRules) {
  const SmallRun s = smallRunWithCheckpoint("checkpoint_folder");
  RunOptions o = s.o;
  o.outDir = (s.out.parent_path() / "nothing-here").string();
  EXPECT_THROW(Simulation(s.c, o), InputError);
  o = s.o;
  o.writeOutput = false;
  EXPECT_THROW(Simulation(s.c, o), InputError);
  // A new run into a folder that holds only a checkpoint needs --overwrite.
  fs::remove(s.out / "run.json");
  fs::remove_all(s.out / "gauges");
  o = s.o;
  o.resume = false;
  o.overwrite = false;
  EXPECT_THROW(Simulation(s.c, o), InputError);
}

}  // namespace
}  // namespace sph
