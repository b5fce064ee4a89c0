// <simulationdomain>: its specs are read as text and resolved against the particles' bounding
// box once they exist.
#include "case/simulation_domain.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "model/number_text.h"
#include "sph/plugin/errors.h"

namespace sph {

std::optional<DomainAxisSpec> parseDomainAxis(const std::string& text) {
  std::string lower(trimBlanks(text));
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return char(std::tolower(ch)); });
  constexpr std::string_view kDefault = "default";
  if (lower.compare(0, kDefault.size(), kDefault) != 0) {
    const auto v = parseReal(lower);
    if (!v) return std::nullopt;
    return DomainAxisSpec{false, *v, false};
  }
  std::string_view rest = trimBlanks(std::string_view(lower).substr(kDefault.size()));
  if (rest.empty()) return DomainAxisSpec{true, 0, false};
  const char sign = rest.front();
  if (sign != '+' && sign != '-') return std::nullopt;
  rest = trimBlanks(rest.substr(1));
  const bool percent = !rest.empty() && rest.back() == '%';
  if (percent) rest.remove_suffix(1);
  const auto v = parseReal(rest);
  if (!v || *v < 0) return std::nullopt;
  return DomainAxisSpec{true, sign == '-' ? -*v : *v, percent};
}

namespace {
bool allDefault(const DomainAxisSpec (&specs)[3]) {
  for (const DomainAxisSpec& s : specs)
    if (!s.useDefault || s.value != 0) return false;
  return true;
}

// The numbers of a comma-separated value ("0,0,0,1,1,1").
std::vector<double> numbersOf(const CaseDefinition& c, const std::string& key, size_t count) {
  const CaseParameter& p = c.parameters.at(key);
  std::vector<double> out;
  std::string_view rest = p.value;
  while (out.size() < count) {
    const size_t comma = rest.find(',');
    const auto v = parseReal(trimBlanks(rest.substr(0, comma)));
    if (!v) break;
    out.push_back(*v);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  if (out.size() != count)
    throw InputError(fmt::format("{}:{}: <parameter key=\"{}\">: value=\"{}\" is not {} comma-separated numbers",
                                 c.path, p.line, key, p.value, count));
  return out;
}
}  // namespace

void applyDomainParameters(CaseDefinition& c) {
  static const char* const kLimits[] = {"DomainFixedXmin", "DomainFixedYmin", "DomainFixedZmin",
                                        "DomainFixedXmax", "DomainFixedYmax", "DomainFixedZmax"};
  std::vector<std::string> given;
  const auto has = [&](const char* key) { return c.parameters.count(key) != 0; };
  DomainAxisSpec lo[3], hi[3];
  if (has("IncZ")) {
    const double incZ = parameterDouble(c, "IncZ", 0);
    // DualSPHysics takes IncZ 0 as not given.
    if (incZ != 0) {
      hi[2] = DomainAxisSpec{true, incZ * 100, true};
      given.push_back("IncZ");
    }
  }
  if (has("DomainFixed")) {
    const std::vector<double> v = numbersOf(c, "DomainFixed", 6);
    for (int a = 0; a < 3; ++a) {
      lo[a] = DomainAxisSpec{false, v[size_t(a)], false};
      hi[a] = DomainAxisSpec{false, v[size_t(a) + 3], false};
    }
    given.push_back("DomainFixed");
  }
  for (int k = 0; k < 6; ++k) {
    if (!has(kLimits[k])) continue;
    const DomainAxisSpec limit{false, parameterDouble(c, kLimits[k], 0), false};
    if (k < 3)
      lo[k] = limit;
    else
      hi[k - 3] = limit;
    given.push_back(kLimits[k]);
  }
  if (given.empty()) return;
  const CaseParameter& first = c.parameters.at(given.front());
  if (!allDefault(c.domainMin) || !allDefault(c.domainMax))
    throw InputError(fmt::format("{}:{}: <parameter key=\"{}\">: <simulationdomain> gives the domain too; "
                                 "DualSPHysics refuses IncZ or DomainFixed... beside it: keep one of them",
                                 c.path, first.line, given.front()));
  for (int a = 0; a < 3; ++a) c.domainMin[a] = lo[a], c.domainMax[a] = hi[a];
  c.warnings.push_back(fmt::format("{}:{}: <parameter key=\"{}\">: IncZ and DomainFixed... are deprecated in "
                                   "DualSPHysics 5.4 (use <simulationdomain>); applied as DualSPHysics does",
                                   c.path, first.line, given.front()));
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

}  // namespace sph
