// Reader of <execution><special>: the gauges (<gauges>), wave paddles (<wavepaddles>,
// case/wave_paddles_reader.h), damping zones (<damping>, case/damping_reader.h) and acceleration
// inputs (<accinputs>, case/acc_inputs_reader.h) are read; the other <special> features of
// DualSPHysics are refused with a "not supported" error naming file, line and element, never
// silently ignored.
#pragma once

#include <string>
#include <vector>

#include "case/xml_reader.h"
#include "model/case_acc_inputs.h"
#include "model/case_gauges.h"
#include "model/case_wave_paddles.h"
#include "physics/damping_physics.h"

namespace sph {

// Reads one <special> element into c (gauges, damping, accinputs, inout, timeout, warnings) and
// `paddles`. Throws
// InputError (file, line, element).
void readSpecial(const XmlReader& xml, const XMLElement* special, CaseDefinition& c, std::vector<WavePaddle>& paddles);

// Finds the particles of each force gauge's <target mkbound> in the generated case (its mks in
// their final order). InputError (file, line of <target>) for an mkbound without particles or a
// floating one.
void attachGauges(const std::string& path, CaseDefinition& c);

}  // namespace sph
