#include "gauges/mesh_gauge.h"

#include <cmath>

#include <fmt/format.h>

#include "output/jbinary_writer.h"

namespace sph {

GaugePoint MeshGrid::at(uint64_t i, uint64_t j, uint64_t k) const {
  const double f[3] = {double(i), double(j), double(k)};
  GaugePoint p = origin;
  for (int a = 0; a < 3; ++a) {
    p.x += step[a].x * f[a];
    p.y += step[a].y * f[a];
    p.z += step[a].z * f[a];
  }
  return p;
}

MeshGrid meshGaugeGrid(const GaugeSpec& g) {
  const MeshGaugeSpec& s = g.mesh;
  MeshGrid m;
  m.origin = g.point;
  for (int a = 0; a < 3; ++a) {
    const GaugePoint& v = s.axis[a];
    const double len = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    const double dis = s.length[a], dp = s.distPt[a];
    if (len == 0 || !(dp > 0) || !(dis >= dp)) continue;  // an axis DualSPHysics leaves out
    m.step[a] = {v.x / len * dp, v.y / len * dp, v.z / len * dp};
    // The hundredth of distpt keeps a length that is a whole number of distpt, up to rounding, whole.
    m.n[a] = uint64_t(std::floor((dis + dp * 0.01) / dp)) + 1;
  }
  return m;
}

std::vector<GaugePoint> meshGridPoints(const MeshGrid& m) {
  std::vector<GaugePoint> out;
  out.reserve(m.count());
  for (uint64_t k = 0; k < m.n[2]; ++k)
    for (uint64_t j = 0; j < m.n[1]; ++j)
      for (uint64_t i = 0; i < m.n[0]; ++i) out.push_back(m.at(i, j, k));
  return out;
}

MeshGaugeValues meshGaugeValues(const GaugeSpec& g, const MeshGrid& m, const PointSample* samples, double massFluid,
                                double massLimit) {
  const MeshGaugeSpec& s = g.mesh;
  const size_t n = m.count();
  MeshGaugeValues v;
  if (s.vel) v.vel.resize(3 * n);
  if (s.velDir) v.velDir.resize(n);
  if (s.rho) v.rho.resize(n);
  for (size_t p = 0; p < n; ++p) {
    const PointSample& q = samples[p];
    // The samples are Shepard-normalised; the raw sums are them times sum V W.
    double vel[3], rho;
    const bool corrected = s.kcLimit && q.shepard >= *s.kcLimit;
    const double raw = corrected ? 1.0 : q.shepard;
    for (int a = 0; a < 3; ++a) vel[a] = q.vel[a] * raw;
    rho = q.rho * raw;
    if (s.kcLimit && !corrected && s.kcDummy) {
      for (double& c : vel) c = *s.kcDummy;
      rho = *s.kcDummy;
    }
    if (s.vel)
      for (int a = 0; a < 3; ++a) v.vel[3 * p + size_t(a)] = vel[a];
    if (s.velDir) v.velDir[p] = vel[0] * s.dirDat.x + vel[1] * s.dirDat.y + vel[2] * s.dirDat.z;
    if (s.rho) v.rho[p] = rho;
  }
  if (s.zsurf) {
    const uint64_t columns = m.columns(), nk = m.n[2];
    v.zsurf.resize(columns);
    for (uint64_t c = 0; c < columns; ++c) {
      double previous = 0;  // the mass of the last point above the limit; 0 before one is found
      double zsurf = m.at(c % m.n[0], c / m.n[0], 0).z;
      bool found = false;
      for (uint64_t k = 0; k < nk && !found; ++k) {
        const double mass = samples[c + k * columns].shepard * massFluid;
        if (mass > massLimit) previous = mass;
        if (mass < massLimit && previous != 0) {
          zsurf += m.step[2].z * (double(k) - 1 + (massLimit - previous) / (mass - previous));
          found = true;
        }
      }
      if (!found && previous != 0) zsurf += m.step[2].z * double(nk - 1);
      v.zsurf[c] = zsurf;
    }
  }
  return v;
}

std::vector<std::string> meshGaugeOutputs(const GaugeSpec& g) {
  std::vector<std::string> out;
  if (g.mesh.vel) out.push_back("Vel");
  if (g.mesh.velDir) out.push_back("VelDir");
  if (g.mesh.rho) out.push_back("Rhop");
  if (g.mesh.zsurf) out.push_back("Zsurf");
  return out;
}

namespace {

std::string vec3(const GaugePoint& p) { return fmt::format("{:20.12E};{:20.12E};{:20.12E}", p.x, p.y, p.z); }

// DualSPHysics writes its float values: rounded to float, 8 significant digits.
std::string real(double v) { return fmt::format("{:15.7E}", float(v)); }

}  // namespace

std::string meshGaugeCsvHeader(const GaugeSpec& g, const MeshGrid& m, const std::string& output) {
  const bool columns = output == "Zsurf";
  const bool triple = output == "Vel";
  const char* units = output == "Rhop" ? " [kg/m^3]" : output == "Zsurf" ? " [m]" : " [m/s]";
  // A grid of one point has no axes: DualSPHysics writes it without them, as a "SimpleCSV".
  bool grid = false;
  for (const GaugePoint& s : m.step) grid = grid || s.x != 0 || s.y != 0 || s.z != 0;
  std::string h = "Format;DataName;DataUnits;DataType;Data12;Npt1;Npt2;Npt3";
  if (grid) h += ";PtRef.x [m];PtRef.y;PtRef.z;Vec1.x [m];Vec1.y;Vec1.z;Vec2.x;Vec2.y;Vec2.z;Vec3.x;Vec3.y;Vec3.z";
  h += ";DirDat.x;DirDat.y;DirDat.z\n";
  h += fmt::format("{};{};{};{};{};{};{};{}", grid ? "JMeshTDatas-200817" : "SimpleCSV", output, units,
                   triple ? "float3" : "float", columns ? "true" : "false", m.n[0], m.n[1], m.n[2]);
  if (grid) h += fmt::format(";{};{};{};{}", vec3(m.origin), vec3(m.step[0]), vec3(m.step[1]), vec3(m.step[2]));
  const GaugePoint& d = g.mesh.dirDat;
  h += fmt::format(";{};{};{}\ntime [s]", real(d.x), real(d.y), real(d.z));
  const uint64_t nk = columns ? 1 : m.n[2];
  for (uint64_t k = 0; k < nk; ++k)
    for (uint64_t j = 0; j < m.n[1]; ++j)
      for (uint64_t i = 0; i < m.n[0]; ++i) {
        const std::string at = columns ? fmt::format("v({}:{})", i, j) : fmt::format("v({}:{}:{})", i, j, k);
        h += triple ? fmt::format(";{0}.x;{0}.y;{0}.z", at) : fmt::format(";{}", at);
      }
  return h + "\n";
}

std::string meshGaugeCsvRow(const MeshGaugeValues& v, const std::string& output, double time) {
  const std::vector<double>& values = output == "Vel"      ? v.vel
                                      : output == "VelDir" ? v.velDir
                                      : output == "Rhop"   ? v.rho
                                                           : v.zsurf;
  std::string row = fmt::format("{:20.12E}", time);
  row.reserve(row.size() + 16 * values.size() + 1);
  for (const double x : values) {
    row += ';';
    row += real(x);
  }
  return row + "\n";
}

namespace {

// DualSPHysics' TpTypeData codes of the outputs (float 18, float3 62) and its tag of per-column data.
constexpr uint32_t kTypeFloat = 18, kTypeFloat3 = 62;
constexpr int32_t kTagData12 = 12;

const std::vector<double>& outputValues(const MeshGaugeValues& v, const std::string& output) {
  return output == "Vel" ? v.vel : output == "VelDir" ? v.velDir : output == "Rhop" ? v.rho : v.zsurf;
}

}  // namespace

std::string meshGaugeBinHeader(const GaugeSpec& g, const MeshGrid& m) {
  jbd::ItemWriter root("JMeshTDatas", false);
  root.text("AppName", jbd::writerAppName());
  root.u32("FormatVer", 200817);
  const auto vec = [&](const char* name, const GaugePoint& p) {
    const double v[3] = {p.x, p.y, p.z};
    root.f64x3(name, v);
  };
  vec("MeshPtRef", m.origin);
  vec("MeshVdp1", m.step[0]);
  vec("MeshVdp2", m.step[1]);
  vec("MeshVdp3", m.step[2]);
  for (int a = 0; a < 3; ++a) root.u32(fmt::format("MeshNpt{}", a + 1), uint32_t(m.n[a]));
  const float dir[3] = {float(g.mesh.dirDat.x), float(g.mesh.dirDat.y), float(g.mesh.dirDat.z)};
  root.f32x3("MeshDirDat", dir);
  const std::vector<std::string> outputs = meshGaugeOutputs(g);
  root.u32("Data_Count", uint32_t(outputs.size()));
  for (size_t c = 0; c < outputs.size(); ++c) {
    const std::string& o = outputs[c];
    root.text(fmt::format("DataName_{:02}", c), o);
    root.u32(fmt::format("DataType_{:02}", c), o == "Vel" ? kTypeFloat3 : kTypeFloat);
    root.u32(fmt::format("DataSize_{:02}", c), uint32_t(o == "Zsurf" ? m.columns() : m.count()));
    root.i32(fmt::format("DataTag_{:02}", c), o == "Zsurf" ? kTagData12 : 0);
  }
  return jbd::fileHead("JMeshTDatas") + root.bytes();
}

std::string meshGaugeBinItem(const GaugeSpec& g, const MeshGaugeValues& v, uint32_t ctime, double time) {
  jbd::ItemWriter item(fmt::format("TIME_{:06}", ctime), true);
  item.u32("Ctime", ctime);
  item.f64("TimeStep", time);
  std::vector<float> values;
  for (const std::string& o : meshGaugeOutputs(g)) {
    const std::vector<double>& d = outputValues(v, o);
    values.assign(d.begin(), d.end());
    const bool triple = o == "Vel";
    item.array(o, triple ? jbd::DataType::Float3 : jbd::DataType::Float, uint32_t(values.size() / (triple ? 3 : 1)),
               values.data());
  }
  return item.bytes();
}

}  // namespace sph
