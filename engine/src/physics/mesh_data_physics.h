// Values of a mesh-data file (model/mesh_data.h: DualSPHysics' JMeshTDatas) at a position and a
// time, for the CPU loops and the CUDA kernels alike, computed as DualSPHysics' free-position
// interpolation does (JMeshTDatas::IntpComputeVarFr*):
//
//  * in time first: the two frames around t mixed per point, in single precision,
//    v = (b - a) f + a with f in [0, 1] (the host picks the frames and f: model/mesh_data.h);
//  * then in space, along each axis of the grid that has more than one point: the position's
//    distance from the grid's first point along the axis, in steps, d = (x - p0).u / |u|^2 as a
//    plane's equation gives it; below 0 it is 0 (the first point's value), and at or beyond the
//    last point the last point's value; in between linear from the two points around it.
//    One axis: linear; two: bilinear; three: trilinear. A single point: its value everywhere.
#pragma once

#include <cstdint>

#include "sph/plugin/hd.h"

namespace sph {

// A grid's interpolation, set up on the host from the grid (meshInterpolation in
// model/mesh_data.h). `axes` of the grid's three take part (those with more than one point),
// each as a plane whose equation gives the distance in steps, and the index stride of a step.
struct MeshInterp {
  uint32_t axes = 0;               // 0 (one value), 1, 2 or 3
  uint32_t components = 1;         // 1 (a magnitude or a scalar) or 3 (a vector)
  double plane[3][4] = {};         // per axis taking part: a x + b y + c z + d = steps from the first point
  uint32_t last[3] = {0, 0, 0};    // its last point's index
  uint32_t stride[3] = {0, 0, 0};  // values between consecutive points along it
};

// The position's cell along one axis: the first of its two points and the weight of the second
// (DualSPHysics' IntpComputePosCellDist).
SPH_HD inline uint32_t meshCell(const double pl[4], uint32_t last, double x, double y, double z, float* weight) {
  double d = x * pl[0] + y * pl[1] + z * pl[2] + pl[3];
  if (!(d > 0)) d = 0;
  const uint32_t c = d >= double(last) ? last : uint32_t(d);
  *weight = c >= last ? 0.0f : float(d - double(c));
  return c;
}

// The values of point k of the frames a and b, mixed at f.
SPH_HD inline void meshPoint(const MeshInterp& m, const float* a, const float* b, float f, uint32_t k, float out[3]) {
  for (uint32_t c = 0; c < m.components; ++c) {
    const float va = a[k * m.components + c];
    out[c] = f == 0.0f ? va : f >= 1.0f ? b[k * m.components + c] : (b[k * m.components + c] - va) * f + va;
  }
}

// The interpolated value at (x, y, z): out[0] (components 1) or out[0..2].
SPH_HD inline void meshInterpolate(const MeshInterp& m, const float* a, const float* b, float f, double x, double y,
                                   double z, float out[3]) {
  uint32_t base = 0;
  float w[3] = {0, 0, 0};
  uint32_t step[3] = {0, 0, 0};
  for (uint32_t k = 0; k < m.axes; ++k) {
    const uint32_t c = meshCell(m.plane[k], m.last[k], x, y, z, &w[k]);
    base += c * m.stride[k];
    step[k] = c < m.last[k] ? m.stride[k] : 0;
  }
  // The corners of the cell, axis 0 varying fastest, mixed along axis 0, then 1, then 2.
  float corner[8][3];
  const uint32_t n = 1u << m.axes;
  for (uint32_t q = 0; q < n; ++q) {
    uint32_t k = base;
    for (uint32_t axis = 0; axis < m.axes; ++axis)
      if (q & (1u << axis)) k += step[axis];
    meshPoint(m, a, b, f, k, corner[q]);
  }
  for (uint32_t axis = 0; axis < m.axes; ++axis) {
    const uint32_t half = n >> (axis + 1);
    for (uint32_t q = 0; q < half; ++q)
      for (uint32_t c = 0; c < m.components; ++c) {
        const float v0 = corner[2 * q][c], v1 = corner[2 * q + 1][c];
        corner[q][c] = (v1 - v0) * w[axis] + v0;
      }
  }
  for (uint32_t c = 0; c < m.components; ++c) out[c] = corner[0][c];
}

}  // namespace sph
