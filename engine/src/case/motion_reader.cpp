#include "case/motion_reader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <numbers>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "case/motion_data_file.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

constexpr double kRadiansPerDegree = std::numbers::pi / 180.0;
constexpr const char* kSupported =
    "wait, mvrect, mvrectace, mvrectsinu, mvrot, mvrotace, mvrotsinu, mvcir, mvcirace, mvcirsinu, mvfile, "
    "mvrectfile, mvpredef, mvrotfile, mvrotadvfile, mvpathfile, mvnull";

bool oneOf(std::string_view name, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (n == name) return true;
  return false;
}

bool supported(std::string_view name) {
  return oneOf(name, {"wait", "mvrect", "mvrectace", "mvrectsinu", "mvrot", "mvrotace", "mvrotsinu", "mvcir",
                      "mvcirace", "mvcirsinu", "mvfile", "mvrectfile", "mvpredef", "mvrotfile", "mvrotadvfile",
                      "mvpathfile", "mvnull"});
}

bool objectElement(std::string_view name) { return name == "obj" || name == "objreal"; }

// DualSPHysics reads <mvpredef> and <mvrectfile> as other names of <mvfile>.
bool positionFile(std::string_view name) { return oneOf(name, {"mvfile", "mvrectfile", "mvpredef"}); }

class MotionReader {
 public:
  MotionReader(const XmlReader& xml, const std::vector<MkEntry>& mks) : x_(xml), mks_(mks) {}

  // The <objreal> objects and the <obj> frames of <motion>, nested as deep as the case nests them.
  void read(const XMLElement* motion, std::vector<MotionObject>& objects, std::vector<MotionObject>& frames) {
    readNested(motion, -1, objects, frames);
    // While reading, a frame parent f is -2 - f: it follows the objects in the kinematics' list.
    for (std::vector<MotionObject>* list : {&objects, &frames})
      for (MotionObject& o : *list)
        if (o.parent <= -2) o.parent = int(objects.size()) + (-2 - o.parent);
  }

 private:
  void readNested(const XMLElement* e, int parent, std::vector<MotionObject>& objects,
                  std::vector<MotionObject>& frames) {
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view name = c->Name();
      if (skipped(c)) continue;
      if (name == "objreal") {
        MotionObject o = readObject(c, true);
        for (const MotionObject& prev : objects)
          if (prev.ref == o.ref) x_.fail(c, fmt::format("mkbound {} already has a motion (line {})", o.ref, prev.line));
        o.parent = parent;
        objects.push_back(std::move(o));
        readNested(c, int(objects.size()) - 1, objects, frames);
      } else if (name == "obj") {
        MotionObject o = readObject(c, false);
        o.parent = parent;
        frames.push_back(std::move(o));
        readNested(c, -2 - (int(frames.size()) - 1), objects, frames);
      } else if (parent == -1) {
        x_.unknown(c, e);  // directly under <motion>; inside an object readObject checks it
      }
    }
  }

  // An <objreal ref> (real: its particles move) or an <obj> (a frame for the objects nested in it).
  MotionObject readObject(const XMLElement* e, bool real) {
    MotionObject o;
    o.line = e->GetLineNum();
    if (real) {
      o.ref = x_.integer(e, "ref");
      o.mkIndex = boundFamily(e, o.ref);
    } else {
      o.ref = -1;
    }
    std::vector<const XMLElement*> movEl, beginEl;
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view name = c->Name();
      if (skipped(c) || objectElement(name)) continue;
      if (name == "begin") {
        o.begins.push_back(readBegin(c));
        beginEl.push_back(c);
      } else if (supported(name)) {
        Movement m = readMovement(c);
        const int k = o.find(m.id);
        if (k >= 0)
          x_.fail(c, fmt::format("id {} is already used by the movement at line {}", m.id, o.movements[k].line));
        o.movements.push_back(m);
        movEl.push_back(c);
      } else {
        x_.fail(c, fmt::format("unknown element inside <{}> (expected <begin>, a movement ({}) or a nested <obj> or "
                               "<objreal>)",
                               e->Name(), kSupported));
      }
    }
    for (size_t b = 0; b < o.begins.size(); ++b)
      if (o.find(o.begins[b].mov) < 0)
        x_.fail(beginEl[b], fmt::format("mov=\"{}\": no movement with id {} in this <{}>", o.begins[b].mov,
                                        o.begins[b].mov, e->Name()));
    for (size_t k = 0; k < o.movements.size(); ++k) {
      const int next = o.movements[k].next;
      if (next >= 0 && o.find(next) < 0)
        x_.fail(movEl[k], fmt::format("next=\"{}\": no movement with id {} in this <{}>", next, next, e->Name()));
    }
    checkTimelessLoops(o, movEl);
    return o;
  }

  // The mks index of the boundary family `ref`; it must have particles.
  uint16_t boundFamily(const XMLElement* e, int ref) const {
    std::string present;
    for (size_t k = 0; k < mks_.size(); ++k) {
      if (!mks_[k].bound || mks_[k].count == 0) continue;
      if (mks_[k].local == ref) return uint16_t(k);
      present += fmt::format("{}{}", present.empty() ? "" : ", ", mks_[k].local);
    }
    x_.fail(e, fmt::format("ref=\"{}\": no boundary particles have mkbound {} (mkbound values with particles: {})", ref,
                           ref, present.empty() ? "none" : present));
  }

  MotionBegin readBegin(const XMLElement* c) const {
    x_.onlyChildren(c, {});
    MotionBegin b;
    b.mov = x_.integer(c, "mov");
    b.start = x_.real(c, "start");
    b.finish = x_.real(c, "finish", -1.0);
    b.line = c->GetLineNum();
    if (b.start < 0) x_.fail(c, fmt::format("start=\"{}\" must not be negative", b.start));
    if (b.finish >= 0 && b.finish < b.start)
      x_.fail(c, fmt::format("finish=\"{}\" comes before start=\"{}\"", b.finish, b.start));
    return b;
  }

  // Radians per unit of the element's `anglesunits` (degrees unless said otherwise, as in
  // DualSPHysics).
  double angleFactor(const XMLElement* c) const {
    const char* units = c->Attribute("anglesunits");
    if (!units) return kRadiansPerDegree;
    const std::string u = splitTokens(units).front();
    if (u == "degrees") return kRadiansPerDegree;
    if (u == "radians") return 1.0;
    x_.fail(c, fmt::format("anglesunits=\"{}\" must be degrees or radians", units));
  }

  void readAxis(const XMLElement* c, Movement& m) const {
    m.axisP1 = x_.vec(x_.child(c, "axisp1"));
    m.axisP2 = x_.vec(x_.child(c, "axisp2"));
    const double dx = m.axisP2.x - m.axisP1.x, dy = m.axisP2.y - m.axisP1.y, dz = m.axisP2.z - m.axisP1.z;
    if (!(dx * dx + dy * dy + dz * dz > 0)) x_.fail(c, "axisp1 and axisp2 are the same point: no rotation axis");
  }

  // Reads the optional child `name` of c with `read`; without it the movement continues the
  // previous one's value (DualSPHysics' <phase> and <velini>), which `fromPrevious` records.
  template <class Read>
  static void orPrevious(const XMLElement* c, const char* name, bool& fromPrevious, Read read) {
    if (const XMLElement* e = c->FirstChildElement(name))
      read(e);
    else
      fromPrevious = true;
  }

  // A data file named by <file name>: relative to the case file's folder (as mesh files), read
  // with `columns`; its errors name the <file> element and the data file's line.
  std::shared_ptr<const MotionTable> readTable(const XMLElement* file, const MotionFileColumns& columns) const {
    std::filesystem::path path(x_.attr(file, "name"));
    if (path.is_relative()) path = std::filesystem::path(x_.path()).parent_path() / path;
    try {
      return std::make_shared<const MotionTable>(readMotionTable(path.string(), columns));
    } catch (const InputError& e) {
      x_.fail(file, e.what());
    }
  }

  // <file name fields fieldtime fieldx fieldy fieldz> of an mvfile: the columns of its rows,
  // counted from 0; a position column left out (or negative, as DualSPHysics allows) is not read.
  std::shared_ptr<const MotionTable> readPositionFile(const XMLElement* file) const {
    x_.onlyChildren(file, {});
    MotionFileColumns cols;
    cols.fields = x_.integer(file, "fields");
    if (cols.fields < 2) x_.fail(file, fmt::format("fields=\"{}\": a row needs a time and a position", cols.fields));
    auto column = [&](const char* name, int fallback) {
      const int k = file->Attribute(name) ? x_.integer(file, name) : fallback;
      if (k >= cols.fields)
        x_.fail(file, fmt::format("{}=\"{}\" is not a column of rows of fields=\"{}\" (columns count from 0)", name, k,
                                  cols.fields));
      return k < 0 ? -1 : k;
    };
    cols.time = column("fieldtime", -1);
    if (cols.time < 0) x_.fail(file, "missing or negative fieldtime: the column of the times is needed");
    cols.x = column("fieldx", -1);
    cols.y = column("fieldy", -1);
    cols.z = column("fieldz", -1);
    if (cols.x < 0 && cols.y < 0 && cols.z < 0) x_.fail(file, "no position column: give fieldx, fieldy or fieldz");
    return readTable(file, cols);
  }

  // One movement: the attributes every type has, then one branch per type of the format (as
  // DualSPHysics lists them), each reading that type's elements.
  Movement readMovement(const XMLElement* c) const {
    const std::string_view name = c->Name();
    Movement m;
    m.line = c->GetLineNum();
    m.id = x_.integer(c, "id");
    if (m.id < 1) x_.fail(c, fmt::format("id=\"{}\" must be a positive integer", m.id));
    if (name == "mvnull") {
      // As DualSPHysics: only an id; duration and next, if written, are ignored there too, so
      // the chain ends here.
      x_.onlyChildren(c, {});
      m.type = MovementType::Null;
      return m;
    }
    m.duration = x_.real(c, "duration");
    if (m.duration < 0)
      x_.fail(c, fmt::format("duration=\"{}\" is negative (DualSPHysics' instantaneous movements are not supported)",
                             m.duration));
    // DualSPHysics: next="0" (its default) ends the chain too.
    m.next = c->Attribute("next") ? x_.integer(c, "next") : -1;
    if (m.next <= 0) m.next = -1;
    const double ang = angleFactor(c);
    if (name == "wait") {
      x_.onlyChildren(c, {});
      m.type = MovementType::Wait;
    } else if (name == "mvrect") {
      x_.onlyChildren(c, {"vel"});
      m.type = MovementType::Rect;
      m.vel = x_.vec(x_.child(c, "vel"));
    } else if (name == "mvrectace") {
      x_.onlyChildren(c, {"ace", "velini"});
      m.type = MovementType::RectAce;
      m.ace = x_.vec(x_.child(c, "ace"));
      orPrevious(c, "velini", m.velFromPrevious, [&](const XMLElement* v) { m.vel = x_.vec(v); });
    } else if (name == "mvrectsinu") {
      x_.onlyChildren(c, {"freq", "ampl", "phase"});
      m.type = MovementType::RectSinu;
      m.freq = x_.vec(x_.child(c, "freq"));
      m.ampl = x_.vec(x_.child(c, "ampl"));
      orPrevious(c, "phase", m.phaseFromPrevious, [&](const XMLElement* ph) {
        const Vec3d p = x_.vec(ph);
        m.phase = {p.x * ang, p.y * ang, p.z * ang};
      });
    } else if (name == "mvrot") {
      x_.onlyChildren(c, {"vel", "axisp1", "axisp2"});
      m.type = MovementType::Rot;
      m.angVel = x_.real(x_.child(c, "vel"), "ang") * ang;
      readAxis(c, m);
    } else if (name == "mvrotace") {
      x_.onlyChildren(c, {"ace", "velini", "axisp1", "axisp2"});
      m.type = MovementType::RotAce;
      m.aceAng = x_.real(x_.child(c, "ace"), "ang") * ang;
      orPrevious(c, "velini", m.velFromPrevious, [&](const XMLElement* v) { m.angVel = x_.real(v, "ang") * ang; });
      readAxis(c, m);
    } else if (positionFile(name)) {
      x_.onlyChildren(c, {"file"});
      m.type = MovementType::RectFile;
      m.table = readPositionFile(x_.child(c, "file"));
    } else if (name == "mvrotfile") {
      // Rows of a time and an angle, in the movement's anglesunits (DualSPHysics reads only the
      // file's name here).
      x_.onlyChildren(c, {"file", "axisp1", "axisp2"});
      m.type = MovementType::RotFile;
      readAxis(c, m);
      const XMLElement* file = x_.child(c, "file");
      x_.onlyChildren(file, {});
      m.table = readTable(file, MotionFileColumns{.fields = 2, .time = 0, .angle = 1, .angleFactor = ang});
    } else if (name == "mvrotadvfile" || name == "mvpathfile") {
      readAdvancedFile(c, m, name == "mvpathfile", ang);
    } else if (name == "mvcir") {
      x_.onlyChildren(c, {"vel", "ref", "axisp1", "axisp2"});
      m.type = MovementType::Cir;
      m.angVel = x_.real(x_.child(c, "vel"), "ang") * ang;
      readCircle(c, m);
    } else if (name == "mvcirace") {
      x_.onlyChildren(c, {"ace", "velini", "ref", "axisp1", "axisp2"});
      m.type = MovementType::CirAce;
      m.aceAng = x_.real(x_.child(c, "ace"), "ang") * ang;
      orPrevious(c, "velini", m.velFromPrevious, [&](const XMLElement* v) { m.angVel = x_.real(v, "ang") * ang; });
      readCircle(c, m);
    } else if (name == "mvcirsinu") {
      x_.onlyChildren(c, {"freq", "ampl", "phase", "ref", "axisp1", "axisp2"});
      m.type = MovementType::CirSinu;
      readRotSinu(c, m, ang);
      readCircle(c, m);
    } else {
      x_.onlyChildren(c, {"freq", "ampl", "phase", "axisp1", "axisp2"});
      m.type = MovementType::RotSinu;
      readRotSinu(c, m, ang);
      readAxis(c, m);
    }
    return m;
  }

  // mvrotadvfile and mvpathfile: <file> with the columns of the time, the three angles (in the
  // movement's anglesunits) and, for the path, the position; <center>, <intrinsic>, <axes> and, for
  // the path, <movecenter>, with DualSPHysics' defaults.
  void readAdvancedFile(const XMLElement* c, Movement& m, bool path, double ang) const {
    if (path)
      x_.onlyChildren(c, {"file", "center", "movecenter", "intrinsic", "axes"});
    else
      x_.onlyChildren(c, {"file", "center", "intrinsic", "axes"});
    m.type = path ? MovementType::PathFile : MovementType::RotAdvFile;
    m.center = x_.vec(x_.child(c, "center"));
    if (const XMLElement* i = x_.optionalChild(c, "intrinsic")) m.intrinsic = x_.boolean(i, "value", false);
    m.moveCenter = path;
    if (const XMLElement* mc = x_.optionalChild(c, "movecenter")) m.moveCenter = x_.boolean(mc, "value", true);
    if (const XMLElement* a = x_.optionalChild(c, "axes")) {
      const std::string_view v = x_.attr(a, "value");
      const bool ok = v.size() == 3 && std::all_of(v.begin(), v.end(), [](char k) { return k == 'X' || k == 'Y' || k == 'Z'; });
      if (!ok) x_.fail(a, fmt::format("value=\"{}\" must be three of X, Y and Z (e.g. XYZ, ZYZ), as DualSPHysics reads it", v));
      for (int k = 0; k < 3; ++k) m.axes[k] = v[size_t(k)];
    }
    const XMLElement* file = x_.child(c, "file");
    x_.onlyChildren(file, {});
    MotionFileColumns cols;
    cols.fields = file->Attribute("fields") ? x_.integer(file, "fields") : (path ? 7 : 4);
    auto column = [&](const char* name, int fallback) {
      const int k = file->Attribute(name) ? x_.integer(file, name) : fallback;
      if (k < 0 || k >= cols.fields)
        x_.fail(file, fmt::format("{}=\"{}\" is not a column of rows of fields=\"{}\" (columns count from 0)", name, k,
                                  cols.fields));
      return k;
    };
    cols.time = column("fieldtime", 0);
    if (path) {
      cols.x = column("fieldx", 1);
      cols.y = column("fieldy", 2);
      cols.z = column("fieldz", 3);
    }
    cols.ang1 = column("fieldang1", path ? 4 : 1);
    cols.ang2 = column("fieldang2", path ? 5 : 2);
    cols.ang3 = column("fieldang3", path ? 6 : 3);
    cols.angleFactor = ang;
    m.table = readTable(file, cols);
  }

  // <freq v>, <ampl v> and the optional <phase v> of mvrotsinu and mvcirsinu.
  void readRotSinu(const XMLElement* c, Movement& m, double ang) const {
    m.freqRot = x_.real(x_.child(c, "freq"), "v");
    m.amplRot = x_.real(x_.child(c, "ampl"), "v") * ang;
    orPrevious(c, "phase", m.phaseFromPrevious, [&](const XMLElement* ph) { m.phaseRot = x_.real(ph, "v") * ang; });
  }

  // The axis and the reference point <ref> of a circular movement.
  void readCircle(const XMLElement* c, Movement& m) const {
    readAxis(c, m);
    m.ref = x_.vec(x_.child(c, "ref"));
  }

  // A chain that loops through movements of zero total duration would never leave the instant
  // it reaches them.
  void checkTimelessLoops(const MotionObject& o, const std::vector<const XMLElement*>& movEl) const {
    const size_t n = o.movements.size();
    for (size_t first = 0; first < n; ++first) {
      std::vector<int> seenAt(n, -1);
      std::vector<size_t> path;
      int k = int(first);
      while (k >= 0 && seenAt[k] < 0) {
        seenAt[k] = int(path.size());
        path.push_back(size_t(k));
        const int next = o.movements[k].next;
        k = next < 0 ? -1 : o.find(next);
      }
      if (k < 0) continue;
      double total = 0;
      std::string ids;
      for (size_t p = size_t(seenAt[k]); p < path.size(); ++p) {
        total += o.movements[path[p]].duration;
        ids += fmt::format("{} -> ", o.movements[path[p]].id);
      }
      if (total == 0)
        x_.fail(movEl[k], fmt::format("the movements {}{} loop with a total duration of zero", ids, o.movements[k].id));
    }
  }

  const XmlReader& x_;
  const std::vector<MkEntry>& mks_;
};

}  // namespace

void readMotion(const XmlReader& xml, const XMLElement* motion, const std::vector<MkEntry>& mks,
                std::vector<MotionObject>& objects, std::vector<MotionObject>& frames) {
  MotionReader(xml, mks).read(motion, objects, frames);
}

}  // namespace sph
