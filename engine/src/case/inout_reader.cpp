// DualSPHysics' rules for reading <inout> are in JSphInOut::LoadXmlInit, JSphInOutZone::ReadXml,
// JSphInOutPoints, JSphInOutVel and JSphInOutZsurf; its start-up in JSphInOut::Config and
// InOutInit. Where DualSPHysics 5.4's code is stricter than its format file (refilling,
// inputtreatment and layers have no default), the code is followed: its users' cases pass it.
#include "case/inout_reader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "case/inout_grid_file.h"
#include "case/mesh_data_xml.h"
#include "case/motion_data_file.h"
#include "geometry/inout_points.h"
#include "model/sim_parameters.h"
#include "sph/plugin/errors.h"
#include "sph/plugin/particle_code.h"

namespace sph {
namespace {

// US gallons in a litre: <flowvelocity units="gal/s"> and "gal/min".
constexpr double kGallonsPerLitre = 0.264172052358148;

using Matrix3 = std::array<double, 9>;

Matrix3 multiply(const Matrix3& a, const Matrix3& b) {
  Matrix3 m{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) m[3 * i + j] += a[3 * i + k] * b[3 * k + j];
  return m;
}

// The right-handed rotation by `angle` radians about the unit axis k (Rodrigues).
Matrix3 aboutAxis(const Vec3d& k, double angle) {
  const double c = std::cos(angle), s = std::sin(angle), t = 1 - c;
  return {t * k.x * k.x + c,       t * k.x * k.y - s * k.z, t * k.x * k.z + s * k.y,
          t * k.x * k.y + s * k.z, t * k.y * k.y + c,       t * k.y * k.z - s * k.x,
          t * k.x * k.z - s * k.y, t * k.y * k.z + s * k.x, t * k.z * k.z + c};
}

class InOutReader {
 public:
  InOutReader(const XmlReader& xml, std::vector<std::string>& warnings) : x_(xml), warnings_(warnings) {}

  void read(const XMLElement* inout, CaseInOut& out) {
    out = CaseInOut{};
    out.line = inout->GetLineNum();
    if (!x_.boolean(inout, "active", true)) return;
    for (const XMLElement* e = inout->FirstChildElement(); e; e = e->NextSiblingElement()) {
      if (skipped(e)) continue;
      if (std::string_view(e->Name()) == "userefilling")
        x_.fail(e, "is not read by DualSPHysics 5.4's inlet/outlet (set <refilling> in each <inoutzone>)");
    }
    x_.onlyChildren(inout, {"memoryresize", "useboxlimit", "determlimit", "extrapolatemode", "refillingrate", "inoutzone"});
    if (const XMLElement* m = once(inout, "memoryresize")) {
      out.memoryResize0 = x_.real(m, "size0", 2.0);
      out.memoryResize1 = x_.real(m, "size", 4.0);
      if (!(out.memoryResize0 >= 0)) x_.fail(m, fmt::format("size0 must be >= 0 (got {:g})", out.memoryResize0));
      if (!(out.memoryResize1 >= 0)) x_.fail(m, fmt::format("size must be >= 0 (got {:g})", out.memoryResize1));
    }
    if (const XMLElement* u = once(inout, "useboxlimit")) {
      x_.onlyChildren(u, {"freecentre"});
      out.useBoxLimit = x_.boolean(u, "value", true);
      if (const XMLElement* f = once(u, "freecentre")) {
        out.freeCentre = x_.vec(f);
        out.freeCentreGiven = true;
      }
    }
    if (const XMLElement* d = once(inout, "determlimit")) out.determLimit = x_.real(d, "value");
    if (const XMLElement* m = once(inout, "extrapolatemode"))
      out.extrapolateMode = std::clamp(x_.integer(m, "value"), 1, 3);
    if (const XMLElement* r = once(inout, "refillingrate")) {
      out.refillingRate = x_.integer(r, "value");
      if (out.refillingRate < 0) x_.fail(r, fmt::format("value must be >= 0 (got {})", out.refillingRate));
    }
    for (const XMLElement* z = inout->FirstChildElement("inoutzone"); z; z = z->NextSiblingElement("inoutzone")) {
      if (!x_.boolean(z, "active", true)) continue;
      if (out.zones.size() == code::kInOutZones)
        x_.fail(z, fmt::format("more than {} active inlet/outlet zones (DualSPHysics' limit too)", code::kInOutZones));
      out.zones.push_back(zone(z));
    }
    out.active = !out.zones.empty();
  }

 private:
  const XMLElement* once(const XMLElement* e, const char* name) const { return x_.optionalChild(e, name); }
  const XMLElement* required(const XMLElement* e, const char* name) const {
    const XMLElement* c = once(e, name);
    if (!c) x_.fail(e, fmt::format("missing element <{}>", name));
    return c;
  }

  template <typename Enum>
  Enum choice(const XMLElement* e, const char* attr, int lo, int hi, const char* meaning) const {
    const int v = x_.integer(e, attr);
    if (v < lo || v > hi) x_.fail(e, fmt::format("{}=\"{}\" must be {}", attr, v, meaning));
    return Enum(v);
  }

  InOutZoneDef zone(const XMLElement* z) const {
    for (const XMLElement* e = z->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string_view name = e->Name();
      if (!skipped(e) && (name == "convertfluid" || name == "userefilling"))
        x_.fail(e, "is not read by DualSPHysics 5.4's inlet/outlet (use <inputtreatment> and <refilling>)");
    }
    x_.onlyChildren(z, {"refilling", "inputtreatment", "layers", "zone2d", "zone3d", "imposevelocity", "imposerhop",
                        "imposezsurf"});
    InOutZoneDef d;
    d.line = z->GetLineNum();
    // What it imposes first: a feature this engine lacks is named before a missing element is.
    if (const XMLElement* s = once(z, "imposezsurf")) zsurf(s, d);
    velocity(required(z, "imposevelocity"), d);
    const XMLElement* refill = required(z, "refilling");
    d.refilling = choice<InOutRefilling>(refill, "value", 0, 2, "0 (simple full), 1 (simple below zsurf) or 2 (advanced)");
    d.input = choice<InOutInput>(required(z, "inputtreatment"), "value", 0, 2,
                                 "0 (no changes), 1 (convert fluid) or 2 (remove fluid)");
    const XMLElement* layers = required(z, "layers");
    d.layers = x_.integer(layers, "value");
    if (d.layers < 1 || d.layers > 250) x_.fail(layers, fmt::format("value must be 1 to 250 (got {})", d.layers));
    if (const XMLElement* s = once(z, "zone2d")) d.shapes[0] = shape(s, true);
    if (const XMLElement* s = once(z, "zone3d")) d.shapes[1] = shape(s, false);
    if (!d.shapes[0].given && !d.shapes[1].given) x_.fail(z, "missing element <zone2d> or <zone3d>");
    if (const XMLElement* r = once(z, "imposerhop")) {
      x_.onlyChildren(r, {});
      d.densityMode = r->Attribute("mode") ? choice<InOutDensityMode>(r, "mode", 0, 2,
                                                                       "0 (fixed), 1 (hydrostatic) or 2 (extrapolated)")
                                           : InOutDensityMode::Constant;
    }
    return d;
  }

  // A shape element's direction child (x, z in 2D; x, y, z in 3D).
  Vec3d direction(const XMLElement* e, bool twoD) const {
    return twoD ? Vec3d{x_.real(e, "x"), 0, x_.real(e, "z")} : Vec3d{x_.real(e, "x"), x_.real(e, "y", 0.0), x_.real(e, "z")};
  }

  double angleFactor(const XMLElement* e) const {
    const char* units = e->Attribute("anglesunits");
    if (!units) x_.fail(e, "missing attribute anglesunits (\"degrees\" or \"radians\")");
    const std::string u = splitTokens(units).front();
    if (u == "degrees") return std::numbers::pi / 180;
    if (u == "radians") return 1.0;
    x_.fail(e, fmt::format("anglesunits=\"{}\" must be \"degrees\" or \"radians\"", units));
  }

  void rotation(const XMLElement* shapeEl, bool twoD, InOutShapeDef& s) const {
    const XMLElement* r2 = once(shapeEl, "rotate");
    const XMLElement* ax = once(shapeEl, "rotateaxis");
    const XMLElement* adv = once(shapeEl, "rotateadv");
    if (ax && adv) x_.fail(adv, "give <rotateaxis> or <rotateadv>, not both");
    if (r2) {
      const double angle = x_.real(r2, "angle", 0.0);
      if (angle == 0) return;
      const bool cx = r2->Attribute("centerx") != nullptr, cz = r2->Attribute("centerz") != nullptr;
      if (cx != cz) x_.fail(r2, "give both centerx and centerz, or neither");
      // DualSPHysics turns +x towards +z for a positive angle: about -y, right-handed.
      s.rotation = aboutAxis(Vec3d{0, -1, 0}, angle * angleFactor(r2));
      s.rotated = true;
      if (cx) {
        s.rotationCentre = Vec3d{x_.real(r2, "centerx"), 0, x_.real(r2, "centerz")};
        s.rotationCentreGiven = true;
      }
    } else if (ax) {
      x_.onlyChildren(ax, {"point1", "point2"});
      const double angle = x_.real(ax, "angle", 0.0);
      if (angle == 0) return;
      const Vec3d p1 = x_.vec(x_.child(ax, "point1")), p2 = x_.vec(x_.child(ax, "point2"));
      const Vec3d k{p1.x - p2.x, p1.y - p2.y, p1.z - p2.z};
      const double len = std::sqrt(k.x * k.x + k.y * k.y + k.z * k.z);
      if (!(len > 0)) x_.fail(ax, "point1 and point2 are the same point: no axis");
      // As GenCase's <rotateline>: about +y, +x goes to +z (right-handed about point2 -> point1).
      s.rotation = aboutAxis(Vec3d{k.x / len, k.y / len, k.z / len}, angle * angleFactor(ax));
      s.rotationCentre = p1;
      s.rotationCentreGiven = true;
      s.rotated = true;
    } else if (adv) {
      x_.onlyChildren(adv, {"center"});
      const double f = angleFactor(adv);
      const double a[3] = {x_.real(adv, "angle1") * f, x_.real(adv, "angle2", 0.0) * f, x_.real(adv, "angle3", 0.0) * f};
      const std::string axes = x_.attr(adv, "axes");
      const bool intrinsic = x_.boolean(adv, "intrinsic", false);
      x_.attr(adv, "intrinsic");
      if (axes.size() != 3 || axes.find_first_not_of("XYZxyz") != std::string::npos)
        x_.fail(adv, fmt::format("axes=\"{}\" must be three of X, Y and Z (e.g. \"ZYZ\")", axes));
      if (a[0] == 0 && a[1] == 0 && a[2] == 0) return;
      Matrix3 m{1, 0, 0, 0, 1, 0, 0, 0, 1};
      for (int k = 0; k < 3; ++k) {
        const char c = char(std::toupper(static_cast<unsigned char>(axes[k])));
        const Vec3d axis = c == 'X' ? Vec3d{1, 0, 0} : c == 'Y' ? Vec3d{0, 1, 0} : Vec3d{0, 0, 1};
        const Matrix3 r = aboutAxis(axis, a[k]);
        m = intrinsic ? multiply(m, r) : multiply(r, m);
      }
      s.rotation = m;
      s.rotated = true;
      if (const XMLElement* c = once(adv, "center")) s.rotationCentre = x_.vec(c, 0.0);
      s.rotationCentreGiven = true;
    }
    (void)twoD;
  }

  InOutShapeDef shape(const XMLElement* zoneEl, bool twoD) const {
    const char* kinds2d[] = {"line", "particles"};
    const char* kinds3d[] = {"box", "circle", "particles"};
    const XMLElement* found = nullptr;
    for (const XMLElement* e = zoneEl->FirstChildElement(); e; e = e->NextSiblingElement()) {
      if (skipped(e)) continue;
      const std::string_view n = e->Name();
      const bool ok = twoD ? (n == kinds2d[0] || n == kinds2d[1]) : (n == kinds3d[0] || n == kinds3d[1] || n == kinds3d[2]);
      if (!ok) x_.unknown(e, zoneEl);
      if (found) x_.fail(e, fmt::format("a second shape (first <{}> at line {}): one shape per zone", found->Name(),
                                        found->GetLineNum()));
      found = e;
    }
    if (!found) x_.fail(zoneEl, twoD ? "missing its shape: <line> or <particles>" : "missing its shape: <box>, <circle> or <particles>");
    InOutShapeDef s;
    s.given = true;
    s.line = found->GetLineNum();
    const std::string_view kind = found->Name();
    const char* rot = twoD ? "rotate" : "rotateaxis";
    if (kind == "line") {
      x_.onlyChildren(found, {"point", "point2", "direction", "rotate"});
      s.shape = InOutShape::Line;
      s.point = direction(x_.child(found, "point"), true);
      s.point2 = direction(x_.child(found, "point2"), true);
      if (const XMLElement* d = once(found, "direction")) {
        s.direction = direction(d, true);
        s.directionGiven = true;
      }
    } else if (kind == "box") {
      x_.onlyChildren(found, {"point", "size", "direction", "rotateaxis", "rotateadv"});
      s.shape = InOutShape::Box;
      s.point = x_.vec(x_.child(found, "point"));
      s.size = x_.vec(x_.child(found, "size"));
      if (s.size.x < 0 || s.size.y < 0 || s.size.z < 0) x_.fail(x_.child(found, "size"), "sizes must be >= 0");
      if (s.size.x != 0 && s.size.y != 0 && s.size.z != 0)
        x_.fail(x_.child(found, "size"), "one size must be zero: the box is the zone's flat face");
      s.direction = direction(x_.child(found, "direction"), false);
      s.directionGiven = true;
    } else if (kind == "circle") {
      x_.onlyChildren(found, {"point", "radius", "direction", "rotateaxis", "rotateadv"});
      s.shape = InOutShape::Circle;
      s.point = x_.vec(x_.child(found, "point"));
      s.radius = x_.real(x_.child(found, "radius"), "v");
      if (!(s.radius > 0)) x_.fail(x_.child(found, "radius"), fmt::format("v must be > 0 (got {:g})", s.radius));
      s.direction = direction(x_.child(found, "direction"), false);
      s.directionGiven = true;
    } else {  // particles
      if (twoD) x_.onlyChildren(found, {"direction", "rotate"});
      else x_.onlyChildren(found, {"direction", "rotateaxis", "rotateadv"});
      s.shape = InOutShape::Particles;
      s.mkFluid = x_.integer(found, "mkfluid");
      const std::string dir = splitTokens(x_.attr(found, "direction")).front();
      const XMLElement* custom = once(found, "direction");
      static const std::pair<const char*, Vec3d> kWords[] = {
          {"left", {-1, 0, 0}}, {"right", {1, 0, 0}}, {"front", {0, -1, 0}},
          {"back", {0, 1, 0}},  {"top", {0, 0, 1}},   {"bottom", {0, 0, -1}}};
      if (dir == "custom") {
        if (!custom) x_.fail(found, "direction=\"custom\" needs a <direction> element");
        s.direction = direction(custom, twoD);
      } else {
        if (custom) x_.fail(custom, "is for direction=\"custom\" only");
        bool known = false;
        for (const auto& [word, v] : kWords)
          if (dir == word) {
            s.direction = v;
            known = true;
          }
        if (!known)
          x_.fail(found, fmt::format("direction=\"{}\" must be left, right, front, back, top, bottom or custom",
                                     found->Attribute("direction")));
      }
      s.directionGiven = true;
    }
    (void)rot;
    rotation(found, twoD, s);
    return s;
  }

  std::string dataPath(const char* file) const {
    std::filesystem::path p(file);
    if (p.is_relative()) p = std::filesystem::path(x_.path()).parent_path() / p;
    return p.string();
  }

  // The values of one velocity row from `e`'s attributes (or a file's columns).
  static void profileRow(InOutProfile prof, const double* v, InOutVelocityRow& row) {
    if (prof == InOutProfile::Uniform) {
      row.v[0] = v[0];
    } else if (prof == InOutProfile::Linear) {  // v v2 z z2
      row.v[0] = v[0];
      row.v[1] = v[1];
      row.z[0] = v[2];
      row.z[1] = v[3];
    } else {  // v v2 v3 z z2 z3
      for (int k = 0; k < 3; ++k) {
        row.v[k] = v[k];
        row.z[k] = v[3 + k];
      }
    }
  }
  static int profileValues(InOutProfile p) { return p == InOutProfile::Uniform ? 1 : p == InOutProfile::Linear ? 4 : 6; }

  InOutVelocityRow rowFrom(const XMLElement* e, InOutProfile prof, bool timed) const {
    static const char* kLinear[] = {"v", "v2", "z", "z2"};
    static const char* kParabolic[] = {"v", "v2", "v3", "z", "z2", "z3"};
    double v[6] = {};
    const int n = profileValues(prof);
    for (int k = 0; k < n; ++k)
      v[k] = x_.real(e, prof == InOutProfile::Uniform ? "v" : prof == InOutProfile::Linear ? kLinear[k] : kParabolic[k]);
    InOutVelocityRow row;
    if (timed) row.time = x_.real(e, "time");
    profileRow(prof, v, row);
    checkProfile(e, prof, row);
    return row;
  }

  void checkProfile(const XMLElement* e, InOutProfile prof, const InOutVelocityRow& r) const {
    if (prof == InOutProfile::Linear && r.z[0] == r.z[1]) x_.fail(e, fmt::format("z and z2 must differ (both {:g})", r.z[0]));
    if (prof == InOutProfile::Parabolic && (r.z[0] == r.z[1] || r.z[1] == r.z[2] || r.z[0] == r.z[2]))
      x_.fail(e, "z, z2 and z3 must differ");
  }

  // <imposevelocity mode="3">: <gridveldata file> (DualSPHysics' CSV grid of velocities), with
  // <gridposzero x z> (the grid's first point, default 0 0) and <gridresetvelz value> (default
  // true: DualSPHysics 5.4 always zeroes the z velocity after the interpolation); or <meshdata>.
  void interpolatedVelocity(const XMLElement* e, InOutZoneDef& d) const {
    if (const XMLElement* f = once(e, "flowvelocity"); f && x_.boolean(f, "active", false))
      x_.fail(f, "a flow (active=\"true\") is for a fixed or variable velocity (mode 0 or 1), not an interpolated one");
    if (const XMLElement* m = once(e, "meshdata")) {
      x_.onlyChildren(e, {"meshdata", "flowvelocity"});
      meshVelocity(m, d);
      return;
    }
    x_.onlyChildren(e, {"gridveldata", "gridresetvelz", "gridposzero", "flowvelocity"});
    const XMLElement* file = x_.child(e, "gridveldata");
    x_.onlyChildren(file, {});
    auto grid = std::make_shared<InOutVelocityGrid>();
    try {
      *grid = readInOutVelocityGrid(dataPath(x_.attr(file, "file")));
    } catch (const InputError& err) {
      x_.fail(file, err.what());
    }
    if (const XMLElement* z = once(e, "gridposzero")) {
      x_.onlyChildren(z, {});
      grid->x0 = x_.real(z, "x", 0.0);
      grid->z0 = x_.real(z, "z", 0.0);
    }
    if (const XMLElement* r = once(e, "gridresetvelz")) {
      x_.onlyChildren(r, {});
      grid->resetVelz = x_.boolean(r, "value", true);
    }
    d.grid = std::move(grid);
  }

  // <imposevelocity mode="3"><meshdata>: a .mbi4's VelDir (magnitude="true", the default) or Vel,
  // a CSV's one variable: magnitudes along the zone's direction or vectors by its type. Reversed,
  // then multiplied and shifted component by component (setvelmul, setveladd), which DualSPHysics
  // applies to vectors only.
  void meshVelocity(const XMLElement* m, InOutZoneDef& d) const {
    const MeshDataOptions o = readMeshDataOptions(x_, m, MeshDataUse::Velocity);
    auto data = loadMeshData(x_, m, o, o.magnitude ? "VelDir" : "Vel");
    if (o.reverse)
      for (float& v : data->values) v = -v;
    const bool scaled = !(o.velMul.x == 1 && o.velMul.y == 1 && o.velMul.z == 1 && o.velAdd.x == 0 && o.velAdd.y == 0 &&
                           o.velAdd.z == 0);
    if (scaled && data->components == 3) {
      const double mul[3] = {o.velMul.x, o.velMul.y, o.velMul.z}, add[3] = {o.velAdd.x, o.velAdd.y, o.velAdd.z};
      for (size_t k = 0; k < data->values.size(); ++k)
        data->values[k] = float(data->values[k] * mul[k % 3] + add[k % 3]);
    } else if (scaled) {
      warnings_.push_back(fmt::format("{}:{}: setvelmul and setveladd are ignored for velocity magnitudes ({} holds "
                                      "{}), as by DualSPHysics 5.4",
                                      x_.path(), m->GetLineNum(), data->file, data->name));
    }
    d.meshVelocity = std::move(data);
    d.meshVelocityTime0 = o.initialTime;
  }

  void velocity(const XMLElement* e, InOutZoneDef& d) const {
    d.velocityMode = e->Attribute("mode") ? choice<InOutVelocityMode>(e, "mode", 0, 3,
                                                                       "0 (fixed), 1 (variable), 2 (extrapolated) or 3 (interpolated)")
                                          : InOutVelocityMode::Fixed;
    if (d.velocityMode == InOutVelocityMode::Extrapolated) {
      for (const char* n : {"meshdata", "gridveldata"})
        if (const XMLElement* c = once(e, n))
          x_.fail(c, "is for an interpolated velocity, <imposevelocity mode=\"3\">; this one has mode=\"2\"");
      x_.onlyChildren(e, {"flowvelocity"});
      if (const XMLElement* f = once(e, "flowvelocity"); f && x_.boolean(f, "active", false))
        x_.fail(f, "a flow (active=\"true\") is for a fixed or variable velocity (mode 0 or 1), not an extrapolated one");
      return;
    }
    if (d.velocityMode == InOutVelocityMode::Interpolated) {
      interpolatedVelocity(e, d);
      return;
    }
    static const char* kFixed[] = {"velocity", "velocity2", "velocity3", "jetcircle"};
    static const char* kTimes[] = {"velocitytimes", "velocitytimes2", "velocitytimes3"};
    static const char* kFiles[] = {"velocityfile", "velocityfile2", "velocityfile3"};
    const XMLElement* given = nullptr;
    int which = -1;  // profile
    bool file = false;
    auto pick = [&](const char* name, int prof, bool isFile) {
      if (const XMLElement* c = once(e, name)) {
        if (given) x_.fail(c, fmt::format("a second velocity (first <{}> at line {})", given->Name(), given->GetLineNum()));
        given = c;
        which = prof;
        file = isFile;
      }
    };
    // An element of the other mode: say so rather than "unknown".
    const bool fixed = d.velocityMode == InOutVelocityMode::Fixed;
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view n = c->Name();
      if (n == "gridveldata" || n == "gridresetvelz" || n == "gridposzero" || n == "meshdata")
        x_.fail(c, fmt::format("is for an interpolated velocity, <imposevelocity mode=\"3\">; this one has mode=\"{}\"",
                               int(d.velocityMode)));
      const bool ofFixed = n == "velocity" || n == "velocity2" || n == "velocity3";
      const bool ofVariable = n.starts_with("velocitytimes") || n.starts_with("velocityfile");
      if (!skipped(c) && (fixed ? ofVariable : ofFixed))
        x_.fail(c, fmt::format("is a {} velocity, for <imposevelocity mode=\"{}\">; this one has mode=\"{}\"",
                               fixed ? "variable" : "fixed", fixed ? 1 : 0, int(d.velocityMode)));
    }
    if (fixed) {
      x_.onlyChildren(e, {"velocity", "velocity2", "velocity3", "jetcircle", "flowvelocity"});
      for (int k = 0; k < 4; ++k) pick(kFixed[k], k, false);
      if (!given) x_.fail(e, "missing element <velocity v=\"...\"> (or <velocity2>, <velocity3>)");
      if (which == 0 || which == 3) x_.onlyChildren(given, {});
      d.jet = which == 3;
      if (d.jet) {
        d.jetRadius = x_.real(given, "radius");
        d.jetDistance = x_.real(given, "distance");
        if (!(d.jetRadius > 0)) x_.fail(given, fmt::format("radius must be positive (got {:g})", d.jetRadius));
      }
      d.profile = d.jet ? InOutProfile::Uniform : InOutProfile(which);
      d.velocity = {rowFrom(given, d.profile, false)};
    } else {
      x_.onlyChildren(e, {"velocitytimes", "velocitytimes2", "velocitytimes3", "velocityfile", "velocityfile2",
                          "velocityfile3", "flowvelocity"});
      for (int k = 0; k < 3; ++k) pick(kTimes[k], k, false);
      for (int k = 0; k < 3; ++k) pick(kFiles[k], k, true);
      if (!given) x_.fail(e, "missing the variable velocity: <velocitytimes>, <velocityfile> (or their 2 and 3 forms)");
      d.profile = InOutProfile(which);
      if (!file) {
        x_.onlyChildren(given, {"timevalue"});
        for (const XMLElement* t = given->FirstChildElement("timevalue"); t; t = t->NextSiblingElement("timevalue")) {
          if (skipped(t)) continue;
          InOutVelocityRow r = rowFrom(t, d.profile, true);
          if (!d.velocity.empty() && r.time < d.velocity.back().time)
            x_.fail(t, fmt::format("time {:g} is before the previous row's {:g}", r.time, d.velocity.back().time));
          d.velocity.push_back(r);
        }
        if (d.velocity.empty()) x_.fail(given, "has no <timevalue> rows");
      } else {
        d.velocityFile = dataPath(x_.attr(given, "file"));
        const int n = profileValues(d.profile);
        DataFileUse use{"inlet/outlet velocity file", "the zone", "a variable velocity"};
        for (const std::vector<double>& row : readDataRows(d.velocityFile, 1 + n, 0, use)) {
          InOutVelocityRow r;
          r.time = row[0];
          profileRow(d.profile, row.data() + 1, r);
          checkProfile(given, d.profile, r);
          d.velocity.push_back(r);
        }
      }
    }
    if (const XMLElement* f = once(e, "flowvelocity")) {
      x_.onlyChildren(f, {});
      if (x_.boolean(f, "active", false)) {
        if (d.profile != InOutProfile::Uniform)
          x_.fail(f, "a flow (active=\"true\") is for a uniform velocity (<velocity>, <velocitytimes>, <velocityfile>)");
        const std::string units = f->Attribute("units") ? splitTokens(f->Attribute("units")).front() : "l/s";
        const double ratio = x_.real(f, "ratio", 1.0);
        if (!(ratio > 0)) x_.fail(f, fmt::format("ratio must be > 0 (got {:g})", ratio));
        d.flowVolumeFactor = units == "l/s"       ? ratio
                             : units == "gal/s"   ? ratio * kGallonsPerLitre
                             : units == "gal/min" ? ratio * kGallonsPerLitre * 60
                                                  : 0;
        if (d.flowVolumeFactor == 0) x_.fail(f, fmt::format("units=\"{}\" must be l/s, gal/s or gal/min", f->Attribute("units")));
        d.flowUnits = units;
      }
    }
  }

  // <imposezsurf mode="2">: <zsurf0 value> (required), <zsurfmin value>, <zsurffit value|valuedp>,
  // <remove>, <savevtk>, as DualSPHysics' JSphInOutZsurf reads them.
  void calculatedZsurf(const XMLElement* e, InOutZoneDef& d) const {
    if (const XMLElement* m = once(e, "meshdata"))
      x_.fail(m, "is for a variable zsurf, <imposezsurf mode=\"1\">; this one has mode=\"2\" (calculated)");
    x_.onlyChildren(e, {"remove", "savevtk", "zsurf0", "zsurfmin", "zsurffit"});
    d.zsurf = {{0.0, x_.real(required(e, "zsurf0"), "value")}};
    if (const XMLElement* m = once(e, "zsurfmin")) {
      x_.onlyChildren(m, {});
      d.zsurfMin = x_.real(m, "value");
    }
    if (const XMLElement* f = once(e, "zsurffit")) {
      x_.onlyChildren(f, {});
      const bool v = f->Attribute("value") != nullptr, vdp = f->Attribute("valuedp") != nullptr;
      if (v == vdp) x_.fail(f, "give value (metres) or valuedp (times dp), one of them");
      x_.real(f, v ? "value" : "valuedp");  // a number, as DualSPHysics reads it
      warnings_.push_back(fmt::format("{}:{}: <zsurffit> is ignored, as by DualSPHysics 5.4 (its mesh gauge of a "
                                      "calculated zsurf does not apply it)",
                                      x_.path(), f->GetLineNum()));
    }
    if (const XMLElement* r = once(e, "remove")) d.removeAboveZsurf = x_.boolean(r, "value", false);
    if (const XMLElement* s = once(e, "savevtk"); s && x_.boolean(s, "value", false))
      warnings_.push_back(fmt::format("{}:{}: <savevtk value=\"true\">: this engine does not write InOut_Zsurf VTK files",
                                      x_.path(), s->GetLineNum()));
  }

  void zsurf(const XMLElement* e, InOutZoneDef& d) const {
    d.zsurfMode = e->Attribute("mode") ? choice<InOutZsurfMode>(e, "mode", 0, 2,
                                                                 "0 (fixed), 1 (variable) or 2 (calculated from the fluid)")
                                       : InOutZsurfMode::Fixed;
    if (d.zsurfMode == InOutZsurfMode::Calculated) {
      calculatedZsurf(e, d);
      return;
    }
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view n = c->Name();
      if (skipped(c)) continue;
      if (n == "zsurf0" || n == "zsurfmin" || n == "zsurffit")
        x_.fail(c, fmt::format("is for a zsurf calculated from the fluid, <imposezsurf mode=\"2\">; this one has "
                               "mode=\"{}\"",
                               int(d.zsurfMode)));
      const bool ofVariable = n == "zsurftimes" || n == "zsurffile" || n == "savevtk" || n == "meshdata";
      if (d.zsurfMode == InOutZsurfMode::Fixed && ofVariable)
        x_.fail(c, "is for <imposezsurf mode=\"1\"> (a variable zsurf); this one has mode=\"0\"");
      if (d.zsurfMode == InOutZsurfMode::Variable && n == "zsurf")
        x_.fail(c, "is for <imposezsurf mode=\"0\"> (a fixed zsurf); this one has mode=\"1\"");
    }
    if (d.zsurfMode == InOutZsurfMode::Fixed) x_.onlyChildren(e, {"remove", "zsurf", "zbottom"});
    else x_.onlyChildren(e, {"remove", "savevtk", "zsurftimes", "zsurffile", "zbottom", "meshdata"});
    if (const XMLElement* r = once(e, "remove")) d.removeAboveZsurf = x_.boolean(r, "value", false);
    if (const XMLElement* b = once(e, "zbottom"))
      warnings_.push_back(fmt::format("{}:{}: <zbottom> is ignored, as by DualSPHysics 5.4 (the bottom is the zone's lowest point)",
                                      x_.path(), b->GetLineNum()));
    if (const XMLElement* s = once(e, "savevtk"); s && x_.boolean(s, "value", false))
      warnings_.push_back(fmt::format("{}:{}: <savevtk value=\"true\">: this engine does not write InOut_Zsurf VTK files",
                                      x_.path(), s->GetLineNum()));
    if (d.zsurfMode == InOutZsurfMode::Fixed) {
      d.zsurf = {{0.0, x_.real(required(e, "zsurf"), "value")}};
      return;
    }
    const XMLElement* times = once(e, "zsurftimes");
    const XMLElement* file = once(e, "zsurffile");
    // DualSPHysics takes <meshdata> before the others (and then refuses them as unknown).
    if (const XMLElement* m = once(e, "meshdata")) {
      if (times || file) x_.fail(times ? times : file, "give <meshdata>, <zsurftimes> or <zsurffile>, one of them");
      const MeshDataOptions o = readMeshDataOptions(x_, m, MeshDataUse::Zsurf);
      d.zsurfMesh = loadMeshData(x_, m, o, "Zsurf");
      d.zsurfMeshTime0 = o.initialTime;
      return;
    }
    if (times && file) x_.fail(file, "give <zsurftimes> or <zsurffile>, not both");
    if (!times && !file) x_.fail(e, "missing the variable zsurf: <zsurftimes> or <zsurffile>");
    if (times) {
      x_.onlyChildren(times, {"timevalue"});
      for (const XMLElement* t = times->FirstChildElement("timevalue"); t; t = t->NextSiblingElement("timevalue")) {
        if (skipped(t)) continue;
        const InOutZsurfRow r{x_.real(t, "time"), x_.real(t, "zsurf")};
        if (!d.zsurf.empty() && r.time < d.zsurf.back().time)
          x_.fail(t, fmt::format("time {:g} is before the previous row's {:g}", r.time, d.zsurf.back().time));
        d.zsurf.push_back(r);
      }
      if (d.zsurf.empty()) x_.fail(times, "has no <timevalue> rows");
    } else {
      d.zsurfFile = dataPath(x_.attr(file, "file"));
      DataFileUse use{"inlet/outlet zsurf file", "the zone", "a variable zsurf"};
      for (const std::vector<double>& row : readDataRows(d.zsurfFile, 2, 0, use)) d.zsurf.push_back({row[0], row[1]});
    }
  }

  const XmlReader& x_;
  std::vector<std::string>& warnings_;
};

// The zone's flow direction from its velocities (DualSPHysics' JSphInOutVel::DefineBehaviour):
// inflow when none is negative, outflow when none is positive, reverse otherwise.
enum class Behaviour { Inlet, Outlet, Reverse, Unknown };
Behaviour behaviour(const InOutZoneDef& z) {
  // Extrapolated or interpolated (a grid, mesh data): any sign, any time.
  if (z.velocityMode == InOutVelocityMode::Extrapolated || z.velocityMode == InOutVelocityMode::Interpolated)
    return Behaviour::Unknown;
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  const int n = z.profile == InOutProfile::Uniform ? 1 : z.profile == InOutProfile::Linear ? 2 : 3;
  for (const InOutVelocityRow& r : z.velocity)
    for (int k = 0; k < n; ++k) {
      lo = std::min(lo, r.v[k]);
      hi = std::max(hi, r.v[k]);
    }
  if (lo >= 0 && hi >= 0) return Behaviour::Inlet;
  if (lo <= 0 && hi <= 0) return Behaviour::Outlet;
  return Behaviour::Reverse;
}

// The checks of DualSPHysics' JSphInOutZone::CheckConfig: combinations it refuses are errors,
// those it discourages warnings.
void checkZone(const std::string& where, const InOutZoneDef& z, std::vector<std::string>& warnings) {
  const Behaviour b = behaviour(z);
  const bool simple = z.refilling != InOutRefilling::Advanced;
  const char* input = z.input == InOutInput::Free ? "0 (no changes)" : z.input == InOutInput::Remove ? "2 (remove fluid)" : "";
  if (z.densityMode == InOutDensityMode::Hydrostatic && z.zsurfMode == InOutZsurfMode::Undefined)
    throw InputError(where + ": a hydrostatic density (<imposerhop mode=\"1\">) needs the zone's zsurf (<imposezsurf>)");
  if (b == Behaviour::Reverse && simple)
    throw InputError(where + ": its velocities change sign (inflow and outflow), which refilling 0 and 1 cannot "
                             "follow (DualSPHysics refuses it too); use refilling 2 (advanced)");
  if (b == Behaviour::Outlet && z.input != InOutInput::Convert)
    throw InputError(where + fmt::format(": an outlet (negative velocity) needs <inputtreatment value=\"1\"> (convert "
                                         "fluid); {} lets the fluid through or removes it before it reaches the buffer",
                                         input));
  if (z.zsurfMode == InOutZsurfMode::Variable && z.refilling == InOutRefilling::SimpleZsurf)
    throw InputError(where + ": refilling 1 (below zsurf) cannot follow a variable zsurf (DualSPHysics refuses it too); "
                             "use refilling 0");
  if (z.zsurfMode == InOutZsurfMode::Variable && z.refilling == InOutRefilling::SimpleFull && z.removeAboveZsurf)
    throw InputError(where + ": refilling 0 with a variable zsurf and <remove value=\"true\"> is refused by "
                             "DualSPHysics (it empties the buffer above zsurf and never refills it)");
  if (z.zsurfMode == InOutZsurfMode::Calculated && z.refilling == InOutRefilling::SimpleZsurf)
    throw InputError(where + ": refilling 1 (below zsurf) cannot follow a zsurf calculated from the fluid (DualSPHysics "
                             "refuses it too); use refilling 0");
  if (z.zsurfMode == InOutZsurfMode::Calculated && z.refilling == InOutRefilling::SimpleFull && z.removeAboveZsurf)
    throw InputError(where + ": refilling 0 with a zsurf calculated from the fluid and <remove value=\"true\"> is "
                             "refused by DualSPHysics (it empties the buffer above zsurf and never refills it)");
  if (z.refilling == InOutRefilling::SimpleFull && z.removeAboveZsurf)
    warnings.push_back(where + ": with <remove value=\"true\">, refilling 0 works as refilling 1 (below zsurf)");
  if (b == Behaviour::Unknown && z.input != InOutInput::Convert)
    warnings.push_back(where + fmt::format(": <inputtreatment value=\"{}\"> is not recommended with an extrapolated "
                                           "or interpolated velocity (DualSPHysics' advice): fluid flowing out is let through or "
                                           "removed before it reaches the buffer",
                                           int(z.input)));
  if (b == Behaviour::Unknown && simple)
    warnings.push_back(where + ": with an extrapolated or interpolated velocity the flow may reverse, which refilling "
                               "0 and 1 cannot follow (DualSPHysics warns so too)");
  if (z.velocityMode == InOutVelocityMode::Extrapolated)
    warnings.push_back(where + ": an extrapolated velocity is not recommended for an inlet (DualSPHysics' advice): "
                               "it suits outlets");
  if (b == Behaviour::Inlet && z.input == InOutInput::Convert)
    warnings.push_back(where + ": <inputtreatment value=\"1\"> (convert fluid) is not recommended for an inlet "
                               "(DualSPHysics' advice): fluid flowing back into it becomes buffer");
}

// The line of zsurf columns of a 3D zone (DualSPHysics' JSphInOutZsurf::ComputeZsurfLine): from
// the corner of the zone's points on the side the flow comes from to the opposite corner, at the
// points' lowest z, a column every dp (floor(width / dp + 0.01) + 1 of them); one column at the
// points' lowest corner in 2D. `lo`, `hi`: the points' bounds.
struct ZsurfLine {
  Vec3d lo, hi, foot;    // foot: the first column's
  Vec3d across;          // from a column to the next (length dp), zero for one column
  uint32_t columns = 1;
};

ZsurfLine zsurfLine(const std::string& where, const InOutZoneDef& z, double dp, bool twoD, const char* why) {
  const Vec3d d = z.unitDirection;
  if (std::fabs(d.z) > 0.0001)
    throw InputError(where + fmt::format(": {} needs a horizontal direction, as in DualSPHysics", why));
  ZsurfLine l;
  l.lo = l.hi = z.points.front();
  for (const Vec3d& p : z.points) {
    l.lo = {std::min(l.lo.x, p.x), std::min(l.lo.y, p.y), std::min(l.lo.z, p.z)};
    l.hi = {std::max(l.hi.x, p.x), std::max(l.hi.y, p.y), std::max(l.hi.z, p.z)};
  }
  l.foot = l.lo;
  if (twoD) return l;
  const Vec3d &lo = l.lo, &hi = l.hi;
  l.foot = {d.x >= 0 ? lo.x : hi.x, (d.x >= 0) == (d.y <= 0) ? lo.y : hi.y, lo.z};
  const Vec3d px{d.x >= 0 ? hi.x : lo.x, (d.x >= 0) == (d.y <= 0) ? hi.y : lo.y, lo.z};
  const double width = std::sqrt((px.x - l.foot.x) * (px.x - l.foot.x) + (px.y - l.foot.y) * (px.y - l.foot.y));
  constexpr unsigned kMaxColumns = 100000;
  const double columns = std::floor((width + dp * 0.01) / dp) + 1;
  if (columns > kMaxColumns)
    throw InputError(where + fmt::format(": {} across a zone {:g} m wide would take {:g} columns dp apart, more than {}",
                                         why, width, columns, kMaxColumns));
  l.columns = unsigned(columns);
  if (l.columns > 1) l.across = {(px.x - l.foot.x) / width * dp, (px.y - l.foot.y) / width * dp, 0};
  return l;
}

// The gauge of a calculated zsurf (model/case_inout.h), as DualSPHysics' JSphInOutZsurf places it:
// the columns of zsurfLine moved 2h into the domain, each starting at zsurfmin (never below the
// zone's lowest point) and going up dp by dp to the zone's highest point.
void zsurfGaugeLine(const std::string& where, InOutZoneDef& z, double dp, double h, bool twoD, double y2d) {
  const ZsurfLine l = zsurfLine(where, z, dp, twoD, "a zsurf calculated from the fluid (<imposezsurf mode=\"2\">)");
  const Vec3d d = z.unitDirection;
  z.zsurfColumns = l.columns;
  z.zsurfAcross = l.across;
  const double zmin = std::max(z.zsurfMin, l.lo.z);
  const double ahead = 2 * h;
  const Vec3d p0{l.foot.x + d.x * ahead, twoD ? y2d : l.foot.y + d.y * ahead, zmin};
  const double top = l.hi.z;
  const unsigned n = unsigned((std::fabs(top - zmin) + dp * 0.01) / dp) + 1;
  z.zsurfGauge.clear();
  for (unsigned c = 0; c < z.zsurfColumns; ++c)
    for (unsigned k = 0; k < n; ++k)
      z.zsurfGauge.push_back({p0.x + c * z.zsurfAcross.x, p0.y + c * z.zsurfAcross.y,
                              zmin + k * dp * (top >= zmin ? 1 : -1)});
}

// A variable zsurf from mesh data (model/case_inout.h, DualSPHysics' MeshToUniformData and
// MeshToZsurfLinePoints): the data's frames from the last at or before <initialtime> on, each
// interpolated at the centre of the zone's points (2D, or data of one column) or at the feet of
// the zone's columns (zsurfLine), their times less <initialtime>.
void zsurfFromMesh(const std::string& where, InOutZoneDef& z, double dp, bool twoD) {
  const MeshData& m = *z.zsurfMesh;
  const double t0 = z.zsurfMeshTime0;
  size_t first = 0;
  if (t0 > 0)
    while (first + 1 < m.times.size() && m.times[first + 1] <= t0) ++first;
  const MeshInterp in = meshInterpolation(m);
  const auto at = [&](size_t frame, const Vec3d& p) {
    float out[3];
    meshInterpolate(in, m.frame(frame), m.frame(frame), 0.0f, p.x, p.y, p.z, out);
    return out[0];
  };
  const bool uniform = twoD || m.npt[0] * m.npt[1] == 1;
  const ZsurfLine l = uniform ? ZsurfLine{} : zsurfLine(where, z, dp, twoD, "a zsurf from mesh data across the zone");
  if (uniform || l.columns == 1) {
    Vec3d p = l.foot;
    if (uniform) {
      Vec3d lo = z.points.front(), hi = lo;
      for (const Vec3d& q : z.points) {
        lo = {std::min(lo.x, q.x), std::min(lo.y, q.y), std::min(lo.z, q.z)};
        hi = {std::max(hi.x, q.x), std::max(hi.y, q.y), std::max(hi.z, q.z)};
      }
      p = {(lo.x + hi.x) / 2, (lo.y + hi.y) / 2, (lo.z + hi.z) / 2};
    }
    z.zsurf.clear();
    for (size_t k = first; k < m.times.size(); ++k) z.zsurf.push_back({m.times[k] - t0, at(k, p)});
    if (m.loopEnd != DBL_MAX) {
      z.zsurfLoopEnd = m.loopEnd - t0;
      z.zsurfLoopSpan = m.loopSpan;
    }
    return;
  }
  auto series = std::make_shared<MeshData>();
  series->file = m.file;
  series->name = m.name;
  series->npt[0] = l.columns;
  series->origin = l.foot;
  series->vdp[0] = l.across;
  for (size_t k = first; k < m.times.size(); ++k) {
    series->times.push_back(m.times[k] - t0);
    for (uint32_t c = 0; c < l.columns; ++c)
      series->values.push_back(at(k, {l.foot.x + c * l.across.x, l.foot.y + c * l.across.y, l.foot.z}));
  }
  if (m.loopEnd != DBL_MAX) {
    series->loopEnd = m.loopEnd - t0;
    series->loopSpan = m.loopSpan;
  }
  z.zsurfColumns = l.columns;
  z.zsurfAcross = l.across;
  z.zsurfSeries = std::move(series);
}

// Uniform velocities given as flows (<flowvelocity>) in m/s: the flow divided among the zone's
// points below zsurf, each point carrying a column of particles of volume dp^dim (2D: a slice 0.1
// m thick, as DualSPHysics' JSphInOutVel::ConfigFlowToVel takes it).
void flowToVelocity(InOutZoneDef& z, double dp, bool twoD) {
  if (z.flowVolumeFactor == 0) return;
  const double zs = zsurfAt(z, 0);
  size_t active = 0;
  for (const Vec3d& p : z.points) active += p.z <= zs;
  const double volume = std::pow(dp, twoD ? 2 : 3) * z.flowVolumeFactor;
  const double perUnit = (twoD ? 0.01 : 0.001) / volume;
  const double factor = active > 0 ? perUnit / double(active) * dp : 0;
  for (InOutVelocityRow& r : z.velocity) r.v[0] *= factor;
}

// Drops the particles with remove[i] set from every per-particle array of `c`.
void removeParticles(CaseDefinition& c, const std::vector<char>& remove) {
  size_t w = 0;
  for (size_t i = 0; i < c.positions.size(); ++i) {
    if (remove[i]) {
      c.mks[c.mkIndex[i]].count--;
      if (i < c.nBound) c.nBound--;
      else c.nFluid--;
      continue;
    }
    c.positions[w] = c.positions[i];
    c.mkIndex[w] = c.mkIndex[i];
    if (!c.normals.empty()) c.normals[w] = c.normals[i];
    if (!c.velocities.empty()) c.velocities[w] = c.velocities[i];
    if (!c.densities.empty()) c.densities[w] = c.densities[i];
    ++w;
  }
  c.positions.resize(w);
  c.mkIndex.resize(w);
  if (!c.normals.empty()) c.normals.resize(w);
  if (!c.velocities.empty()) c.velocities.resize(w);
  if (!c.densities.empty()) c.densities.resize(w);
}

// Particles binned in cubes of side `cell`, for the start's proximity test.
class ProximityGrid {
 public:
  explicit ProximityGrid(double cell) : cell_(cell) {}
  void add(const Vec3d& p, uint32_t id) { cells_[key(p, 0, 0, 0)].push_back({p, id}); }
  // Calls f(id) for every point within r (<= cell) of p.
  template <typename F>
  void near(const Vec3d& p, double r, F&& f) const {
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dz = -1; dz <= 1; ++dz) {
          const auto it = cells_.find(key(p, dx, dy, dz));
          if (it == cells_.end()) continue;
          for (const auto& [q, id] : it->second) {
            const double ex = q.x - p.x, ey = q.y - p.y, ez = q.z - p.z;
            if (ex * ex + ey * ey + ez * ez <= r * r) f(id);
          }
        }
  }

 private:
  uint64_t key(const Vec3d& p, int dx, int dy, int dz) const {
    const auto c = [&](double v, int d) { return uint64_t(int64_t(std::floor(v / cell_)) + d + (int64_t(1) << 20)) & 0x1FFFFF; };
    return c(p.x, dx) | (c(p.y, dy) << 21) | (c(p.z, dz) << 42);
  }
  double cell_;
  std::unordered_map<uint64_t, std::vector<std::pair<Vec3d, uint32_t>>> cells_;
};

}  // namespace

void readInOut(const XmlReader& xml, const XMLElement* inout, CaseInOut& out, std::vector<std::string>& warnings) {
  InOutReader(xml, warnings).read(inout, out);
}

void prepareInOut(const std::string& path, CaseDefinition& c) {
  CaseInOut& io = c.inout;
  if (!io.active) return;
  const bool twoD = c.twoD;
  const double dp = c.dp, y2d = c.pointMin.y;
  std::vector<char> remove(c.positions.size(), 0);
  std::vector<int> mkZone(c.mks.size(), -1);  // the zone whose <particles> names each mk
  struct Buffer {
    Vec3d pos;
    uint8_t zone;
  };
  std::vector<Buffer> buffers;
  for (size_t zi = 0; zi < io.zones.size(); ++zi) {
    InOutZoneDef& z = io.zones[zi];
    const std::string zoneWhere = fmt::format("{}:{}: <inoutzone>", path, z.line);
    const InOutShapeDef& s = z.shapes[twoD ? 0 : 1];
    if (!s.given) throw InputError(zoneWhere + fmt::format(": missing element <{}> for this {} case", twoD ? "zone2d" : "zone3d",
                                                          twoD ? "2D" : "3D"));
    const std::string where = fmt::format("{}:{}: <inoutzone> shape", path, s.line);
    std::vector<Vec3d> mkParticles;
    if (s.shape == InOutShape::Particles) {
      const size_t k = mkIndexOf(c, false, s.mkFluid);
      if (k == c.mks.size() || c.mks[k].count == 0)
        throw InputError(where + fmt::format(": mkfluid {} has no particles to place the zone's points", s.mkFluid));
      if (mkZone[k] >= 0)
        throw InputError(where + fmt::format(": mkfluid {} already gives the points of the zone at line {}", s.mkFluid,
                                             io.zones[size_t(mkZone[k])].line));
      mkZone[k] = int(zi);
      for (size_t i = c.nBound; i < c.positions.size(); ++i)
        if (c.mkIndex[i] == k) {
          mkParticles.push_back(c.positions[i]);
          remove[i] = 1;  // the buffer takes their place (DualSPHysics drops them silently)
        }
    }
    if (z.jet && s.shape != InOutShape::Circle)
      throw InputError(zoneWhere + ": <jetcircle> needs a circle zone (<zone3d><circle>), as in DualSPHysics");
    const gen::InOutGeometry g = gen::inOutGeometry(s, z.layers, dp, twoD, y2d, mkParticles, where);
    z.points = g.points;
    z.unitDirection = g.direction;
    z.planePoint = g.planePoint;
    z.boxMin = g.boxMin;
    z.boxMax = g.boxMax;
    // Every buffer layer, and one more, inside the domain (DualSPHysics' CheckPoints).
    const Vec3d lo = c.resolvedDomainMin, hi = c.resolvedDomainMax;
    for (const Vec3d& p : z.points)
      for (int k = 0; k <= z.layers; ++k) {
        const Vec3d q{p.x - k * dp * g.direction.x, p.y - k * dp * g.direction.y, p.z - k * dp * g.direction.z};
        const bool inside = q.x > lo.x && q.x < hi.x && q.z > lo.z && q.z < hi.z && (twoD || (q.y > lo.y && q.y < hi.y));
        if (!inside)
          throw InputError(zoneWhere + fmt::format(": its buffer (layer {} of a point at ({:g}, {:g}, {:g}): ({:g}, {:g}, "
                                                   "{:g})) reaches outside the domain ({:g}, {:g}, {:g})-({:g}, {:g}, {:g}); "
                                                   "move the zone or widen the domain",
                                                   k, p.x, p.y, p.z, q.x, q.y, q.z, lo.x, lo.y, lo.z, hi.x, hi.y, hi.z));
      }
    flowToVelocity(z, dp, twoD);
    if (z.zsurfMode == InOutZsurfMode::Calculated) zsurfGaugeLine(zoneWhere, z, dp, caseSmoothingLength(c), twoD, y2d);
    if (z.zsurfMesh) zsurfFromMesh(zoneWhere, z, dp, twoD);
    checkZone(zoneWhere, z, c.warnings);
    // The initial buffer: every layer of the points below zsurf at the start (all points
    // without zsurf or with refilling 0), zone by zone, layer by layer.
    const bool all = z.zsurfMode == InOutZsurfMode::Undefined || z.refilling == InOutRefilling::SimpleFull;
    const size_t before = buffers.size();
    for (int k = 0; k < z.layers; ++k)
      for (const Vec3d& p : z.points)
        if (all || p.z <= zsurfAtPoint(z, 0, p))
          buffers.push_back({Vec3d{p.x - k * dp * g.direction.x, p.y - k * dp * g.direction.y, p.z - k * dp * g.direction.z},
                             uint8_t(zi)});
    z.initialParticles = uint32_t(buffers.size() - before);
  }

  // Fluid closer than 0.7 dp to a buffer particle is removed; a boundary particle or another
  // buffer particle that close is an error (DualSPHysics' InitCheckProximity).
  const double close = 0.7 * dp;
  ProximityGrid grid(close);
  for (size_t i = 0; i < c.positions.size(); ++i)
    if (!remove[i]) grid.add(c.positions[i], uint32_t(i));
  size_t fluidRemoved = 0;
  const uint32_t bufferBase = uint32_t(c.positions.size());
  for (size_t b = 0; b < buffers.size(); ++b) {
    const Buffer& buf = buffers[b];
    const InOutZoneDef& z = io.zones[buf.zone];
    grid.near(buf.pos, close, [&](uint32_t id) {
      if (id >= bufferBase) {
        const Buffer& o = buffers[id - bufferBase];
        throw InputError(fmt::format("{}:{}: <inoutzone>: its buffer particle at ({:g}, {:g}, {:g}) is closer than 0.7 dp "
                                     "to one of the zone at line {} at ({:g}, {:g}, {:g}): zones must not overlap",
                                     path, z.line, buf.pos.x, buf.pos.y, buf.pos.z, io.zones[o.zone].line, o.pos.x,
                                     o.pos.y, o.pos.z));
      }
      if (id < c.nBound) {
        const Vec3d& q = c.positions[id];
        throw InputError(fmt::format("{}:{}: <inoutzone>: its buffer particle at ({:g}, {:g}, {:g}) is closer than 0.7 dp "
                                     "to the boundary particle at ({:g}, {:g}, {:g}) (mkbound {}): move the zone off "
                                     "the walls",
                                     path, z.line, buf.pos.x, buf.pos.y, buf.pos.z, q.x, q.y, q.z,
                                     c.mks[c.mkIndex[id]].local));
      }
      if (!remove[id]) {
        remove[id] = 1;
        ++fluidRemoved;
      }
    });
    grid.add(buf.pos, bufferBase + uint32_t(b));
  }
  if (fluidRemoved > 0)
    c.warnings.push_back(fmt::format("{}:{}: <inout>: {} fluid particles closer than 0.7 dp to the inlet/outlet buffers "
                                     "were removed (DualSPHysics removes them too)",
                                     path, io.line, fluidRemoved));
  removeParticles(c, remove);

  // The buffer particles, and the fluid they become, are DualSPHysics' "new fluid": an mk of their
  // own, after the case's fluid mks.
  int maxLocal = -1, offset = 0, maxMk = 0;
  bool anyFluid = false;
  for (const MkEntry& m : c.mks) {
    maxMk = std::max(maxMk, m.mk);
    if (m.bound) continue;
    if (m.local > maxLocal) {
      maxLocal = m.local;
      offset = m.mk - m.local;
    }
    anyFluid = true;
  }
  MkEntry fresh{false, maxLocal + 1, anyFluid ? maxLocal + 1 + offset : maxMk + 1, uint32_t(buffers.size())};
  const uint16_t mkIdx = uint16_t(c.mks.size());
  c.mks.push_back(fresh);
  c.inOutZone.assign(c.positions.size(), CaseDefinition::kNoInOutZone);
  for (const Buffer& b : buffers) {
    c.positions.push_back(b.pos);
    c.mkIndex.push_back(mkIdx);
    c.inOutZone.push_back(b.zone);
    if (!c.normals.empty()) c.normals.push_back(Vec3d{});
    if (!c.velocities.empty()) c.velocities.push_back(Vec3f{});
    if (!c.densities.empty()) c.densities.push_back(float(c.constants.rhop0));
  }
  c.nFluid += uint32_t(buffers.size());
}

}  // namespace sph
