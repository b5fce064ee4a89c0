// Reader of <special><relaxationzones> (model/case_relaxation_zones.h), as DualSPHysics 5.4's
// _FmtXML_RelaxationZones.xml gives it: <rzwaves_regular>, <rzwaves_spectrum> and <rz_uniform>,
// each with its defaults. <rzwaves_external_1d> (velocities from SWASH files, whose format
// DualSPHysics does not publish) is refused by name, as are the spectrum zone's drift correction
// and its series outputs. Every error names the file, the line and the element.
#pragma once

#include "case/xml_reader.h"
#include "model/case_relaxation_zones.h"

namespace sph {

// The zones of one <relaxationzones> element (nothing when it is switched off), appended to `out`.
void readRelaxationZones(const XmlReader& x, const XMLElement* e, CaseRelaxationZones& out);

}  // namespace sph
