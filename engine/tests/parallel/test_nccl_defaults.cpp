// setNcclDefaults() (parallel/nccl_link.h): NCCL's settings for the exchanges, each unless the
// environment already gives it, so that a user can still choose.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>

#include "parallel/nccl_link.h"

namespace sph::parallel {
namespace {

// Restores an environment variable when the test ends.
class SavedVariable {
 public:
  explicit SavedVariable(const char* name) : name_(name) {
    if (const char* v = std::getenv(name)) value_ = v;
  }
  ~SavedVariable() {
    if (value_)
      setenv(name_, value_->c_str(), 1);
    else
      unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> value_;
};

std::string variable(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "(unset)";
}

TEST(NcclDefaults, SetWhatTheEnvironmentLeavesUnset) {
  SavedVariable nvls("NCCL_NVLS_ENABLE"), channels("NCCL_MAX_P2P_NCHANNELS");
  unsetenv("NCCL_NVLS_ENABLE");
  unsetenv("NCCL_MAX_P2P_NCHANNELS");
  setNcclDefaults();
  EXPECT_EQ(variable("NCCL_NVLS_ENABLE"), "0");
  EXPECT_EQ(variable("NCCL_MAX_P2P_NCHANNELS"), "4");
}

TEST(NcclDefaults, KeepWhatTheEnvironmentSets) {
  SavedVariable nvls("NCCL_NVLS_ENABLE"), channels("NCCL_MAX_P2P_NCHANNELS");
  setenv("NCCL_NVLS_ENABLE", "1", 1);
  setenv("NCCL_MAX_P2P_NCHANNELS", "16", 1);
  setNcclDefaults();
  EXPECT_EQ(variable("NCCL_NVLS_ENABLE"), "1");
  EXPECT_EQ(variable("NCCL_MAX_P2P_NCHANNELS"), "16");
}

}  // namespace
}  // namespace sph::parallel
