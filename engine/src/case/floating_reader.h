// Readers of <floatings> and <properties> (DEM materials, with the <propertyfile> they name).
// Both run after the geometry so that the mks they name can be checked against the particles.
#pragma once

#include <string>
#include <vector>

#include "case/xml_reader.h"
#include "model/case_model.h"

namespace sph {

// "51-68", "3", "1, 4-6": local mkbound values. Fails (through `x`) on anything else.
std::vector<int> parseMkList(const XmlReader& x, const XMLElement* e, const char* attribute);

void readFloatings(const XmlReader& x, const XMLElement* floatings, CaseDefinition& c);

// The property file is looked for beside the case, then under the `path` folder beside the case,
// then in the directories of SPH_MATERIALS_PATH (colon-separated), then in the materials bundled
// with the engine (testcases/materials).
void readProperties(const XmlReader& x, const XMLElement* properties, CaseDefinition& c);

}  // namespace sph
