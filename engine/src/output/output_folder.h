// The output folder of a run (OUT): what an earlier run left there, the lock that keeps two runs
// out of one folder, and when the earlier run's files go.
//
// An earlier run's results are the files this engine writes: run.json, excluded.csv,
// floating.csv, vtk/Part_NNNN.vtk, checkpoint/checkpoint.bin and, for the gauges of this case,
// their files in gauges/ (NAME.csv, ...). A new run into a folder holding any of them needs FolderUse::Overwrite (sph run
// --overwrite); even then they stay until the new run has written its first output (a run that
// fails in its set-up leaves the old results whole), and then only those the new run has not
// rewritten go. A resumed run (FolderUse::Resume, sph run --resume) continues the results of the
// run it resumes and removes nothing here (RunOutput cuts what was written after the checkpoint).
// Nothing else in the folder is ever removed. The lock is an flock on OUT/.sph-run.lock, which
// also holds the process id for messages; the kernel releases it when the process ends however it
// ends, so a lock file nobody holds (left by a killed run) is taken over.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace sph {

enum class FolderUse {
  New,        // refuse a folder holding an earlier run's results
  Overwrite,  // replace them
  Resume,     // continue them: the folder must exist
};

// Throws InputError when `out` holds an earlier run's results and `use` is New, when it does not
// exist and `use` is Resume, or when a live run holds its lock. Creates nothing: run before the
// set-up, so that a refused folder costs no time.
void checkOutputFolder(const std::filesystem::path& out, FolderUse use, const std::vector<std::string>& gaugeNames);

class OutputFolder {
 public:
  // checkOutputFolder, then creates OUT/vtk and takes the lock (InputError when it cannot).
  OutputFolder(std::filesystem::path out, FolderUse use, std::vector<std::string> gaugeNames);
  ~OutputFolder();  // releases the lock
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  // Removes the earlier run's files that this run has not rewritten since it started (call
  // once the new run has written its first output); nothing when resuming.
  void dropPrevious();

 private:
  struct OldFile {
    std::filesystem::path path;
    std::filesystem::file_time_type written;
  };
  std::filesystem::path out_;
  std::filesystem::path lock_;
  int lockFd_ = -1;  // holds the flock
  std::vector<OldFile> previous_;
};

// The files of an earlier run in `out` (see above), for the gauge files named (with their
// extensions, as gaugeFileNames gives them; a file's .part and .tmp count too).
std::vector<std::filesystem::path> previousRunFiles(const std::filesystem::path& out,
                                                    const std::vector<std::string>& gaugeNames);

}  // namespace sph
