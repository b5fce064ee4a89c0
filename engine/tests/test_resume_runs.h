// A run made once straight through and once in pieces through a checkpoint, for the checkpoint
// tests on the CPU (test_checkpoint.cpp) and the GPU (test_checkpoint_gpu.cpp).
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "output/checkpoint.h"
#include "run/simulation.h"

namespace sph::test {

inline std::string fileText(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

struct ResumedRun {
  ParticleSnapshot straight, resumed;  // the state at step n of each
  std::filesystem::path straightDir, resumedDir;
};

// `c` with the options `o` run to step n straight (dir/straight) and in pieces (dir/resumed): to
// step k, where a run stopped by its step limit writes a checkpoint; on to step m with
// checkpoints off, as a run that stopped later than its last checkpoint, whose extra output the
// resumed run must cut off; then resumed from the checkpoint at k to n.
inline ResumedRun runStraightAndResumed(const CaseDefinition& c, RunOptions o, uint64_t k, uint64_t m, uint64_t n,
                                        const std::filesystem::path& dir) {
  ResumedRun r;
  r.straightDir = dir / "straight";
  r.resumedDir = dir / "resumed";
  o.progress = false;
  o.checkpointAtStepLimit = true;
  o.outDir = r.straightDir.string();
  o.maxSteps = n;
  {
    Simulation sim(c, o);
    EXPECT_EQ(sim.run().status, "completed");
    r.straight = sim.snapshot();
  }
  o.outDir = r.resumedDir.string();
  o.maxSteps = k;
  Simulation(c, o).run();
  EXPECT_TRUE(std::filesystem::exists(checkpointPath(r.resumedDir))) << "no checkpoint at the step limit";
  const std::string atK = fileText(checkpointPath(r.resumedDir));
  o.resume = true;
  {
    RunOptions further = o;
    further.maxSteps = m;
    further.checkpointEvery = 0;
    Simulation sim(c, further);
    EXPECT_EQ(sim.steps(), k);
    sim.run();
  }
  EXPECT_TRUE(fileText(checkpointPath(r.resumedDir)) == atK) << "a run without checkpoints replaced the checkpoint";
  o.maxSteps = n;
  Simulation sim(c, o);
  EXPECT_EQ(sim.steps(), k);
  EXPECT_EQ(sim.run().status, "completed");
  r.resumed = sim.snapshot();
  return r;
}

// The files of an output folder that a run's results consist of: all but run.json (wall times),
// the checkpoint and the lock.
inline std::set<std::string> resultFiles(const std::filesystem::path& out) {
  std::set<std::string> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(out)) {
    if (!e.is_regular_file()) continue;
    const std::string rel = std::filesystem::relative(e.path(), out).string();
    if (rel == "run.json" || rel == ".sph-run.lock" || rel.rfind("checkpoint/", 0) == 0) continue;
    files.insert(rel);
  }
  return files;
}

// The two folders hold the same result files, byte for byte.
inline void expectSameResultFiles(const std::filesystem::path& a, const std::filesystem::path& b) {
  const std::set<std::string> fa = resultFiles(a), fb = resultFiles(b);
  EXPECT_EQ(fa, fb);
  for (const std::string& f : fa) {
    if (fb.count(f)) {
      EXPECT_TRUE(fileText(a / f) == fileText(b / f)) << f << " differs";
    }
  }
}

}  // namespace sph::test
