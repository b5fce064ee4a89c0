// <execution><special><shifting> (model/case_shifting.h), as DualSPHysics' JSphShifting reads it:
// <mode value> (0-3, as the Shifting parameter), <coefficient value> (default -2), <fsthreshold
// value> (default 0) and any <shiftingzone>s: <posref> with <size>, or with <vecx>, <vecy>,
// <vecz>, each possibly turned by <rotateaxis angle anglesunits><point1/><point2/></rotateaxis>.
#pragma once

#include "case/xml_reader.h"
#include "model/case_shifting.h"

namespace sph {

CaseShifting readShifting(const XmlReader& x, const XMLElement* e);

}  // namespace sph
