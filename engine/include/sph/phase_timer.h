// Per-phase timing service offered by the engine to itself and to strategies. On the GPU the
// engine implements it with CUDA events on the stream all work is queued on; on the CPU with a
// steady clock. Names follow DualSPHysics (NL-RadixSort, CF-Forces, ...); the group is the row of
// the seed paper's tables the phase belongs to.
#pragma once

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

// RAII helper: times one scope; a null timer makes it a no-op.
class ScopedPhase {
 public:
  ScopedPhase(PhaseTimer* t, const char* name, PhaseGroup g) : t_(t) {
    if (t_) t_->begin(name, g);
  }
  ~ScopedPhase() {
    if (t_) t_->end();
  }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;

 private:
  PhaseTimer* t_;
};

}  // namespace sph
