#include "output_folder.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "sph/errors.h"

namespace sph {
namespace fs = std::filesystem;
namespace {

constexpr const char* kLockName = ".sph-run.lock";

bool endsWith(const std::string& s, const char* tail) {
  const size_t n = std::strlen(tail);
  return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// The process holding the lock, or 0 when the file names none that is alive (a run that was
// killed leaves its lock behind).
long lockHolder(const fs::path& lock) {
  std::ifstream f(lock);
  long pid = 0;
  if (!(f >> pid) || pid <= 0) return 0;
  if (::kill(pid_t(pid), 0) == 0 || errno == EPERM) return pid;
  return 0;
}

[[noreturn]] void lockedByAnother(const fs::path& out, long pid) {
  throw InputError(fmt::format("{}: another run (process {}) is writing its results there; wait for it to end or "
                               "give --out another folder",
                               out.string(), pid));
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
    for (const char* tail : {".csv", ".csv.part", ".csv.tmp"})
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
  if (const long pid = lockHolder(out / kLockName); pid != 0 && pid != long(::getpid())) lockedByAnother(out, pid);
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
  // O_EXCL: of two runs starting at once, one gets the lock.
  for (int attempt = 0;; ++attempt) {
    const int fd = ::open(lock.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
    if (fd >= 0) {
      const std::string pid = fmt::format("{}\n", long(::getpid()));
      const bool ok = ::write(fd, pid.data(), pid.size()) == ssize_t(pid.size());
      ::close(fd);
      if (!ok) throw InputError(fmt::format("cannot write {}: {}", lock.string(), std::strerror(errno)));
      break;
    }
    if (errno != EEXIST)
      throw InputError(fmt::format("cannot create {} in the output folder: {}", lock.string(), std::strerror(errno)));
    const long pid = lockHolder(lock);
    if (pid != 0 || attempt > 0) lockedByAnother(out_, pid);
    fs::remove(lock, ec);  // left by a run that no longer exists
  }
  lock_ = lock;
  if (use == FolderUse::Resume) return;
  for (const fs::path& p : previousRunFiles(out_, gaugeNames)) previous_.push_back({p, fs::last_write_time(p, ec)});
}

OutputFolder::~OutputFolder() {
  std::error_code ec;
  if (!lock_.empty()) fs::remove(lock_, ec);
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
