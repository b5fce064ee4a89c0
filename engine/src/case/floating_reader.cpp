#include "case/floating_reader.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>
#include <tuple>

#include <fmt/format.h>

#include "case/motion_data_file.h"
#include "model/number_text.h"
#include "platform/input_file.h"
#include "platform/install_paths.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace fs = std::filesystem;

namespace {

// The local mkbound values that have particles in the generated case.
std::set<int> boundMksWithParticles(const CaseDefinition& c) {
  std::set<int> s;
  for (const MkEntry& m : c.mks)
    if (m.bound && m.count > 0) s.insert(m.local);
  return s;
}

void checkMksExist(const XmlReader& x, const XMLElement* e, const std::vector<int>& mks,
                   const CaseDefinition& c) {
  const std::set<int> have = boundMksWithParticles(c);
  for (int mk : mks) {
    if (!have.count(mk)) x.fail(e, fmt::format("mkbound {} has no particles in this case", mk));
  }
}

std::optional<double> valueChild(const XmlReader& x, const XMLElement* e, const char* name) {
  const XMLElement* c = e->FirstChildElement(name);
  if (!c || skipped(c)) return std::nullopt;
  return x.real(c, "value");
}

// One <property name=...> into `out`, its values given either as attributes (Key="value", the
// form of a case's own <property>) or as child elements <Key value="..."/> (the form of
// DualSPHysics' material files, e.g. its examples' Floating_Materials.xml); a key given twice
// is an error.
void readProperty(const XmlReader& x, const XMLElement* e, PropertiesDef& out) {
  const std::string name = x.attr(e, "name");
  MaterialDef m;
  m.source = fmt::format("{}:{}", x.path(), e->GetLineNum());
  for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
    const std::string_view key = a->Name();
    if (key == "name" || key == "comment" || key == "units_comment") continue;
    m.values[std::string(key)] = x.real(e, a->Name());
  }
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (!m.values.emplace(c->Name(), x.real(c, "value")).second)
      x.fail(c, fmt::format("{} of property \"{}\" is given twice", c->Name(), name));
  }
  if (!out.materials.emplace(name, std::move(m)).second) {
    x.fail(e, fmt::format("property \"{}\" is defined twice", name));
  }
}

fs::path findPropertyFile(const XmlReader& x, const XMLElement* e, const std::string& file,
                          const std::string& sub) {
  const fs::path caseDir = fs::path(x.path()).parent_path();
  std::vector<fs::path> dirs = {caseDir};
  if (!sub.empty()) dirs.push_back(caseDir / sub);
  if (const char* env = std::getenv("SPH_MATERIALS_PATH")) {
    std::stringstream ss(env);
    for (std::string d; std::getline(ss, d, ':');)
      if (!d.empty()) dirs.push_back(d);
  }
  // The bundled materials: installed beside the binary, else in the source tree it was built from.
  if (const std::string installed = besideExecutable("share/sph/materials"); !installed.empty())
    dirs.push_back(installed);
#ifdef SPH_MATERIALS_DIR
  dirs.push_back(SPH_MATERIALS_DIR);
#endif
  std::string searched;
  for (const fs::path& d : dirs) {
    const fs::path p = d / file;
    std::error_code ec;
    if (fs::is_regular_file(p, ec)) return p;
    searched += "\n  " + p.string();
  }
  x.fail(e, fmt::format("property file {} not found; looked for{}", file, searched));
}

// <propertyfile file path>: `path` names the element of that file that holds the <property>
// list (e.g. its root <materials>); when the file has no such element, the root holds it.
void readPropertyFile(const XmlReader& x, const XMLElement* e, PropertiesDef& out) {
  const std::string file = x.attr(e, "file");
  const char* pathAttr = e->Attribute("path");
  const std::string sub = pathAttr ? pathAttr : "";
  const fs::path found = findPropertyFile(x, e, file, sub);
  tinyxml2::XMLDocument doc;
  const XmlReader fx(found.string());
  const std::string text = readInputFile(found.string(), "property file");
  if (doc.Parse(text.data(), text.size()) != tinyxml2::XML_SUCCESS) {
    throw InputError(fmt::format("{}:{}: malformed XML: {} (property file named at {}:{})", found.string(),
                                 doc.ErrorLineNum(), doc.ErrorStr(), x.path(), e->GetLineNum()));
  }
  const XMLElement* list = doc.RootElement();
  if (!list)
    throw InputError(fmt::format("{}: no root element: the property file holds no <properties> (named at {}:{})",
                                 found.string(), x.path(), e->GetLineNum()));
  if (!sub.empty() && sub != list->Name()) {
    const XMLElement* named = list->FirstChildElement(sub.c_str());
    if (named) list = named;
  }
  for (const XMLElement* p = list->FirstChildElement("property"); p; p = p->NextSiblingElement("property")) {
    if (!skipped(p)) readProperty(fx, p, out);
  }
}

}  // namespace

// The largest mk number a case may name.
constexpr int kMaxMk = 65535;

std::vector<int> parseMkList(const XmlReader& x, const XMLElement* e, const char* attribute) {
  const std::string text = x.attr(e, attribute);
  std::vector<int> out;
  std::stringstream ss(text);
  for (std::string item; std::getline(ss, item, ',');) {
    const size_t dash = item.find('-', item.find_first_not_of(" \t") + 1);
    const auto lo = parseReal(item.substr(0, dash));
    const auto hi = dash == std::string::npos ? lo : parseReal(item.substr(dash + 1));
    if (!lo || !hi || *lo != std::floor(*lo) || *hi != std::floor(*hi) || *lo < 0 || *hi < *lo) {
      x.fail(e, fmt::format("{}=\"{}\" is not a list of mk numbers and ranges (e.g. \"51-68\" or \"1, 3\")",
                            attribute, text));
    }
    // GenCase's mk numbers are 16-bit; a range beyond would also list billions of bodies.
    if (*hi > kMaxMk) x.fail(e, fmt::format("{}=\"{}\": mk {} is above {}, the largest mk", attribute, text, *hi, kMaxMk));
    for (int mk = int(*lo); mk <= int(*hi); ++mk) out.push_back(mk);
  }
  if (out.empty()) x.fail(e, fmt::format("{} is empty", attribute));
  return out;
}

// <linearvel>, <angularvel> (`child` "vel", components may be "none" or left out: free) and
// <linearforce>, <angularforce> (`child` "force", every component given): a time series, from
// <child time x y z> rows or from file="..." (rows "time x y z", beside the case), as DualSPHysics
// reads them (JLinearValue).
TimeSeries3 readTimeSeries(const XmlReader& x, const XMLElement* e, const char* child, bool freeComponents) {
  TimeSeries3 out;
  if (const char* file = e->Attribute("file")) {
    x.onlyChildren(e, {});
    std::filesystem::path path(file);
    if (path.is_relative()) path = std::filesystem::path(x.path()).parent_path() / path;
    const DataFileUse use{freeComponents ? "floating velocity file" : "floating force file",
                          "the floating body", "a floating body's time series"};
    for (const std::vector<double>& row : readDataRows(path.string(), 4, 0, use)) {
      out.times.push_back(row[0]);
      out.values.push_back({row[1], row[2], row[3]});
    }
    return out;
  }
  x.onlyChildren(e, {child});
  for (const XMLElement* r = e->FirstChildElement(child); r; r = r->NextSiblingElement(child)) {
    if (skipped(r)) continue;
    const double t = x.real(r, "time");
    if (!out.times.empty() && t < out.times.back())
      x.fail(r, fmt::format("time=\"{}\" goes back (the previous row is at {})", t, out.times.back()));
    double v[3];
    for (int k = 0; k < 3; ++k) {
      const char* name = k == 0 ? "x" : k == 1 ? "y" : "z";
      const char* text = r->Attribute(name);
      if (freeComponents && (!text || std::string_view(splitTokens(text).front()) == "none"))
        v[k] = std::nan("");
      else
        v[k] = x.real(r, name);
    }
    out.times.push_back(t);
    out.values.push_back({v[0], v[1], v[2]});
  }
  if (out.times.empty()) x.fail(e, fmt::format("needs <{} time=... x=... y=... z=...> rows or file=\"...\"", child));
  return out;
}

// <translationDOF x y z> / <rotationDOF x y z> (DualSPHysics also reads <translation>, <rotation>):
// 0 restricts that axis; a component left out is free.
void readFreedom(const XmlReader& x, const XMLElement* e, const char* name, const char* oldName, bool free[3]) {
  const XMLElement* a = e->FirstChildElement(name);
  const XMLElement* b = e->FirstChildElement(oldName);
  if (a && b) x.fail(b, fmt::format("<{}> and <{}> both restrict the motion: keep one", name, oldName));
  const XMLElement* d = a ? a : b;
  if (!d) return;
  x.onlyChildren(d, {});
  for (int k = 0; k < 3; ++k) free[k] = x.real(d, k == 0 ? "x" : k == 1 ? "y" : "z", 1) != 0;
}

// <inertia x y z> or <inertiafull> with three <values v11 v12 v13/> rows (GenCase writes the
// latter as <inertia> in its output), and <masspart value>.
void readInertiaAndMassPart(const XmlReader& x, const XMLElement* e, FloatingDef& f) {
  const XMLElement* diagonal = x.optionalChild(e, "inertia");
  const XMLElement* full = x.optionalChild(e, "inertiafull");
  if (diagonal && full) x.fail(full, fmt::format("<inertia> (line {}) already gives it: keep one", diagonal->GetLineNum()));
  // GenCase's output writes the full tensor under the name <inertia>.
  if (diagonal && diagonal->FirstChildElement("values")) std::swap(diagonal, full);
  if (diagonal) {
    const Vec3d d = x.vec(diagonal);
    f.inertia = std::array<double, 6>{d.x, d.y, d.z, 0, 0, 0};
  } else if (full) {
    x.onlyChildren(full, {"values"});
    double m[3][3];
    int row = 0;
    for (const XMLElement* v = full->FirstChildElement("values"); v; v = v->NextSiblingElement("values")) {
      if (skipped(v)) continue;
      if (row == 3) x.fail(v, "a fourth row: the inertia is 3 x 3");
      static const char* const kNames[3][3] = {{"v11", "v12", "v13"}, {"v21", "v22", "v23"}, {"v31", "v32", "v33"}};
      for (int col = 0; col < 3; ++col) m[row][col] = x.real(v, kNames[row][col]);
      ++row;
    }
    if (row != 3) x.fail(full, "needs three <values> rows (v11 v12 v13, v21 v22 v23, v31 v32 v33)");
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b)
        if (std::abs(m[a][b] - m[b][a]) > 1e-9 * (std::abs(m[a][b]) + std::abs(m[b][a])) + 1e-300)
          x.fail(full, fmt::format("v{}{} and v{}{} differ: an inertia tensor is symmetric", a + 1, b + 1, b + 1, a + 1));
    f.inertia = std::array<double, 6>{m[0][0], m[1][1], m[2][2], m[0][1], m[0][2], m[1][2]};
  }
  if (f.inertia && !((*f.inertia)[0] > 0 && (*f.inertia)[1] > 0 && (*f.inertia)[2] > 0))
    x.fail(diagonal ? diagonal : full, "the moments of inertia (the diagonal) must be positive");
  if (const XMLElement* mp = x.optionalChild(e, "masspart")) {
    const std::string v = x.attr(mp, "value");
    if (v == "distributed_bodymass") {
      f.massPartDistributed = true;
    } else {
      f.massPart = x.real(mp, "value");
      if (!(*f.massPart > 0)) x.fail(mp, "the particle mass must be positive (or distributed_bodymass)");
    }
  }
}

void readFloatings(const XmlReader& x, const XMLElement* floatings, CaseDefinition& c) {
  std::set<int> taken;
  for (const XMLElement* e = floatings->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (skipped(e)) continue;
    if (std::string_view(e->Name()) != "floating") x.unknown(e, floatings);
    x.onlyChildren(e, {"massbody", "rhopbody", "masspart", "center", "inertia", "inertiafull", "velini", "omegaini",
                       "linearvelini", "angularvelini", "linearvel", "angularvel", "linearforce", "angularforce",
                       "translationDOF", "rotationDOF", "translation", "rotation"});
    FloatingDef f;
    f.line = e->GetLineNum();
    f.mkBound = parseMkList(x, e, "mkbound");
    checkMksExist(x, e, f.mkBound, c);
    for (int mk : f.mkBound) {
      if (!taken.insert(mk).second) x.fail(e, fmt::format("mkbound {} belongs to two floating bodies", mk));
    }
    if (e->Attribute("relativeweight")) f.relativeWeight = x.real(e, "relativeweight");
    f.massBody = valueChild(x, e, "massbody");
    // GenCase 5.4 writes the body's density as an attribute (GenCase_CaseTemplate.xml:
    // <floating mkbound="0" rhopbody="1300"/>), and rhopbody="0" beside a <massbody> for "not
    // given"; GenCase 5.0 read it as an element. Either, not both.
    if (e->Attribute("rhopbody")) {
      if (e->FirstChildElement("rhopbody")) x.fail(e, "rhopbody given both as an attribute and as <rhopbody>: keep one");
      if (x.real(e, "rhopbody") != 0) f.rhopBody = x.real(e, "rhopbody");
    } else {
      f.rhopBody = valueChild(x, e, "rhopbody");
    }
    const int given = int(bool(f.relativeWeight)) + int(bool(f.massBody)) + int(bool(f.rhopBody));
    if (given != 1) {
      x.fail(e, "give the body's weight exactly once: relativeweight=\"...\", rhopbody=\"...\" or <massbody value> "
                "(GenCase refuses two as well)");
    }
    for (const std::optional<double>* v : {&f.relativeWeight, &f.massBody, &f.rhopBody}) {
      if (*v && !(**v > 0)) x.fail(e, "the body's weight (relativeweight, massbody or rhopbody) must be positive");
    }
    if (const XMLElement* ce = e->FirstChildElement("center")) f.center = x.vec(ce);
    readInertiaAndMassPart(x, e, f);
    // DualSPHysics 5 names them linearvelini and angularvelini (GenCase 5 refuses the older
    // velini and omegaini, which DualSPHysics 4 cases use); either, not both.
    for (const auto& [oldName, newName, into] :
         {std::tuple{"velini", "linearvelini", &f.velIni}, std::tuple{"omegaini", "angularvelini", &f.omegaIni}}) {
      const XMLElement* a = e->FirstChildElement(oldName);
      const XMLElement* b = e->FirstChildElement(newName);
      if (a && b) x.fail(b, fmt::format("<{}> and <{}> both give the same initial velocity: keep one", oldName, newName));
      if (a || b) *into = x.vec(a ? a : b);
    }
    if (const char* p = e->Attribute("property")) f.property = p;
    for (const auto& [name, child, free, into] :
         {std::tuple{"linearvel", "vel", true, &f.linearVel}, std::tuple{"angularvel", "vel", true, &f.angularVel},
          std::tuple{"linearforce", "force", false, &f.linearForce},
          std::tuple{"angularforce", "force", false, &f.angularForce}}) {
      const XMLElement* d = e->FirstChildElement(name);
      if (d && !skipped(d)) *into = readTimeSeries(x, d, child, free);
    }
    readFreedom(x, e, "translationDOF", "translation", f.translationFree);
    readFreedom(x, e, "rotationDOF", "rotation", f.rotationFree);
    c.floatings.push_back(std::move(f));
  }
}

void readProperties(const XmlReader& x, const XMLElement* properties, CaseDefinition& c) {
  PropertiesDef& out = c.properties;
  const XMLElement* links = nullptr;
  for (const XMLElement* e = properties->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (skipped(e)) continue;
    const std::string_view name = e->Name();
    if (name == "propertyfile") readPropertyFile(x, e, out);
    else if (name == "property") readProperty(x, e, out);
    else if (name == "links") links = e;
    else x.unknown(e, properties);
  }
  for (const FloatingDef& f : c.floatings) {
    if (f.property.empty()) continue;
    try {
      resolveMaterial(out, f.property, "");
    } catch (const InputError& err) {
      throw InputError(fmt::format("{}:{}: <floating>: {}", x.path(), f.line, err.what()));
    }
  }
  if (!links) return;
  for (const XMLElement* l = links->FirstChildElement(); l; l = l->NextSiblingElement()) {
    if (skipped(l)) continue;
    if (std::string_view(l->Name()) != "link") x.unknown(l, links);
    PropertiesDef::Link link;
    link.line = l->GetLineNum();
    link.mkBound = parseMkList(x, l, "mkbound");
    checkMksExist(x, l, link.mkBound, c);
    link.property = x.attr(l, "property");
    try {
      resolveMaterial(out, link.property, "");
    } catch (const InputError& err) {
      x.fail(l, err.what());
    }
    out.links.push_back(std::move(link));
  }
}

std::map<std::string, double> resolveMaterial(const PropertiesDef& p, const std::string& names,
                                              const std::string& where) {
  std::map<std::string, double> out;
  std::stringstream ss(names);
  for (std::string name; std::getline(ss, name, '+');) {
    const size_t b = name.find_first_not_of(" \t"), e = name.find_last_not_of(" \t");
    name = b == std::string::npos ? "" : name.substr(b, e - b + 1);
    const auto it = p.materials.find(name);
    if (it == p.materials.end()) {
      std::string known;
      for (const auto& [k, v] : p.materials) known += (known.empty() ? "" : ", ") + k;
      throw InputError(fmt::format("{}unknown property \"{}\" (defined: {})", where, name,
                                   known.empty() ? "none" : known));
    }
    for (const auto& [k, v] : it->second.values) out[k] = v;
  }
  // "<Key>_User" replaces "<Key>" (DualSPHysics' user overrides, e.g. Restitution_Coefficient_User).
  constexpr std::string_view kUser = "_User";
  std::map<std::string, double> resolved;
  for (const auto& [k, v] : out) {
    if (k.size() > kUser.size() && k.compare(k.size() - kUser.size(), kUser.size(), kUser) == 0) continue;
    resolved[k] = v;
  }
  for (const auto& [k, v] : out) {
    if (k.size() > kUser.size() && k.compare(k.size() - kUser.size(), kUser.size(), kUser) == 0)
      resolved[k.substr(0, k.size() - kUser.size())] = v;
  }
  return resolved;
}

}  // namespace sph
