#include "case/relaxation_zones_reader.h"

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "case/ml_pistons_reader.h"
#include "case/wave_paddles_reader.h"
#include "geometry/draw_transform.h"
#include "physics/relaxation_zone_physics.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

class RelaxReader {
 public:
  explicit RelaxReader(const XmlReader& x) : x_(x) {}

  RelaxWaveZone waves(const XMLElement* e, bool spectrum) {
    if (spectrum)
      x_.onlyChildren(e, {"start", "duration", "spectrum", "peakcoef", "discretization", "waveorder", "waveheight",
                          "waveperiod", "waves", "randomseed", "depth", "swl", "center", "width", "ramptime",
                          "serieini", "savemotion", "saveserie", "saveseriewaves", "calcserielength", "coefdir",
                          "coefdt", "function", "driftcorrection"});
    else
      x_.onlyChildren(e, {"start", "duration", "waveorder", "waveheight", "waveperiod", "depth", "swl", "center",
                          "width", "phase", "ramp", "savemotion", "coefdir", "coefdt", "function",
                          "driftcorrection"});
    if (spectrum) refuseSpectrumExtras(e);
    RelaxWaveZone z;
    z.spectrum = spectrum;
    common(e, z.common);
    WavePaddle& p = z.waves;
    p.type = PaddleType::Piston;
    p.waves = spectrum ? PaddleWaves::Irregular : PaddleWaves::Regular;
    p.line = e->GetLineNum();
    p.start = z.common.start;
    p.duration = z.common.duration;
    const double order = optional(e, "waveorder", 1);
    if (order != 1 && order != 2) failValue(e, "waveorder", "must be 1 or 2");
    // DualSPHysics: "2nd order wave is not available for irregular waves".
    if (spectrum && order == 2) failValue(e, "waveorder", "must be 1: second-order irregular waves are not available in relaxation zones (as in DualSPHysics)");
    p.order = int(order);
    p.height = required(e, "waveheight");
    if (!(p.height > 0)) failValue(e, "waveheight", spectrum ? "must be positive: the significant wave height" : "must be positive");
    p.period = required(e, "waveperiod");
    if (!(p.period > 0)) failValue(e, "waveperiod", spectrum ? "must be positive: the peak period" : "must be positive");
    p.depth = required(e, "depth");
    if (!(p.depth > 0)) failValue(e, "depth", "must be positive: the water depth of the waves");
    z.swl = required(e, "swl");
    z.centerX = x_.vec(x_.child(e, "center")).x;
    z.width = required(e, "width");
    if (!(z.width > 0)) failValue(e, "width", "must be positive: the zone's length along x");
    if (spectrum) {
      readIrregularSeaState(x_, e, p);
    } else {
      p.phase = optional(e, "phase", 0) * std::numbers::pi;
      p.rampPeriods = optional(e, "ramp", 0);
      if (p.rampPeriods < 0) failValue(e, "ramp", "must not be negative");
      if (const XMLElement* s = x_.optionalChild(e, "savemotion")) {
        // DualSPHysics' defaults: the run's end and TimeOut; zpos half the depth down.
        z.motion = readSaveMotion(x_, s, p.period, true);
        z.saveMotion = true;
      }
    }
    if (const XMLElement* c = x_.optionalChild(e, "coefdir")) z.coefDir = x_.vec(c, 0);
    else z.coefDir = {1, 0, 0};
    z.drift = optional(e, "driftcorrection", 0);
    if (z.drift < 0) failValue(e, "driftcorrection", "must not be negative (0: off, 1: the whole Stokes drift)");
    return z;
  }

  // <rzwaves_external_1d>: DualSPHysics reads <filesvel>_velx_xNN_y00.csv (and _velz_ with
  // <usevelz>) beside the case, NN from <filesvelx initial> for <filesvelx count> files.
  RelaxExternalZone external(const XMLElement* e) {
    x_.onlyChildren(e, {"start", "duration", "depth", "swl", "filesvel", "filesvelx", "usevelz", "movedata", "dpz",
                        "smooth", "center", "width", "coefdir", "coefdt", "function", "driftcorrection",
                        "driftinitialramp"});
    RelaxExternalZone z;
    common(e, z.common);
    z.depth = optional(e, "depth", 0);
    z.swl = optional(e, "swl", 0);
    if (optional(e, "driftcorrection", 0) != 0)
      failValue(e, "driftcorrection",
                "is not supported for external velocity data by this engine (its rule was not measured); use 0");
    const XMLElement* base = x_.child(e, "filesvel");
    x_.onlyChildren(base, {});
    const std::string name = x_.attr(base, "value");
    const XMLElement* which = x_.child(e, "filesvelx");
    x_.onlyChildren(which, {});
    const int first = x_.integer(which, "initial"), count = x_.integer(which, "count");
    if (first < 0 || count < 1 || first + count > 100)
      x_.fail(which, fmt::format("initial={} count={}: files 00 to 99, at least one", first, count));
    if (const XMLElement* u = x_.optionalChild(e, "usevelz")) z.useVelz = x_.boolean(u, "value", false);
    if (const XMLElement* m = x_.optionalChild(e, "movedata")) z.moveData = x_.vec(m, 0);
    if (const XMLElement* d = x_.optionalChild(e, "dpz")) {
      x_.onlyChildren(d, {});
      z.dpzCoef = x_.real(d, "valuedp", 2);
      if (!(z.dpzCoef > 0)) x_.fail(d, "valuedp must be positive");
    }
    const double smooth = optional(e, "smooth", 0);
    if (!(smooth >= 0 && smooth <= 1000) || smooth != std::floor(smooth))
      failValue(e, "smooth", "must be a whole number from 0 to 1000 (nodes each side)");
    z.smooth = int(smooth);
    z.centerX = x_.vec(x_.child(e, "center")).x;
    z.width = required(e, "width");
    if (!(z.width > 0)) failValue(e, "width", "must be positive: the zone's length along x");
    if (const XMLElement* c = x_.optionalChild(e, "coefdir")) z.coefDir = x_.vec(c, 0);
    if (z.coefDir.z != 0 && !z.useVelz)
      x_.fail(x_.child(e, "coefdir"), "coefdir.z is not zero but velocity in z is not loaded (<usevelz value=\"true\">), "
                                     "as DualSPHysics refuses");
    const std::filesystem::path dir = std::filesystem::path(x_.path()).parent_path();
    for (int k = first; k < first + count; ++k)
      for (const char* component : {"velx", "velz"}) {
        if (std::string_view(component) == "velz" && !z.useVelz) continue;
        const std::string file = (dir / fmt::format("{}_{}_x{:02}_y00.csv", name, component, k)).string();
        try {
          (std::string_view(component) == "velx" ? z.velx : z.velz).push_back(readMlPistonData(file));
        } catch (const InputError& err) {
          x_.fail(base, err.what());
        }
      }
    // The files at evenly spaced x (DualSPHysics: "Positions of data files are invalid") with the
    // same times.
    const MlPistonData& f0 = z.velx.front();
    const double dpx = z.velx.size() > 1 ? z.velx[1].posx - f0.posx : 0;
    if (z.velx.size() > 1 && !(dpx > 0)) x_.fail(base, "the files' px must increase with their number");
    for (size_t k = 0; k < z.velx.size(); ++k) {
      const MlPistonData& f = z.velx[k];
      if (std::fabs(f.posx - (f0.posx + double(k) * dpx)) > 0.025 * dpx)
        x_.fail(base, fmt::format("{}: px {:g} is not {:g}: the files must be evenly spaced in x (DualSPHysics: "
                                  "\"Positions of data files are invalid\")",
                                  f.file, f.posx, f0.posx + double(k) * dpx));
      for (const MlPistonData* g : {&f, z.useVelz ? &z.velz[k] : &f})
        if (g->times != f0.times)
          x_.fail(base, fmt::format("{}: its times are not those of {}", g->file, f0.file));
    }
    return z;
  }

  RelaxUniformZone uniform(const XMLElement* e) {
    x_.onlyChildren(e, {"start", "duration", "domainbox", "velocity", "velocitytimes", "coefdt", "function"});
    RelaxUniformZone z;
    common(e, z.common);
    const XMLElement* box = x_.child(e, "domainbox");
    x_.onlyChildren(box, {"point", "size", "direction", "rotateaxis"});
    z.origin = x_.vec(x_.child(box, "point"));
    const XMLElement* sizeEl = x_.child(box, "size");
    const Vec3d size = x_.vec(sizeEl);
    if (!(size.x > 0 && size.y > 0 && size.z > 0))
      x_.fail(sizeEl, "every side of the box must be positive (in 2D too: the particles' y must lie inside it)");
    const XMLElement* dirEl = x_.child(box, "direction");
    const Vec3d dir = x_.vec(dirEl, 0);
    const double c[3] = {dir.x, dir.y, dir.z};
    int nonzero = 0;
    for (int a = 0; a < 3; ++a)
      if (c[a] != 0) {
        ++nonzero;
        z.axis = a;
        z.sign = c[a] > 0 ? 1 : -1;
      }
    if (nonzero != 1) x_.fail(dirEl, "must be along one axis of the box: exactly one of x, y, z not zero (as in DualSPHysics)");
    z.edge[0] = {size.x, 0, 0};
    z.edge[1] = {0, size.y, 0};
    z.edge[2] = {0, 0, size.z};
    if (const XMLElement* r = x_.optionalChild(box, "rotateaxis")) rotate(r, z);
    const XMLElement* times = x_.optionalChild(e, "velocitytimes");
    if (times) {
      for (const XMLElement* r = times->FirstChildElement(); r; r = r->NextSiblingElement()) {
        if (skipped(r)) continue;
        if (std::string_view(r->Name()) != "timevalue") x_.unknown(r, times);
        const double t = x_.real(r, "time");
        if (!z.times.empty() && !(t > z.times.back()))
          x_.fail(r, fmt::format("time {:g} must be after the row before ({:g})", t, z.times.back()));
        z.times.push_back(t);
        z.values.push_back(x_.real(r, "v"));
      }
      if (z.times.empty()) x_.fail(times, "has no <timevalue time=\"...\" v=\"...\"/> row");
    } else {
      z.velocity = required(e, "velocity");
    }
    return z;
  }

 private:
  // What an irregular-wave zone may give that this engine does not do, refused before anything
  // else is read.
  void refuseSpectrumExtras(const XMLElement* e) {
    for (const char* name : {"savemotion", "saveserie", "saveseriewaves", "calcserielength"})
      if (const XMLElement* s = x_.optionalChild(e, name))
        x_.fail(s, "is not supported by this engine: the theoretical motion and series files of an irregular-wave "
                   "relaxation zone are not written; remove it or rename it to <_" + std::string(name) + ">");
    if (optional(e, "driftcorrection", 0) != 0)
      failValue(e, "driftcorrection",
                "is not supported for irregular waves by this engine (DualSPHysics derives their drift from the "
                "generated series by a rule it does not publish); use 0");
  }

  void common(const XMLElement* e, RelaxZoneCommon& c) {
    c.line = e->GetLineNum();
    c.start = optional(e, "start", 0);
    if (c.start < 0) failValue(e, "start", "must not be negative");
    c.duration = optional(e, "duration", 0);
    if (c.duration < 0) failValue(e, "duration", "must not be negative (0: to the end of the run)");
    c.coefDt = optional(e, "coefdt", 1000);
    if (c.coefDt < 0) failValue(e, "coefdt", "must not be negative (0: the weight is not multiplied by dt)");
    if (const XMLElement* f = x_.optionalChild(e, "function")) {
      x_.onlyChildren(f, {});
      c.psi = x_.real(f, "psi", 0.9);
      c.beta = x_.real(f, "beta", 1);
      double sub = 0, div = 0;
      relax::weightConstants(c.psi, c.beta, sub, div);
      if (!(c.beta > 0 && c.psi > 0 && div > 0))
        x_.fail(f, fmt::format("psi={:g} beta={:g} give no weight: both must be positive", c.psi, c.beta));
    }
  }

  // <rotateaxis angle anglesunits><point1/><point2/></rotateaxis>: the box turned as GenCase turns
  // drawings (geometry/draw_transform.h), as DualSPHysics turns it.
  void rotate(const XMLElement* r, RelaxUniformZone& z) {
    x_.onlyChildren(r, {"point1", "point2"});
    const double angle = x_.real(r, "angle");
    if (angle == 0) return;
    const std::string units = r->Attribute("anglesunits") ? x_.attr(r, "anglesunits") : "degrees";
    if (units != "degrees" && units != "radians") x_.fail(r, "anglesunits must be \"degrees\" or \"radians\"");
    const double degrees = angle * (units == "radians" ? 180 / std::numbers::pi : 1.0);
    const Vec3d p1 = x_.vec(x_.child(r, "point1")), p2 = x_.vec(x_.child(r, "point2"));
    if (!(norm(sub(p2, p1)) > 0)) x_.fail(x_.child(r, "point2"), "point1 and point2 are the same point");
    gen::DrawTransform turn;
    turn.rotateLine(degrees, p1, p2);
    const Vec3d origin = turn.apply(z.origin);
    for (Vec3d& e : z.edge) e = sub(turn.apply(add(z.origin, e)), origin);
    z.origin = origin;
  }

  double required(const XMLElement* e, const char* name) const { return x_.real(x_.child(e, name), "value"); }
  double optional(const XMLElement* e, const char* name, double fallback) const {
    const XMLElement* c = x_.optionalChild(e, name);
    return c ? x_.real(c, "value") : fallback;
  }
  [[noreturn]] void failValue(const XMLElement* e, const char* name, std::string_view why) const {
    const XMLElement* c = x_.optionalChild(e, name);
    if (!c) x_.fail(e, fmt::format("<{}>: {}", name, why));
    x_.fail(c, fmt::format("value=\"{}\" {}", c->Attribute("value") ? c->Attribute("value") : "", why));
  }

  const XmlReader& x_;
};

}  // namespace

void readRelaxationZones(const XmlReader& x, const XMLElement* e, CaseRelaxationZones& out) {
  if (!x.boolean(e, "active", true)) return;
  RelaxReader reader(x);
  for (const XMLElement* z = e->FirstChildElement(); z; z = z->NextSiblingElement()) {
    if (skipped(z)) continue;
    const std::string_view name = z->Name();
    const bool known = name == "rzwaves_regular" || name == "rzwaves_spectrum" || name == "rz_uniform" ||
                       name == "rzwaves_external_1d";
    if (!known) x.unknown(z, e);
    if (!x.boolean(z, "active", true)) continue;
    if (name == "rz_uniform") out.uniform.push_back(reader.uniform(z));
    else if (name == "rzwaves_external_1d") out.external.push_back(reader.external(z));
    else out.waves.push_back(reader.waves(z, name == "rzwaves_spectrum"));
  }
}

}  // namespace sph
