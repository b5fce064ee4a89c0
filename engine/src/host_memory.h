// How much host memory a case may take, so that a dp too small for this machine is an input error
// naming the dp that fits instead of a bad_alloc (or the kernel's out-of-memory killer).
#pragma once

#include <string>

namespace sph {

// Bytes of memory the system says are available now (MemAvailable of /proc/meminfo, else the
// physical memory); 0 when unknown.
double availableHostBytes();

// Throws InputError when `bytes` (for `what`) exceed the available memory. The message gives the
// dp that would fit, scaling `dp` by (bytes / available)^(1 / dim): memory grows as dp^-dim.
void requireHostMemory(double bytes, const std::string& what, double dp, int dim);

}  // namespace sph
