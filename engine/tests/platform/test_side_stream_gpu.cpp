// gpu::SideStream's spans (platform/gpu_runtime.h): the work between a follow() and a join() is
// timed once, and only when it is done, so that reading never makes the host wait for the GPU.
#include <gtest/gtest.h>

#include "platform/gpu_runtime.h"

namespace sph {
namespace {

TEST(SideStreamGpu, ASpanIsReadOnceWhenItsWorkIsDone) {
  if (!gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here (" << gpu::deviceDescription() << ")";
  gpu::SideStream side;
  gpu::SideStream::Span span;
  EXPECT_FALSE(side.takeSpan(span, "reading a span before any join"));
  side.follow("ordering the side stream");
  side.join("joining the side stream");
  gpu::synchronize("waiting for both streams");
  ASSERT_TRUE(side.takeSpan(span, "reading the span"));
  // Nothing was queued between: well under a second either way.
  EXPECT_GE(span.seconds, 0.0);
  EXPECT_LT(span.seconds, 1.0);
  EXPECT_GE(span.exposedSeconds, 0.0);
  EXPECT_LT(span.exposedSeconds, 1.0);
  EXPECT_FALSE(side.takeSpan(span, "reading the span again"));
}

}  // namespace
}  // namespace sph
