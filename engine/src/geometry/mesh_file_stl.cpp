// STL files, ASCII and binary (geometry/mesh_file.h).
//
// A binary STL is an 80-byte header, a uint32 triangle count and 50 bytes per triangle (normal,
// three vertices, all float32 little-endian, then a uint16). GenCase reads a file that starts with
// "solid" as ASCII (a binary file with such a header then draws nothing there): so is it read
// here, and refused when it is not ASCII STL but has the size of a binary one. Other files are
// binary when their size is exactly what their count says. The normals are not used: GenCase draws
// a triangle the same either way round.
#include <fmt/format.h>

#include "geometry/mesh_file.h"
#include "geometry/mesh_file_bytes.h"

namespace sph::gen {
namespace {

constexpr size_t kHeaderBytes = 80;
constexpr size_t kTriangleBytes = 50;

std::vector<MeshTriangle> readBinary(ByteCursor& in, uint64_t count) {
  std::vector<MeshTriangle> out;
  out.reserve(count);
  in.seek(kHeaderBytes + 4);
  for (uint64_t t = 0; t < count; ++t) {
    in.bytes(12, "a triangle's normal");
    MeshTriangle tri;
    for (Vec3f& v : tri) {
      const float x = in.binary<float>(false, "a vertex");
      const float y = in.binary<float>(false, "a vertex");
      const float z = in.binary<float>(false, "a vertex");
      v = meshVertex(in, x, y, z);
    }
    in.bytes(2, "a triangle's attribute");
    out.push_back(tri);
  }
  return out;
}

void expect(ByteCursor& in, std::string_view word) {
  const std::string_view t = in.token();
  if (t.empty()) in.fail(fmt::format("the file is truncated: it ends where \"{}\" was expected", word));
  if (t != word) in.fail(fmt::format("\"{}\" where \"{}\" was expected", t.substr(0, 40), word));
}

std::vector<MeshTriangle> readAscii(ByteCursor& in) {
  std::vector<MeshTriangle> out;
  in.line();  // "solid NAME"
  for (;;) {
    const std::string_view t = in.token();
    if (t.empty()) in.fail("the file is truncated: no \"endsolid\"");
    if (t == "endsolid") break;
    if (t != "facet") in.fail(fmt::format("\"{}\" where \"facet\" or \"endsolid\" was expected", t.substr(0, 40)));
    expect(in, "normal");
    for (int i = 0; i < 3; ++i) in.number("a normal's component");
    expect(in, "outer");
    expect(in, "loop");
    MeshTriangle tri;
    for (Vec3f& v : tri) {
      expect(in, "vertex");
      const double x = in.number("a vertex's x");
      const double y = in.number("a vertex's y");
      const double z = in.number("a vertex's z");
      v = meshVertex(in, x, y, z);
    }
    const std::string_view end = in.token();
    if (end == "vertex") in.fail("a facet with more than 3 vertices");
    if (end != "endloop") in.fail(fmt::format("\"{}\" where \"endloop\" was expected", end.substr(0, 40)));
    expect(in, "endfacet");
    out.push_back(tri);
  }
  return out;
}

}  // namespace

std::vector<MeshTriangle> readStl(const std::string& path) {
  const std::string data = readWholeFile(path);
  ByteCursor in(path, data);
  const bool text = data.compare(0, 5, "solid") == 0;
  uint64_t count = 0;
  bool binarySize = false;
  if (data.size() >= kHeaderBytes + 4) {
    in.seek(kHeaderBytes);
    count = in.binary<uint32_t>(false, "the triangle count");
    binarySize = data.size() == kHeaderBytes + 4 + count * kTriangleBytes;
  }
  if (text) {
    in.seek(0);
    try {
      return readAscii(in);
    } catch (const MeshFileError&) {
      if (!binarySize) throw;
      in.seek(0);
      in.fail("binary STL whose header starts with \"solid\": GenCase reads it as ASCII STL and draws nothing; "
              "change the header's first word");
    }
  }
  if (binarySize) return readBinary(in, count);
  in.seek(0);
  if (data.size() < kHeaderBytes + 4)
    in.fail(fmt::format("not an STL file: {} bytes, too short for binary STL, and no \"solid\" as ASCII STL starts",
                        data.size()));
  in.fail(fmt::format("truncated or not an STL file: as binary STL with {} triangles it needs {} bytes but has {}, "
                      "and it does not start with \"solid\" as ASCII STL does",
                      count, kHeaderBytes + 4 + count * kTriangleBytes, data.size()));
}

std::vector<MeshTriangle> readMesh(const std::string& path, MeshFormat format) {
  switch (format) {
    case MeshFormat::Stl:
      return readStl(path);
    case MeshFormat::Vtk:
      return readVtk(path);
    case MeshFormat::Ply:
      break;
  }
  return readPly(path);
}

}  // namespace sph::gen
