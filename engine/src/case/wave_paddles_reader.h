// Reader of <special><wavepaddles> (model/case_wave_paddles.h): regular waves from a <piston> or a
// <flap>, with active absorption (<awas_zsurf>) for pistons, solitary waves from a
// <piston_solitary>, irregular waves from a <piston_spectrum> or <flap_spectrum>, focused groups
// from a <piston_focused>. <flap_solitary> and <flap_focused> are refused by name. Every error
// names the file, the line and the element.
#pragma once

#include <vector>

#include "case/xml_reader.h"
#include "model/case_model.h"

namespace sph {

// The paddles of one <wavepaddles> element, appended to `out`.
void readWavePaddles(const XmlReader& xml, const XMLElement* wavepaddles, std::vector<WavePaddle>& out);

// One <savemotion>: time and timedt, or (regular waves) periods and periodsteps of `period`;
// xpos and zpos. What it leaves out takes DualSPHysics' defaults when the run starts.
PaddleSaveMotion readSaveMotion(const XmlReader& x, const XMLElement* s, double period, bool regular);

// Irregular waves' <spectrum>, <discretization>, <peakcoef>, <waves>, <randomseed>, <serieini> and
// <ramptime> children of e into p.irregular (p.order already set), as paddles read them.
void readIrregularSeaState(const XmlReader& xml, const XMLElement* e, WavePaddle& p);

// Gives each paddle to the <motion> object of its mkbound (which must exist, with no other
// paddle) and sets its gravity from the case's constants.
void attachWavePaddles(const std::string& path, const std::vector<WavePaddle>& paddles, CaseDefinition& c);

}  // namespace sph
