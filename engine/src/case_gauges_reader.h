// Reader of <execution><special>: the gauges (<gauges>) are read; the other <special> features of
// DualSPHysics are refused with a "not supported" error naming file, line and element, never
// silently ignored.
#pragma once

#include "sph/case_gauges.h"
#include "xml_reader.h"

namespace sph {

// Reads one <special> element into `out`. Throws InputError (file, line, element).
void readSpecial(const XmlReader& xml, const XMLElement* special, CaseGauges& out);

}  // namespace sph
