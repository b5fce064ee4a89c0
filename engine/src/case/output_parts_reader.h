// <execution><special><outputparts> (model/case_output_parts.h), read as DualSPHysics' JDsOutputParts
// reads it, and checked against the case's mks and floating bodies once the particles exist.
#pragma once

#include <string>

#include "case/xml_reader.h"
#include "model/case_model.h"

namespace sph {

CaseOutputParts readOutputParts(const XmlReader& x, const XMLElement* e);

// Resolves the mk ranges and followed bodies of c.outputParts against c's mks and floatings;
// InputError naming the file and line of the filter otherwise.
void attachOutputParts(const std::string& path, CaseDefinition& c);

}  // namespace sph
