#include "case/xml_reader.h"

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "case/unsupported_elements.h"
#include "model/number_text.h"
#include "sph/plugin/errors.h"

namespace sph {

std::vector<std::string> splitTokens(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  auto flush = [&] {
    size_t b = cur.find_first_not_of(" \t\r\n"), e = cur.find_last_not_of(" \t\r\n");
    out.push_back(b == std::string::npos ? std::string() : cur.substr(b, e - b + 1));
    cur.clear();
  };
  for (char ch : text) {
    if (ch == '|') flush();
    else cur += char(std::tolower(static_cast<unsigned char>(ch)));
  }
  flush();
  return out;
}

namespace {
// Why a value's text is no number parseReal accepts: the end of "attribute X=\"...\" ...".
std::string whyNotANumber(const char* text) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text, &end);
  while (end && *end && std::isspace(static_cast<unsigned char>(*end))) ++end;
  if (end == text || (end && *end)) return "is not a number";
  if (!std::isfinite(v)) return "is not a finite number";
  if (errno == ERANGE)
    return v == 0 || std::fabs(v) < 1 ? "is too small for a double (below about 2.2e-308 in size)"
                                      : "is too large for a double (above about 1.8e308)";
  return "is not a number";
}
}  // namespace

void XmlReader::fail(const XMLElement* e, std::string_view msg) const {
  throw InputError(fmt::format("{}:{}: <{}>: {}", path_, e->GetLineNum(), e->Name(), msg));
}

void XmlReader::refuseIfUnsupported(const XMLElement* e, std::string_view parent) const {
  const std::string_view what = unsupportedElement(parent, e->Name());
  if (!what.empty()) {
    fail(e, fmt::format("{} (DualSPHysics' <{}> in <{}>) is not supported by this engine; remove it or rename it "
                        "to <_{}> to disable it",
                        what, e->Name(), parent, e->Name()));
  }
}

void XmlReader::unknown(const XMLElement* e, const XMLElement* parent) const {
  refuseIfUnsupported(e, parent->Name());
  fail(e, fmt::format("unknown element inside <{}>", parent->Name()));
}

const XMLElement* XmlReader::child(const XMLElement* e, const char* name) const {
  const XMLElement* c = e->FirstChildElement(name);
  if (!c) fail(e, fmt::format("missing element <{}>", name));
  return c;
}

const XMLElement* XmlReader::optionalChild(const XMLElement* e, const char* name) const {
  const XMLElement* found = nullptr;
  for (const XMLElement* c = e->FirstChildElement(name); c; c = c->NextSiblingElement(name)) {
    if (skipped(c)) continue;
    if (found) fail(c, fmt::format("appears twice (first at line {})", found->GetLineNum()));
    found = c;
  }
  return found;
}

void XmlReader::onlyChildren(const XMLElement* e, std::initializer_list<std::string_view> allowed) const {
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (skipped(c)) continue;
    bool ok = false;
    for (std::string_view a : allowed) ok = ok || a == c->Name();
    if (!ok) unknown(c, e);
  }
}

const char* XmlReader::attr(const XMLElement* e, const char* name) const {
  const char* v = e->Attribute(name);
  if (!v) fail(e, fmt::format("missing attribute {}", name));
  return v;
}

double XmlReader::real(const XMLElement* e, const char* name) const {
  const char* text = attr(e, name);
  const std::string_view t(text);
  const size_t first = t.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && t[first] == '#') {
    if (!vars_) fail(e, fmt::format("attribute {}=\"{}\": GenCase expressions are not read here", name, text));
    try {
      return vars_->evaluate(t.substr(first + 1));
    } catch (const std::invalid_argument& err) {
      fail(e, fmt::format("attribute {}=\"{}\": {}", name, text, err.what()));
    }
  }
  const auto v = parseReal(text);
  if (!v) fail(e, fmt::format("attribute {}=\"{}\" {}", name, text, whyNotANumber(text)));
  return *v;
}

double XmlReader::real(const XMLElement* e, const char* name, double fallback) const {
  return e->Attribute(name) ? real(e, name) : fallback;
}

int XmlReader::integer(const XMLElement* e, const char* name) const {
  constexpr double kMost = 1e9;  // well inside an int, and above any count a case file gives
  const double v = real(e, name);
  if (v != std::floor(v)) fail(e, fmt::format("attribute {}=\"{}\" is not an integer", name, attr(e, name)));
  if (std::fabs(v) > kMost)
    fail(e, fmt::format("attribute {}=\"{}\" is out of range (at most {:.0f} in size)", name, attr(e, name), kMost));
  return int(v);
}

bool XmlReader::boolean(const XMLElement* e, const char* name, bool fallback) const {
  const char* v = e->Attribute(name);
  if (!v) return fallback;
  const auto t = splitTokens(v).front();
  if (t == "true" || t == "1") return true;
  if (t == "false" || t == "0") return false;
  fail(e, fmt::format("attribute {}=\"{}\" is not true or false", name, v));
}

Vec3d XmlReader::vec(const XMLElement* e) const { return {real(e, "x"), real(e, "y"), real(e, "z")}; }

Vec3d XmlReader::vec(const XMLElement* e, double fallback) const {
  return {real(e, "x", fallback), real(e, "y", fallback), real(e, "z", fallback)};
}

AutoValue XmlReader::autoValue(const XMLElement* e) const {
  AutoValue a;
  a.isAuto = boolean(e, "auto", false);
  a.value = (a.isAuto && !e->Attribute("value")) ? 0.0 : real(e, "value");
  return a;
}

}  // namespace sph
