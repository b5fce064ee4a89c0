// mDBC's boundary normals from the case file: GenCase's <casedef><normals> in its 5.0 form (the
// surface of <geometryfile> directly inside) and its 5.4 form (<norgeometry> first, then
// <norset>, <norplane>, <norsphere> and <norcylinder> in the order written), and DualSPHysics'
// <special><initialize><boundnormal_set|plane|sphere|cylinder>, which it applies when a run starts.
// Results go to c.normals as the engine keeps them: particle to ghost node, twice the vector to
// the boundary limit (geometry/shape_normals.h, geometry/boundary_normals.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "case/xml_reader.h"
#include "geometry/boundary_normals.h"
#include "model/case_model.h"

namespace sph {

using ShapeFiles = std::map<std::string, std::vector<NormalFace>>;

// <normals> for the particles in c (boundary first, or GenCase's order). `shapes` are the shape
// files the case's commands wrote (empty for GenCase's output, which cannot then use a geometry
// file); h is the smoothing length, the unit of distanceh, maxsizeh and maxdisth.
void readNormals(const XmlReader& x, const XMLElement* normals, CaseDefinition& c, const ShapeFiles& shapes,
                 double h);

// Whether `op` (a child of <initialize>) is one of its mDBC normal operations.
bool isInitializeNormal(const XMLElement* op);

// One <initialize> normal operation, on the particles in c.
void applyInitializeNormal(const XmlReader& x, const XMLElement* op, CaseDefinition& c, double h);

}  // namespace sph
