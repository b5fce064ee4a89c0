// Reader of <special><damping> (physics/damping_physics.h): <dampingzone>, <dampingbox> and
// <dampingcylinder> in DualSPHysics 5.4's format. Every error names the file, the line and the
// element.
#pragma once

#include <vector>

#include "case/xml_reader.h"
#include "physics/damping_physics.h"

namespace sph {

// The zones of one <damping> element, appended to `out`.
void readDamping(const XmlReader& xml, const XMLElement* damping, std::vector<DampingZone>& out);

}  // namespace sph
