// Reads a case's <motion> element (DualSPHysics XML guide, "Motion") into MotionObjects:
// <objreal ref="MK"> with <begin>, <wait>, <mvrect>, <mvrectace>, <mvrectsinu>, <mvrot>, <mvrotace>,
// <mvrotsinu> and <mvnull>.
// Every error names the file, the line and the element: an unknown or unsupported movement, a
// ref with no boundary particles, a missing or repeated id, a `next` or `mov` naming no
// movement, a negative duration, a loop of movements that takes no time.
#pragma once

#include <vector>

#include "sph/case_model.h"
#include "xml_reader.h"

namespace sph {

// `mks` are the generated particle families: refs are checked against them, so this runs after
// the geometry.
std::vector<MotionObject> readMotion(const XmlReader& xml, const XMLElement* motion,
                                     const std::vector<MkEntry>& mks);

}  // namespace sph
