// GenCase's initial conditions (<casedef><initials>) and DualSPHysics' <initialize><fluidvelocity>:
//  - placement, applied to the generated particles before their mDBC normals are worked out:
//    <move> (a displacement), <rotateaxis> (a rotation about an axis), <moverandom> (a random
//    displacement of each particle);
//  - the fluid's initial velocity: <velocity mkfluid x y z> or, as <fluidvelocity>, along a
//    <direction> with a constant, linear or parabolic profile in z;
//  - the fluid's initial density: <densityuniform>, <densitygradient>, <densitydepth>
//    (model/initial_density.h), applied when the run starts.
// Each takes mkfluid (or mkbound, for placement) as a list of mks and ranges (all of the kind
// without it) and <onlypos>. GenCase's output holds what GenCase made of them: for it they are
// only checked.
#pragma once

#include "case/xml_reader.h"
#include "model/case_model.h"

namespace sph {

// The placement operations of <initials>, on the particles the commands generated.
void placeInitially(const XmlReader& x, const XMLElement* initials, CaseDefinition& c);

// The velocity and density operations of <initials> (after GenCase's particle order is set);
// `genCaseOutput`: the particles are GenCase's, which already has them applied.
void readInitials(const XmlReader& x, const XMLElement* initials, CaseDefinition& c, bool genCaseOutput);

// A velocity along <direction> with <velocity>, <velocity2> or <velocity3> (<initialize>'s
// <fluidvelocity>, and <initials><velocity> written that way), in single precision at each
// particle's z, as DualSPHysics evaluates it.
void applyVelocityProfile(const XmlReader& x, const XMLElement* e, CaseDefinition& c, bool apply = true);

}  // namespace sph
