// Files a user names are read only when they are regular files: a FIFO would block the run for
// ever in open(2), and a device such as /dev/zero would be read without end. Each is refused with
// the file and its role, whichever reader meets it (case file, GenCase's .bi4, motion and
// acceleration tables, meshes).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "platform/input_file.h"
#include "sph/plugin/errors.h"
#include "test_motion_cases.h"
#include "test_support.h"

namespace sph {
namespace {

namespace fs = std::filesystem;

// The InputError message of `f`, or "" when it throws none.
template <typename F>
std::string inputErrorOf(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(InputFile, ReadsRegularFilesWhole) {
  const auto dir = test::tempDir("input_file_read");
  std::string text(300000, 'a');
  text += "end";
  const std::string path = test::writeFile(dir / "data.txt", text);
  EXPECT_EQ(readInputFile(path, "data file"), text);
  EXPECT_NO_THROW(requireRegularFile(path, "data file"));
  // A symbolic link to a regular file is that file.
  fs::create_symlink(path, dir / "link.txt");
  EXPECT_EQ(readInputFile((dir / "link.txt").string(), "data file"), text);
}

TEST(InputFile, RefusesWhatIsNotARegularFileWithoutWaiting) {
  const auto dir = test::tempDir("input_file_refused");
  const fs::path fifo = dir / "fifo.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  std::string msg = inputErrorOf([&] { readInputFile(fifo.string(), "motion data file"); });
  EXPECT_NE(msg.find(fifo.string() + ": the motion data file is not a regular file (a FIFO)"), std::string::npos)
      << msg;
  msg = inputErrorOf([&] { readInputFile("/dev/zero", "acceleration data file"); });
  EXPECT_NE(msg.find("/dev/zero: the acceleration data file is not a regular file (a character device)"),
            std::string::npos)
      << msg;
  msg = inputErrorOf([&] { requireRegularFile(dir.string(), "particle file"); });
  EXPECT_NE(msg.find("is not a regular file (a directory)"), std::string::npos) << msg;
  msg = inputErrorOf([&] { readInputFile((dir / "none.csv").string(), "case file"); });
  EXPECT_NE(msg.find("none.csv: cannot open the case file: No such file or directory"), std::string::npos) << msg;
  // A loop of symbolic links is named as such, not as a missing file.
  fs::create_symlink(dir / "loop_b", dir / "loop_a");
  fs::create_symlink(dir / "loop_a", dir / "loop_b");
  msg = inputErrorOf([&] { readInputFile((dir / "loop_a").string(), "mesh file"); });
  EXPECT_NE(msg.find("cannot open the mesh file: Too many levels of symbolic links"), std::string::npos) << msg;
}

// Through the binary, with a time limit: on a reader that waits, the test fails instead of hanging.
void expectRefusedQuickly(const std::string& args, const std::string& words) {
  const test::CommandResult r = test::runSphWithin(30, args);
  EXPECT_NE(r.exitCode, 124) << "sph was still waiting after 30 s: " << args;
  EXPECT_EQ(r.exitCode, 2) << r.output;
  EXPECT_NE(r.output.find(words), std::string::npos) << r.output;
}

TEST(InputFileCli, AFifoAsTheCaseFileIsRefused) {
  const auto dir = test::tempDir("input_file_case_fifo");
  const fs::path fifo = dir / "Fifo_Def.xml";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  expectRefusedQuickly("info " + fifo.string(), "the case file is not a regular file (a FIFO)");
  expectRefusedQuickly("run " + fifo.string() + " --device cpu --quiet --out " + (dir / "out").string(),
                       "the case file is not a regular file (a FIFO)");
  expectRefusedQuickly("info /dev/zero", "the case file is not a regular file (a character device)");
}

TEST(InputFileCli, AFifoAsGenCasesParticleFileIsRefused) {
  const auto dir = test::tempDir("input_file_bi4_fifo");
  const fs::path data = fs::path(SPH_SOURCE_DIR) / "engine/tests/data/gencase";
  fs::copy_file(data / "DamBreak2D.xml", dir / "DamBreak2D.xml");
  ASSERT_EQ(::mkfifo((dir / "DamBreak2D.bi4").c_str(), 0644), 0);
  expectRefusedQuickly("info " + (dir / "DamBreak2D.xml").string(), "the particle file is not a regular file (a FIFO)");
  fs::remove(dir / "DamBreak2D.bi4");
  fs::create_symlink("/dev/zero", dir / "DamBreak2D.bi4");
  expectRefusedQuickly("info " + (dir / "DamBreak2D.xml").string(),
                       "the particle file is not a regular file (a character device)");
}

TEST(InputFileCli, AFifoOrADeviceAsAMotionFileIsRefused) {
  for (const bool fifo : {true, false}) {
    const auto dir = test::tempDir(fifo ? "input_file_motion_fifo" : "input_file_motion_zero");
    if (fifo) ASSERT_EQ(::mkfifo((dir / "piston.dat").c_str(), 0644), 0);
    else fs::create_symlink("/dev/zero", dir / "piston.dat");
    test::PistonTank t;
    t.motion = R"(<objreal ref="1"><begin mov="1" start="0" />
<mvfile id="1" duration="1"><file name="piston.dat" fields="2" fieldtime="0" fieldx="1" /></mvfile></objreal>)";
    const std::string path = test::writeFile(dir / "File_Def.xml", test::pistonTankXml(t));
    expectRefusedQuickly("info " + path, fifo ? "the motion data file is not a regular file (a FIFO)"
                                              : "the motion data file is not a regular file (a character device)");
  }
}

}  // namespace
}  // namespace sph
