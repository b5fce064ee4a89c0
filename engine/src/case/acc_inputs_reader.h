// Reader of <special><accinputs> (model/case_acc_inputs.h): each <accinput mkfluid|mkbound> with
// <time start end>, <acccentre>, <globalgravity> and its accelerations, given by <acctimes>
// <timevalue .../> or by a data file <acctimesfile> (case/motion_data_file.h). The mks are checked
// against the particles once the geometry is made (attachAccInputs). Every error names the file,
// the line and the element, and the data file's own line for a bad row.
#pragma once

#include <string>
#include <vector>

#include "case/xml_reader.h"
#include "model/case_model.h"

namespace sph {

// The inputs of one <accinputs> element, appended to `out`; an mk given twice is an error.
void readAccInputs(const XmlReader& xml, const XMLElement* accinputs, std::vector<AccInput>& out);

// Sets each input's mkIndex from c.mks, after the particles exist in their final order: every
// mkfluid must have particles, every mkbound must be a floating body.
void attachAccInputs(const std::string& path, CaseDefinition& c);

}  // namespace sph
