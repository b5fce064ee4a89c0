// Typed access to <parameters>: kept as text while the case loads, read when the run derives
// its parameters.
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "model/case_model.h"
#include "model/number_text.h"
#include "sph/plugin/errors.h"

namespace sph {

namespace {

const CaseParameter* findParameter(const CaseDefinition& c, const std::string& key) {
  const auto it = c.parameters.find(key);
  return it == c.parameters.end() ? nullptr : &it->second;
}

[[noreturn]] void badValue(const CaseDefinition& c, const std::string& key, const CaseParameter& p,
                           const char* expected) {
  throw InputError(fmt::format("{}:{}: <parameter key=\"{}\">: value \"{}\" is not {}", c.path,
                               p.line, key, p.value, expected));
}

}  // namespace

double parameterDouble(const CaseDefinition& c, const std::string& key, double fallback) {
  const CaseParameter* p = findParameter(c, key);
  if (!p) return fallback;
  const auto v = parseReal(p->value);
  if (!v) badValue(c, key, *p, "a number");
  return *v;
}

int parameterInt(const CaseDefinition& c, const std::string& key, int fallback) {
  const CaseParameter* p = findParameter(c, key);
  if (!p) return fallback;
  const auto v = parseReal(p->value);
  if (!v || *v != std::floor(*v)) badValue(c, key, *p, "an integer");
  if (*v < double(std::numeric_limits<int>::min()) || *v > double(std::numeric_limits<int>::max()))
    badValue(c, key, *p, fmt::format("an integer of at most {} in size", std::numeric_limits<int>::max()).c_str());
  return int(*v);
}

std::string parameterString(const CaseDefinition& c, const std::string& key,
                            const std::string& fallback) {
  const CaseParameter* p = findParameter(c, key);
  return p ? p->value : fallback;
}

}  // namespace sph
