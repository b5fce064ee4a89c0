// A 4-component vector aligned to its full size, so that on the GPU one particle's position
// (x, y, z, pressure) or velocity+density (vx, vy, vz, rho) is a single 16-byte load in single
// precision (two 16-byte loads in double precision).
#pragma once

#include <cstdint>

namespace sph {

template <typename T>
struct alignas(4 * sizeof(T)) Real4 {
  T x, y, z, w;
};

static_assert(sizeof(Real4<float>) == 16, "float4-compatible layout expected");
static_assert(sizeof(Real4<double>) == 32, "double4-compatible layout expected");

}  // namespace sph
