// A symmetric 3x3 tensor stored as its six independent entries (the SPS model's 2S and tau/rho,
// sps_physics.h).
#pragma once

namespace sph {

template <typename T>
struct SymTensor {
  T xx = 0, xy = 0, xz = 0, yy = 0, yz = 0, zz = 0;
};

}  // namespace sph
