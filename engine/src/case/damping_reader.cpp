#include "case/damping_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numbers>
#include <string>
#include <string_view>

#include <fmt/format.h>

namespace sph {
namespace {

// Box sides, as DualSPHysics names them in <directions>.
enum Side : unsigned { kTop = 1, kBottom = 2, kLeft = 4, kRight = 8, kFront = 16, kBack = 32, kAll = 63 };

class DampingReader {
 public:
  explicit DampingReader(const XmlReader& xml) : x_(xml) {}

  DampingZone plane(const XMLElement* e) const {
    x_.onlyChildren(e, {"overlimit", "redumax", "factorxyz", "limitmin", "limitmax", "domain"});
    DampingZone z = common(e, DampingShape::Plane);
    const Vec3d lo = x_.vec(x_.child(e, "limitmin")), hi = x_.vec(x_.child(e, "limitmax"));
    const double v[3] = {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
    z.width = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(z.width > 0)) x_.fail(x_.child(e, "limitmax"), "is the same point as <limitmin>: the zone has no direction");
    for (int a = 0; a < 3; ++a) {
      z.normal[a] = v[a] / z.width;
      z.origin[a] = (&lo.x)[a];
    }
    if (const XMLElement* d = e->FirstChildElement("domain")) readDomain(d, z);
    return z;
  }

  DampingZone box(const XMLElement* e) const {
    x_.onlyChildren(e, {"overlimit", "redumax", "factorxyz", "directions", "limitmin", "limitmax"});
    DampingZone z = common(e, DampingShape::Box);
    const unsigned sides = directions(e);
    const XMLElement* minEl = x_.child(e, "limitmin");
    const XMLElement* maxEl = x_.child(e, "limitmax");
    Vec3d min1 = corner(minEl, "pointini"), min2 = corner(minEl, "pointend");
    Vec3d max1 = corner(maxEl, "pointini"), max2 = corner(maxEl, "pointend");
    auto le = [](const Vec3d& a, const Vec3d& b) { return a.x <= b.x && a.y <= b.y && a.z <= b.z; };
    if (!le(min1, min2)) x_.fail(minEl, "pointini is above pointend on some axis");
    if (!le(max1, max2)) x_.fail(maxEl, "pointini is above pointend on some axis");
    if (!le(max1, min1) || !le(min2, max2)) x_.fail(maxEl, "the <limitmin> box is not inside the <limitmax> box");
    double* m1 = &min1.x;
    double* m2 = &min2.x;
    double* x1 = &max1.x;
    double* x2 = &max2.x;
    // Per axis: the low side (left, front, bottom) and the high side (right, back, top).
    const unsigned low[3] = {kLeft, kFront, kBottom}, high[3] = {kRight, kBack, kTop};
    for (int a = 0; a < 3; ++a) {
      z.over1[a] = x1[a] - z.overLimit;
      z.over2[a] = x2[a] + z.overLimit;
      if (!(sides & high[a])) x2[a] = z.over2[a] = m2[a];
      if (!(sides & low[a])) x1[a] = z.over1[a] = m1[a];
      z.min1[a] = m1[a];
      z.min2[a] = m2[a];
      z.max1[a] = x1[a];
      z.max2[a] = x2[a];
      z.size1[a] = (sides & low[a]) ? std::max(0.0, m1[a] - x1[a]) : 0.0;
      z.size2[a] = (sides & high[a]) ? std::max(0.0, x2[a] - m2[a]) : 0.0;
    }
    return z;
  }

  DampingZone cylinder(const XMLElement* e) const {
    x_.onlyChildren(e, {"overlimit", "redumax", "factorxyz", "point1", "point2", "limitmin", "limitmax"});
    DampingZone z = common(e, DampingShape::Cylinder);
    const Vec3d p1 = x_.vec(x_.child(e, "point1")), p2 = x_.vec(x_.child(e, "point2"));
    if (p1.x == p2.x && p1.y == p2.y && p1.z == p2.z) x_.fail(x_.child(e, "point2"), "is the same point as <point1>: no axis");
    for (int a = 0; a < 3; ++a) {
      z.origin[a] = (&p1.x)[a];
      z.end[a] = (&p2.x)[a];
    }
    const XMLElement* minEl = x_.child(e, "limitmin");
    z.rMin = x_.real(minEl, "radius");
    const double rMax = x_.real(x_.child(e, "limitmax"), "radius");
    if (!(z.rMin >= 0)) x_.fail(minEl, "radius must not be negative");
    if (!(rMax > z.rMin)) x_.fail(x_.child(e, "limitmax"), fmt::format("radius must be larger than <limitmin>'s ({})", z.rMin));
    z.width = rMax - z.rMin;
    return z;
  }

 private:
  DampingZone common(const XMLElement* e, DampingShape shape) const {
    DampingZone z;
    z.shape = shape;
    const XMLElement* over = x_.child(e, "overlimit");
    z.overLimit = x_.real(over, "value");
    if (!(z.overLimit >= 0)) x_.fail(over, "value must not be negative");
    if (const XMLElement* r = e->FirstChildElement("redumax")) {
      z.reduMax = x_.real(r, "value");
      if (!(z.reduMax >= 0)) x_.fail(r, "value must not be negative");
    }
    if (const XMLElement* f = e->FirstChildElement("factorxyz")) {
      const Vec3d v = x_.vec(f, 1.0);
      z.factor[0] = v.x, z.factor[1] = v.y, z.factor[2] = v.z;
      if (!(v.x >= 0 && v.y >= 0 && v.z >= 0)) x_.fail(f, "the factors must not be negative");
    }
    return z;
  }

  Vec3d corner(const XMLElement* limit, const char* name) const { return x_.vec(x_.child(limit, name)); }

  // <domain zmin zmax><point1 x y/>...<point4/></domain>: points 2-4 sorted by the angle (degrees
  // in [0, 360)) of the vector from each to point 1, as DualSPHysics orders them.
  void readDomain(const XMLElement* d, DampingZone& z) const {
    x_.onlyChildren(d, {"point1", "point2", "point3", "point4"});
    z.domain = true;
    z.zMin = x_.real(d, "zmin");
    z.zMax = x_.real(d, "zmax");
    if (!(z.zMin <= z.zMax)) x_.fail(d, "zmin is above zmax");
    for (int k = 0; k < 4; ++k) {
      const XMLElement* p = x_.child(d, fmt::format("point{}", k + 1).c_str());
      z.corner[k][0] = x_.real(p, "x");
      z.corner[k][1] = x_.real(p, "y");
    }
    double angle[4] = {0, 0, 0, 0};
    for (int k = 1; k < 4; ++k) {
      angle[k] = std::atan2(z.corner[0][1] - z.corner[k][1], z.corner[0][0] - z.corner[k][0]) * 180 / std::numbers::pi;
      if (angle[k] < 0) angle[k] += 360;
    }
    for (int a = 1; a < 3; ++a)
      for (int b = a + 1; b < 4; ++b)
        if (angle[a] > angle[b]) {
          std::swap(angle[a], angle[b]);
          std::swap(z.corner[a][0], z.corner[b][0]);
          std::swap(z.corner[a][1], z.corner[b][1]);
        }
  }

  // <directions value="top, -left ...">: the sides damped (all when absent or empty); a name adds
  // its side, "-name" removes it, "all" adds every side.
  unsigned directions(const XMLElement* e) const {
    const XMLElement* d = e->FirstChildElement("directions");
    if (!d) return kAll;
    std::string text = x_.attr(d, "value");
    std::replace(text.begin(), text.end(), ',', ' ');
    unsigned sides = kAll;
    bool first = true;
    size_t at = 0;
    while (at < text.size()) {
      while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
      size_t end = at;
      while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end]))) ++end;
      if (end == at) break;
      std::string word = text.substr(at, end - at);
      at = end;
      for (char& c : word) c = char(std::tolower(static_cast<unsigned char>(c)));
      if (first) sides = 0;
      first = false;
      bool add = true;
      if (word[0] == '+' || word[0] == '-') {
        add = word[0] == '+';
        word.erase(0, 1);
      }
      const unsigned side = word == "top"      ? kTop
                            : word == "bottom" ? kBottom
                            : word == "left"   ? kLeft
                            : word == "right"  ? kRight
                            : word == "front"  ? kFront
                            : word == "back"   ? kBack
                            : word == "all"    ? kAll
                                               : Side{0};
      if (side == 0)
        x_.fail(d, fmt::format("\"{}\" is not a side (top, bottom, left, right, front, back or all)", word));
      sides = add ? (sides | side) : (sides & ~side);
    }
    if (sides == 0) x_.fail(d, "no side is left to damp");
    return sides;
  }

  const XmlReader& x_;
};

}  // namespace

void readDamping(const XmlReader& xml, const XMLElement* damping, std::vector<DampingZone>& out) {
  const DampingReader reader(xml);
  for (const XMLElement* e = damping->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (skipped(e) || !xml.boolean(e, "active", true)) continue;
    const std::string_view name = e->Name();
    if (name == "dampingzone") out.push_back(reader.plane(e));
    else if (name == "dampingbox") out.push_back(reader.box(e));
    else if (name == "dampingcylinder") out.push_back(reader.cylinder(e));
    else xml.unknown(e, damping);
  }
}

}  // namespace sph
