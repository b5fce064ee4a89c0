#include "case/ml_pistons_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string_view>

#include <fmt/format.h>

#include "case/data_fields.h"
#include "platform/input_file.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

class Reader {
 public:
  explicit Reader(const XmlReader& x) : x_(x) {}

  MlPiston piston(const XMLElement* e, bool twoD) {
    MlPiston p;
    p.twoD = twoD;
    p.line = e->GetLineNum();
    if (twoD)
      x_.onlyChildren(e, {"mkbound", "incz", "smoothz", "smoothy", "veldata"});
    else
      x_.onlyChildren(e, {"mkbound", "filevelx", "incz", "timedataini", "smooth"});
    p.mkbound = x_.integer(leaf(e, "mkbound", true), "value");
    if (const XMLElement* c = leaf(e, "incz", false)) p.incz = x_.real(c, "value");
    p.smoothZ = smoothing(e, twoD ? "smoothz" : "smooth");
    if (twoD) {
      p.smoothY = smoothing(e, "smoothy");
      for (const XMLElement* v = e->FirstChildElement("veldata"); v; v = v->NextSiblingElement("veldata")) {
        x_.onlyChildren(v, {"filevelx", "posy", "timedataini"});
        MlPistonColumn c = column(v);
        c.posy = x_.real(leaf(v, "posy", true), "value");
        if (!p.columns.empty() && !(c.posy > p.columns.back().posy))
          x_.fail(v,
                  fmt::format("posy {:g} must be above the previous <veldata>'s {:g}", c.posy, p.columns.back().posy));
        p.columns.push_back(std::move(c));
      }
      if (p.columns.empty()) x_.fail(e, "missing element <veldata>: a piston2d needs velocity data");
    } else {
      p.columns.push_back(column(e));
    }
    return p;
  }

 private:
  const XMLElement* leaf(const XMLElement* e, const char* name, bool required) const {
    const XMLElement* c = required ? x_.child(e, name) : x_.optionalChild(e, name);
    if (c) x_.onlyChildren(c, {});
    return c;
  }

  int smoothing(const XMLElement* e, const char* name) const {
    const XMLElement* c = leaf(e, name, false);
    if (!c) return 0;
    const int v = x_.integer(c, "value");
    if (v < 0 || v > 1000) x_.fail(c, fmt::format("value=\"{}\" must be between 0 and 1000 (layers each side)", v));
    return v;
  }

  MlPistonColumn column(const XMLElement* e) const {
    MlPistonColumn c;
    const XMLElement* f = leaf(e, "filevelx", true);
    std::filesystem::path file(x_.attr(f, "value"));
    if (file.is_relative()) file = std::filesystem::path(x_.path()).parent_path() / file;
    try {
      c.data = readMlPistonData(file.string());
    } catch (const InputError& err) {
      x_.fail(f, err.what());
    }
    if (const XMLElement* t = leaf(e, "timedataini", false)) c.timeDataIni = x_.real(t, "value");
    return c;
  }

  const XmlReader& x_;
};

}  // namespace

MlPistonData readMlPistonData(const std::string& path) {
  std::istringstream in(readInputFile(path, "piston velocity file"));
  MlPistonData d;
  d.file = path;
  std::string line;
  int n = 0, kept = 0;
  auto fail = [&](const std::string& why) { return InputError(fmt::format("{}:{}: {}", path, n, why)); };
  while (std::getline(in, line)) {
    ++n;
    const std::vector<std::string> f = splitFields(line, ';');
    if (f.empty()) continue;
    ++kept;
    if (kept == 1) {  // px:;POSX;py:;POSY
      if (f.size() < 4 || !parseField(f[1], d.posx) || !parseField(f[3], d.posy))
        throw fail("the first line must be px:;POSX;py:;POSY (DualSPHysics' velocity data)");
      continue;
    }
    if (kept == 2) continue;  // the columns' names
    if (f.size() % 2 == 0 || f.size() < 3)
      throw fail(fmt::format("{} values; a row is the time, n levels and n velocities (an odd count)", f.size()));
    const uint32_t levels = uint32_t((f.size() - 1) / 2);
    if (d.levels == 0) d.levels = levels;
    if (levels != d.levels) throw fail(fmt::format("{} levels, the first row has {}", levels, d.levels));
    double t;
    if (!parseField(f[0], t)) throw fail(fmt::format("the time \"{}\" is not a number", f[0]));
    if (!d.times.empty() && !(t > d.times.back()))
      throw fail(fmt::format("time {:g} is not after the previous row's {:g}", t, d.times.back()));
    d.times.push_back(t);
    for (uint32_t k = 0; k < 2 * levels; ++k) {
      double v;
      if (!parseField(f[1 + k], v)) throw fail(fmt::format("value {} (\"{}\") is not a number", k + 2, f[1 + k]));
      (k < levels ? d.z : d.v).push_back(v);
    }
  }
  if (d.times.size() < 2)
    throw InputError(fmt::format("{}: {} rows of data; a piston needs at least two times", path, d.times.size()));
  return d;
}

void readMlPistons(const XmlReader& xml, const XMLElement* e, std::vector<MlPiston>& out) {
  if (!xml.boolean(e, "active", true)) return;
  Reader r(xml);
  for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (skipped(c)) continue;
    const std::string_view name = c->Name();
    if (name != "piston1d" && name != "piston2d") xml.unknown(c, e);
    if (!xml.boolean(c, "active", true)) continue;
    out.push_back(r.piston(c, name == "piston2d"));
  }
}

void attachMlPistons(const std::string& path, CaseDefinition& c) {
  for (const MlPiston& p : c.mlPistons) {
    const char* element = p.twoD ? "piston2d" : "piston1d";
    MotionObject* object = motionObjectOf(c, p.mkbound);
    if (!object)
      throw InputError(
          fmt::format("{}:{}: <{}>: mkbound {} has no <motion> object: a piston moves the particles of "
                      "an <objreal ref=\"{}\"> (with <mvnull>), as in DualSPHysics",
                      path, p.line, element, p.mkbound, p.mkbound));
    if (object->paddle || object->mlPiston)
      throw InputError(
          fmt::format("{}:{}: <{}>: mkbound {} already has a wave paddle or piston", path, p.line, element, p.mkbound));
    if (object->parent >= 0)
      throw InputError(
          fmt::format("{}:{}: <{}>: mkbound {} is nested in another motion object: not supported by "
                      "this engine",
                      path, p.line, element, p.mkbound));
    for (size_t k = 1; k < p.columns.size(); ++k)
      if (!(p.columns[k].posy - p.columns[k - 1].posy > 2 * c.dp))
        throw InputError(
            fmt::format("{}:{}: <{}>: the <veldata> at posy {:g} and {:g} are closer than 2 dp ({:g}), "
                        "as DualSPHysics refuses",
                        path, p.line, element, p.columns[k - 1].posy, p.columns[k].posy, 2 * c.dp));
    object->mlPiston = p;
  }
  c.mlPistons.clear();
}

}  // namespace sph
