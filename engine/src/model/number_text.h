// The number syntax of case text (attribute values, <parameter> values, domain specs): what
// GenCase and DualSPHysics accept as a number, and nothing else.
#pragma once

#include <optional>
#include <string_view>

namespace sph {

// `s` without leading and trailing blanks.
std::string_view trimBlanks(std::string_view s);

// A decimal number with optional surrounding blanks and nothing else; nullopt otherwise (also
// for inf and nan).
std::optional<double> parseReal(std::string_view text);

}  // namespace sph
