#include "platform/host_memory.h"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {

namespace {

// A number from a file of /proc or /sys, or -1 when there is none ("max" included).
double numberIn(const char* path) {
  std::ifstream f(path);
  double v = -1;
  if (!(f >> v)) return -1;
  return v;
}

// The process's virtual memory in bytes (VmSize of /proc/self/status), or -1.
double virtualSize() {
  std::ifstream f("/proc/self/status");
  std::string key;
  while (f >> key) {
    if (key == "VmSize:") {
      double kib = -1;
      f >> kib;
      return kib * 1024.0;
    }
    f.ignore(1 << 12, '\n');
  }
  return -1;
}

}  // namespace

double availableHostBytes() {
  double available = 0;
  {
    std::ifstream f("/proc/meminfo");
    std::string key, unit;
    double kib = 0;
    while (f >> key >> kib >> unit)
      if (key == "MemAvailable:") {
        available = kib * 1024.0;
        break;
      }
  }
  if (available <= 0) {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    available = pages > 0 && page > 0 ? double(pages) * double(page) : 0.0;
  }
  // A container's memory limit (cgroup v2): what is left under it, whatever the machine has.
  const double cgroupMax = numberIn("/sys/fs/cgroup/memory.max"), cgroupUsed = numberIn("/sys/fs/cgroup/memory.current");
  if (cgroupMax > 0 && cgroupUsed >= 0) available = std::min(available, std::max(0.0, cgroupMax - cgroupUsed));
  // ulimit -v (RLIMIT_AS): what is left of the address space this process may map.
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const double used = virtualSize();
    if (used >= 0) available = std::min(available, std::max(0.0, double(as.rlim_cur) - used));
  }
  return available;
}

void requireHostMemory(double bytes, const std::string& what, double dp, int dim, double suggestFrom,
                       double boundShare) {
  const double available = availableHostBytes();
  if (available <= 0 || bytes <= available) return;
  throw InputError(fmt::format("dp {}: {} would need {:.1f} GB of memory, more than the {:.1f} GB this machine has "
                               "available; a dp of about {:.3g} or larger fits",
                               dp, what, bytes / 1e9, available / 1e9,
                               dpThatFits(dp, std::max(bytes, suggestFrom), available, dim, boundShare)));
}

double dpThatFits(double dp, double need, double have, int dim, double boundShare) {
  if (!(have > 0) || !(need > 0)) return dp;
  // 2% to spare: the lattice's rounding, and the 3 digits the dp is printed with.
  const double target = have / 1.02;
  const int d = dim > 0 ? dim : 3;
  const double bound = std::clamp(boundShare, 0.0, 1.0);
  auto needAt = [&](double scale) {  // scale = dp' / dp
    return need * ((1 - bound) * std::pow(scale, -d) + bound * std::pow(scale, -(d - 1)));
  };
  if (needAt(1) <= target) return dp;
  double lo = 1, hi = 2;
  while (needAt(hi) > target) hi *= 2;
  for (int k = 0; k < 60; ++k) {
    const double mid = 0.5 * (lo + hi);
    (needAt(mid) > target ? lo : hi) = mid;
  }
  return dp * hi;
}

}  // namespace sph
