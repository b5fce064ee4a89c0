// How much host memory a case may take, so that a dp too small for this machine is an input error
// naming the dp that fits instead of a bad_alloc (or the kernel's out-of-memory killer).
#pragma once

#include <string>

#include "sph/memory_estimate.h"

namespace sph {

// availableHostBytes() and dpThatFits() are declared in sph/memory_estimate.h.

// Throws InputError when `bytes` (for `what`) exceed the available memory. The message gives the
// dp that would fit, scaling `dp` by (bytes / available)^(1 / dim): memory grows as dp^-dim.
// `suggestFrom` (when larger than `bytes`) is the need the dp that fits is scaled from: what must
// fit with it besides `bytes`.
void requireHostMemory(double bytes, const std::string& what, double dp, int dim, double suggestFrom = 0,
                       double boundShare = 0);

}  // namespace sph
