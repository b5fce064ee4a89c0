#include "case/output_parts_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {
namespace {

constexpr int kMaxLevels = 7;  // DualSPHysics keeps one bit per group level in a byte

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  return s;
}

bool preselection(const XmlReader& x, const XMLElement* e) {
  const std::string v = lower(x.attr(e, "preselection"));
  if (v != "all" && v != "none") x.fail(e, fmt::format("preselection=\"{}\" must be all or none", v));
  return v == "all";
}

double childV(const XmlReader& x, const XMLElement* e, const char* name, double fallback) {
  const XMLElement* c = x.optionalChild(e, name);
  return c ? x.real(c, "v") : fallback;
}

void readChildren(const XmlReader& x, const XMLElement* e, OutputFilter& block, int level);

OutputFilter readFilter(const XmlReader& x, const XMLElement* e, int level) {
  using Kind = OutputFilter::Kind;
  const std::string_view name = e->Name();
  OutputFilter f;
  f.line = e->GetLineNum();
  const std::string op = lower(x.attr(e, "operation"));
  if (op != "add" && op != "del" && op != "confirm") x.fail(e, fmt::format("operation=\"{}\" must be add, del or confirm", op));
  f.combineAnd = op != "add";
  // del is confirm of the negated test.
  f.negate = x.boolean(e, "inverse", false) != (op == "del");
  if (const XMLElement* follow = x.optionalChild(e, "ftfollow")) {
    const bool byMk = follow->Attribute("mk"), byBound = follow->Attribute("mkbound");
    if (byMk == byBound) x.fail(follow, "needs one of mk and mkbound (the floating body it follows)");
    if (byMk) f.followMk = x.integer(follow, "mk");
    else f.followMkBound = x.integer(follow, "mkbound");
  }
  if (name == "filterpos") {
    f.kind = Kind::Pos;
    x.onlyChildren(e, {"posmin", "posmax", "ftfollow"});
    f.lo = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    f.hi = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    if (const XMLElement* m = x.optionalChild(e, "posmin")) f.lo = x.vec(m, -HUGE_VAL);
    if (const XMLElement* m = x.optionalChild(e, "posmax")) f.hi = x.vec(m, HUGE_VAL);
  } else if (name == "filterplane") {
    f.kind = Kind::Plane;
    x.onlyChildren(e, {"point", "vector", "distance", "ftfollow"});
    f.point = x.vec(x.child(e, "point"));
    const Vec3d v = x.vec(x.child(e, "vector"));
    const double n = norm(v);
    f.normal = n > 0 ? scale(v, 1 / n) : Vec3d{};  // a zero vector: every particle, as DualSPHysics
    f.distance = childV(x, e, "distance", HUGE_VAL);
  } else if (name == "filtersphere") {
    f.kind = Kind::Sphere;
    x.onlyChildren(e, {"centre", "radius", "ftfollow"});
    const XMLElement* centre = f.followMk || f.followMkBound ? x.optionalChild(e, "centre") : x.child(e, "centre");
    f.centreGiven = centre != nullptr;
    if (centre) f.point = x.vec(centre);
    // DualSPHysics reads the radius in single precision.
    f.radius = double(float(x.real(x.child(e, "radius"), "v")));
  } else if (name == "filtercylinder") {
    f.kind = Kind::Cylinder;
    x.onlyChildren(e, {"point1", "point2", "radius", "ftfollow"});
    f.point = x.vec(x.child(e, "point1"));
    f.point2 = x.vec(x.child(e, "point2"));
    if (!(norm(sub(f.point2, f.point)) > 0)) x.fail(x.child(e, "point2"), "point1 and point2 are the same point");
    f.radius = childV(x, e, "radius", HUGE_VAL);
  } else if (name == "filtertype") {
    f.kind = Kind::Type;
    x.onlyChildren(e, {"type", "ftfollow"});
    const XMLElement* t = x.child(e, "type");
    std::string list = x.attr(t, "v");
    std::replace(list.begin(), list.end(), ',', '|');
    for (const std::string& word : splitTokens(list)) {
      if (word == "fixed") f.types |= OutputFilter::kTypeFixed;
      else if (word == "moving") f.types |= OutputFilter::kTypeMoving;
      else if (word == "floating") f.types |= OutputFilter::kTypeFloating;
      else if (word == "fluid") f.types |= OutputFilter::kTypeFluid;
      else if (word == "bound")
        f.types |= OutputFilter::kTypeFixed | OutputFilter::kTypeMoving | OutputFilter::kTypeFloating;
      else x.fail(t, fmt::format("\"{}\" is not a particle type (bound, fixed, moving, floating, fluid)", word));
    }
  } else if (name == "filtermk") {
    f.kind = Kind::Mk;
    x.onlyChildren(e, {"mk", "mkbound", "mkfluid", "ftfollow"});
    const XMLElement* given[3] = {x.optionalChild(e, "mk"), x.optionalChild(e, "mkbound"), x.optionalChild(e, "mkfluid")};
    const int count = (given[0] != nullptr) + (given[1] != nullptr) + (given[2] != nullptr);
    if (count != 1) x.fail(e, "needs exactly one of <mk>, <mkbound> and <mkfluid>");
    const int which = given[0] ? 0 : given[1] ? 1 : 2;
    f.numbering = static_cast<OutputFilter::MkNumbering>(which);
    const XMLElement* m = given[which];
    const std::string v = x.attr(m, "v");
    const size_t dash = v.find('-', 1);
    try {
      f.mkA = std::stoi(v.substr(0, dash));
      f.mkB = dash == std::string::npos ? f.mkA : std::stoi(v.substr(dash + 1));
    } catch (const std::exception&) {
      x.fail(m, fmt::format("v=\"{}\" is not an mk or a range a-b", v));
    }
  } else if (name == "filtergroup") {
    f.kind = Kind::Group;
    if (level + 1 > kMaxLevels) x.fail(e, fmt::format("no more than {} levels of <filtergroup> are allowed", kMaxLevels));
    f.preselectAll = preselection(x, e);
    readChildren(x, e, f, level + 1);
  } else {
    x.fail(e, "unknown element (filterpos, filterplane, filtersphere, filtercylinder, filtertype, filtermk or "
              "filtergroup)");
  }
  return f;
}

void readChildren(const XmlReader& x, const XMLElement* e, OutputFilter& block, int level) {
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string_view name = c->Name();
    // A group's own <ftfollow> is read as a filter, and refused for want of an operation, as
    // DualSPHysics does.
    if (skipped(c) || name == "ignore" || !x.boolean(c, "active", true)) continue;
    block.children.push_back(readFilter(x, c, level));
  }
}

// Each filter of the tree, depth first.
template <typename F>
void forEach(OutputFilter& f, F&& visit) {
  visit(f);
  for (OutputFilter& c : f.children) forEach(c, visit);
}

}  // namespace

CaseOutputParts readOutputParts(const XmlReader& x, const XMLElement* e) {
  CaseOutputParts o;
  o.line = e->GetLineNum();
  if (!x.boolean(e, "active", true)) return o;
  o.active = true;
  o.root.kind = OutputFilter::Kind::Group;
  o.root.preselectAll = preselection(x, e);
  if (const XMLElement* ignore = e->FirstChildElement("ignore")) {
    o.ignoreParts = ignore->Attribute("nparts") ? x.integer(ignore, "nparts") : 0;
    if (o.ignoreParts < 0) x.fail(ignore, "nparts cannot be negative");
  }
  readChildren(x, e, o.root, 0);
  return o;
}

void attachOutputParts(const std::string& path, CaseDefinition& c) {
  if (!c.outputParts.active) return;
  // The kind of each block, in the case's block order: 0 fixed, 1 moving, 2 floating, 3 fluid.
  std::vector<int> kind(c.mks.size(), 0);
  for (size_t k = 0; k < c.mks.size(); ++k) {
    if (!c.mks[k].bound) kind[k] = 3;
    else if (floatingOf(c, c.mks[k].local)) kind[k] = 2;
  }
  for (const MotionObject& m : c.motions) kind[m.mkIndex] = 1;
  forEach(c.outputParts.root, [&](OutputFilter& f) {
    const std::string where = fmt::format("{}:{}: <outputparts>", path, f.line);
    if (f.followMk) {
      const auto it = std::find_if(c.mks.begin(), c.mks.end(), [&](const MkEntry& m) { return m.bound && m.mk == *f.followMk; });
      if (it == c.mks.end()) throw InputError(fmt::format("{}: <ftfollow mk=\"{}\">: no boundary has that mk", where, *f.followMk));
      f.followMkBound = it->local;
    }
    if (f.followMkBound && !floatingOf(c, *f.followMkBound))
      throw InputError(fmt::format("{}: <ftfollow>: mkbound {} is not a floating body", where, *f.followMkBound));
    if (f.kind != OutputFilter::Kind::Mk) return;
    auto blockOf = [&](int value) {
      for (size_t k = 0; k < c.mks.size(); ++k) {
        const MkEntry& m = c.mks[k];
        const bool match = f.numbering == OutputFilter::MkNumbering::Global  ? m.mk == value
                           : f.numbering == OutputFilter::MkNumbering::Bound ? m.bound && m.local == value
                                                                              : !m.bound && m.local == value;
        if (match) return k;
      }
      const char* what = f.numbering == OutputFilter::MkNumbering::Global  ? "mk"
                         : f.numbering == OutputFilter::MkNumbering::Bound ? "mkbound"
                                                                            : "mkfluid";
      throw InputError(fmt::format("{}: <filtermk>: no particles have {} {}", where, what, value));
    };
    const size_t a = blockOf(f.mkA), b = blockOf(f.mkB);
    if (kind[a] != kind[b])
      throw InputError(fmt::format("{}: <filtermk>: the range {}-{} holds particles of different types", where, f.mkA, f.mkB));
    // The blocks of that type from a's to b's, as DualSPHysics' codes order them.
    for (size_t k = a; k <= b && k < c.mks.size(); ++k)
      if (kind[k] == kind[a]) f.mks.push_back(c.mks[k].mk);
  });
}

}  // namespace sph
