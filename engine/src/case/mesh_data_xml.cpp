#include "case/mesh_data_xml.h"

#include <filesystem>

#include <fmt/format.h>

#include "case/mesh_data_file.h"
#include "sph/plugin/errors.h"

namespace sph {

using tinyxml2::XMLElement;

MeshDataOptions readMeshDataOptions(const XmlReader& x, const XMLElement* e, MeshDataUse use) {
  MeshDataOptions o;
  std::filesystem::path p(x.attr(e, "file"));
  if (p.is_relative()) p = std::filesystem::path(x.path()).parent_path() / p;
  o.file = p.string();
  const bool velocity = use == MeshDataUse::Velocity;
  o.setPos = {x.real(e, "setx", 0.0), x.real(e, "sety", 0.0), x.real(e, "setz", 0.0)};
  o.initialTime = x.real(e, "initialtime", 0.0);
  if (velocity) {
    o.magnitude = x.boolean(e, "magnitude", true);
    o.reverse = x.boolean(e, "reverse", false);
    o.velMul = {x.real(e, "setmulx", 1.0), x.real(e, "setmuly", 1.0), x.real(e, "setmulz", 1.0)};
    o.velAdd = {x.real(e, "setaddx", 0.0), x.real(e, "setaddy", 0.0), x.real(e, "setaddz", 0.0)};
    x.onlyChildren(e, {"magnitude", "reverse", "initialtime", "timeloop", "setpos", "setvelmul", "setveladd"});
  } else {
    x.onlyChildren(e, {"initialtime", "timeloop", "setpos"});
  }
  const auto leaf = [&](const char* name) {
    const XMLElement* c = x.optionalChild(e, name);
    if (c) x.onlyChildren(c, {});
    return c;
  };
  if (velocity) {
    if (const XMLElement* c = leaf("magnitude")) o.magnitude = x.boolean(c, "v", o.magnitude);
    if (const XMLElement* c = leaf("reverse")) o.reverse = x.boolean(c, "v", o.reverse);
    if (const XMLElement* c = leaf("setvelmul"))
      o.velMul = {x.real(c, "x", o.velMul.x), x.real(c, "y", o.velMul.y), x.real(c, "z", o.velMul.z)};
    if (const XMLElement* c = leaf("setveladd"))
      o.velAdd = {x.real(c, "x", o.velAdd.x), x.real(c, "y", o.velAdd.y), x.real(c, "z", o.velAdd.z)};
  }
  if (const XMLElement* c = leaf("initialtime")) o.initialTime = x.real(c, "v", o.initialTime);
  if (const XMLElement* c = leaf("setpos"))
    o.setPos = {x.real(c, "x", o.setPos.x), x.real(c, "y", o.setPos.y), x.real(c, "z", o.setPos.z)};
  if (const XMLElement* c = leaf("timeloop")) {
    if (!c->Attribute("tbegin") || !c->Attribute("tend")) x.fail(c, "give both tbegin and tend");
    o.loopBegin = x.real(c, "tbegin");
    o.loopEnd = x.real(c, "tend");
    if (!(o.loopBegin < o.loopEnd))
      x.fail(c, fmt::format("tbegin ({:g}) must be before tend ({:g})", o.loopBegin, o.loopEnd));
  }
  return o;
}

std::shared_ptr<MeshData> loadMeshData(const XmlReader& x, const XMLElement* e, const MeshDataOptions& o,
                                       const std::string& variable) {
  auto m = std::make_shared<MeshData>();
  try {
    *m = readMeshData(o.file, variable);
    if (o.loopEnd != DBL_MAX) meshLoop(*m, o.loopBegin, o.loopEnd);
  } catch (const InputError& err) {
    x.fail(e, err.what());
  }
  meshShift(*m, o.setPos);
  return m;
}

}  // namespace sph
