// Lookups by mk in a loaded case (case_model.h).
#include <algorithm>

#include "sph/case_model.h"

namespace sph {

size_t mkIndexOf(const CaseDefinition& c, bool bound, int local) {
  size_t k = 0;
  while (k < c.mks.size() && !(c.mks[k].bound == bound && c.mks[k].local == local)) ++k;
  return k;
}

const FloatingDef* floatingOf(const CaseDefinition& c, int mkBound) {
  for (const FloatingDef& f : c.floatings)
    if (std::find(f.mkBound.begin(), f.mkBound.end(), mkBound) != f.mkBound.end()) return &f;
  return nullptr;
}

}  // namespace sph
