// Triangle meshes read from the files GenCase's <drawfilestl>, <drawfilevtk> and <drawfileply>
// name: STL (ASCII or binary), legacy VTK polydata (ASCII or binary) and PLY (ASCII, binary
// little- or big-endian).
//
// The vertices are kept in single precision: GenCase reads them so, and the lattice node a vertex
// snaps to can depend on it (0.15 as a float is above 0.15). Polygons of four vertices become the
// triangles (v0, v1, v2) and (v0, v2, v3), as GenCase cuts them; GenCase cuts larger polygons by
// their shape, a rule not reproduced, so they are refused.
//
// Every failure throws MeshFileError with a message that names the file: missing, truncated, not
// a mesh of that format, a count that does not match, a vertex index out of range, a coordinate
// that is not a finite number.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "model/vec3d.h"

namespace sph::gen {

class MeshFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

using MeshTriangle = std::array<Vec3f, 3>;

enum class MeshFormat { Stl, Vtk, Ply };

std::vector<MeshTriangle> readStl(const std::string& path);
std::vector<MeshTriangle> readVtk(const std::string& path);
std::vector<MeshTriangle> readPly(const std::string& path);
std::vector<MeshTriangle> readMesh(const std::string& path, MeshFormat format);
// A bathymetry table (<drawfilecsv mode="bathymetry">, geometry/mesh_file_csv.cpp) as triangles,
// in double precision: GenCase keeps the table's values so (a surface at z = 0.05 with dp 0.02
// puts its particles at 0.04, as 0.05 in double is below the half-way node; 0.05 as a float is
// above it).
using PreciseTriangle = std::array<Vec3d, 3>;
std::vector<PreciseTriangle> readBathymetryCsv(const std::string& path);

}  // namespace sph::gen
