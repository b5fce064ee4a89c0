// Reads a case's <motion> element (DualSPHysics XML guide, "Motion") into MotionObjects:
// <objreal ref="MK"> with <begin>, <wait>, <mvrect>, <mvrectace>, <mvrectsinu>, <mvrot>, <mvrotace>,
// <mvrotsinu>, <mvcir>, <mvcirace>, <mvcirsinu>, <mvfile> (also named <mvrectfile>, <mvpredef>),
// <mvrotfile> and <mvnull>. The file movements' data files are read here, relative to the case
// file's folder (case/motion_data_file.h).
// Every error names the file, the line and the element: an unknown or unsupported movement, a
// ref with no boundary particles, a missing or repeated id, a `next` or `mov` naming no
// movement, a negative duration, a loop of movements that takes no time, a data file that is
// missing or has a bad row (also naming the data file and its line), columns that do not exist.
#pragma once

#include <vector>

#include "case/xml_reader.h"
#include "model/case_model.h"

namespace sph {

// `mks` are the generated particle families: refs are checked against them, so this runs after
// the geometry. The <objreal> objects go to `objects`, the <obj> frames to `frames`
// (model/case_motion.h: MotionObject::parent).
void readMotion(const XmlReader& xml, const XMLElement* motion, const std::vector<MkEntry>& mks,
                std::vector<MotionObject>& objects, std::vector<MotionObject>& frames);

}  // namespace sph
