// DualSPHysics 5.4 elements this engine knows to be part of the format but does not implement.
// A case that uses one is refused with what the element is for, so that the user learns the case
// is valid DualSPHysics and what this engine lacks, rather than that it is misspelt.
#pragma once

#include <string_view>

namespace sph {

// What the element `child` inside `parent` asks DualSPHysics for ("imposed linear velocity of a
// floating body"), or an empty view when it is no such element.
std::string_view unsupportedElement(std::string_view parent, std::string_view child);

}  // namespace sph
