#include "host_memory.h"

#include <unistd.h>

#include <cmath>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "sph/errors.h"

namespace sph {

double availableHostBytes() {
  std::ifstream f("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (f >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024.0;
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? double(pages) * double(page) : 0.0;
}

void requireHostMemory(double bytes, const std::string& what, double dp, int dim) {
  const double available = availableHostBytes();
  if (available <= 0 || bytes <= available) return;
  const double fits = dp * std::pow(bytes / available, 1.0 / double(dim > 0 ? dim : 3));
  throw InputError(fmt::format("dp {}: {} would need {:.1f} GB of memory, more than the {:.1f} GB this machine has "
                               "available; a dp of about {:.3g} or larger fits",
                               dp, what, bytes / 1e9, available / 1e9, fits));
}

}  // namespace sph
