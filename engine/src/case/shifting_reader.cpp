#include "case/shifting_reader.h"

#include <string>

#include <fmt/format.h>

#include "geometry/draw_transform.h"

namespace sph {
namespace {

double valueOf(const XmlReader& x, const XMLElement* e, const char* name, double fallback) {
  const XMLElement* c = x.optionalChild(e, name);
  return c ? x.real(c, "value") : fallback;
}

ShiftZoneDef readZone(const XmlReader& x, const XMLElement* z) {
  ShiftZoneDef d;
  d.line = z->GetLineNum();
  d.origin = x.vec(x.child(z, "posref"));
  if (x.optionalChild(z, "size")) {
    x.onlyChildren(z, {"posref", "size", "rotateaxis"});
    const Vec3d size = x.vec(x.child(z, "size"));
    d.vx = {size.x, 0, 0};
    d.vy = {0, size.y, 0};
    d.vz = {0, 0, size.z};
  } else {
    x.onlyChildren(z, {"posref", "vecx", "vecy", "vecz", "rotateaxis"});
    d.vx = x.vec(x.child(z, "vecx"));
    d.vy = x.vec(x.child(z, "vecy"));
    d.vz = x.vec(x.child(z, "vecz"));
  }
  const XMLElement* r = x.optionalChild(z, "rotateaxis");
  if (!r || !r->Attribute("angle") || x.real(r, "angle") == 0) return d;
  x.onlyChildren(r, {"point1", "point2"});
  const std::string units = x.attr(r, "anglesunits");
  if (units != "degrees" && units != "radians") x.fail(r, "anglesunits must be \"degrees\" or \"radians\"");
  const double degrees = x.real(r, "angle") * (units == "radians" ? 180 / 3.14159265358979323846 : 1.0);
  const Vec3d p1 = x.vec(x.child(r, "point1")), p2 = x.vec(x.child(r, "point2"));
  if (!(norm(sub(p2, p1)) > 0)) x.fail(x.child(r, "point2"), "point1 and point2 are the same point");
  // DualSPHysics turns the zone's corners as GenCase turns drawings (geometry/draw_transform.h).
  gen::DrawTransform turn;
  turn.rotateLine(degrees, p1, p2);
  const Vec3d origin = turn.apply(d.origin);
  d.vx = sub(turn.apply(add(d.origin, d.vx)), origin);
  d.vy = sub(turn.apply(add(d.origin, d.vy)), origin);
  d.vz = sub(turn.apply(add(d.origin, d.vz)), origin);
  d.origin = origin;
  return d;
}

}  // namespace

CaseShifting readShifting(const XmlReader& x, const XMLElement* e) {
  CaseShifting s;
  if (!x.boolean(e, "active", true)) return s;
  s.given = true;
  s.line = e->GetLineNum();
  const XMLElement* mode = x.child(e, "mode");
  s.mode = x.integer(mode, "value");
  if (s.mode < 0 || s.mode > 3)
    x.fail(mode, fmt::format("value {} is not a shifting mode (0 none, 1 ignore boundaries, 2 ignore fixed "
                             "boundaries, 3 full)",
                             s.mode));
  // DualSPHysics reads nothing else without shifting.
  if (s.mode == 0) return s;
  x.onlyChildren(e, {"mode", "coefficient", "fsthreshold", "shiftingzone"});
  s.coef = valueOf(x, e, "coefficient", -2);
  s.tfs = valueOf(x, e, "fsthreshold", 0);
  for (const XMLElement* z = e->FirstChildElement("shiftingzone"); z; z = z->NextSiblingElement("shiftingzone"))
    if (x.boolean(z, "active", true)) s.zones.push_back(readZone(x, z));
  return s;
}

}  // namespace sph
