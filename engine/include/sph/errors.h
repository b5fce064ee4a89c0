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

// The simulation diverged: non-finite or supersonic particles. A RunError whose run leaves a
// last snapshot for inspection.
class DivergenceError : public RunError {
 public:
  using RunError::RunError;
};

}  // namespace sph
