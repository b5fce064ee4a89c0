// Keys, the radix sort and the cell start table on the GPU (DualSPHysics' NL-PreSort,
// NL-RadixSort and NL-CellBegin).
#include <cub/device/device_radix_sort.cuh>

#include "cell_gpu_launch.h"
#include "sph/plugin/gpu/cuda_check.cuh"

namespace sph::cell::gpu {

namespace {

template <typename T>
__global__ void __launch_bounds__(kBlock)
    cellKeysKernel(CellGrid g, const Real4<T>* __restrict__ pos, uint32_t n, uint32_t nBound,
                   uint32_t* __restrict__ keys, uint32_t* __restrict__ index) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Real4<T> p = loadReadOnly(pos + i);
  keys[i] = cellKey(g, double(p.x), double(p.y), double(p.z), i < nBound);
  index[i] = i;
}

__global__ void __launch_bounds__(kBlock)
    cellStartKernel(const uint32_t* __restrict__ sortedKeys, uint32_t n, uint32_t entries,
                    uint32_t* __restrict__ start) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < entries) start[k] = cellStartOf(k, sortedKeys, n);
}


}  // namespace

template <typename T>
void launchCellKeys(const CellGrid& g, const Real4<T>* pos, uint32_t n, uint32_t nBound, uint32_t* keys,
                    uint32_t* index) {
  auto* kernel = &cellKeysKernel<T>;
  SPH_LAUNCH("computing cell keys (NL-PreSort)", n, kBlock, 0, kernel, g, pos, n, nBound, keys, index);
}

template void launchCellKeys(const CellGrid&, const Real4<float>*, uint32_t, uint32_t, uint32_t*, uint32_t*);
template void launchCellKeys(const CellGrid&, const Real4<double>*, uint32_t, uint32_t, uint32_t*, uint32_t*);

size_t radixSortTempBytes(uint32_t n, int bits) {
  cub::DoubleBuffer<uint32_t> k(nullptr, nullptr), v(nullptr, nullptr);
  size_t bytes = 0;
  SPH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, 0, bits, cudaStream_t(0)),
                 "sizing the radix sort of cell keys");
  return bytes;
}

int radixSort(void* temp, size_t tempBytes, uint32_t* keys[2], uint32_t* index[2], uint32_t n, int bits) {
  if (n == 0) return 0;
  cub::DoubleBuffer<uint32_t> k(keys[0], keys[1]), v(index[0], index[1]);
  SPH_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, tempBytes, k, v, n, 0, bits, cudaStream_t(0)),
                 "radix-sorting cell keys (NL-RadixSort)");
  if (k.selector != v.selector)
    throw RunError("cell neighbour search: radix sort left keys and indices in different buffers");
  return k.selector;
}

void buildCellStart(const uint32_t* sortedKeys, uint32_t n, uint32_t keyCount, uint32_t* start) {
  SPH_LAUNCH("building the cell start table (NL-CellBegin)", keyCount + 1, kBlock, 0, cellStartKernel, sortedKeys, n,
             keyCount + 1, start);
}

}  // namespace sph::cell::gpu
