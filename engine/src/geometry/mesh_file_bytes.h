// The byte and token reading the mesh file readers share (geometry/mesh_file.h): a cursor over the whole
// file that reports, naming the file, what it expected where the file ends or differs.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "geometry/mesh_file.h"

namespace sph::gen {

// The whole file; MeshFileError when it cannot be read.
std::string readWholeFile(const std::string& path);

class ByteCursor {
 public:
  ByteCursor(const std::string& path, std::string_view data) : path_(path), data_(data) {}

  [[noreturn]] void fail(const std::string& what) const;
  bool atEnd() const { return pos_ >= data_.size(); }
  size_t pos() const { return pos_; }
  size_t size() const { return data_.size(); }
  void seek(size_t pos) { pos_ = pos; }

  // The next blank-separated token ("" at the end of the file).
  std::string_view token();
  // The rest of the current line, without its end; moves past the line end.
  std::string_view line();
  // The next token as a number; fails on anything else, naming `what`.
  double number(const char* what);
  int64_t integer(const char* what);

  // `count` raw bytes; fails when the file ends first, naming `what`.
  const char* bytes(size_t count, const char* what);
  template <typename T>
  T binary(bool bigEndian, const char* what) {
    const char* p = bytes(sizeof(T), what);
    char b[sizeof(T)];
    std::memcpy(b, p, sizeof(T));
    if (bigEndian)
      for (size_t i = 0; i < sizeof(T) / 2; ++i) std::swap(b[i], b[sizeof(T) - 1 - i]);
    T v;
    std::memcpy(&v, b, sizeof(T));
    return v;
  }

 private:
  const std::string& path_;
  std::string_view data_;
  size_t pos_ = 0;
};

// The vertex as GenCase keeps it (single precision); fails on a coordinate that is not finite.
Vec3f meshVertex(const ByteCursor& in, double x, double y, double z);

// Cuts polygon `ids` (indices into `points`) into triangles; fails on an index out of range or a
// polygon of fewer than 3 or more than 4 vertices.
void addPolygon(const ByteCursor& in, const std::vector<Vec3f>& points, const std::vector<int64_t>& ids,
                std::vector<MeshTriangle>& out);

}  // namespace sph::gen
