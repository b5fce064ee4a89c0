// Index lists that follow the particles through reorders (ParticleState::reordered,
// EngineOps::invertPermutation and mapIndices), on which a run over ranks keeps its halo between
// Verlet-list rebuilds: after any reorder each entry names the particle it named before, and an
// entry whose particle the reorder dropped names none. On the CPU, and on the GPU when there is one.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "platform/gpu_runtime.h"
#include "run/engine_ops.h"
#include "run/particle_state.h"

namespace sph {
namespace {

std::unique_ptr<EngineOps<double>> opsFor(Device d) {
  return d == Device::Gpu ? makeGpuOps<double>() : makeCpuOps<double>(2);
}

class IndexFollowing : public ::testing::TestWithParam<Device> {
 protected:
  void SetUp() override {
    if (GetParam() == Device::Gpu && !gpu::available()) GTEST_SKIP() << "no usable CUDA GPU here";
  }
};

TEST_P(IndexFollowing, ListsNameTheSameParticlesAfterEveryReorder) {
  const Device d = GetParam();
  auto ops = opsFor(d);
  constexpr uint32_t n = 1000;
  ParticleState<double> s(d, n, ParticleArrayNeeds{}, ops.get());
  s.n = n;
  std::vector<uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 5000u);
  s.cur.id.upload(ids, "test ids");
  s.cur.code.upload(std::vector<uint32_t>(n, 0u), "test codes");
  s.cur.pos.upload(std::vector<Real4<double>>(n), "test positions");
  s.cur.velrho.upload(std::vector<Real4<double>>(n), "test velocities");
  s.cur.velrhoPre.upload(std::vector<Real4<double>>(n), "test velocities");
  // A list of every third particle, in another order than theirs.
  std::vector<uint32_t> list;
  for (uint32_t i = 0; i < n; i += 3) list.push_back(n - 1 - i);
  DeviceArray<uint32_t> tracked(d, list.size(), "test list"), inverse(d, n, "test inverse");
  tracked.upload(list, "test list");
  const uint32_t count = uint32_t(list.size());
  s.reordered = [&](const uint32_t* perm, uint32_t m) {
    ops->invertPermutation(perm, m, inverse.data());
    ops->mapIndices(inverse.data(), m, tracked.data(), count);
  };
  // Two reorders: reversed, then the even places before the odd ones.
  for (int round = 0; round < 2; ++round) {
    std::vector<uint32_t> perm(n);
    for (uint32_t i = 0; i < n; ++i) perm[i] = round == 0 ? n - 1 - i : (i < n / 2 ? 2 * i : 2 * (i - n / 2) + 1);
    s.perm.upload(perm, "test perm");
    s.apply(s.perm.data(), n);
    const std::vector<uint32_t> now = s.cur.id.download(n, "test ids");
    const std::vector<uint32_t> at = tracked.download(count, "test list");
    for (uint32_t k = 0; k < count; ++k)
      ASSERT_EQ(now.at(at[k]), 5000u + list[k]) << "round " << round << " entry " << k;
  }
  // A compaction that drops the last 10 particles' places: entries beyond the kept ones stay
  // within the old count; entries past it name no particle.
  std::vector<uint32_t> at = tracked.download(count, "test list");
  at[0] = n + 7;
  tracked.upload(at, "test list");
  std::vector<uint32_t> identity(n);
  std::iota(identity.begin(), identity.end(), 0u);
  s.perm.upload(identity, "test perm");
  s.apply(s.perm.data(), n);
  EXPECT_EQ(tracked.download(1, "test list")[0], EngineOps<double>::kNoIndex);
}

INSTANTIATE_TEST_SUITE_P(Devices, IndexFollowing, ::testing::Values(Device::Cpu, Device::Gpu),
                         [](const ::testing::TestParamInfo<Device>& i) { return std::string(deviceName(i.param)); });

}  // namespace
}  // namespace sph
