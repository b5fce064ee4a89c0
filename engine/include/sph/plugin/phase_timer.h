// Per-phase timing service offered by the engine to itself and to strategies. On the GPU the
// engine implements it with CUDA events on the stream all work is queued on; on the CPU with a
// steady clock. Names follow DualSPHysics (NL-RadixSort, CF-Forces, ...); the group is the row of
// tables 3-5 of Takada et al. (2017), "Acceleration of SPH-based fluid simulation on GPU", that
// the phase belongs to.
#pragma once

#include <exception>
#include <string>

namespace sph {

enum class PhaseGroup { Sort, List, Interaction, Other };

inline const char* phaseGroupName(PhaseGroup g) {
  switch (g) {
    case PhaseGroup::Sort: return "sort";
    case PhaseGroup::List: return "list";
    case PhaseGroup::Interaction: return "interaction";
    default: return "other";
  }
}

class PhaseTimer {
 public:
  virtual ~PhaseTimer() = default;
  // begin/end pairs must not nest; `name` must outlive the run (use string literals).
  virtual void begin(const char* name, PhaseGroup group) = 0;
  virtual void end() = 0;
};

// RAII helper: times one scope; a null timer makes it a no-op. An error of end() (a CUDA error
// recording the stop event) is thrown, unless the scope is being left by an exception already:
// then that first error is the one reported (a second throw would terminate the program).
class ScopedPhase {
 public:
  ScopedPhase(PhaseTimer* t, const char* name, PhaseGroup g) : t_(t), unwinding_(std::uncaught_exceptions()) {
    if (t_) t_->begin(name, g);
  }
  ~ScopedPhase() noexcept(false) {
    if (!t_) return;
    if (std::uncaught_exceptions() == unwinding_) {
      t_->end();
      return;
    }
    try {
      t_->end();
    } catch (...) {
    }
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimer* t_;
  int unwinding_;  // exceptions in flight when the scope began
};

}  // namespace sph
