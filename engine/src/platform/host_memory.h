// How much host memory a case may take, so that a dp too small for this machine is an input error
// naming the dp that fits instead of a bad_alloc (or the kernel's out-of-memory killer).
#pragma once

#include <string>

namespace sph {

// Bytes of memory this process may still take: MemAvailable of /proc/meminfo (else the physical
// memory), within what is left under a container's limit (cgroup v2 memory.max) and under
// `ulimit -v` (RLIMIT_AS); 0 when unknown.
double availableHostBytes();

// The dp at which `need` bytes at `dp` shrink to `have`, with 2% to spare: the fluid's particles
// (and memory) grow as dp^-dim, the boundary's, a `boundShare` of them, as dp^-(dim-1) (walls are
// surfaces).
double dpThatFits(double dp, double need, double have, int dim, double boundShare = 0);

// Throws InputError when `bytes` (for `what`) exceed the available memory. The message gives the
// dp that would fit, scaling `dp` by (bytes / available)^(1 / dim): memory grows as dp^-dim.
// `suggestFrom` (when larger than `bytes`) is the need the dp that fits is scaled from: what must
// fit with it besides `bytes`.
void requireHostMemory(double bytes, const std::string& what, double dp, int dim, double suggestFrom = 0,
                       double boundShare = 0);

}  // namespace sph
