// Error types. Library code throws; only the CLI's main() turns errors into exit codes.
#pragma once

#include <stdexcept>
#include <string>

namespace sph {

// Bad user input (case file, options, missing plugin). The message names the file, line and
// element (or the directories searched) and is meant to be printed as is.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failure while running (CUDA error, I/O error, too many excluded particles).
class RunError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The device had no room for an allocation (cudaErrorMemoryAllocation): a RunError that code with
// a smaller alternative (the Verlet plugin's next list layout, the cell search) catches.
class DeviceOutOfMemory : public RunError {
 public:
  using RunError::RunError;
};

// The simulation diverged: non-finite or supersonic particles. A RunError whose run leaves a
// last snapshot for inspection.
class DivergenceError : public RunError {
 public:
  using RunError::RunError;
};

// The run stopped at the end of a step because a signal asked it to (platform/stop_request.h); its report
// says "interrupted".
class InterruptedError : public RunError {
 public:
  InterruptedError(const std::string& what, int signal) : RunError(what), signal_(signal) {}
  int signal() const { return signal_; }

 private:
  int signal_;
};

}  // namespace sph
