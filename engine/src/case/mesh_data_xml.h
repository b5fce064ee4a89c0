// A <meshdata> element (model/mesh_data.h, case/mesh_data_file.h) as DualSPHysics 5.4 reads it
// (JMeshTDatasXml and JSphInOutZsurf): the file and its options as attributes (the older form:
// setx sety setz initialtime, and for velocities magnitude reverse setmulx.. setaddx..) or as
// child elements (the newer: <magnitude v>, <reverse v>, <initialtime v>, <timeloop tbegin tend>,
// <setpos x y z>, <setvelmul x y z>, <setveladd x y z>); a child wins over an attribute.
#pragma once

#include <cfloat>
#include <memory>
#include <string>

#include "case/xml_reader.h"
#include "model/mesh_data.h"

namespace sph {

// What a <meshdata> element may hold.
enum class MeshDataUse {
  Velocity,  // an inlet's velocity: every option
  Zsurf,     // an inlet's zsurf: initialtime, timeloop, setpos
};

struct MeshDataOptions {
  std::string file;  // resolved against the case's folder
  Vec3d setPos;
  double initialTime = 0;  // the data's time at the run's 0
  double loopBegin = DBL_MAX, loopEnd = DBL_MAX;
  bool magnitude = true;  // velocity: a magnitude (VelDir) or three components (Vel) in a .mbi4
  bool reverse = false;   // velocity: v = -v
  Vec3d velMul{1, 1, 1}, velAdd{0, 0, 0};
};

MeshDataOptions readMeshDataOptions(const XmlReader& x, const tinyxml2::XMLElement* e, MeshDataUse use);

// The file of `o` read (its variable `variable` of a .mbi4), placed by setpos and looped as
// <timeloop> asks; errors name the element.
std::shared_ptr<MeshData> loadMeshData(const XmlReader& x, const tinyxml2::XMLElement* e, const MeshDataOptions& o,
                                       const std::string& variable);

}  // namespace sph
