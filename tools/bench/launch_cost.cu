// sph_launch_cost: what the host pays per GPU operation, the floor under a small case's step.
// DamBreak2D (21k particles) runs a step in 50-120 us of which the device is busy for a fraction:
// the rest is launches, events and the wait at the step's end. This measures, on each of the
// legacy default stream, the per-thread default stream and a created non-blocking stream:
//   - the host time of one cudaEventRecord and of one kernel launch (small kernel, 21k threads);
//   - a step-like sequence (5 small dependent kernels, a 48-byte copy to pinned memory, a wait)
//     launched one by one, and the same with an event pair around each kernel (phase timers);
//   - the same sequence replayed as a CUDA graph, without and with the event pairs inside it
//     (not on the legacy stream, which cannot be captured).
// Each figure is the mean over many repeats after a warm-up pass. Prints one line per stream.
// Usage: sph_launch_cost. Exit code 0 on success, 1 on any CUDA error (named on stderr).
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

constexpr int kParticles = 21000;  // DamBreak2D
constexpr int kKernels = 5;        // verlet's steady step: interaction, dt, integration, check (+1)
constexpr int kBlock = 256;
constexpr int kGrid = (kParticles + kBlock - 1) / kBlock;

void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "sph_launch_cost: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

__global__ void smallKernel(float* a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] * 0.5f + 1.0f;
}

using Clock = std::chrono::steady_clock;
double microsPer(Clock::time_point t0, int reps) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / reps;
}

struct Buffers {
  float* work = nullptr;   // kKernels arrays of kParticles
  double* host = nullptr;  // pinned, the step's scalars
  double* dev = nullptr;
  cudaEvent_t events[2 * kKernels];
};

// One step: kKernels kernels (each with an event pair when `timed`), the scalar copy.
void enqueueStep(const Buffers& b, cudaStream_t s, bool timed, unsigned eventFlags) {
  for (int k = 0; k < kKernels; ++k) {
    if (timed) check(cudaEventRecordWithFlags(b.events[2 * k], s, eventFlags), "recording a start event");
    smallKernel<<<kGrid, kBlock, 0, s>>>(b.work + k * kParticles, kParticles);
    check(cudaGetLastError(), "launching a small kernel");
    if (timed) check(cudaEventRecordWithFlags(b.events[2 * k + 1], s, eventFlags), "recording a stop event");
  }
  check(cudaMemcpyAsync(b.host, b.dev, 48, cudaMemcpyDeviceToHost, s), "copying the step scalars");
}

void readTimers(const Buffers& b) {
  float ms = 0;
  for (int k = 0; k < kKernels; ++k)
    check(cudaEventElapsedTime(&ms, b.events[2 * k], b.events[2 * k + 1]), "reading a phase time");
}

double eagerStep(const Buffers& b, cudaStream_t s, bool timed, int reps) {
  const auto t0 = Clock::now();
  for (int r = 0; r < reps; ++r) {
    enqueueStep(b, s, timed, cudaEventRecordDefault);
    check(cudaStreamSynchronize(s), "waiting for a step");
    if (timed) readTimers(b);
  }
  return microsPer(t0, reps);
}

double graphStep(const Buffers& b, cudaStream_t s, bool timed, int reps) {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  check(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal), "starting a capture");
  enqueueStep(b, s, timed, cudaEventRecordExternal);
  check(cudaStreamEndCapture(s, &graph), "ending a capture");
  check(cudaGraphInstantiate(&exec, graph, 0), "instantiating a graph");
  const auto t0 = Clock::now();
  for (int r = 0; r < reps; ++r) {
    check(cudaGraphLaunch(exec, s), "launching a graph");
    check(cudaStreamSynchronize(s), "waiting for a graph");
    if (timed) readTimers(b);
  }
  const double us = microsPer(t0, reps);
  check(cudaGraphExecDestroy(exec), "destroying a graph");
  check(cudaGraphDestroy(graph), "destroying a graph");
  return us;
}

}  // namespace

int main() {
  Buffers b;
  check(cudaMalloc(&b.work, sizeof(float) * kParticles * kKernels), "allocating work arrays");
  check(cudaMemset(b.work, 0, sizeof(float) * kParticles * kKernels), "clearing work arrays");
  check(cudaMallocHost(&b.host, 64), "allocating pinned scalars");
  check(cudaMalloc(&b.dev, 64), "allocating device scalars");
  check(cudaMemset(b.dev, 0, 64), "clearing device scalars");
  for (cudaEvent_t& e : b.events) check(cudaEventCreate(&e), "creating an event");
  cudaStream_t created;
  check(cudaStreamCreateWithFlags(&created, cudaStreamNonBlocking), "creating a stream");
  const cudaStream_t streams[] = {cudaStreamLegacy, cudaStreamPerThread, created};
  const char* names[] = {"legacy", "per-thread", "created"};
  const int reps = 20000, stepReps = 5000;
  std::printf("host cost per operation (us), %d kernels of %d threads per step\n", kKernels, kParticles);
  for (int k = 0; k < 3; ++k) {
    const cudaStream_t s = streams[k];
    double record = 0, launch = 0, eager = 0, eagerTimed = 0, graph = -1, graphTimed = -1;
    for (int pass = 0; pass < 2; ++pass) {  // the first pass warms up
      auto t0 = Clock::now();
      for (int r = 0; r < reps; ++r) check(cudaEventRecord(b.events[r % (2 * kKernels)], s), "recording an event");
      record = microsPer(t0, reps);
      check(cudaStreamSynchronize(s), "waiting for events");
      t0 = Clock::now();
      for (int r = 0; r < reps; ++r) smallKernel<<<kGrid, kBlock, 0, s>>>(b.work, kParticles);
      launch = microsPer(t0, reps);
      check(cudaGetLastError(), "launching small kernels");
      check(cudaStreamSynchronize(s), "waiting for kernels");
      eager = eagerStep(b, s, false, stepReps);
      eagerTimed = eagerStep(b, s, true, stepReps);
      if (s != cudaStreamLegacy) {
        graph = graphStep(b, s, false, stepReps);
        graphTimed = graphStep(b, s, true, stepReps);
      }
    }
    std::printf("%-10s event %.2f  launch %.2f  step %.1f  step+events %.1f", names[k], record, launch, eager,
                eagerTimed);
    if (graph >= 0) std::printf("  graph %.1f  graph+events %.1f", graph, graphTimed);
    std::printf("\n");
  }
  return 0;
}
