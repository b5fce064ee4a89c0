// Lookups in a loaded case by mk, and its name (model/case_model.h).
#include <algorithm>
#include <filesystem>

#include "model/case_model.h"

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

MotionObject* motionObjectOf(CaseDefinition& c, int mkBound) {
  MotionObject* object = nullptr;
  for (MotionObject& o : c.motions)
    if (o.ref == mkBound) object = &o;
  return object;
}

std::string caseNameOf(const std::string& path) {
  std::string name = std::filesystem::path(path).stem().string();
  if (name.size() > 4 && name.compare(name.size() - 4, 4, "_Def") == 0) name.resize(name.size() - 4);
  return name;
}

}  // namespace sph
