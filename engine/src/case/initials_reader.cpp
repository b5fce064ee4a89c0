#include "case/initials_reader.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <string_view>

#include <fmt/format.h>

#include "case/particle_selection.h"
#include "geometry/draw_transform.h"

namespace sph {
namespace {

constexpr double kPi = 3.14159265358979323846;

bool active(const XmlReader& x, const XMLElement* e) { return !skipped(e) && x.boolean(e, "active", true); }

// Placement selects boundary or fluid particles, by whichever of mkbound and mkfluid is given.
ParticleSelection placementSelection(const XmlReader& x, const XMLElement* e, CaseDefinition& c) {
  const bool bound = e->Attribute("mkbound"), fluid = e->Attribute("mkfluid");
  if (bound == fluid) x.fail(e, "needs one of mkbound and mkfluid");
  return readSelection(x, e, bound ? "mkbound" : "mkfluid", c);
}

// A uniform deviate in [-1, 1) from the 64-bit Mersenne twister, the same on every platform
// (the standard distributions are not).
double symmetricUniform(std::mt19937_64& g) { return double(g() >> 11) * 0x1.0p-52 - 1.0; }

// <move>, <rotateaxis>, <moverandom>: read, and applied to c's particles when `apply`.
void placement(const XmlReader& x, const XMLElement* e, CaseDefinition& c, bool apply) {
  const std::string_view name = e->Name();
  const ParticleSelection s = placementSelection(x, e, c);
  if (name == "move") {
    x.onlyChildren(e, {"onlypos"});
    const Vec3d d = x.vec(e, 0.0);
    if (c.twoD && d.y != 0) x.fail(e, "y must be 0 in a 2D case (its particles stay in the plane y = constant)");
    if (!apply) return;
    for (size_t i = 0; i < c.positions.size(); ++i)
      if (selected(c, s, i)) c.positions[i] = add(c.positions[i], d);
  } else if (name == "rotateaxis") {
    x.onlyChildren(e, {"onlypos", "axisp1", "axisp2"});
    const std::string units = e->Attribute("anglesunits") ? x.attr(e, "anglesunits") : "degrees";
    if (units != "degrees" && units != "radians") x.fail(e, "anglesunits must be degrees or radians");
    const double degrees = x.real(e, "angle") * (units == "degrees" ? 1.0 : 180 / kPi);
    const Vec3d p1 = x.vec(x.child(e, "axisp1")), p2 = x.vec(x.child(e, "axisp2"));
    const double length = norm(sub(p2, p1));
    if (!(length > 0)) x.fail(x.child(e, "axisp2"), "axisp1 and axisp2 are the same point");
    const Vec3d axis = scale(sub(p2, p1), 1.0 / length);
    if (c.twoD && (std::abs(axis.x) > 1e-12 || std::abs(axis.z) > 1e-12))
      x.fail(e, "in a 2D case the axis must be along y (its particles stay in the plane y = constant)");
    if (!apply) return;
    // GenCase's rotation about an axis (geometry/draw_transform.h: clockwise seen from axisp2).
    gen::DrawTransform turn;
    turn.rotateLine(degrees, p1, p2);
    for (size_t i = 0; i < c.positions.size(); ++i)
      if (selected(c, s, i)) c.positions[i] = turn.apply(c.positions[i]);
  } else {
    x.onlyChildren(e, {"onlypos"});
    const int64_t seed = e->Attribute("randomseed") ? int64_t(x.integer(e, "randomseed")) : 0;
    Vec3d amplitude;
    if (e->Attribute("dpxyz")) {
      if (e->Attribute("dpx") || e->Attribute("dpy") || e->Attribute("dpz")) x.fail(e, "dpxyz or dpx, dpy, dpz: not both");
      const double v = x.real(e, "dpxyz");
      amplitude = {v, v, v};
    } else {
      amplitude = {x.real(e, "dpx", 0.0), x.real(e, "dpy", 0.0), x.real(e, "dpz", 0.0)};
    }
    if (!(amplitude.x >= 0 && amplitude.y >= 0 && amplitude.z >= 0)) x.fail(e, "the displacements cannot be negative");
    amplitude = scale(amplitude, c.dp);
    if (c.twoD) amplitude.y = 0;
    if (!apply) return;
    std::mt19937_64 g{uint64_t(seed)};
    for (size_t i = 0; i < c.positions.size(); ++i) {
      if (!selected(c, s, i)) continue;
      const Vec3d d{amplitude.x * symmetricUniform(g), amplitude.y * symmetricUniform(g), amplitude.z * symmetricUniform(g)};
      c.positions[i] = add(c.positions[i], d);
    }
  }
}

bool isPlacement(std::string_view name) { return name == "move" || name == "rotateaxis" || name == "moverandom"; }

// <velocity mkfluid="N" x y z/> (GenCase 5.0's form), within <onlypos> when given.
void readConstantVelocity(const XmlReader& x, const XMLElement* v, CaseDefinition& c, bool apply) {
  x.onlyChildren(v, {"onlypos"});
  if (!v->Attribute("mkfluid")) x.fail(v, "needs mkfluid=\"N\" (GenCase sets initial velocities of fluid only)");
  const ParticleSelection s = readSelection(x, v, "mkfluid", c);
  const Vec3d vel = x.vec(v);
  if (!apply || !selectsSomeMk(c, s)) return;
  if (c.velocities.empty()) c.velocities.assign(c.positions.size(), Vec3f{});
  const Vec3f value{float(vel.x), float(vel.y), float(vel.z)};
  const int64_t n = int64_t(c.positions.size());
#pragma omp parallel for schedule(static)
  for (int64_t i = 0; i < n; ++i)
    if (selected(c, s, size_t(i))) c.velocities[size_t(i)] = value;
}

double positive(const XmlReader& x, const XMLElement* e, const char* name) {
  const double v = x.real(e, name);
  if (!(v > 0)) x.fail(e, fmt::format("{} must be positive", name));
  return v;
}

// <velwave mkfluid depth hmaxwave x0 negative>: the horizontal velocity under GenCase's solitary
// wave (<drawwave>), the same at every depth: u = sqrt(|g| depth) H sech^2(k (x - x0)) along x
// (-x when negative), k = sqrt(3 H / (4 depth^3)) (found by running GenCase 5.0: its velocities to
// float rounding).
void readWaveVelocity(const XmlReader& x, const XMLElement* v, CaseDefinition& c, bool apply) {
  x.onlyChildren(v, {});
  if (!v->Attribute("mkfluid")) x.fail(v, "needs mkfluid=\"N\" (GenCase sets initial velocities of fluid only)");
  const ParticleSelection s = readSelection(x, v, "mkfluid", c);
  const double depth = positive(x, v, "depth");
  const double height = x.real(v, "hmaxwave");
  if (!(height >= 0) || !std::isfinite(height)) x.fail(v, fmt::format("hmaxwave must be >= 0 (got {:g})", height));
  const double x0 = x.real(v, "x0");
  const bool negative = x.boolean(v, "negative", false);
  if (!apply || !selectsSomeMk(c, s)) return;
  const double k = std::sqrt(3 * height / (4 * depth * depth * depth));
  const double peak = std::sqrt(norm(c.constants.gravity) * depth) * height * (negative ? -1.0 : 1.0);
  if (c.velocities.empty()) c.velocities.assign(c.positions.size(), Vec3f{});
  for (size_t i = 0; i < c.positions.size(); ++i) {
    if (!selected(c, s, i)) continue;
    const double ch = std::cosh(k * (c.positions[i].x - x0));
    c.velocities[i] = Vec3f{float(peak / (ch * ch)), 0.0f, 0.0f};
  }
}

// <densityuniform>, <densitygradient>, <densitydepth> as an operation for the run's start.
InitialDensityOp readDensity(const XmlReader& x, const XMLElement* e, CaseDefinition& c) {
  using Kind = InitialDensityOp::Kind;
  const std::string_view name = e->Name();
  InitialDensityOp op;
  op.selection = readSelection(x, e, "mkfluid", c);
  if (name == "densityuniform") {
    x.onlyChildren(e, {"onlypos"});
    op.kind = Kind::Uniform;
    op.rho = positive(x, e, "rhop");
  } else if (name == "densitygradient") {
    x.onlyChildren(e, {"onlypos", "pos1", "pos2"});
    op.kind = Kind::Gradient;
    const XMLElement *p1 = x.child(e, "pos1"), *p2 = x.child(e, "pos2");
    op.from = x.vec(p1, 0.0);
    op.to = x.vec(p2, 0.0);
    op.rhoFrom = positive(x, p1, "rhop");
    op.rhoTo = positive(x, p2, "rhop");
    if (!(norm(sub(op.to, op.from)) > 0)) x.fail(p2, "pos1 and pos2 are the same point");
  } else {
    x.onlyChildren(e, {"onlypos", "posswl", "gravity", "rhop0", "gamma", "b"});
    op.kind = Kind::Depth;
    if (const XMLElement* s = x.optionalChild(e, "posswl")) op.surface = x.vec(s, 0.0);
    if (const XMLElement* g = x.optionalChild(e, "gravity")) {
      op.gravity = x.vec(g, 0.0);
      if (!(norm(*op.gravity) > 0)) x.fail(g, "the gravity is zero: there is no depth");
    }
    if (const XMLElement* v = x.optionalChild(e, "rhop0")) op.rho0 = positive(x, v, "value");
    if (const XMLElement* v = x.optionalChild(e, "gamma")) op.gamma = positive(x, v, "value");
    if (const XMLElement* v = x.optionalChild(e, "b")) op.b = positive(x, v, "value");
  }
  return op;
}

}  // namespace

void placeInitially(const XmlReader& x, const XMLElement* initials, CaseDefinition& c) {
  if (!x.boolean(initials, "active", true)) return;
  for (const XMLElement* e = initials->FirstChildElement(); e; e = e->NextSiblingElement())
    if (active(x, e) && isPlacement(e->Name())) placement(x, e, c, true);
}

void readInitials(const XmlReader& x, const XMLElement* initials, CaseDefinition& c, bool genCaseOutput) {
  if (!x.boolean(initials, "active", true)) return;
  x.onlyChildren(initials, {"velocity", "velwave", "densityuniform", "densitygradient", "densitydepth", "move",
                            "rotateaxis", "moverandom"});
  for (const XMLElement* e = initials->FirstChildElement(); e; e = e->NextSiblingElement()) {
    if (!active(x, e)) continue;
    const std::string_view name = e->Name();
    const bool profile = e->FirstChildElement("direction") || e->FirstChildElement("velocity") ||
                         e->FirstChildElement("velocity2") || e->FirstChildElement("velocity3");
    if (name == "velwave") readWaveVelocity(x, e, c, !genCaseOutput);
    else if (name == "velocity" && profile) applyVelocityProfile(x, e, c, !genCaseOutput);
    else if (name == "velocity") readConstantVelocity(x, e, c, !genCaseOutput);
    else if (isPlacement(name) && genCaseOutput) placement(x, e, c, false);
    else if (!isPlacement(name)) {
      InitialDensityOp op = readDensity(x, e, c);
      if (!genCaseOutput) c.initialDensities.push_back(std::move(op));
    }
  }
}

void applyVelocityProfile(const XmlReader& x, const XMLElement* e, CaseDefinition& c, bool apply) {
  x.onlyChildren(e, {"onlypos", "direction", "velocity", "velocity2", "velocity3"});
  const ParticleSelection s = readSelection(x, e, "mkfluid", c);
  const Vec3d d = x.vec(x.child(e, "direction"));
  const double length = norm(d);
  if (!(length > 0)) x.fail(x.child(e, "direction"), "the direction is zero");
  const float dir[3] = {float(d.x / length), float(d.y / length), float(d.z / length)};
  const XMLElement* profiles[3] = {e->FirstChildElement("velocity"), e->FirstChildElement("velocity2"),
                                   e->FirstChildElement("velocity3")};
  const int given = (profiles[0] ? 1 : 0) + (profiles[1] ? 1 : 0) + (profiles[2] ? 1 : 0);
  if (given != 1) x.fail(e, "needs exactly one of <velocity>, <velocity2> and <velocity3>");
  // v(z) = a z^2 + b z + c.
  double a = 0, b = 0, cst = 0;
  if (profiles[0]) {
    cst = x.real(profiles[0], "v");
  } else if (profiles[1]) {
    const XMLElement* p = profiles[1];
    const double v1 = x.real(p, "v"), v2 = x.real(p, "v2"), z1 = x.real(p, "z"), z2 = x.real(p, "z2");
    if (z1 == z2) x.fail(p, "z and z2 must differ");
    b = (v2 - v1) / (z2 - z1);
    cst = v1 - b * z1;
  } else {
    const XMLElement* p = profiles[2];
    const double v[3] = {x.real(p, "v"), x.real(p, "v2"), x.real(p, "v3")};
    const double z[3] = {x.real(p, "z"), x.real(p, "z2"), x.real(p, "z3")};
    if (z[0] == z[1] || z[1] == z[2] || z[0] == z[2]) x.fail(p, "z, z2 and z3 must differ");
    // Lagrange's parabola through the three points, expanded.
    for (int i = 0; i < 3; ++i) {
      const double zj = z[(i + 1) % 3], zk = z[(i + 2) % 3], w = v[i] / ((z[i] - zj) * (z[i] - zk));
      a += w;
      b -= w * (zj + zk);
      cst += w * zj * zk;
    }
  }
  if (!apply) return;
  const float fa = float(a), fb = float(b), fc = float(cst);
  if (c.velocities.empty()) c.velocities.assign(c.positions.size(), Vec3f{});
  for (size_t i = 0; i < c.positions.size(); ++i) {
    if (!selected(c, s, i)) continue;
    const float z = float(c.positions[i].z), v = fa * z * z + fb * z + fc;
    c.velocities[i] = Vec3f{dir[0] * v, dir[1] * v, dir[2] * v};
  }
}

}  // namespace sph
