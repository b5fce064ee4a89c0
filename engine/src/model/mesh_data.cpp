#include "model/mesh_data.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "sph/plugin/errors.h"

namespace sph {

MeshFrames meshFramesAt(const MeshData& m, double t) {
  MeshFrames r;
  const size_t n = m.times.size();
  if (n < 2) return r;
  if (m.loopEnd != DBL_MAX && t >= m.loopEnd) {
    const double begin = m.loopEnd - m.loopSpan;
    t = std::fmod(t - begin, m.loopSpan) + begin;
    if (t >= m.loopEnd) t -= m.loopSpan;
  }
  // The first frame after t (or the last), and the one before it.
  size_t b = 1;
  while (b + 1 < n && m.times[b] < t) ++b;
  r.a = b - 1;
  r.b = b;
  const double span = m.times[b] - m.times[r.a];
  double f = span != 0 ? (t - m.times[r.a]) / span : 0.0;
  f = f < 0 ? 0 : f > 1 ? 1 : f;
  r.f = float(f);
  return r;
}

MeshInterp meshInterpolation(const MeshData& m) {
  MeshInterp in;
  in.components = m.components;
  const uint32_t axesOfValues = m.data12 ? 2 : 3;
  uint32_t stride = 1;
  for (uint32_t k = 0; k < axesOfValues; ++k) {
    if (m.npt[k] > 1) {
      const Vec3d& u = m.vdp[k];
      const double len2 = u.x * u.x + u.y * u.y + u.z * u.z;
      double* pl = in.plane[in.axes];
      pl[0] = u.x / len2;
      pl[1] = u.y / len2;
      pl[2] = u.z / len2;
      pl[3] = -(m.origin.x * u.x + m.origin.y * u.y + m.origin.z * u.z) / len2;
      in.last[in.axes] = m.npt[k] - 1;
      in.stride[in.axes] = stride;
      ++in.axes;
    }
    stride *= m.npt[k];
  }
  return in;
}

void meshValueAt(const MeshData& m, const MeshInterp& interp, double t, const Vec3d& p, float out[3]) {
  const MeshFrames fr = meshFramesAt(m, t);
  meshInterpolate(interp, m.frame(fr.a), m.frame(fr.b), fr.f, p.x, p.y, p.z, out);
}

void meshShift(MeshData& m, const Vec3d& offset) {
  m.origin = {m.origin.x + offset.x, m.origin.y + offset.y, m.origin.z + offset.z};
}

void meshLoop(MeshData& m, double begin, double end) {
  size_t kept = 0;
  while (kept < m.times.size() && m.times[kept] <= end) ++kept;
  m.times.resize(kept);
  m.values.resize(kept * m.valuesPerTime());
  if (kept == 0)
    throw InputError(fmt::format("{}: no time of the mesh data is at or before the loop's end {:g}", m.file, end));
  size_t nearest = 0;
  for (size_t k = 1; k < kept; ++k)
    if (std::fabs(m.times[k] - begin) < std::fabs(m.times[nearest] - begin)) nearest = k;
  if (nearest + 1 >= kept)
    throw InputError(
        fmt::format("{}: the loop {:g}-{:g} s holds no time of the mesh data after its start (the data's "
                    "time nearest {:g} is its last up to {:g}: {:g})",
                    m.file, begin, end, begin, end, m.times[nearest]));
  const size_t per = m.valuesPerTime();
  std::copy_n(m.values.begin() + std::ptrdiff_t(nearest * per), per,
              m.values.begin() + std::ptrdiff_t((kept - 1) * per));
  m.loopEnd = m.times.back();
  m.loopSpan = m.loopEnd - m.times[nearest];
}

}  // namespace sph
