// <simulationdomain>: its specs are read as text and resolved against the particles' bounding
// box once they exist.
#pragma once

#include <optional>
#include <string>

#include "model/case_model.h"

namespace sph {

// One axis of <posmin>/<posmax>: "default", "default + X", "default - X", "default + P%", "X".
// Returns nullopt when the text does not parse.
std::optional<DomainAxisSpec> parseDomainAxis(const std::string& text);

// Fills c.resolvedDomainMin/Max from c.domainMin/Max and the particles' bounding box (in 2D the
// y extent is the y plane). Returns the axis (0..2) whose max ends below its min, or -1.
int resolveDomain(CaseDefinition& c);

}  // namespace sph
