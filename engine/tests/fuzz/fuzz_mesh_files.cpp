// Fuzz target: any bytes as a mesh file of GenCase's <drawfilestl>, <drawfilevtk>, <drawfileply> and
// <drawfilecsv mode="bathymetry"> (STL, VTK, PLY or a bathymetry table by the input's first bytes). The reader must return triangles or throw
// MeshFileError naming the file; a crash, a hang, an allocation of what a corrupt count claims or
// any other exception is a bug.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_target.h"
#include "geometry/mesh_file.h"

namespace fs = std::filesystem;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("sph_fuzz_mesh_" + std::to_string(getpid()));
    fs::create_directories(d);
    return d;
  }();
  const sph::gen::MeshFormat formats[] = {sph::gen::MeshFormat::Stl, sph::gen::MeshFormat::Vtk,
                                          sph::gen::MeshFormat::Ply};
  const char* names[] = {"mesh.stl", "mesh.vtk", "mesh.ply", "table.csv"};
  // The seeds are real files: a leading 's', "# vtk", 'p' or another '#' (or 'Y') of a mutation
  // keeps its format, any other first byte picks one.
  int pick = size > 0 ? data[0] % 4 : 0;
  if (size > 0 && (data[0] == 's' || data[0] == 'S')) pick = 0;
  if (size > 0 && (data[0] == '#' || data[0] == 'Y')) pick = 3;
  if (size >= 5 && std::string(reinterpret_cast<const char*>(data), 5) == "# vtk") pick = 1;
  if (size > 0 && (data[0] == 'p')) pick = 2;
  const fs::path file = dir / names[pick];
  std::ofstream(file, std::ios::binary | std::ios::trunc)
      .write(reinterpret_cast<const char*>(data), std::streamsize(size));
  try {
    if (pick == 3) (void)sph::gen::readBathymetryCsv(file.string());
    else (void)sph::gen::readMesh(file.string(), formats[pick]);
  } catch (const sph::gen::MeshFileError&) {
  }
  return 0;
}
