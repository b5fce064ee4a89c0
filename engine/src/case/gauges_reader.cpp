// The XML format is DualSPHysics' (doc/xml_format/_FmtXML_Gauges.xml of DualSPHysics, class
// JGaugeSystem): a <default> block of timing settings, then one element per gauge with a unique
// `name`, its own timing elements overriding <default>, and its geometry. Elements and gauges
// with active="false" are left out, as in DualSPHysics.
#include "case/gauges_reader.h"

#include "case/acc_inputs_reader.h"
#include "case/damping_reader.h"
#include "case/inout_reader.h"
#include "case/ml_pistons_reader.h"
#include "case/output_parts_reader.h"
#include "case/relaxation_zones_reader.h"
#include "case/shifting_reader.h"
#include "case/wave_paddles_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {
namespace {

// <special> children DualSPHysics knows (JSph::LoadCaseConfig and its helpers) that this engine
// does not implement.
constexpr std::string_view kUnsupportedSpecial[] = {
    "boundcorr", "boundextrap", "chrono", "flexstrucs",
    "forcepoints", "moorings", "vres"};
// <special><timeout>: output intervals that change at given times (model/output_times.h), as
// DualSPHysics' JDsOutputTime reads them: times >= 0 and increasing, intervals > 0.
void readTimeOut(const XmlReader& xml, const XMLElement* e, std::vector<OutputInterval>& rows) {
  xml.onlyChildren(e, {"tout"});
  rows.clear();
  for (const XMLElement* t = e->FirstChildElement("tout"); t; t = t->NextSiblingElement("tout")) {
    if (skipped(t)) continue;
    const OutputInterval r{xml.real(t, "time"), xml.real(t, "timeout")};
    if (!(r.time >= 0) || !std::isfinite(r.time)) xml.fail(t, fmt::format("time must be >= 0 (got {:g})", r.time));
    if (!(r.interval > 0) || !std::isfinite(r.interval))
      xml.fail(t, fmt::format("timeout must be positive (got {:g})", r.interval));
    if (!rows.empty() && !(r.time > rows.back().time))
      xml.fail(t, fmt::format("time {:g} is not after the previous row's {:g}", r.time, rows.back().time));
    rows.push_back(r);
  }
}

// <special><savedt>, as DualSPHysics' JDsSaveDt reads it: each setting optional.
DtLogSettings readSaveDt(const XmlReader& xml, const XMLElement* e) {
  xml.onlyChildren(e, {"start", "finish", "interval", "fullinfo", "alldt"});
  DtLogSettings s;
  s.active = true;
  s.line = e->GetLineNum();
  auto value = [&](const char* name, double fallback) {
    const XMLElement* c = e->FirstChildElement(name);
    return c && !skipped(c) ? xml.real(c, "value") : fallback;
  };
  auto flag = [&](const char* name) {
    const XMLElement* c = e->FirstChildElement(name);
    return c && !skipped(c) && xml.boolean(c, "value", false);
  };
  s.start = value("start", 0);
  s.finish = value("finish", 0);
  s.interval = value("interval", -1);
  s.fullInfo = flag("fullinfo");
  s.allDt = flag("alldt");
  if (const XMLElement* c = e->FirstChildElement("interval"); c && !skipped(c) && !(s.interval > 0))
    xml.fail(c, fmt::format("value must be positive (got {:g}); leave <interval> out for TimeOut", s.interval));
  if (!std::isfinite(s.start)) xml.fail(e->FirstChildElement("start"), "value must be a finite time");
  return s;
}

template <size_t N>
bool listed(const std::string_view (&list)[N], std::string_view name) {
  return std::find(std::begin(list), std::end(list), name) != std::end(list);
}

class GaugesReader {
 public:
  GaugesReader(const XmlReader& xml, CaseGauges& out) : x_(xml), out_(out) {}

  void read(const XMLElement* gauges) {
    GaugeTiming defaults;
    const XMLElement* def = nullptr;
    for (const XMLElement* e = gauges->FirstChildElement(); e; e = e->NextSiblingElement()) {
      if (skipped(e) || std::string_view(e->Name()) != "default") continue;
      if (def) x_.fail(e, fmt::format("appears twice (first at line {})", def->GetLineNum()));
      def = e;
    }
    if (def) {
      x_.onlyChildren(def, {"savevtkpart", "computedt", "computetime", "output", "outputdt", "outputtime"});
      defaults = readTiming(def, defaults);
    }
    for (const XMLElement* e = gauges->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string_view kind = e->Name();
      if (skipped(e) || kind == "default") continue;
      const bool known = kind == "swl" || kind == "velocity" || kind == "pressure" || kind == "maxz" ||
                         kind == "force" || kind == "mesh";
      if (!known) x_.unknown(e, gauges);
      if (!x_.boolean(e, "active", true)) continue;
      if (kind == "swl") readSwl(e, defaults);
      else if (kind == "velocity") readPoint(e, defaults, GaugeKind::Velocity);
      else if (kind == "pressure") readPoint(e, defaults, GaugeKind::Pressure);
      else if (kind == "maxz") readMaxZ(e, defaults);
      else if (kind == "force") readForce(e, defaults);
      else readMesh(e, defaults);
    }
  }

 private:
  const XMLElement* optionalChild(const XMLElement* e, const char* name) const { return x_.optionalChild(e, name); }

  bool requiredBool(const XMLElement* e, const char* name) const {
    x_.attr(e, name);
    return x_.boolean(e, name, false);
  }

  double nonNegative(const XMLElement* e, const char* name) const {
    const double v = x_.real(e, name);
    if (!(v >= 0) || !std::isfinite(v)) x_.fail(e, fmt::format("{} must be a finite number >= 0 (got {})", name, v));
    return v;
  }

  // Reads the timing elements of `e` over `base` (the <default> settings).
  GaugeTiming readTiming(const XMLElement* e, const GaugeTiming& base) const {
    GaugeTiming t = base;
    if (const XMLElement* c = optionalChild(e, "savevtkpart")) t.saveVtkPart = requiredBool(c, "value");
    if (const XMLElement* c = optionalChild(e, "output")) t.output = requiredBool(c, "value");
    if (const XMLElement* c = optionalChild(e, "computedt")) t.computeDt = nonNegative(c, "value");
    if (const XMLElement* c = optionalChild(e, "outputdt")) t.outputDt = nonNegative(c, "value");
    readWindow(optionalChild(e, "computetime"), t.computeStart, t.computeEnd);
    readWindow(optionalChild(e, "outputtime"), t.outputStart, t.outputEnd);
    return t;
  }

  void readWindow(const XMLElement* c, std::optional<double>& start, std::optional<double>& end) const {
    if (!c) return;
    if (!c->Attribute("start") && !c->Attribute("end")) x_.fail(c, "needs attribute start or end (s)");
    if (c->Attribute("start")) start = x_.real(c, "start");
    if (c->Attribute("end")) end = x_.real(c, "end");
    if (start && end && *start > *end) x_.fail(c, fmt::format("start {} is after end {}", *start, *end));
  }

  GaugeSpec begin(const XMLElement* e, const GaugeTiming& defaults, GaugeKind kind) const {
    GaugeSpec g;
    g.kind = kind;
    g.line = e->GetLineNum();
    g.name = x_.attr(e, "name");
    // The name becomes a file name: keep it to characters that are safe everywhere.
    const bool safe = !g.name.empty() && g.name != "." && g.name != ".." &&
                      std::all_of(g.name.begin(), g.name.end(), [](char ch) {
                        return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-' || ch == '.';
                      });
    if (!safe) x_.fail(e, fmt::format("name \"{}\" must be letters, digits, '_', '-' or '.' (it names the CSV file)", g.name));
    for (const GaugeSpec& other : out_.items)
      if (other.name == g.name) x_.fail(e, fmt::format("the name \"{}\" is already used at line {}", g.name, other.line));
    g.timing = readTiming(e, defaults);
    return g;
  }

  GaugePoint point(const XMLElement* e, const char* name) const {
    const XMLElement* c = optionalChild(e, name);
    if (!c) x_.fail(e, fmt::format("missing element <{}>", name));
    const Vec3d v = x_.vec(c);
    return {v.x, v.y, v.z};
  }

  void readPoint(const XMLElement* e, const GaugeTiming& defaults, GaugeKind kind) {
    x_.onlyChildren(e, {"savevtkpart", "computedt", "computetime", "output", "outputdt", "outputtime", "point"});
    GaugeSpec g = begin(e, defaults, kind);
    g.point = point(e, "point");
    out_.items.push_back(std::move(g));
  }

  void readSwl(const XMLElement* e, const GaugeTiming& defaults) {
    x_.onlyChildren(e, {"savevtkpart", "computedt", "computetime", "output", "outputdt", "outputtime", "point0",
                        "point2", "pointdp", "masslimit"});
    GaugeSpec g = begin(e, defaults, GaugeKind::Swl);
    g.point0 = point(e, "point0");
    g.point2 = point(e, "point2");
    if (g.point0.x == g.point2.x && g.point0.y == g.point2.y && g.point0.z == g.point2.z)
      x_.fail(e, "point0 and point2 are the same point: the gauge needs a line");

    const XMLElement* dp = optionalChild(e, "pointdp");
    if (!dp) x_.fail(e, "missing element <pointdp> (value in m, or coefdp times dp)");
    if (dp->Attribute("value") && dp->Attribute("coefdp")) x_.fail(dp, "give value or coefdp, not both");
    if (!dp->Attribute("value") && !dp->Attribute("coefdp")) x_.fail(dp, "needs attribute value (m) or coefdp");
    g.pointDpIsCoef = dp->Attribute("coefdp") != nullptr;
    g.pointDp = x_.real(dp, g.pointDpIsCoef ? "coefdp" : "value");
    if (!(g.pointDp > 0) || !std::isfinite(g.pointDp)) x_.fail(dp, fmt::format("must be positive (got {})", g.pointDp));

    readMassLimit(e, g);
    out_.items.push_back(std::move(g));
  }

  void readMassLimit(const XMLElement* e, GaugeSpec& g) const {
    const XMLElement* m = optionalChild(e, "masslimit");
    if (!m) return;
    if (m->Attribute("value") && m->Attribute("coef")) x_.fail(m, "give value or coef, not both");
    if (!m->Attribute("value") && !m->Attribute("coef")) x_.fail(m, "needs attribute value (kg) or coef");
    const bool coef = m->Attribute("coef") != nullptr;
    const double v = x_.real(m, coef ? "coef" : "value");
    if (!(v > 0) || !std::isfinite(v)) x_.fail(m, fmt::format("must be positive (got {})", v));
    (coef ? g.massLimitCoef : g.massLimit) = v;
  }

  // <kclimit value> and <kcdummy value>: a number, or NONE (any case) for none.
  std::optional<double> numberOrNone(const XMLElement* e, const char* name, double fallback) const {
    const XMLElement* c = optionalChild(e, name);
    if (!c) return fallback;
    const std::vector<std::string> t = splitTokens(x_.attr(c, "value"));
    if (t.size() == 1 && t[0] == "none") return std::nullopt;
    const double v = x_.real(c, "value");
    if (!std::isfinite(v)) x_.fail(c, fmt::format("value must be a finite number or NONE (got {})", v));
    return v;
  }

  // DualSPHysics' JGaugeSystem::ReadXml for <mesh>.
  void readMesh(const XMLElement* e, const GaugeTiming& defaults) {
    x_.onlyChildren(e, {"savevtkpart", "computedt", "computetime", "output", "outputdt", "outputtime", "point", "vec1",
                        "vec2", "vec3", "size1", "size2", "size3", "dirdat", "masslimit", "outputdata", "outputfmt",
                        "buffersize", "kclimit", "kcdummy"});
    GaugeSpec g = begin(e, defaults, GaugeKind::Mesh);
    MeshGaugeSpec& m = g.mesh;
    g.point = point(e, "point");
    for (int a = 0; a < 3; ++a) {
      const std::string vec = fmt::format("vec{}", a + 1), size = fmt::format("size{}", a + 1);
      const XMLElement* v = optionalChild(e, vec.c_str());
      if (v) {
        const Vec3d d = x_.vec(v, 0.0);
        m.axis[a] = {d.x, d.y, d.z};
      }
      const GaugePoint& d = m.axis[a];
      if (d.x == 0 && d.y == 0 && d.z == 0) continue;  // no such axis (as DualSPHysics: <sizeN> unread)
      const XMLElement* sz = optionalChild(e, size.c_str());
      if (!sz) x_.fail(v, fmt::format("needs <{} length=\"...\" distpt=\"...\"> (m) beside it", size));
      m.length[a] = nonNegative(sz, "length");
      m.distPt[a] = nonNegative(sz, "distpt");
    }
    if (const XMLElement* d = optionalChild(e, "dirdat")) {
      const Vec3d v = x_.vec(d, 0.0);
      if (v.x == 0 && v.y == 0 && v.z == 0) x_.fail(d, "the direction is the zero vector");
      m.dirDat = {v.x, v.y, v.z};
    }
    const double dl = std::sqrt(m.dirDat.x * m.dirDat.x + m.dirDat.y * m.dirDat.y + m.dirDat.z * m.dirDat.z);
    m.dirDat = {m.dirDat.x / dl, m.dirDat.y / dl, m.dirDat.z / dl};

    const XMLElement* data = optionalChild(e, "outputdata");
    if (!data) x_.fail(e, "missing element <outputdata value=\"...\"> (any of vel, veldir, rhop, zsurf)");
    for (const std::string& t : splitList(x_.attr(data, "value"))) {
      if (t == "vel") m.vel = true;
      else if (t == "veldir") m.velDir = true;
      else if (t == "rhop") m.rho = true;
      else if (t == "zsurf") m.zsurf = true;
      else x_.fail(data, fmt::format("unknown output data \"{}\" (give any of vel, veldir, rhop, zsurf)", t));
    }
    if (!m.vel && !m.velDir && !m.rho && !m.zsurf) x_.fail(data, "no output data given (any of vel, veldir, rhop, zsurf)");
    if (const XMLElement* f = optionalChild(e, "outputfmt")) {
      m.csv = false;
      for (const std::string& t : splitList(x_.attr(f, "value"))) {
        if (t == "csv") m.csv = true;
        else if (t == "bin") m.bin = true;
        else x_.fail(f, fmt::format("unknown output format \"{}\" (give csv, bin or both)", t));
      }
      if (!m.csv && !m.bin) x_.fail(f, "no output format given (csv, bin or both)");
    }
    // <buffersize>: rows DualSPHysics keeps before writing; this engine writes at its own pace.
    if (const XMLElement* b = optionalChild(e, "buffersize")) nonNegative(b, "value");
    m.kcLimit = numberOrNone(e, "kclimit", 0.5);
    m.kcDummy = numberOrNone(e, "kcdummy", 0.0);
    readMassLimit(e, g);
    out_.items.push_back(std::move(g));
  }

  // "a, b,c" as lower-case tokens, empty ones dropped (DualSPHysics removes the spaces and splits at commas).
  static std::vector<std::string> splitList(std::string_view text) {
    std::vector<std::string> out;
    std::string cur;
    for (const char ch : text) {
      if (ch == ',') {
        if (!cur.empty()) out.push_back(cur);
        cur.clear();
      } else if (ch != ' ') {
        cur += char(std::tolower(static_cast<unsigned char>(ch)));
      }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
  }

  void readMaxZ(const XMLElement* e, const GaugeTiming& defaults) {
    x_.onlyChildren(e, {"savevtkpart", "computedt", "computetime", "output", "outputdt", "outputtime", "point0",
                        "height", "distlimit"});
    GaugeSpec g = begin(e, defaults, GaugeKind::MaxZ);
    g.point0 = point(e, "point0");
    const XMLElement* height = optionalChild(e, "height");
    if (!height) x_.fail(e, "missing element <height> (value in m)");
    g.height = nonNegative(height, "value");

    // DualSPHysics reads one of value (m), coefdp (x dp) or coefh (x h), and has no default.
    const XMLElement* dist = optionalChild(e, "distlimit");
    if (!dist) x_.fail(e, "missing element <distlimit> (value in m, coefdp times dp or coefh times h)");
    const char* given = nullptr;
    for (const char* a : {"value", "coefdp", "coefh"}) {
      if (!dist->Attribute(a)) continue;
      if (given) x_.fail(dist, fmt::format("give one of value, coefdp and coefh, not {} and {}", given, a));
      given = a;
    }
    if (!given) x_.fail(dist, "needs attribute value (m), coefdp or coefh");
    g.distLimit = x_.real(dist, given);
    g.distLimitUnit = std::string_view(given) == "value"    ? GaugeSpec::DistUnit::Metre
                      : std::string_view(given) == "coefdp" ? GaugeSpec::DistUnit::Dp
                                                            : GaugeSpec::DistUnit::H;
    if (!(g.distLimit > 0) || !std::isfinite(g.distLimit))
      x_.fail(dist, fmt::format("{} must be positive (got {})", given, g.distLimit));
    out_.items.push_back(std::move(g));
  }

  void readForce(const XMLElement* e, const GaugeTiming& defaults) {
    x_.onlyChildren(e, {"savevtkpart", "computedt", "computetime", "output", "outputdt", "outputtime", "target"});
    GaugeSpec g = begin(e, defaults, GaugeKind::Force);
    const XMLElement* target = optionalChild(e, "target");
    if (!target) x_.fail(e, "missing element <target mkbound=\"...\"> (the boundary particles to measure)");
    if (target->Attribute("mkfluid") || target->Attribute("mk"))
      x_.fail(target, "the force gauge measures boundary particles: give mkbound (DualSPHysics has no other target)");
    g.mkBound = x_.integer(target, "mkbound");
    if (g.mkBound < 0) x_.fail(target, fmt::format("mkbound must be >= 0 (got {})", g.mkBound));
    g.targetLine = target->GetLineNum();
    out_.items.push_back(std::move(g));
  }

  const XmlReader& x_;
  CaseGauges& out_;
};

}  // namespace

void readSpecial(const XmlReader& xml, const XMLElement* special, CaseDefinition& c, std::vector<WavePaddle>& paddles) {
  CaseGauges& out = c.gauges;
  const XMLElement* inoutEl = nullptr;
  const XMLElement* timeoutEl = nullptr;
  const XMLElement* savedtEl = nullptr;
  const XMLElement* gauges = nullptr;
  for (const XMLElement* e = special->FirstChildElement(); e; e = e->NextSiblingElement()) {
    const std::string_view name = e->Name();
    if (skipped(e)) continue;
    if (name == "gauges") {
      if (gauges) xml.fail(e, fmt::format("appears twice (first at line {})", gauges->GetLineNum()));
      gauges = e;
    } else if (name == "wavepaddles") {
      readWavePaddles(xml, e, paddles);
    } else if (name == "damping") {
      if (xml.boolean(e, "active", true)) readDamping(xml, e, c.damping);
    } else if (name == "accinputs") {
      if (xml.boolean(e, "active", true)) readAccInputs(xml, e, c.accInputs);
    } else if (name == "inout") {
      if (inoutEl) xml.fail(e, fmt::format("appears twice (first at line {})", inoutEl->GetLineNum()));
      inoutEl = e;
      readInOut(xml, e, c.inout, c.warnings);
    } else if (name == "savedt") {
      if (savedtEl) xml.fail(e, fmt::format("appears twice (first at line {})", savedtEl->GetLineNum()));
      savedtEl = e;
      if (xml.boolean(e, "active", true)) c.dtLog = readSaveDt(xml, e);
    } else if (name == "timeout") {
      if (timeoutEl) xml.fail(e, fmt::format("appears twice (first at line {})", timeoutEl->GetLineNum()));
      timeoutEl = e;
      if (xml.boolean(e, "active", true)) readTimeOut(xml, e, c.outputTimes);
    } else if (name == "outputparts") {
      if (c.outputParts.line) xml.fail(e, fmt::format("appears twice (first at line {})", c.outputParts.line));
      c.outputParts = readOutputParts(xml, e);
    } else if (name == "shifting") {
      if (c.shifting.line) xml.fail(e, fmt::format("appears twice (first at line {})", c.shifting.line));
      c.shifting = readShifting(xml, e);
      c.shifting.line = e->GetLineNum();  // also when switched off, for the error above
    } else if (name == "relaxationzones") {
      readRelaxationZones(xml, e, c.relaxZones);
    } else if (name == "mlayerpistons") {
      readMlPistons(xml, e, c.mlPistons);
    } else if (name == "initialize") {
      continue;  // read by the case loader once the particles exist (case/loader.cpp)
    } else if (listed(kUnsupportedSpecial, name)) {
      xml.fail(e, "this DualSPHysics <special> feature is not supported by this engine "
                  "(only <gauges>, <wavepaddles>, <mlayerpistons>, <damping>, <accinputs>, <inout>, <timeout>, <savedt>, <shifting>, <outputparts>, <relaxationzones> and <initialize> are); remove it or rename it to <_" + std::string(name) + "> to disable it");
    } else {
      xml.unknown(e, special);
    }
  }
  if (gauges && xml.boolean(gauges, "active", true)) GaugesReader(xml, out).read(gauges);
}

void attachGauges(const std::string& path, CaseDefinition& c) {
  for (GaugeSpec& g : c.gauges.items) {
    if (g.kind != GaugeKind::Force) continue;
    const std::string where = fmt::format("{}:{}: <target> of force gauge '{}'", path, g.targetLine, g.name);
    const size_t k = mkIndexOf(c, true, g.mkBound);
    if (k == c.mks.size() || c.mks[k].count == 0)
      throw InputError(fmt::format("{}: mkbound {} has no particles in this case", where, g.mkBound));
    // DualSPHysics measures fixed and moving boundaries only; a floating body's force is in
    // OUT/floating.csv.
    if (const FloatingDef* f = floatingOf(c, g.mkBound))
      throw InputError(fmt::format("{}: mkbound {} is a floating body (line {}); the force gauge measures fixed or "
                                   "moving boundaries, as in DualSPHysics",
                                   where, g.mkBound, f->line));
    g.mkIndex = int(k);
    g.mk = c.mks[k].mk;
  }
}

}  // namespace sph
