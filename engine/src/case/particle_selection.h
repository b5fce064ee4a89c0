// Reading which particles an initial operation of a case applies to (model/particle_selection.h):
// its mkbound or mkfluid attribute and its <onlypos>.
#pragma once

#include "case/xml_reader.h"
#include "model/case_model.h"
#include "model/particle_selection.h"

namespace sph {

// The <onlypos> child of `e`, or an unbounded box without one.
PositionBox readOnlyPos(const XmlReader& x, const XMLElement* e);

// The selection of `e` by its attribute `mkAttribute` ("mkbound" or "mkfluid") and its <onlypos>.
// Mks no particle has only warn (c.warnings): GenCase and DualSPHysics then set nothing.
ParticleSelection readSelection(const XmlReader& x, const XMLElement* e, const char* mkAttribute,
                                CaseDefinition& c);

// Whether some mk of c is one `s` selects.
bool selectsSomeMk(const CaseDefinition& c, const ParticleSelection& s);

}  // namespace sph
