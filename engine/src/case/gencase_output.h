// GenCase's output as a case. GenCase turns CASE_Def.xml into CASE.xml, the same case plus
// <execution><particles> (the mk blocks: which particle ids belong to which mk) and
// <execution><constants> (h, B, the particle masses, ... as GenCase computed them), and CASE.bi4,
// the particles (case/jbinary_file.h). DualSPHysics runs that pair; so does this engine: the particles
// come from the file instead of the geometry commands, the constants from GenCase instead of being
// derived again, and everything else (parameters, motion, floatings, gauges) goes through the
// loader as for a _Def.xml.
//
// What CASE.bi4 holds (its item "PART_0000"): Idp (uint), the positions as Posd (double3) or Pos
// (float3), Vel (float3), Rhop (float), and BoundNor (float3, mDBC's normals, written by GenCase
// 5.4 or by tools/dualsphysics/gencase_normals.py). The particles are placed by Idp, so the mk
// blocks, which are ranges of ids, say each particle's mk.
#pragma once

#include "case/xml_reader.h"
#include "model/case_model.h"

namespace sph {

// The particle file of GenCase's output CASE.xml: CASE.bi4 beside it.
std::string genCaseParticleFile(const std::string& xmlPath);

// Reads <constants> (may be null) into c.constants and c.dp, then the particle file beside the
// case (CASE.bi4 for CASE.xml) with the blocks of <particles> into c's particle arrays, initial
// velocities and densities, and mDBC's normals when the file has them. Errors name the XML file
// and line, or the particle file and what is wrong with it.
void readGenCaseOutput(const XmlReader& x, const XMLElement* particles, const XMLElement* constants,
                       CaseDefinition& c);

}  // namespace sph
