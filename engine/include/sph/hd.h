// Host/device qualifiers so the same physics header compiles for the CPU path (plain C++)
// and inside CUDA kernels (nvcc). Host code that includes these headers needs no CUDA headers.
#pragma once

#if defined(__CUDACC__)
#define SPH_HD __host__ __device__
#define SPH_FORCEINLINE __forceinline__
#else
#define SPH_HD
#define SPH_FORCEINLINE inline
#endif
