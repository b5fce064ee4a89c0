#include "output/output_folder.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {
namespace fs = std::filesystem;
namespace {

constexpr const char* kLockName = ".sph-run.lock";

bool endsWith(const std::string& s, const char* tail) {
  const size_t n = std::strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// The lock is an flock(2) on OUT/.sph-run.lock, held for as long as the run writes there. The
// kernel drops it when the process ends however it ends (SIGKILL, the OOM killer), so a lock file
// that nobody holds is one a killed run left behind, and a lock that is held is a live run whatever
// the file says: a run that has created the file but not yet written its process id into it
// already holds the lock.

// True when a live process holds the lock at `lock` (false when there is no such file).
bool lockIsHeld(const fs::path& lock) {
  const int fd = ::open(lock.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return false;
  const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  return held;
}

// The process id written in the lock file, or 0 when it holds none yet.
long lockHolderPid(const fs::path& lock) {
  std::ifstream f(lock);
  long pid = 0;
  if (!(f >> pid) || pid <= 0) return 0;
  return pid;
}

[[noreturn]] void lockedByAnother(const fs::path& out) {
  const long pid = lockHolderPid(out / kLockName);
  throw InputError(fmt::format("{}: another run{} is writing its results there; wait for it to end or give --out "
                               "another folder",
                               out.string(), pid != 0 ? fmt::format(" (process {})", pid) : std::string()));
}

// Takes the lock at `lock` and writes this process's id into it; returns the descriptor that holds
// it. Throws InputError when another run holds it.
int takeLock(const fs::path& out, const fs::path& lock) {
  for (;;) {
    const int fd = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
      throw InputError(fmt::format("cannot create {} in the output folder: {}", lock.string(), std::strerror(errno)));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) lockedByAnother(out);
      throw InputError(fmt::format("cannot lock {}: {}", lock.string(), std::strerror(err)));
    }
    // The run that held the lock removes its file as it ends: if that happened between our open and
    // our flock, we hold a lock on a file no one else can see; take the one at the path instead.
    struct stat held {}, atPath {};
    if (::fstat(fd, &held) != 0 || ::stat(lock.c_str(), &atPath) != 0 || held.st_ino != atPath.st_ino ||
        held.st_dev != atPath.st_dev) {
      ::close(fd);
      continue;
    }
    const std::string pid = fmt::format("{}\n", long(::getpid()));
    const bool ok = ::ftruncate(fd, 0) == 0 && ::write(fd, pid.data(), pid.size()) == ssize_t(pid.size());
    if (!ok) {
      const int err = errno;
      ::close(fd);
      throw InputError(fmt::format("cannot write {}: {}", lock.string(), std::strerror(err)));
    }
    return fd;
  }
}

}  // namespace

std::vector<fs::path> previousRunFiles(const fs::path& out, const std::vector<std::string>& gaugeNames) {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const char* name : {"run.json", "excluded.csv", "floating.csv", "checkpoint/checkpoint.bin",
                           "checkpoint/checkpoint.bin.tmp"})
    if (fs::is_regular_file(out / name, ec)) files.push_back(out / name);
  if (fs::is_directory(out / "vtk", ec)) {
    for (const auto& e : fs::directory_iterator(out / "vtk", ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind("Part_", 0) == 0 && (endsWith(name, ".vtk") || endsWith(name, ".tmp"))) files.push_back(e.path());
    }
  }
  for (const std::string& g : gaugeNames)
    for (const char* tail : {"", ".part", ".tmp"})
      if (fs::is_regular_file(out / "gauges" / (g + tail), ec)) files.push_back(out / "gauges" / (g + tail));
  return files;
}

void checkOutputFolder(const fs::path& out, FolderUse use, const std::vector<std::string>& gaugeNames) {
  std::error_code ec;
  if (!fs::exists(out, ec)) {
    if (use != FolderUse::Resume) return;
    throw InputError(fmt::format("{}: --resume: there is no such output folder to resume", out.string()));
  }
  if (!fs::is_directory(out, ec)) throw InputError(fmt::format("{}: the output folder is a file", out.string()));
  if (lockIsHeld(out / kLockName)) lockedByAnother(out);
  if (use != FolderUse::New) return;
  const std::vector<fs::path> files = previousRunFiles(out, gaugeNames);
  if (files.empty()) return;
  throw InputError(fmt::format("{}: holds the results of an earlier run ({}{}); give --overwrite to replace them, or "
                               "--out another folder",
                               out.string(), fs::relative(files.front(), out, ec).string(),
                               files.size() > 1 ? fmt::format(" and {} more files", files.size() - 1) : ""));
}

OutputFolder::OutputFolder(fs::path out, FolderUse use, std::vector<std::string> gaugeNames) : out_(std::move(out)) {
  checkOutputFolder(out_, use, gaugeNames);
  std::error_code ec;
  fs::create_directories(out_ / "vtk", ec);
  if (ec) throw InputError(fmt::format("cannot create output folder {}: {}", (out_ / "vtk").string(), ec.message()));
  const fs::path lock = out_ / kLockName;
  lockFd_ = takeLock(out_, lock);
  lock_ = lock;
  if (use == FolderUse::Resume) return;
  for (const fs::path& p : previousRunFiles(out_, gaugeNames)) previous_.push_back({p, fs::last_write_time(p, ec)});
}

OutputFolder::~OutputFolder() {
  // Removed while still held, so that no other run can take the lock on a file that is going.
  std::error_code ec;
  if (!lock_.empty()) fs::remove(lock_, ec);
  if (lockFd_ >= 0) ::close(lockFd_);
}

void OutputFolder::dropPrevious() {
  for (const OldFile& f : previous_) {
    std::error_code ec;
    const auto written = fs::last_write_time(f.path, ec);
    if (!ec && written == f.written) fs::remove(f.path, ec);
  }
  previous_.clear();
}

}  // namespace sph
