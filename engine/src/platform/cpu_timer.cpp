#include <chrono>

#include "platform/phase_timers.h"

namespace sph {
namespace {

class CpuTimer final : public RecordingTimer {
 public:
  void begin(const char* name, PhaseGroup g) override {
    checkNotNested(open_, name, name_);
    open_ = true;
    name_ = name;
    group_ = g;
    start_ = std::chrono::steady_clock::now();
  }
  void end() override {
    const auto t = std::chrono::steady_clock::now();
    open_ = false;
    acc_.add(name_, group_, std::chrono::duration<double>(t - start_).count());
  }
  void flush() override {}
  std::vector<PhaseTotal> totals() override { return acc_.totals(); }

 private:
  bool open_ = false;
  const char* name_ = "";
  PhaseGroup group_ = PhaseGroup::Other;
  std::chrono::steady_clock::time_point start_;
  PhaseAccumulator acc_;
};

class NullTimer final : public RecordingTimer {
 public:
  void begin(const char*, PhaseGroup) override {}
  void end() override {}
  void flush() override {}
  std::vector<PhaseTotal> totals() override { return {}; }
};

}  // namespace

std::unique_ptr<RecordingTimer> makeCpuTimer() { return std::make_unique<CpuTimer>(); }
std::unique_ptr<RecordingTimer> makeNullTimer() { return std::make_unique<NullTimer>(); }

}  // namespace sph
