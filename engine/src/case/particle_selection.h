// The particles an initial operation of a case applies to (GenCase's <initials> and <normals>,
// DualSPHysics' <initialize>): those of some mks of one kind (mkbound or mkfluid, a list such as
// "0,2-4"; every one of that kind without the attribute) whose position is inside <onlypos>.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "case/xml_reader.h"
#include "model/case_model.h"

namespace sph {

// <onlypos><posmin x y z/><posmax x y z/></onlypos>: an axis left out is unbounded; the limits are
// inclusive (DualSPHysics' JDsInitializeOp).
struct PositionBox {
  Vec3d lo{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, hi{HUGE_VAL, HUGE_VAL, HUGE_VAL};
  bool contains(const Vec3d& p) const {
    return p.x >= lo.x && p.y >= lo.y && p.z >= lo.z && p.x <= hi.x && p.y <= hi.y && p.z <= hi.z;
  }
};

// The <onlypos> child of `e`, or an unbounded box without one.
PositionBox readOnlyPos(const XmlReader& x, const XMLElement* e);

struct ParticleSelection {
  bool bound = false;
  std::vector<int> mks;  // local mk numbers; empty: all of the kind
  PositionBox box;
  // Whether particle i of c is selected.
  bool has(const CaseDefinition& c, size_t i) const;
  // Whether mk entry k is one of the selected mks.
  bool hasMk(const MkEntry& mk) const;
};

// The selection of `e` by its attribute `mkAttribute` ("mkbound" or "mkfluid") and its <onlypos>.
// Mks no particle has only warn (c.warnings): GenCase and DualSPHysics then set nothing.
ParticleSelection readSelection(const XmlReader& x, const XMLElement* e, const char* mkAttribute,
                                CaseDefinition& c);

}  // namespace sph
