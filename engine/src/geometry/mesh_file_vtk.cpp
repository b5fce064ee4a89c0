// Legacy VTK polydata files, ASCII and binary (geometry/mesh_file.h), as DualSPHysics' examples and
// ParaView write them:
//
//   # vtk DataFile Version 3.0
//   title
//   ASCII | BINARY
//   DATASET POLYDATA
//   POINTS n float|double        then 3n values
//   POLYGONS m size              then size integers: each polygon's vertex count and indices
//
// Binary values are big-endian. VERTICES and LINES draw nothing and are skipped; TRIANGLE_STRIPS
// are refused; POINT_DATA, CELL_DATA and what follows them is not read.
#include <fmt/format.h>

#include "geometry/mesh_file.h"
#include "geometry/mesh_file_bytes.h"

namespace sph::gen {
namespace {

struct Reader {
  ByteCursor& in;
  bool binary;

  double real(bool isDouble, const char* what) {
    if (!binary) return in.number(what);
    return isDouble ? in.binary<double>(true, what) : double(in.binary<float>(true, what));
  }
  int64_t index(const char* what) { return binary ? int64_t(in.binary<int32_t>(true, what)) : in.integer(what); }

  int64_t count(const char* what) {
    const int64_t n = in.integer(what);
    if (n < 0 || n > (int64_t(1) << 31)) in.fail(fmt::format("{} {} is not a valid count", what, n));
    return n;
  }
};

}  // namespace

std::vector<MeshTriangle> readVtk(const std::string& path) {
  const std::string data = readWholeFile(path);
  ByteCursor in(path, data);
  if (in.line().rfind("# vtk DataFile", 0) != 0) {
    in.seek(0);
    in.fail("not a legacy VTK file: the first line is not \"# vtk DataFile Version ...\"");
  }
  in.line();  // title
  const std::string_view format = in.token();
  if (format != "ASCII" && format != "BINARY")
    in.fail(fmt::format("\"{}\" where ASCII or BINARY was expected", format.substr(0, 40)));
  Reader r{in, format == "BINARY"};
  if (in.token() != "DATASET" || in.token() != "POLYDATA")
    in.fail("not VTK polydata: \"DATASET POLYDATA\" was expected as the fourth line");

  std::vector<Vec3f> points;
  std::vector<MeshTriangle> out;
  bool havePoints = false;
  for (;;) {
    const std::string_view key = in.token();
    if (key.empty() || key == "POINT_DATA" || key == "CELL_DATA" || key == "FIELD" || key == "METADATA") break;
    if (key == "POINTS") {
      const int64_t n = r.count("the point count");
      const std::string_view type = in.token();
      if (type != "float" && type != "double")
        in.fail(fmt::format("points of type \"{}\": float or double expected", type.substr(0, 40)));
      in.line();
      points.reserve(size_t(n));
      for (int64_t p = 0; p < n; ++p) {
        const double x = r.real(type == "double", "a point's x");
        const double y = r.real(type == "double", "a point's y");
        const double z = r.real(type == "double", "a point's z");
        points.push_back(meshVertex(in, x, y, z));
      }
      havePoints = true;
    } else if (key == "POLYGONS" || key == "VERTICES" || key == "LINES") {
      if (!havePoints) in.fail(fmt::format("{} before POINTS", key));
      const int64_t cells = r.count("the cell count");
      const int64_t size = r.count("the cell list size");
      in.line();
      int64_t read = 0;
      std::vector<int64_t> ids;
      for (int64_t c = 0; c < cells; ++c) {
        const int64_t n = r.index("a cell's vertex count");
        if (n < 0 || n > size - read - 1)
          in.fail(fmt::format("cell {} of {} has {} vertices, more than the list size {} leaves", c, cells, n, size));
        ids.resize(size_t(n));
        for (int64_t& id : ids) id = r.index("a vertex index");
        read += n + 1;
        if (key == "POLYGONS") addPolygon(in, points, ids, out);
      }
      if (read != size) in.fail(fmt::format("the cells list {} values, the header says {}", read, size));
    } else if (key == "TRIANGLE_STRIPS") {
      in.fail("TRIANGLE_STRIPS are not supported (write the mesh as POLYGONS)");
    } else {
      in.fail(fmt::format("unexpected \"{}\" in VTK polydata", key.substr(0, 40)));
    }
  }
  if (!havePoints) in.fail("no POINTS in the file");
  return out;
}

}  // namespace sph::gen
