// PLY files, ASCII and binary little- or big-endian (geometry/mesh_file.h). The header declares elements
// and their properties; the mesh is the x, y, z properties of "vertex" and the index list
// "vertex_indices" (or "vertex_index") of "face". Other elements and properties are read past.
#include <fmt/format.h>

#include "geometry/mesh_file.h"
#include "geometry/mesh_file_bytes.h"

namespace sph::gen {
namespace {

enum class Type { Int8, Uint8, Int16, Uint16, Int32, Uint32, Float32, Float64 };

struct Property {
  std::string name;
  Type type = Type::Float32;
  bool list = false;
  Type countType = Type::Uint8;  // of a list
};

struct Element {
  std::string name;
  int64_t count = 0;
  std::vector<Property> properties;
};

Type parseType(ByteCursor& in, std::string_view t) {
  if (t == "char" || t == "int8") return Type::Int8;
  if (t == "uchar" || t == "uint8") return Type::Uint8;
  if (t == "short" || t == "int16") return Type::Int16;
  if (t == "ushort" || t == "uint16") return Type::Uint16;
  if (t == "int" || t == "int32") return Type::Int32;
  if (t == "uint" || t == "uint32") return Type::Uint32;
  if (t == "float" || t == "float32") return Type::Float32;
  if (t == "double" || t == "float64") return Type::Float64;
  in.fail(fmt::format("unknown PLY property type \"{}\"", t.substr(0, 40)));
}

struct ValueReader {
  ByteCursor& in;
  bool ascii;
  bool bigEndian;

  double value(Type t, const char* what) {
    if (ascii) return in.number(what);
    switch (t) {
      case Type::Int8: return in.binary<int8_t>(bigEndian, what);
      case Type::Uint8: return in.binary<uint8_t>(bigEndian, what);
      case Type::Int16: return in.binary<int16_t>(bigEndian, what);
      case Type::Uint16: return in.binary<uint16_t>(bigEndian, what);
      case Type::Int32: return in.binary<int32_t>(bigEndian, what);
      case Type::Uint32: return in.binary<uint32_t>(bigEndian, what);
      case Type::Float32: return in.binary<float>(bigEndian, what);
      case Type::Float64: break;
    }
    return in.binary<double>(bigEndian, what);
  }

  int64_t integer(Type t, const char* what) {
    const double v = value(t, what);
    if (!(v >= -9.0e15 && v <= 9.0e15) || v != double(int64_t(v)))
      in.fail(fmt::format("{} {} is not an integer", what, v));
    return int64_t(v);
  }
};

std::vector<Element> readHeader(const std::string& path, ByteCursor& in, bool& ascii, bool& bigEndian) {
  if (in.line() != "ply") {
    in.seek(0);
    in.fail("not a PLY file: the first line is not \"ply\"");
  }
  std::vector<Element> elements;
  bool haveFormat = false;
  for (;;) {
    if (in.atEnd()) in.fail("the file is truncated: no \"end_header\"");
    ByteCursor w(path, in.line());  // the line's words
    std::string_view key = w.token();
    if (key == "end_header") break;
    if (key.empty() || key == "comment" || key == "obj_info") continue;
    if (key == "format") {
      const std::string_view f = w.token();
      if (f != "ascii" && f != "binary_little_endian" && f != "binary_big_endian")
        in.fail(fmt::format("unknown PLY format \"{}\"", f.substr(0, 40)));
      ascii = f == "ascii";
      bigEndian = f == "binary_big_endian";
      haveFormat = true;
    } else if (key == "element") {
      Element e;
      e.name = std::string(w.token());
      const std::string_view n = w.token();
      try {
        e.count = std::stoll(std::string(n));
      } catch (const std::exception&) {
        in.fail(fmt::format("element \"{}\" has count \"{}\", not a number", e.name, n.substr(0, 40)));
      }
      if (e.count < 0 || e.count > (int64_t(1) << 31)) in.fail(fmt::format("element \"{}\" count {}", e.name, e.count));
      elements.push_back(e);
    } else if (key == "property") {
      if (elements.empty()) in.fail("a property before any element");
      Property p;
      const std::string_view t = w.token();
      if (t == "list") {
        p.list = true;
        p.countType = parseType(in, w.token());
        p.type = parseType(in, w.token());
      } else {
        p.type = parseType(in, t);
      }
      p.name = std::string(w.token());
      elements.back().properties.push_back(p);
    } else {
      in.fail(fmt::format("unexpected \"{}\" in the PLY header", key.substr(0, 40)));
    }
  }
  if (!haveFormat) in.fail("the PLY header has no \"format\" line");
  return elements;
}

}  // namespace

std::vector<MeshTriangle> readPly(const std::string& path) {
  const std::string data = readWholeFile(path);
  ByteCursor in(path, data);
  bool ascii = true, bigEndian = false;
  const std::vector<Element> elements = readHeader(path, in, ascii, bigEndian);
  ValueReader r{in, ascii, bigEndian};
  std::vector<Vec3f> points;
  std::vector<MeshTriangle> out;
  bool haveVertices = false, haveFaces = false;
  for (const Element& e : elements) {
    const bool vertices = e.name == "vertex", faces = e.name == "face";
    int xyz[3] = {-1, -1, -1};
    int indices = -1;
    for (size_t p = 0; p < e.properties.size(); ++p) {
      const Property& q = e.properties[p];
      for (int a = 0; a < 3; ++a)
        if (vertices && !q.list && q.name == std::string(1, char('x' + a))) xyz[a] = int(p);
      if (faces && q.list && (q.name == "vertex_indices" || q.name == "vertex_index")) indices = int(p);
    }
    if (vertices && (xyz[0] < 0 || xyz[1] < 0 || xyz[2] < 0)) in.fail("element \"vertex\" lacks x, y or z");
    if (faces && indices < 0) in.fail("element \"face\" lacks the list \"vertex_indices\"");
    if (faces && !haveVertices) in.fail("element \"face\" comes before element \"vertex\"");
    haveVertices = haveVertices || vertices;
    haveFaces = haveFaces || faces;
    std::vector<int64_t> ids;
    for (int64_t i = 0; i < e.count; ++i) {
      double c[3] = {0, 0, 0};
      for (size_t p = 0; p < e.properties.size(); ++p) {
        const Property& q = e.properties[p];
        if (!q.list) {
          const double v = r.value(q.type, "a property value");
          for (int a = 0; a < 3; ++a)
            if (int(p) == xyz[a]) c[a] = v;
          continue;
        }
        const int64_t n = r.integer(q.countType, "a list's length");
        if (n < 0 || n > 1000000) in.fail(fmt::format("a list of {} values", n));
        if (int(p) == indices) ids.resize(size_t(n));
        for (int64_t k = 0; k < n; ++k) {
          const int64_t v = r.integer(q.type, "a list value");
          if (int(p) == indices) ids[size_t(k)] = v;
        }
      }
      if (vertices) points.push_back(meshVertex(in, c[0], c[1], c[2]));
      if (faces) addPolygon(in, points, ids, out);
    }
  }
  if (!haveVertices || !haveFaces) in.fail("a PLY mesh needs the elements \"vertex\" and \"face\"");
  return out;
}

}  // namespace sph::gen
