// Host/device qualifiers so the same physics header compiles for the CPU path (plain C++)
// and inside CUDA kernels (nvcc). Host code that includes these headers needs no CUDA headers.
#pragma once

#if defined(__CUDACC__)
#define SPH_HD __host__ __device__
#define SPH_FORCEINLINE __forceinline__
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
#endif
