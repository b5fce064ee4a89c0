#include "case/normals_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "case/particle_selection.h"
#include "geometry/shape_normals.h"

namespace sph {
namespace {

constexpr double kNoLimit = std::numeric_limits<double>::infinity();

// The attribute (v unless told) of the child `name` of e (GenCase 5.4 writes <radius v="0.2"/>),
// or `fallback` without the child; a child without the attribute is an error.
double childValue(const XmlReader& x, const XMLElement* e, const char* name, std::optional<double> fallback,
                  const char* attribute = "v") {
  const XMLElement* c = fallback ? x.optionalChild(e, name) : x.child(e, name);
  return c ? x.real(c, attribute) : *fallback;
}

bool childFlag(const XmlReader& x, const XMLElement* e, const char* name, std::optional<bool> fallback) {
  const XMLElement* c = fallback ? x.optionalChild(e, name) : x.child(e, name);
  if (!c) return *fallback;
  if (!c->Attribute("v")) x.fail(c, "missing attribute v (true or false)");
  return x.boolean(c, "v", false);
}

// <maxdisth v>: how far from the surface a particle still gets a normal, in h (default 2; 0 or
// less: no limit).
double maxDistance(const XmlReader& x, const XMLElement* e, double h) {
  const double v = childValue(x, e, "maxdisth", 2.0);
  return v > 0 ? v * h : kNoLimit;
}

Vec3d unitOf(const XmlReader& x, const XMLElement* e) {
  const Vec3d v = x.vec(e);
  const double n = norm(v);
  if (!(n > 0)) x.fail(e, "the normal is zero");
  return scale(v, 1.0 / n);
}

// Sets the normal `normalOf(p)` gives (the vector to the boundary limit, or nothing) to every
// selected boundary particle; `clear`: a particle it gives nothing loses any normal it had.
template <typename F>
void setNormals(CaseDefinition& c, const ParticleSelection& s, bool clear, F&& normalOf) {
  if (c.normals.empty()) c.normals.assign(c.positions.size(), Vec3d{});
  for (size_t i = 0; i < c.nBound; ++i) {
    if (!selected(c, s, i)) continue;
    if (const std::optional<Vec3d> n = normalOf(c.positions[i])) c.normals[i] = scale(*n, 2.0);
    else if (clear) c.normals[i] = Vec3d{};
  }
}

// The plane of <norplane>/<boundnormal_plane>, with GenCase's automatic point worked out for each
// mk separately (each mk is one wall).
void applyPlane(const XmlReader& x, const XMLElement* e, CaseDefinition& c, const ParticleSelection& s, bool clear,
                double h) {
  const Vec3d n = unitOf(x, x.child(e, "normal"));
  const double maxDist = maxDistance(x, e, h);
  const XMLElement* pointElement = x.child(e, "point");
  const bool automatic = x.boolean(pointElement, "auto", false);
  const double offset = childValue(x, e, "limitdist", 0.5, "vdp") * c.dp;
  if (!automatic) {
    const Vec3d point = x.vec(pointElement);
    setNormals(c, s, clear, [&](const Vec3d& p) { return planeNormal(p, point, n, maxDist); });
    return;
  }
  for (const MkEntry& mk : c.mks) {
    if (!s.hasMk(mk.bound, mk.local)) continue;
    ParticleSelection one = s;
    one.mks = {mk.local};
    Vec3d lo{HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    bool any = false;
    for (size_t i = 0; i < c.nBound; ++i) {
      if (!selected(c, one, i)) continue;
      const Vec3d& p = c.positions[i];
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
      hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
      any = true;
    }
    if (!any) continue;
    // For a slanted plane: the particle of the mk (all of it, as GenCase) farthest towards the fluid.
    double farthest = -HUGE_VAL;
    const Vec3d centre = scale(add(lo, hi), 0.5);
    if (!isAxisNormal(n))
      for (size_t i = 0; i < c.nBound; ++i)
        if (c.mks[c.mkIndex[i]].local == mk.local) farthest = std::max(farthest, dot(sub(c.positions[i], centre), n));
    const Vec3d point = autoPlanePoint(lo, hi, n, farthest, offset);
    setNormals(c, one, clear, [&](const Vec3d& p) { return planeNormal(p, point, n, maxDist); });
  }
}

// One shape operation: `kind` is set, plane, sphere or cylinder; GenCase's forms (`withClear`)
// also take <clear>, DualSPHysics' <initialize> ones always clear.
void applyShape(const XmlReader& x, const XMLElement* e, std::string_view kind, bool withClear, CaseDefinition& c,
                double h) {
  const ParticleSelection s = readSelection(x, e, "mkbound", c);
  const bool clear = withClear ? childFlag(x, e, "clear", true) : true;
  if (kind == "set") {
    x.onlyChildren(e, {"onlypos", "normal"});
    const Vec3d normal = x.vec(x.child(e, "normal"));
    setNormals(c, s, clear, [&](const Vec3d&) { return std::optional<Vec3d>(normal); });
  } else if (kind == "plane") {
    if (withClear) x.onlyChildren(e, {"onlypos", "point", "limitdist", "normal", "maxdisth", "clear"});
    else x.onlyChildren(e, {"onlypos", "point", "limitdist", "normal", "maxdisth"});
    applyPlane(x, e, c, s, clear, h);
  } else if (kind == "sphere") {
    if (withClear) x.onlyChildren(e, {"onlypos", "center", "radius", "inside", "maxdisth", "clear"});
    else x.onlyChildren(e, {"onlypos", "center", "radius", "inside", "maxdisth"});
    const Vec3d centre = x.vec(x.child(e, "center"));
    const double radius = childValue(x, e, "radius", std::nullopt);
    if (!(radius > 0)) x.fail(x.child(e, "radius"), "the radius must be positive");
    const bool inside = childFlag(x, e, "inside", std::nullopt);
    const double maxDist = maxDistance(x, e, h);
    setNormals(c, s, clear, [&](const Vec3d& p) { return sphereNormal(p, centre, radius, inside, maxDist); });
  } else {
    if (withClear)
      x.onlyChildren(e, {"onlypos", "center1", "center2", "radius", "inside", "limit1", "limit2", "maxdisth", "clear"});
    else x.onlyChildren(e, {"onlypos", "center1", "center2", "radius", "inside", "maxdisth"});
    const Vec3d c1 = x.vec(x.child(e, "center1")), c2 = x.vec(x.child(e, "center2"));
    if (!(norm(sub(c2, c1)) > 0)) x.fail(x.child(e, "center2"), "center1 and center2 are the same point");
    const double radius = childValue(x, e, "radius", std::nullopt);
    if (!(radius > 0)) x.fail(x.child(e, "radius"), "the radius must be positive");
    const bool inside = childFlag(x, e, "inside", std::nullopt);
    const bool limit1 = withClear ? childFlag(x, e, "limit1", true) : true;
    const bool limit2 = withClear ? childFlag(x, e, "limit2", true) : true;
    const double maxDist = maxDistance(x, e, h);
    // DualSPHysics' tolerance for a particle equally near the side wall and an end face.
    const double tolerance = 0.01 * h;
    setNormals(c, s, clear, [&](const Vec3d& p) {
      return cylinderNormal(p, c1, c2, radius, inside, limit1, limit2, maxDist, tolerance);
    });
  }
}

// The surface of a shape file the case's commands wrote: GenCase's normals (geometry/boundary_normals.h)
// within distanceh * h; with maxsizeh (5.4), longer ones than maxsizeh * h are dropped.
void applyGeometry(const XmlReader& x, const XMLElement* e, const XMLElement* fileElement, double distanceH,
                   double maxSizeH, CaseDefinition& c, const ShapeFiles& shapes, double h) {
  std::string file = x.attr(fileElement, "file");
  for (size_t at; (at = file.find("[CaseName]")) != std::string::npos;) file.replace(at, 10, c.name);
  if (!c.particleFile.empty())
    x.fail(fileElement, fmt::format("{} has no mDBC normals (array BoundNor): GenCase 5.4 writes them; for GenCase "
                                    "5.0's output tools/dualsphysics/gencase_normals.py adds them",
                                    c.particleFile));
  const auto it = shapes.find(file);
  if (it == shapes.end()) {
    std::string known;
    for (const auto& [name, faces] : shapes) known += (known.empty() ? "" : ", ") + name;
    x.fail(fileElement, fmt::format("\"{}\" is not a file of shapes this case writes (<setactive drawshapes=\"1\">, "
                                    "<drawbox>, <shapeout file=\"...\">); external geometry files are not read{}",
                                    file, known.empty() ? "" : fmt::format(" (it writes {})", known)));
  }
  if (!(distanceH > 0)) x.fail(e, "distanceh must be positive");
  std::vector<Vec3d> ghost = ghostNormals(c.positions, c.nBound, it->second, distanceH * h, c.dp);
  if (maxSizeH > 0)
    for (Vec3d& v : ghost)
      if (norm(v) > 2.0 * maxSizeH * h) v = Vec3d{};
  c.normals = std::move(ghost);
}

// GenCase 5.0's <distanceh value="..."/>, 5.4's <distanceh v="..."/>.
double distanceHOf(const XmlReader& x, const XMLElement* e) {
  const XMLElement* d = x.optionalChild(e, "distanceh");
  if (!d) return 2.0;
  return x.real(d, d->Attribute("v") ? "v" : "value");
}

}  // namespace

void readNormals(const XmlReader& x, const XMLElement* normals, CaseDefinition& c, const ShapeFiles& shapes,
                 double h) {
  x.onlyChildren(normals, {"distanceh", "geometryfile", "svshapes", "svnormals", "norgeometry", "norset",
                           "norplane", "norsphere", "norcylinder"});
  const XMLElement* geometry50 = x.optionalChild(normals, "geometryfile");
  const XMLElement* geometry54 = x.optionalChild(normals, "norgeometry");
  if (geometry54 && !x.boolean(geometry54, "active", true)) geometry54 = nullptr;
  if (geometry50 && geometry54)
    x.fail(geometry54, fmt::format("<geometryfile> (line {}) already gives the geometry: keep one",
                                   geometry50->GetLineNum()));
  // The geometry sets the first normals whatever its place; the other operations follow in order.
  if (geometry50) applyGeometry(x, normals, geometry50, distanceHOf(x, normals), 0, c, shapes, h);
  if (geometry54) {
    x.onlyChildren(geometry54, {"geometryfile", "distanceh", "maxsizeh", "svshapes"});
    applyGeometry(x, geometry54, x.child(geometry54, "geometryfile"), distanceHOf(x, geometry54),
                  childValue(x, geometry54, "maxsizeh", 0.0), c, shapes, h);
  }
  for (const XMLElement* e = normals->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e) || !name.starts_with("nor") || name == "norgeometry" || !x.boolean(e, "active", true)) continue;
    applyShape(x, e, name.substr(3), true, c, h);
  }
  if (c.normals.empty()) c.normals.assign(c.positions.size(), Vec3d{});
}

bool isInitializeNormal(const XMLElement* op) { return std::string_view(op->Name()).starts_with("boundnormal_"); }

void applyInitializeNormal(const XmlReader& x, const XMLElement* op, CaseDefinition& c, double h) {
  const std::string_view kind = std::string_view(op->Name()).substr(std::string_view("boundnormal_").size());
  if (kind != "set" && kind != "plane" && kind != "sphere" && kind != "cylinder") {
    x.refuseIfUnsupported(op, "initialize");
    x.fail(op, fmt::format("<{}> is not supported by this engine (nor by DualSPHysics 5.4): boundnormal_set, "
                           "boundnormal_plane, boundnormal_sphere and boundnormal_cylinder are",
                           op->Name()));
  }
  applyShape(x, op, kind, false, c, h);
}

}  // namespace sph
