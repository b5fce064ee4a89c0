// Reader of <special><mlayerpistons> (model/case_ml_pistons.h, DualSPHysics' _FmtXML_MLPistons.xml):
// <piston1d> with <mkbound>, <filevelx>, <incz>, <timedataini>, <smooth>; <piston2d> with
// <mkbound>, <incz>, <smoothz>, <smoothy> and a <veldata> (<filevelx>, <posy>, <timedataini>) per
// column; `active` attributes as DualSPHysics reads them. The velocity files are read relative
// to the case's folder. Every error names the file, the line and the element.
#pragma once

#include <string>
#include <vector>

#include "case/xml_reader.h"
#include "model/case_model.h"

namespace sph {

void readMlPistons(const XmlReader& xml, const XMLElement* mlayerpistons, std::vector<MlPiston>& out);

// A velocity file (model/case_ml_pistons.h); InputError naming the file and line.
MlPistonData readMlPistonData(const std::string& path);

// Gives each piston of c.mlPistons to the <motion> object of its mkbound (which must exist, with
// no wave paddle nor other piston); a piston2d's columns must be at least 2 dp apart in y, as in
// DualSPHysics.
void attachMlPistons(const std::string& path, CaseDefinition& c);

}  // namespace sph
