// Reader of <special><inout> (model/case_inout.h) in DualSPHysics 5.4's format (_FmtXML_InOut.xml),
// and the set-up that DualSPHysics does when the run starts (JSphInOut::Config, InOutInit): the
// zones' points, the initial buffer particles appended to the case's fluid, the fluid too close
// to them removed. Every error names the file, the line and the element.
#pragma once

#include <string>
#include <vector>

#include "case/xml_reader.h"
#include "model/case_model.h"

namespace sph {

// Reads one <inout> into `out` (an inactive one leaves it inactive); what it accepts but ignores,
// as DualSPHysics does, goes to `warnings`. The dimension is not known yet: both <zone2d> and
// <zone3d> are read, prepareInOut picks one.
void readInOut(const XmlReader& xml, const XMLElement* inout, CaseInOut& out, std::vector<std::string>& warnings);

// Once the case's particles and domain exist: the zones' points, checks of the zones against
// the domain, the particles of <particles mkfluid> zones replaced by the zone's buffer, the
// initial buffer particles appended to the fluid (mk: the new-fluid mk, see the .cpp) with their
// zone in c.inOutZone, fluid particles closer than 0.7 dp to one removed (warning). InputError
// naming `path` and the zone's line.
void prepareInOut(const std::string& path, CaseDefinition& c);

}  // namespace sph
