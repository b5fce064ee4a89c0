// sph_calibrate: measures the device rates that the benchmark report's floors divide by, in the
// same session as the benchmark runs, and prints them as one JSON object on stdout:
//   FP32 and FP64 FMA throughput (an FMA counts as 2 flops), and device-to-device copy
//   bandwidth (cudaMemcpyAsync; bytes read plus bytes written per second).
// Each figure is the best of several timed repeats after one untimed warm-up launch, since a
// floor wants the rate the device can reach, not an average over clock ramps.
// Usage: sph_calibrate [--device N]. Exit code 0 on success, 1 on any CUDA error (message on
// stderr naming what was being done).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sph/plugin/errors.h"
#include "sph/plugin/gpu/cuda_check.cuh"

namespace {

// Independent FMA chains per thread: enough instruction-level parallelism that the 4-cycle FMA
// latency is hidden even at low occupancy.
constexpr int kChains = 8;
constexpr int kBlock = 256;
constexpr int kBlocksPerSm = 8;  // 2048 resident threads per SM on sm_80/sm_90
constexpr int kFmaIterations = 1 << 15;
constexpr int kRepeats = 5;
constexpr size_t kCopyBytesMax = size_t(1) << 30;  // 1 GiB per buffer: far past every cache
constexpr int kCopiesPerRepeat = 4;

template <typename T>
__global__ void __launch_bounds__(kBlock) fmaKernel(T seed, int iterations, T* sink) {
  T a[kChains];
#pragma unroll
  for (int k = 0; k < kChains; ++k) a[k] = seed + T(threadIdx.x + k);
  const T m = T(0.9999), c = T(1e-4);  // a stays bounded: no overflow, no denormals
#pragma unroll 16
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < kChains; ++k) a[k] = fma(a[k], m, c);
  }
  T s = 0;
#pragma unroll
  for (int k = 0; k < kChains; ++k) s += a[k];
  // Never true for the seeds used; the store keeps the compiler from dropping the loop.
  if (s == T(-1)) sink[blockIdx.x] = s;
}

class EventPair {
 public:
  EventPair() {
    SPH_CUDA_CHECK(cudaEventCreate(&start_), "creating a timing event");
    SPH_CUDA_CHECK(cudaEventCreate(&stop_), "creating a timing event");
  }
  ~EventPair() {
    cudaEventDestroy(start_);  // destructor: nothing useful to do with an error here
    cudaEventDestroy(stop_);
  }
  EventPair(const EventPair&) = delete;
  EventPair& operator=(const EventPair&) = delete;
  void start() { SPH_CUDA_CHECK(cudaEventRecord(start_), "recording the start event"); }
  double stopSeconds(const char* what) {
    SPH_CUDA_CHECK(cudaEventRecord(stop_), "recording the stop event");
    SPH_CUDA_CHECK(cudaEventSynchronize(stop_), what);
    float ms = 0;
    SPH_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_), "reading a timing event");
    return double(ms) * 1e-3;
  }

 private:
  cudaEvent_t start_{}, stop_{};
};

class DeviceBuffer {
 public:
  DeviceBuffer(size_t bytes, const char* what) { SPH_CUDA_CHECK(cudaMalloc(&p_, bytes), what); }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  void* get() const { return p_; }

 private:
  void* p_ = nullptr;
};

// Flops per second of FMA in precision T (2 flops per FMA).
template <typename T>
double fmaRate(int smCount, const char* name) {
  const int blocks = smCount * kBlocksPerSm;
  DeviceBuffer sink(sizeof(T) * size_t(blocks), "allocating the FMA kernel's sink");
  EventPair ev;
  const std::string what = std::string("running the ") + name + " FMA kernel";
  double best = 0;
  for (int r = 0; r <= kRepeats; ++r) {  // r == 0: warm-up (clocks, module load)
    ev.start();
    fmaKernel<T><<<blocks, kBlock>>>(T(1), kFmaIterations, static_cast<T*>(sink.get()));
    SPH_CUDA_CHECK(cudaGetLastError(), what.c_str());
    const double s = ev.stopSeconds(what.c_str());
    const double flops = 2.0 * kChains * double(kFmaIterations) * double(blocks) * kBlock;
    if (r > 0 && s > 0) best = std::max(best, flops / s);
  }
  return best;
}

// Device-to-device copy bandwidth, counting the bytes read and the bytes written.
double copyRate(size_t bytes) {
  DeviceBuffer a(bytes, "allocating the copy source"), b(bytes, "allocating the copy target");
  SPH_CUDA_CHECK(cudaMemset(a.get(), 1, bytes), "filling the copy source");
  EventPair ev;
  double best = 0;
  for (int r = 0; r <= kRepeats; ++r) {
    ev.start();
    for (int k = 0; k < kCopiesPerRepeat; ++k)
      SPH_CUDA_CHECK(cudaMemcpyAsync(k % 2 ? a.get() : b.get(), k % 2 ? b.get() : a.get(), bytes,
                                     cudaMemcpyDeviceToDevice),
                     "copying device to device");
    const double s = ev.stopSeconds("waiting for the device-to-device copies");
    if (r > 0 && s > 0) best = std::max(best, 2.0 * double(bytes) * kCopiesPerRepeat / s);
  }
  return best;
}

std::string jsonEscape(const std::string& s) {
  std::string out;
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out;
}

int run(int device) {
  int count = 0;
  SPH_CUDA_CHECK(cudaGetDeviceCount(&count), "counting CUDA devices");
  if (device < 0 || device >= count)
    throw sph::RunError("--device " + std::to_string(device) + ": there are " + std::to_string(count) +
                        " CUDA devices");
  SPH_CUDA_CHECK(cudaSetDevice(device), "selecting the device");
  cudaDeviceProp prop{};
  SPH_CUDA_CHECK(cudaGetDeviceProperties(&prop, device), "reading the device properties");
  size_t freeBytes = 0, totalBytes = 0;
  SPH_CUDA_CHECK(cudaMemGetInfo(&freeBytes, &totalBytes), "reading the device memory size");

  const double fp32 = fmaRate<float>(prop.multiProcessorCount, "FP32");
  const double fp64 = fmaRate<double>(prop.multiProcessorCount, "FP64");
  // Two buffers must fit, with room to spare for whatever else holds memory.
  const size_t copyBytes = std::min(kCopyBytesMax, freeBytes / 4);
  const double copy = copyRate(copyBytes);

  std::printf(
      "{\n"
      "  \"device_name\": \"%s\",\n"
      "  \"compute_capability\": \"%d.%d\",\n"
      "  \"sm_count\": %d,\n"
      "  \"total_memory_bytes\": %zu,\n"
      "  \"free_memory_bytes\": %zu,\n"
      "  \"fp32_flops_per_second\": %.6e,\n"
      "  \"fp64_flops_per_second\": %.6e,\n"
      "  \"copy_bytes_per_second\": %.6e,\n"
      "  \"copy_buffer_bytes\": %zu,\n"
      "  \"method\": \"FMA chains (%d per thread, %d blocks of %d per SM, 2 flops per FMA); "
      "cudaMemcpyAsync device to device (bytes read + written); best of %d repeats after a warm-up\"\n"
      "}\n",
      jsonEscape(prop.name).c_str(), prop.major, prop.minor, prop.multiProcessorCount, totalBytes, freeBytes, fp32,
      fp64, copy, copyBytes, kChains, kBlocksPerSm, kBlock, kRepeats);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int device = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--device" && i + 1 < argc) {
      device = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: sph_calibrate [--device N]\n");
      return 2;
    }
  }
  try {
    return run(device);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sph_calibrate: error: %s\n", e.what());
    return 1;
  }
}
