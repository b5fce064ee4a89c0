// What every kernel of the GPU backend shares: block sizes and the scalars a build reads back.
// Included by verlet_gpu_backend.cu alone: its launches instantiate these kernels in that one
// translation unit (compiled with --use_fast_math), hence the anonymous namespace.
#pragma once

#include "sph/plugin/gpu/device_buffer.cuh"
#include "../verlet_layout.h"

namespace sph::verlet {
namespace {

using gpu::DeviceBuffer;
constexpr unsigned kBlock = 128;  // a multiple of 32: warps hold 32 consecutive particles
// Threads per block of the list force kernel (SPH_VERLET_FORCE_BLOCK overrides, for experiments).
// With one lane per particle, 64, 128 and 256 threads ran equally fast on DamBreak and
// DamBreak2D on Hopper GPUs: the list kernel does not care.
#ifndef SPH_VERLET_FORCE_BLOCK
#define SPH_VERLET_FORCE_BLOCK 128
#endif
constexpr unsigned kForceBlock = SPH_VERLET_FORCE_BLOCK;

// The scalars a build reads back (pinned on the host).
struct Scalars {
  unsigned long long members = 0;  // sum of list lengths
};

}  // namespace
}  // namespace sph::verlet
