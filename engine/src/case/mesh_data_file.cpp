#include "case/mesh_data_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "case/data_fields.h"
#include "case/jbinary_file.h"
#include "platform/input_file.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

constexpr uint32_t kFormatVersion = 200817;
// DualSPHysics' TpTypeData codes of the .mbi4 variables, and its DataTag of per-column values.
constexpr uint32_t kTypeFloat = 18, kTypeDouble = 19, kTypeFloat3 = 62, kTypeDouble3 = 63;
constexpr int kTagData12 = 12;
// A grid larger than this is a damaged file, not a reason to allocate.
constexpr uint64_t kMaxPoints = uint64_t(1) << 31;

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return s;
}

void checkGrid(const MeshData& m, const std::string& where) {
  const uint64_t n = uint64_t(m.npt[0]) * m.npt[1] * m.npt[2];
  if (m.npt[0] == 0 || m.npt[1] == 0 || m.npt[2] == 0 || n > kMaxPoints)
    throw InputError(
        fmt::format("{}: the grid of {} x {} x {} points is empty or too large", where, m.npt[0], m.npt[1], m.npt[2]));
  for (int k = 0; k < 3; ++k) {
    const Vec3d& u = m.vdp[k];
    if (m.npt[k] > 1 && !(u.x * u.x + u.y * u.y + u.z * u.z > 0))
      throw InputError(fmt::format("{}: axis {} of the grid has {} points but no step between them (Vec{} is 0)", where,
                                   k + 1, m.npt[k], k + 1));
  }
}

MeshData readCsv(const std::string& path) {
  std::istringstream in(readInputFile(path, "mesh-data file"));
  std::vector<std::pair<int, std::string>> lines;  // non-blank, not comments, with their numbers
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const std::string t = trimField(line);
    if (!t.empty() && t[0] != '#') lines.push_back({n, t});
  }
  auto fail = [&](int n, const std::string& msg) -> InputError {
    return InputError(n > 0 ? fmt::format("{}:{}: {}", path, n, msg) : fmt::format("{}: {}", path, msg));
  };
  if (lines.size() < 4)
    throw fail(0, fmt::format("{} lines of data; a mesh-data CSV has a header, its values, the columns' names and a "
                              "row per time",
                              lines.size()));
  const char sep = lines[0].second.find(';') != std::string::npos ? ';' : ',';
  const std::vector<std::string> head = splitFields(lines[0].second, sep);
  if (head.empty() || lower(head[0]) != "format")
    throw fail(lines[0].first, "the first line must start with \"Format\" (DualSPHysics' JMeshTDatas CSV)");
  const auto& [hn, hl] = lines[1];
  const std::vector<std::string> h = splitFields(hl, sep);
  const std::string want = fmt::format("JMeshTDatas-{}", kFormatVersion);
  if (h.empty() || h[0] != want) throw fail(hn, fmt::format("format \"{}\", {} expected", h.empty() ? "" : h[0], want));
  if (h.size() < 23) throw fail(hn, fmt::format("{} values, the header row has 23", h.size()));
  MeshData m;
  m.file = path;
  m.name = h[1];
  const std::string type = lower(h[3]);
  if (type == "float3" || type == "double3")
    m.components = 3;
  else if (type != "float" && type != "double")
    throw fail(hn, fmt::format("data type \"{}\": float, double, float3 or double3", h[3]));
  const std::string d12 = lower(h[4]);
  if (d12 != "true" && d12 != "false" && d12 != "1" && d12 != "0")
    throw fail(hn, fmt::format("Data12 \"{}\": true or false", h[4]));
  m.data12 = d12 == "true" || d12 == "1";
  double v[18];
  for (int k = 0; k < 18; ++k)
    if (!parseField(h[5 + k], v[k])) throw fail(hn, fmt::format("value {} (\"{}\") is not a number", 6 + k, h[5 + k]));
  for (int k = 0; k < 3; ++k) {
    if (v[k] < 1 || v[k] != std::floor(v[k]) || v[k] > double(kMaxPoints))
      throw fail(hn, fmt::format("Npt{} = {:g}: a count of points, at least 1", k + 1, v[k]));
    m.npt[k] = uint32_t(v[k]);
  }
  m.origin = {v[3], v[4], v[5]};
  for (int k = 0; k < 3; ++k) m.vdp[k] = {v[6 + 3 * k], v[7 + 3 * k], v[8 + 3 * k]};
  m.dirdat = {v[15], v[16], v[17]};
  checkGrid(m, fmt::format("{}:{}", path, hn));
  const size_t per = m.valuesPerTime();
  for (size_t r = 3; r < lines.size(); ++r) {
    const auto& [n, text] = lines[r];
    const std::vector<std::string> c = splitFields(text, sep);
    if (c.size() != per + 1)
      throw fail(n, fmt::format("{} values; a row has the time and {} values ({} points of {})", c.size(), per + 1,
                                m.points(), m.components == 3 ? "3 components" : "1 value"));
    double t;
    if (!parseField(c[0], t)) throw fail(n, fmt::format("the time \"{}\" is not a number", c[0]));
    if (!m.times.empty() && !(t > m.times.back()))
      throw fail(n, fmt::format("time {:g} is not after the previous row's {:g}", t, m.times.back()));
    m.times.push_back(t);
    for (size_t k = 1; k <= per; ++k) {
      double x;
      if (!parseField(c[k], x)) throw fail(n, fmt::format("value {} (\"{}\") is not a number", k + 1, c[k]));
      m.values.push_back(float(x));
    }
  }
  return m;
}

const jbd::Value& value(const jbd::File& f, const jbd::Item& it, const std::string& key) {
  const jbd::Value* v = it.value(key);
  if (!v) throw InputError(fmt::format("{}: item {} has no value {}", f.path(), it.name, key));
  return *v;
}

MeshData readMbi4(const std::string& path, const std::string& variable) {
  jbd::File f(path, "mesh-data file", true);
  if (f.code() != "JMeshTDatas")
    throw InputError(fmt::format("{}: a JBinaryData file of \"{}\", not of mesh data (JMeshTDatas)", path, f.code()));
  const jbd::Item& root = f.root();
  const double version = value(f, root, "FormatVer").number[0];
  if (version < kFormatVersion)
    throw InputError(fmt::format("{}: format version {:g}, {} or later is read", path, version, kFormatVersion));
  MeshData m;
  m.file = path;
  const auto vec = [&](const char* key) {
    const jbd::Value& v = value(f, root, key);
    return Vec3d{v.number[0], v.number[1], v.number[2]};
  };
  m.origin = vec("MeshPtRef");
  m.vdp[0] = vec("MeshVdp1");
  m.vdp[1] = vec("MeshVdp2");
  m.vdp[2] = vec("MeshVdp3");
  m.dirdat = vec("MeshDirDat");
  for (int k = 0; k < 3; ++k) {
    const double n = value(f, root, fmt::format("MeshNpt{}", k + 1)).number[0];
    if (n < 1 || n > double(kMaxPoints)) throw InputError(fmt::format("{}: MeshNpt{} = {:g}", path, k + 1, n));
    m.npt[k] = uint32_t(n);
  }
  checkGrid(m, path);
  // The variable asked for.
  const uint32_t count = uint32_t(value(f, root, "Data_Count").number[0]);
  std::string names;
  uint32_t type = 0, size = 0;
  for (uint32_t c = 0; c < count; ++c) {
    const std::string name = value(f, root, fmt::format("DataName_{:02}", c)).text;
    names += (names.empty() ? "" : ", ") + name;
    if (lower(name) != lower(variable) || !m.name.empty()) continue;
    m.name = name;
    type = uint32_t(value(f, root, fmt::format("DataType_{:02}", c)).number[0]);
    size = uint32_t(value(f, root, fmt::format("DataSize_{:02}", c)).number[0]);
    m.data12 = int(value(f, root, fmt::format("DataTag_{:02}", c)).number[0]) == kTagData12;
  }
  if (m.name.empty())
    throw InputError(
        fmt::format("{}: no variable {} in the file (it has {})", path, variable, names.empty() ? "none" : names));
  if (type != kTypeFloat && type != kTypeDouble && type != kTypeFloat3 && type != kTypeDouble3)
    throw InputError(
        fmt::format("{}: variable {} has the type code {}: float, double, float3 or double3 (18, 19, 62, "
                    "63)",
                    path, m.name, type));
  m.components = type == kTypeFloat3 || type == kTypeDouble3 ? 3 : 1;
  if (size != m.points())
    throw InputError(fmt::format("{}: variable {} has {} values, its grid {}", path, m.name, size, m.points()));
  const bool isDouble = type == kTypeDouble || type == kTypeDouble3;
  const jbd::DataType arrayType = m.components == 3 ? (isDouble ? jbd::DataType::Double3 : jbd::DataType::Float3)
                                                    : (isDouble ? jbd::DataType::Double : jbd::DataType::Float);
  const size_t per = m.valuesPerTime();
  auto append = [&](const std::vector<double>& data, size_t offset) {
    for (size_t k = 0; k < per; ++k) m.values.push_back(float(data[offset + k]));
  };
  auto addTime = [&](double t, const jbd::Item& it) {
    if (!std::isfinite(t)) throw InputError(fmt::format("{}: item {} has the time {}", path, it.name, t));
    if (!m.times.empty() && !(t > m.times.back()))
      throw InputError(
          fmt::format("{}: item {}: time {:g} is not after the previous {:g}", path, it.name, t, m.times.back()));
    m.times.push_back(t);
  };
  std::vector<double> data;
  std::vector<float> single;
  for (const jbd::Item& it : f.appended()) {
    const jbd::ArrayInfo* a = it.array(m.name);
    if (!a) throw InputError(fmt::format("{}: item {} has no array {}", path, it.name, m.name));
    // Float arrays are read as floats and widened: the values are kept in single precision.
    auto read = [&]() {
      if (isDouble) {
        f.readArray(*a, arrayType, data);
      } else {
        f.readArray(*a, arrayType, single);
        data.assign(single.begin(), single.end());
      }
    };
    if (const jbd::Value* nt = it.value("Ntimes")) {
      const size_t n = size_t(nt->number[0]);
      const jbd::ArrayInfo* ts = it.array("TimeSteps");
      if (!ts) throw InputError(fmt::format("{}: item {} has no array TimeSteps", path, it.name));
      std::vector<double> times;
      f.readArray(*ts, jbd::DataType::Double, times);
      if (times.size() != n || a->count != uint64_t(n) * m.points())
        throw InputError(fmt::format("{}: item {}: {} times and {} values of {} for {} times of {} points", path,
                                     it.name, times.size(), a->count, m.name, n, m.points()));
      read();
      for (size_t k = 0; k < n; ++k) {
        addTime(times[k], it);
        append(data, k * per);
      }
    } else {
      if (a->count != m.points())
        throw InputError(fmt::format("{}: item {}: {} values of {}, the grid has {} points", path, it.name, a->count,
                                     m.name, m.points()));
      addTime(value(f, it, "TimeStep").number[0], it);
      read();
      append(data, 0);
    }
  }
  if (m.times.empty()) throw InputError(fmt::format("{}: no time in the file", path));
  return m;
}

}  // namespace

MeshData readMeshData(const std::string& path, const std::string& variable) {
  const size_t dot = path.find_last_of('.');
  const std::string ext = dot == std::string::npos ? "" : lower(path.substr(dot + 1));
  if (ext == "csv") return readCsv(path);
  if (ext == "mbi4") return readMbi4(path, variable);
  throw InputError(fmt::format("{}: a mesh-data file is .csv or .mbi4 (DualSPHysics' formats)", path));
}

}  // namespace sph
