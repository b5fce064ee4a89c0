#include "case_wave_paddles_reader.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "sph/errors.h"

namespace sph {
namespace {

// DualSPHysics paddles this engine does not make yet: refused by name.
constexpr std::string_view kUnsupportedPaddles[] = {"piston_spectrum", "flap_spectrum", "piston_solitary",
                                                    "flap_solitary", "piston_focused", "flap_focused"};

class PaddleReader {
 public:
  explicit PaddleReader(const XmlReader& xml) : x_(xml) {}

  WavePaddle read(const XMLElement* e) {
    const bool flap = std::string_view(e->Name()) == "flap";
    if (flap)
      x_.onlyChildren(e, {"mkbound", "waveorder", "start", "duration", "depth", "variabledraft", "flapaxis0",
                          "flapaxis1", "waveheight", "waveperiod", "phase", "ramp", "gainstroke", "savemotion"});
    else
      x_.onlyChildren(e, {"mkbound", "waveorder", "start", "duration", "depth", "pistondir", "waveheight",
                          "waveperiod", "phase", "ramp", "gainstroke", "savemotion", "awas_zsurf", "fixeddepth"});
    if (const XMLElement* a = active(e, "awas_zsurf"))
      x_.fail(a, "active wave absorption (AWAS) is not supported by this engine; rename it to <_awas_zsurf> to "
                 "generate the waves without it");
    if (const XMLElement* f = active(e, "fixeddepth"))
      x_.fail(f, "a depth at the paddle different from the flume's is not supported by this engine");
    WavePaddle p;
    p.type = flap ? PaddleType::Flap : PaddleType::Piston;
    p.line = e->GetLineNum();
    p.mkbound = x_.integer(x_.child(e, "mkbound"), "value");
    p.order = int(optional(e, "waveorder", 1));
    if (p.order != 1 && p.order != 2) failValue(e, "waveorder", "must be 1 or 2");
    p.start = optional(e, "start", 0);
    if (p.start < 0) failValue(e, "start", "must not be negative");
    p.duration = optional(e, "duration", 0);
    if (p.duration < 0) failValue(e, "duration", "must not be negative (0: to the end of the run)");
    p.depth = required(e, "depth");
    if (!(p.depth > 0)) failValue(e, "depth", "must be positive: the still-water depth at the paddle");
    p.height = required(e, "waveheight");
    if (!(p.height > 0)) failValue(e, "waveheight", "must be positive");
    p.period = required(e, "waveperiod");
    if (!(p.period > 0)) failValue(e, "waveperiod", "must be positive");
    p.phase = optional(e, "phase", 0) * std::numbers::pi;
    p.rampPeriods = optional(e, "ramp", 0);
    if (p.rampPeriods < 0) failValue(e, "ramp", "must not be negative");
    p.gainStroke = optional(e, "gainstroke", 1);
    if (!(p.gainStroke > 0)) failValue(e, "gainstroke", "must be positive");
    if (flap) {
      p.axis0 = x_.vec(x_.child(e, "flapaxis0"));
      p.axis1 = x_.vec(x_.child(e, "flapaxis1"));
      const Vec3d u{p.axis1.x - p.axis0.x, p.axis1.y - p.axis0.y, p.axis1.z - p.axis0.z};
      if (!(u.x * u.x + u.y * u.y + u.z * u.z > 0))
        x_.fail(x_.child(e, "flapaxis1"), "flapaxis0 and flapaxis1 are the same point: no hinge axis");
      p.draft = optional(e, "variabledraft", 0);
      if (!(p.draft < p.depth))
        failValue(e, "variabledraft", fmt::format("must be below the depth ({}): the hinge must be under water", p.depth));
      if (p.order == 2 && p.draft != 0)
        failValue(e, "variabledraft",
                  "second-order generation (waveorder 2) of a flap whose hinge is off the bottom is not supported by "
                  "this engine (variabledraft 0, or waveorder 1)");
    } else if (const XMLElement* d = e->FirstChildElement("pistondir")) {
      const Vec3d v = x_.vec(d);
      const double len = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
      if (!(len > 0)) x_.fail(d, "the direction is zero");
      p.direction = {v.x / len, v.y / len, v.z / len};
    }
    if (const XMLElement* s = active(e, "savemotion")) readSaveMotion(s, p);
    return p;
  }

 private:
  const XMLElement* active(const XMLElement* e, const char* name) const { return e->FirstChildElement(name); }

  double required(const XMLElement* e, const char* name) const { return x_.real(x_.child(e, name), "value"); }
  double optional(const XMLElement* e, const char* name, double fallback) const {
    const XMLElement* c = e->FirstChildElement(name);
    return c ? x_.real(c, "value") : fallback;
  }
  [[noreturn]] void failValue(const XMLElement* e, const char* name, std::string_view why) const {
    const XMLElement* c = e->FirstChildElement(name);
    if (!c) x_.fail(e, fmt::format("<{}>: {}", name, why));
    x_.fail(c, fmt::format("value=\"{}\" {}", c->Attribute("value") ? c->Attribute("value") : "", why));
  }

  // Either time="T" timedt="DT" or periods="N" periodsteps="M" (DualSPHysics); xpos and zpos
  // place DualSPHysics' theoretical elevation and velocity columns, which are not written here.
  void readSaveMotion(const XMLElement* s, WavePaddle& p) const {
    x_.onlyChildren(s, {});
    if (s->Attribute("periods") || s->Attribute("periodsteps")) {
      const double periods = x_.real(s, "periods"), steps = x_.real(s, "periodsteps");
      if (!(periods > 0) || !(steps >= 1))
        x_.fail(s, "periods must be positive and periodsteps at least 1");
      p.saveTime = periods * p.period;
      p.saveDt = p.period / std::floor(steps);
    } else {
      p.saveTime = x_.real(s, "time");
      p.saveDt = x_.real(s, "timedt");
      if (!(p.saveTime > 0) || !(p.saveDt > 0)) x_.fail(s, "time and timedt must be positive");
    }
    if (p.saveTime / p.saveDt > 1e7) x_.fail(s, "more than ten million samples: raise timedt or lower time");
  }

  const XmlReader& x_;
};

}  // namespace

void readWavePaddles(const XmlReader& xml, const XMLElement* wavepaddles, std::vector<WavePaddle>& out) {
  PaddleReader reader(xml);
  for (const XMLElement* e = wavepaddles->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    if (name == "piston" || name == "flap") {
      out.push_back(reader.read(e));
    } else if (std::find(std::begin(kUnsupportedPaddles), std::end(kUnsupportedPaddles), name) !=
               std::end(kUnsupportedPaddles)) {
      xml.fail(e, "this wave paddle is not supported by this engine (supported: <piston> and <flap>, regular waves)");
    } else {
      xml.unknown(e, wavepaddles);
    }
  }
}

void attachWavePaddles(const std::string& path, const std::vector<WavePaddle>& paddles, CaseDefinition& c) {
  const Vec3d& g = c.constants.gravity;
  const double gravity = std::sqrt(g.x * g.x + g.y * g.y + g.z * g.z);
  for (const WavePaddle& p : paddles) {
    const char* element = p.type == PaddleType::Flap ? "flap" : "piston";
    MotionObject* object = nullptr;
    for (MotionObject& o : c.motions)
      if (o.ref == p.mkbound) object = &o;
    if (!object)
      throw InputError(fmt::format("{}:{}: <{}>: mkbound {} has no <motion> object: a paddle moves the particles of "
                                   "an <objreal ref=\"{}\"> (with <mvnull>), as in DualSPHysics",
                                   path, p.line, element, p.mkbound, p.mkbound));
    if (object->paddle)
      throw InputError(fmt::format("{}:{}: <{}>: mkbound {} already has the wave paddle of line {}", path, p.line,
                                   element, p.mkbound, object->paddle->line));
    if (!(gravity > 0))
      throw InputError(fmt::format("{}:{}: <{}>: a wave paddle needs gravity: the case's <gravity> is zero", path,
                                   p.line, element));
    object->paddle = p;
    object->paddle->gravity = gravity;
  }
}

}  // namespace sph
