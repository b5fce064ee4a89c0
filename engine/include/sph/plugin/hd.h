// Host/device qualifiers so the same physics header compiles for the CPU path (plain C++)
// and inside CUDA kernels (nvcc). Host code that includes these headers needs no CUDA headers.
#pragma once

#if defined(__CUDACC__)
#define SPH_HD __host__ __device__
#define SPH_FORCEINLINE __forceinline__
#define SPH_LAMBDA_INLINE
#else
#define SPH_HD
// As nvcc's __forceinline__: g++ otherwise leaves the pair physics and its helpers out of line in
// the CPU plugins' large loop bodies, and the calls cost a good part of a CPU force pass
// (tools/bench/RESULTS.md, CPU path).
#if defined(__GNUC__)
#define SPH_FORCEINLINE inline __attribute__((always_inline))
#else
#define SPH_FORCEINLINE inline
#endif
// The same for a lambda's call operator (GCC and Clang), written after its parameters:
// `[&](uint32_t j) SPH_LAMBDA_INLINE { ... }`. The per-pair lambdas of the force loops are the
// loops' whole body; g++ left them out of line and, the call operator of a lambda in a header
// being a weak symbol of the plugin, called them through the PLT once a pair. (nvcc inlines them
// on the device.)
#if defined(__GNUC__)
#define SPH_LAMBDA_INLINE __attribute__((always_inline))
#else
#define SPH_LAMBDA_INLINE
#endif
#endif
