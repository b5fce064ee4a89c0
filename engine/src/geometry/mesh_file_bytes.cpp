// Shared reading helpers of the mesh file readers (geometry/mesh_file_bytes.h).
#include "geometry/mesh_file_bytes.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "platform/input_file.h"
#include "sph/plugin/errors.h"

namespace sph::gen {

std::string readWholeFile(const std::string& path) {
  try {
    return readInputFile(path, "mesh file");
  } catch (const InputError& e) {
    throw MeshFileError(e.what());
  }
}

void ByteCursor::fail(const std::string& what) const {
  throw MeshFileError(fmt::format("mesh file {}: {} (at byte {})", path_, what, pos_));
}

namespace {
bool blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
}  // namespace

std::string_view ByteCursor::token() {
  while (pos_ < data_.size() && blank(data_[pos_])) ++pos_;
  const size_t start = pos_;
  while (pos_ < data_.size() && !blank(data_[pos_])) ++pos_;
  return data_.substr(start, pos_ - start);
}

std::string_view ByteCursor::line() {
  const size_t start = std::min(pos_, data_.size());
  size_t end = data_.find('\n', start);
  if (end == std::string_view::npos) end = data_.size();
  pos_ = std::min(end + 1, data_.size());
  std::string_view l = data_.substr(start, end - start);
  if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
  return l;
}

double ByteCursor::number(const char* what) {
  const std::string_view t = token();
  if (t.empty()) fail(fmt::format("the file ends where {} was expected", what));
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size())
    fail(fmt::format("\"{}\" is not a number ({} expected)", t.substr(0, 40), what));
  return v;
}

int64_t ByteCursor::integer(const char* what) {
  const std::string_view t = token();
  if (t.empty()) fail(fmt::format("the file ends where {} was expected", what));
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size())
    fail(fmt::format("\"{}\" is not an integer ({} expected)", t.substr(0, 40), what));
  return v;
}

const char* ByteCursor::bytes(size_t count, const char* what) {
  if (count > data_.size() || pos_ > data_.size() - count)
    fail(fmt::format("the file is truncated: it ends where {} was expected", what));
  const char* p = data_.data() + pos_;
  pos_ += count;
  return p;
}

Vec3f meshVertex(const ByteCursor& in, double x, double y, double z) {
  if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z))
    in.fail(fmt::format("vertex ({}, {}, {}) has a coordinate that is not a finite number", x, y, z));
  const Vec3f v{float(x), float(y), float(z)};
  if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
    in.fail(fmt::format("vertex ({}, {}, {}) is beyond single precision", x, y, z));
  return v;
}

void addPolygon(const ByteCursor& in, const std::vector<Vec3f>& points, const std::vector<int64_t>& ids,
                std::vector<MeshTriangle>& out) {
  if (ids.size() < 3 || ids.size() > 4)
    in.fail(fmt::format("a polygon of {} vertices: only triangles and quadrilaterals are supported (GenCase "
                        "cuts larger polygons by their shape, a rule not reproduced here)",
                        ids.size()));
  for (const int64_t id : ids)
    if (id < 0 || uint64_t(id) >= points.size())
      in.fail(fmt::format("vertex index {} is outside 0..{}", id, int64_t(points.size()) - 1));
  const Vec3f& a = points[size_t(ids[0])];
  out.push_back({a, points[size_t(ids[1])], points[size_t(ids[2])]});
  if (ids.size() == 4) out.push_back({a, points[size_t(ids[2])], points[size_t(ids[3])]});
}

}  // namespace sph::gen
