// <simulationdomain> specs and typed access to <parameters>: the parts of a case that are read
// as text and only interpreted after loading.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "case_generator.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace gen {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

}  // namespace

std::optional<double> parseReal(std::string_view text) {
  const std::string s(trim(text));
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::optional<DomainAxisSpec> parseDomainAxis(const std::string& text) {
  std::string lower(trim(text));
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return char(std::tolower(ch)); });
  constexpr std::string_view kDefault = "default";
  if (lower.compare(0, kDefault.size(), kDefault) != 0) {
    const auto v = parseReal(lower);
    if (!v) return std::nullopt;
    return DomainAxisSpec{false, *v, false};
  }
  std::string_view rest = trim(std::string_view(lower).substr(kDefault.size()));
  if (rest.empty()) return DomainAxisSpec{true, 0, false};
  const char sign = rest.front();
  if (sign != '+' && sign != '-') return std::nullopt;
  rest = trim(rest.substr(1));
  const bool percent = !rest.empty() && rest.back() == '%';
  if (percent) rest.remove_suffix(1);
  const auto v = parseReal(rest);
  if (!v || *v < 0) return std::nullopt;
  return DomainAxisSpec{true, sign == '-' ? -*v : *v, percent};
}

int resolveDomain(CaseDefinition& c) {
  double lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
  if (!c.positions.empty()) {
    const Vec3d& p0 = c.positions.front();
    double x0 = p0.x, x1 = p0.x, y0 = p0.y, y1 = p0.y, z0 = p0.z, z1 = p0.z;
    const int64_t n = int64_t(c.positions.size());
    // On all cores: a case of hundreds of millions of particles spends seconds here on one.
#pragma omp parallel for schedule(static) reduction(min : x0, y0, z0) reduction(max : x1, y1, z1)
    for (int64_t i = 0; i < n; ++i) {
      const Vec3d& p = c.positions[size_t(i)];
      x0 = std::min(x0, p.x);
      x1 = std::max(x1, p.x);
      y0 = std::min(y0, p.y);
      y1 = std::max(y1, p.y);
      z0 = std::min(z0, p.z);
      z1 = std::max(z1, p.z);
    }
    lo[0] = x0, lo[1] = y0, lo[2] = z0;
    hi[0] = x1, hi[1] = y1, hi[2] = z1;
  }
  double outMin[3], outMax[3];
  for (int a = 0; a < 3; ++a) {
    const double size = hi[a] - lo[a];
    auto resolve = [size](const DomainAxisSpec& s, double base) {
      if (!s.useDefault) return s.value;
      return base + (s.percent ? s.value / 100.0 * size : s.value);
    };
    outMin[a] = resolve(c.domainMin[a], lo[a]);
    outMax[a] = resolve(c.domainMax[a], hi[a]);
  }
  if (c.twoD) outMin[1] = outMax[1] = c.pointMin.y;
  c.resolvedDomainMin = {outMin[0], outMin[1], outMin[2]};
  c.resolvedDomainMax = {outMax[0], outMax[1], outMax[2]};
  for (int a = 0; a < 3; ++a) {
    if (outMax[a] < outMin[a]) return a;
  }
  return -1;
}

}  // namespace gen

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
  const auto v = gen::parseReal(p->value);
  if (!v) badValue(c, key, *p, "a number");
  return *v;
}

int parameterInt(const CaseDefinition& c, const std::string& key, int fallback) {
  const CaseParameter* p = findParameter(c, key);
  if (!p) return fallback;
  const auto v = gen::parseReal(p->value);
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
