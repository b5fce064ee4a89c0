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

// DualSPHysics' older ways of giving the domain, in <parameters>: IncZ (the domain grows above the
// particles by that fraction of their height), DomainFixed ("xmin,ymin,zmin,xmax,ymax,zmax") and
// DomainFixedXmin ... DomainFixedZmax (one limit each). They become c.domainMin/Max, in
// DualSPHysics' order (IncZ, DomainFixed, then the single limits), with a warning that they are
// deprecated. Throws InputError (file, line, key) when a value does not parse or when
// <simulationdomain> also gives a limit, which DualSPHysics refuses too.
void applyDomainParameters(CaseDefinition& c);

// Fills c.resolvedDomainMin/Max from c.domainMin/Max and the particles' bounding box (in 2D the
// y extent is the y plane). Returns the axis (0..2) whose max ends below its min, or -1.
int resolveDomain(CaseDefinition& c);

}  // namespace sph
