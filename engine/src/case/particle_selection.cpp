#include "case/particle_selection.h"

#include <algorithm>

#include <fmt/format.h>

#include "case/floating_reader.h"

namespace sph {

PositionBox readOnlyPos(const XmlReader& x, const XMLElement* e) {
  PositionBox box;
  const XMLElement* only = x.optionalChild(e, "onlypos");
  // active="false" switches the filter off, as DualSPHysics' CheckElementActive.
  if (!only || !x.boolean(only, "active", true)) return box;
  x.onlyChildren(only, {"posmin", "posmax"});
  if (const XMLElement* m = x.optionalChild(only, "posmin")) box.lo = x.vec(m, -HUGE_VAL);
  if (const XMLElement* m = x.optionalChild(only, "posmax")) box.hi = x.vec(m, HUGE_VAL);
  return box;
}

ParticleSelection readSelection(const XmlReader& x, const XMLElement* e, const char* mkAttribute,
                                CaseDefinition& c) {
  ParticleSelection s;
  s.bound = std::string_view(mkAttribute) == "mkbound";
  if (e->Attribute(mkAttribute)) s.mks = parseMkList(x, e, mkAttribute);
  s.box = readOnlyPos(x, e);
  for (int mk : s.mks) {
    if (mkIndexOf(c, s.bound, mk) == c.mks.size())
      c.warnings.push_back(fmt::format("{}:{}: <{} {}=\"{}\">: no particle has {} {}; nothing is set for it",
                                       x.path(), e->GetLineNum(), e->Name(), mkAttribute, x.attr(e, mkAttribute),
                                       mkAttribute, mk));
  }
  return s;
}

bool selectsSomeMk(const CaseDefinition& c, const ParticleSelection& s) {
  for (const MkEntry& mk : c.mks)
    if (s.hasMk(mk.bound, mk.local)) return true;
  return false;
}

}  // namespace sph
