// The cell strategy's contract beyond the pair set and the physics: options, errors, phases,
// statistics, storage growth, device memory and the plugin entry point.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include "cell/cell_strategy.h"
#include "cell_test_support.h"
#include "platform/gpu_runtime.h"
#include "sph/plugin/errors.h"
#include "sph/plugin/plugin_abi.h"

namespace celltest {
namespace {

HostParticles<float> smallLattice(int boundLayers) {
  const double origin[3] = {0.05, 0.05, 0.05};
  return latticeParticles(3, 10, 10, 10, 0.1, origin, boundLayers).as<float>();
}

TEST(CellOptions, ModesAndErrors) {
  using sph::cell::parseCellMode;
  EXPECT_EQ(parseCellMode({}), CellMode::Full);
  EXPECT_EQ(parseCellMode({{"CellMode", "full"}}), CellMode::Full);
  EXPECT_EQ(parseCellMode({{"CellMode", "2h"}}), CellMode::Full);
  EXPECT_EQ(parseCellMode({{"CellMode", "Half"}}), CellMode::Half);
  EXPECT_EQ(parseCellMode({{"CellMode", "h"}}), CellMode::Half);
  EXPECT_THROW(parseCellMode({{"CellMode", "quarter"}}), sph::InputError);
  using sph::cell::parseTrimRows;
  EXPECT_TRUE(parseTrimRows({}));
  EXPECT_TRUE(parseTrimRows({{"CellRows", "Reachable"}}));
  EXPECT_FALSE(parseTrimRows({{"CellRows", "all"}}));
  EXPECT_THROW(parseTrimRows({{"CellRows", "some"}}), sph::InputError);
  using sph::cell::parsePairsOnce;
  EXPECT_TRUE(parsePairsOnce({}));
  EXPECT_TRUE(parsePairsOnce({{"CellPairs", "Once"}}));
  EXPECT_FALSE(parsePairsOnce({{"CellPairs", "twice"}}));
  EXPECT_THROW(parsePairsOnce({{"CellPairs", "thrice"}}), sph::InputError);

  HostParticles<float> p = smallLattice(0);
  HostReorderer<float> reorderer(p);
  Domain d;
  auto ctx = makeContext(Device::Cpu, Precision::Single, 3, 0.25, d, CellMode::Full, &reorderer);
  ctx.options["CellMode"] = "third";
  sph::cell::CellStrategy cell;
  EXPECT_THROW(cell.configure(ctx), sph::InputError);
  ctx.options["CellMode"] = "half";
  ctx.support = 0;
  EXPECT_THROW(cell.configure(ctx), sph::InputError);
}

TEST(CellStrategy, GridFollowsMode) {
  HostParticles<float> p = smallLattice(0);
  HostReorderer<float> reorderer(p);
  Domain d;
  sph::cell::CellStrategy cell;
  cell.configure(makeContext(Device::Cpu, Precision::Single, 3, 0.25, d, CellMode::Full, &reorderer));
  EXPECT_NEAR(cell.stats().at("cell_size"), 0.25, 1e-4);
  EXPECT_EQ(cell.stats().at("cells"), 4 * 4 * 4);
  cell.configure(makeContext(Device::Cpu, Precision::Single, 3, 0.25, d, CellMode::Half, &reorderer));
  EXPECT_NEAR(cell.stats().at("cell_size"), 0.125, 1e-4);
  EXPECT_EQ(cell.stats().at("cells"), 8 * 8 * 8);
  cell.configure(makeContext(Device::Cpu, Precision::Single, 2, 0.25, d, CellMode::Half, &reorderer));
  EXPECT_EQ(cell.stats().at("cells"), 8 * 1 * 8);  // 2D: one cell across y
}

TEST(CellStrategy, InteractNeedsPrepare) {
  HostParticles<float> p = smallLattice(2);
  HostReorderer<float> reorderer(p);
  sph::cell::CellStrategy cell;
  std::vector<Real4<float>> ace(p.size());
  std::vector<float> viscdt(p.size());
  const auto c = makeConstants<float>(3, KernelKind::Wendland, 0.1, 0.1, sph::DensityDiffusion::None);
  EXPECT_THROW(cell.interact(p.view(), c, {ace.data(), viscdt.data()}), sph::RunError);  // not configured
  cell.configure(makeContext(Device::Cpu, Precision::Single, 3, 0.2, Domain{}, CellMode::Full, &reorderer));
  EXPECT_THROW(cell.interact(p.view(), c, {ace.data(), viscdt.data()}), sph::RunError);  // not prepared
  cell.prepare(p.view(), sph::PrepareReason::Step);
  EXPECT_NO_THROW(cell.interact(p.view(), c, {ace.data(), viscdt.data()}));
  const auto wide = makeConstants<float>(3, KernelKind::Wendland, 0.1, 0.2, sph::DensityDiffusion::None);
  EXPECT_THROW(cell.interact(p.view(), wide, {ace.data(), viscdt.data()}), sph::RunError);  // support > grid's
}

class RecordingTimer final : public sph::PhaseTimer {
 public:
  void begin(const char* name, sph::PhaseGroup g) override { phases.emplace_back(name, g); }
  void end() override { ++ended; }
  std::vector<std::pair<std::string, sph::PhaseGroup>> phases;
  int ended = 0;
};

TEST(CellStrategy, PhasesAndStats) {
  HostParticles<float> p = smallLattice(2);
  HostReorderer<float> reorderer(p);
  RecordingTimer timer;
  auto ctx = makeContext(Device::Cpu, Precision::Single, 3, 0.25, Domain{}, CellMode::Full, &reorderer);
  ctx.timer = &timer;
  sph::cell::CellStrategy cell;
  cell.configure(ctx);
  EXPECT_EQ(cell.stats().count("candidates_per_particle"), 0u);  // nothing counted yet
  std::vector<Real4<float>> ace(p.size());
  std::vector<float> viscdt(p.size());
  const auto c = makeConstants<float>(3, KernelKind::Wendland, 0.1, 0.125, sph::DensityDiffusion::None);
  cell.prepare(p.view(), sph::PrepareReason::Step);
  cell.interact(p.view(), c, {ace.data(), viscdt.data()});
  using G = sph::PhaseGroup;
  const std::vector<std::pair<std::string, G>> expected = {{"NL-PreSort", G::Sort},
                                                          {"NL-RadixSort", G::Sort},
                                                          {"NL-SortData", G::Sort},
                                                          {"NL-CellBegin", G::Sort},
                                                          {"CF-Forces", G::Interaction}};
  EXPECT_EQ(timer.phases, expected);
  EXPECT_EQ(timer.ended, 5);
  EXPECT_EQ(reorderer.calls, 1);

  const auto s = cell.stats();
  // Lattice spacing 0.1, support 0.25: a fluid particle sees at most the 33 lattice points
  // within 2.5 spacings (self excluded: 32); candidates are the 3x3x3 cells of 2.5 spacings.
  EXPECT_GT(s.at("candidates_per_particle"), s.at("neighbours_per_particle"));
  EXPECT_LE(s.at("neighbours_per_particle"), 32 + 33);  // boundary neighbours count too
  EXPECT_GT(s.at("in_range_ratio"), 0.0);
  EXPECT_LT(s.at("in_range_ratio"), 1.0);
  EXPECT_EQ(cell.deviceBytes(), 0u);  // CPU path: no device memory
}

// Storage grows when the particle count and the cell count grow, on both devices.
class CellGrowth : public ::testing::TestWithParam<Device> {};

TEST_P(CellGrowth, MoreParticlesAndCells) {
  const Device device = GetParam();
  CELLTEST_SKIP_WITHOUT(device);
  sph::cell::CellStrategy cell;
  size_t bytesBefore = 0;
  for (int stage = 0; stage < 2; ++stage) {
    Domain d;
    const double scale = stage == 0 ? 1.0 : 2.0;
    for (int k = 0; k < 3; ++k) d.max[k] = scale;
    const uint32_t n = stage == 0 ? 200 : 4000;
    const HostParticles<float> particles = randomParticles(3, n, n / 5, d, 7 + stage).as<float>();
    Harness<float> run(device, particles);
    cell.configure(makeContext(device, Precision::Single, 3, 0.08, d, CellMode::Half, run.reorderer()));
    cell.prepare(run.view(), sph::PrepareReason::ParticlesChanged);
    const auto found = pairsById(cell.search().pairsWithin(run.view(), 0.08), run.particles().id);
    const auto now = run.particles();
    const double band = device == Device::Gpu ? 64 * 1.2e-7 : 0.0;
    EXPECT_TRUE(pairSetMismatches(now, bruteForcePairs(now, 0.08), found, 0.08, band).empty()) << "stage " << stage;
    if (device == Device::Gpu) {
      EXPECT_GT(cell.deviceBytes(), bytesBefore) << "stage " << stage;
      EXPECT_GE(cell.peakDeviceBytes(), cell.deviceBytes());
      // keys and indices (double-buffered) and the start table, at least
      EXPECT_GE(cell.deviceBytes(), 4 * n * sizeof(uint32_t) + (2 * size_t(cell.search().grid().ncells) + 1) * sizeof(uint32_t));
      bytesBefore = cell.deviceBytes();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cell, CellGrowth, ::testing::Values(Device::Cpu, Device::Gpu),
                         [](const auto& info) { return std::string(sph::deviceName(info.param)); });

// Over several ranks the halo reaches a skin beyond the support, and an exchange is due once a
// particle has moved half the skin since the last one (PrepareReason::ParticlesChanged), through
// the sorts in between: the places it is measured from follow every reorder.
class CellHaloSkin : public ::testing::TestWithParam<std::tuple<Device, Precision>> {};

template <typename T>
void checkHaloSkin(Device device) {
  const double support = 0.08, skin = sph::cell::CellStrategy::kHaloSkin * support;
  Domain d;
  // More particles than the GPU's displacement check takes in one stride of its blocks.
  Harness<T> run(device, randomParticles(3, 300000, 60000, d, 11).as<T>());
  sph::cell::CellStrategy cell;
  EXPECT_DOUBLE_EQ(cell.haloReach(support), support + skin);
  auto ctx = makeContext(device, sizeof(T) == 8 ? Precision::Double : Precision::Single, 3, support, d, CellMode::Full,
                         run.reorderer());
  cell.configure(ctx);
  cell.prepare(run.view(), sph::PrepareReason::Step);
  EXPECT_TRUE(cell.rebuildDue(run.view())) << "on one rank: no halo, the default's answer";
  ctx.ranks = 2;
  cell.configure(ctx);
  EXPECT_TRUE(cell.rebuildDue(run.view())) << "no places saved yet";
  cell.prepare(run.view(), sph::PrepareReason::ParticlesChanged);
  EXPECT_FALSE(cell.rebuildDue(run.view()));
  // Everything by 0.2 skin along x, twice, each time sorted (particles change places in the
  // order): 0.4 skin from the saved places, if the places followed the sorts.
  auto move = [&](auto&& change) {
    HostParticles<T> p = run.particles();
    for (uint32_t i = 0; i < p.size(); ++i) change(p, i);
    run.setParticles(p);
  };
  const std::vector<uint32_t> before = run.particles().id;
  for (int k = 0; k < 2; ++k) {
    move([&](HostParticles<T>& p, uint32_t i) { p.pos[i].x += T(0.2 * skin); });
    cell.prepare(run.view(), sph::PrepareReason::Step);
    EXPECT_FALSE(cell.rebuildDue(run.view())) << "shift " << k;
  }
  EXPECT_NE(run.particles().id, before) << "the sorts reordered nothing: the test would not test the following";
  // One particle further along y: 0.4 along x and 0.29 along y is less than half a skin, 0.4 and
  // 0.5 more.
  const uint32_t chosen = 1234;
  auto moveChosen = [&](double dy) {
    move([&](HostParticles<T>& p, uint32_t i) {
      if (p.id[i] == chosen) p.pos[i].y += T(dy);
    });
  };
  moveChosen(0.29 * skin);
  EXPECT_FALSE(cell.rebuildDue(run.view()));
  moveChosen(0.21 * skin);
  EXPECT_TRUE(cell.rebuildDue(run.view()));
  // A parked particle (excluded, far away) does not count.
  move([&](HostParticles<T>& p, uint32_t i) {
    if (p.id[i] == chosen) p.code[i] |= sph::code::kParkedBit;
  });
  EXPECT_FALSE(cell.rebuildDue(run.view()));
  moveChosen(10.0);
  EXPECT_FALSE(cell.rebuildDue(run.view()));
  // After an exchange the places start again.
  move([&](HostParticles<T>& p, uint32_t i) {
    if (p.id[i] == chosen) p.code[i] &= ~sph::code::kParkedBit;
  });
  EXPECT_TRUE(cell.rebuildDue(run.view()));
  cell.prepare(run.view(), sph::PrepareReason::ParticlesChanged);
  EXPECT_FALSE(cell.rebuildDue(run.view()));
  // A checkpoint keeps the places: a strategy that takes them back decides as this one does.
  moveChosen(0.6 * skin);
  ASSERT_TRUE(cell.rebuildDue(run.view()));
  const std::vector<uint8_t> state = cell.saveState();
  sph::cell::CellStrategy resumed;
  resumed.configure(ctx);
  EXPECT_TRUE(resumed.rebuildDue(run.view())) << "no places yet";
  resumed.restoreState(state);
  EXPECT_TRUE(resumed.rebuildDue(run.view()));
  moveChosen(-0.6 * skin);
  EXPECT_FALSE(resumed.rebuildDue(run.view()));
  EXPECT_THROW(resumed.restoreState(std::vector<uint8_t>(state.begin(), state.end() - 1)), sph::RunError);
  // A position that is not a number bounds nothing.
  move([&](HostParticles<T>& p, uint32_t i) {
    if (p.id[i] == chosen) p.pos[i].z = std::numeric_limits<T>::quiet_NaN();
  });
  EXPECT_TRUE(cell.rebuildDue(run.view()));
  // A rank without particles (all gone to the others) needs no exchange of its own.
  HostParticles<T> none;
  HostReorderer<T> noReorder(none);
  sph::cell::CellStrategy empty;
  ctx.device = Device::Cpu;
  ctx.reorderer = &noReorder;
  empty.configure(ctx);
  empty.prepare(none.view(), sph::PrepareReason::ParticlesChanged);
  EXPECT_FALSE(empty.rebuildDue(none.view()));
  // On one rank there is nothing to keep.
  ctx.ranks = 1;
  empty.configure(ctx);
  EXPECT_TRUE(empty.saveState().empty());
}

TEST_P(CellHaloSkin, AnExchangeIsDueOnceAParticleMovedHalfTheSkin) {
  const auto [device, precision] = GetParam();
  CELLTEST_SKIP_WITHOUT(device);
  if (precision == Precision::Double)
    checkHaloSkin<double>(device);
  else
    checkHaloSkin<float>(device);
}

INSTANTIATE_TEST_SUITE_P(Cell, CellHaloSkin,
                         ::testing::Combine(::testing::Values(Device::Cpu, Device::Gpu),
                                            ::testing::Values(Precision::Single, Precision::Double)),
                         [](const auto& info) {
                           return std::string(sph::deviceName(std::get<0>(info.param))) + "_" +
                                  sph::precisionName(std::get<1>(info.param));
                         });

TEST(CellStrategy, HaloSkinPlacesInTheMemoryEstimate) {
  sph::cell::CellStrategy cell;
  sph::MemoryQuery q;
  q.dp = 0.01;
  q.support = 0.03;
  q.particles = 1000000;
  const double one = cell.estimateMemory(q).front().bytes;
  q.ranks = 2;
  EXPECT_DOUBLE_EQ(cell.estimateMemory(q).front().bytes, one + 32.0 * 1e6);
  q.precision = Precision::Double;
  q.ranks = 1;
  const double oneDouble = cell.estimateMemory(q).front().bytes;
  q.ranks = 2;
  EXPECT_DOUBLE_EQ(cell.estimateMemory(q).front().bytes, oneDouble + 64.0 * 1e6);
}

TEST(CellStrategy, GpuRequestWithoutCuda) {
  if (sph::gpu::builtWithCuda()) GTEST_SKIP() << "built with CUDA: the GPU backend exists";
  HostParticles<float> p = smallLattice(0);
  HostReorderer<float> reorderer(p);
  sph::cell::CellStrategy cell;
  EXPECT_THROW(cell.configure(makeContext(Device::Gpu, Precision::Single, 3, 0.25, Domain{}, CellMode::Full, &reorderer)),
               sph::RunError);
}

TEST(CellPlugin, DescriptorThroughDlopen) {
  const std::filesystem::path lib = std::filesystem::path(SPH_PLUGIN_BUILD_DIR) / "libsph_cell.so";
  if (!std::filesystem::exists(lib)) GTEST_SKIP() << lib << " not built";
  void* handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(handle, nullptr) << dlerror();
  auto entry = reinterpret_cast<SphPluginEntryFn>(dlsym(handle, SPH_PLUGIN_ENTRY_SYMBOL));
  ASSERT_NE(entry, nullptr) << "missing " << SPH_PLUGIN_ENTRY_SYMBOL;
  const SphPluginDescriptor* d = entry();
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->descriptorVersion, SPH_PLUGIN_DESCRIPTOR_VERSION);
  EXPECT_STREQ(d->headersHash, SPH_PLUGIN_HEADERS_HASH);
  EXPECT_EQ(d->layoutHash, sph::abi::kLayoutHash);
  EXPECT_STREQ(d->name, "cell");
  EXPECT_GT(std::string(d->description).size(), 10u);
  sph::NeighbourStrategy* s = d->create();
  ASSERT_NE(s, nullptr);
  EXPECT_STREQ(s->name(), "cell");
  d->destroy(s);
  dlclose(handle);
}

}  // namespace
}  // namespace celltest
