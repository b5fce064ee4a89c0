// Mesh data (model/mesh_data.h) in time and space as DualSPHysics' JMeshTDatas interpolates it:
// the frames around a time (and the loop of <timeloop>), and linear, bilinear and trilinear values
// on grids whose axes need not be the coordinate axes. The expected values are worked by hand from
// the grids' definitions; single precision throughout, so 1e-6 relative.
#include <gtest/gtest.h>

#include <cmath>

#include "model/mesh_data.h"
#include "sph/plugin/errors.h"

namespace sph {
namespace {

// A grid of nx x ny x nz points with value f(i, j, k) at times 0 and 1 (the second frame doubled).
template <typename F>
MeshData grid(uint32_t nx, uint32_t ny, uint32_t nz, Vec3d origin, Vec3d u, Vec3d v, Vec3d w, F f) {
  MeshData m;
  m.npt[0] = nx;
  m.npt[1] = ny;
  m.npt[2] = nz;
  m.origin = origin;
  m.vdp[0] = u;
  m.vdp[1] = v;
  m.vdp[2] = w;
  m.times = {0, 1};
  for (int frame = 1; frame <= 2; ++frame)
    for (uint32_t k = 0; k < nz; ++k)
      for (uint32_t j = 0; j < ny; ++j)
        for (uint32_t i = 0; i < nx; ++i) m.values.push_back(float(frame * f(i, j, k)));
  return m;
}

float at(const MeshData& m, double t, Vec3d p) {
  float out[3];
  meshValueAt(m, meshInterpolation(m), t, p, out);
  return out[0];
}

TEST(MeshData, FramesAroundATimeClampedAtTheEnds) {
  MeshData m;
  m.times = {0.5, 1.0, 2.0};
  MeshFrames f = meshFramesAt(m, 0.2);
  EXPECT_EQ(f.a, 0u);
  EXPECT_EQ(f.f, 0.0f);  // before the first: the first
  f = meshFramesAt(m, 1.5);
  EXPECT_EQ(f.a, 1u);
  EXPECT_EQ(f.b, 2u);
  EXPECT_FLOAT_EQ(f.f, 0.5f);
  f = meshFramesAt(m, 1.0);  // on a frame: that frame's values
  EXPECT_EQ(f.b, 1u);
  EXPECT_EQ(f.f, 1.0f);
  f = meshFramesAt(m, 9);
  EXPECT_EQ(f.b, 2u);
  EXPECT_EQ(f.f, 1.0f);
}

// <timeloop tbegin="1.1" tend="3.2"> on frames at 0, 1, 2, 3, 4: the frames after 3.2 go, the last
// kept (3) takes the values of the one nearest 1.1 (1), and from 3 on the time goes back by 2.
TEST(MeshData, LoopWrapsTheTimeBackToTheFrameNearestItsStart) {
  MeshData m;
  m.times = {0, 1, 2, 3, 4};
  m.values = {10, 11, 12, 13, 14};
  meshLoop(m, 1.1, 3.2);
  ASSERT_EQ(m.times.size(), 4u);
  EXPECT_EQ(m.values.back(), 11.0f);
  EXPECT_EQ(m.loopEnd, 3.0);
  EXPECT_EQ(m.loopSpan, 2.0);
  const MeshInterp none = meshInterpolation(m);
  float v[3];
  meshValueAt(m, none, 2.5, {0, 0, 0}, v);
  EXPECT_FLOAT_EQ(v[0], 11.5f);  // between 12 and the loop's 11
  meshValueAt(m, none, 3.5, {0, 0, 0}, v);
  EXPECT_FLOAT_EQ(v[0], 11.5f);  // 3.5 is 1.5
  meshValueAt(m, none, 7.25, {0, 0, 0}, v);
  EXPECT_FLOAT_EQ(v[0], 11.25f);  // 7.25 is 1.25
  // No frame after the one nearest the start: refused.
  MeshData bad;
  bad.file = "f.csv";
  bad.times = {0, 1, 2};
  bad.values = {1, 2, 3};
  EXPECT_THROW(meshLoop(bad, 1.9, 2.0), InputError);
}

// A slanted line of 4 points 0.1 m apart along (0.6, 0, 0.8) from (1, 0, 2), values 1, 2, 4, 8:
// a position takes the distance of its foot along the line.
TEST(MeshData, LinearAlongASlantedAxisClampedAtItsEnds) {
  const double v[] = {1, 2, 4, 8};
  const MeshData m =
      grid(4, 1, 1, {1, 0, 2}, {0.06, 0, 0.08}, {}, {}, [&](uint32_t i, uint32_t, uint32_t) { return v[i]; });
  const MeshInterp in = meshInterpolation(m);
  EXPECT_EQ(in.axes, 1u);
  // 0.15 m along, and 0.3 m off the line sideways (along (0.8, 0, -0.6)): between points 1 and 2.
  const Vec3d p{1 + 0.15 * 0.6 + 0.3 * 0.8, 0.7, 2 + 0.15 * 0.8 - 0.3 * 0.6};
  EXPECT_NEAR(at(m, 0, p), 3.0, 3e-6);
  EXPECT_NEAR(at(m, 0.5, p), 4.5, 5e-6);  // the frames 1x and 2x, halfway
  EXPECT_EQ(at(m, 0, {0, 0, 0}), 1.0f);   // before the first point
  EXPECT_EQ(at(m, 0, {3, 0, 5}), 8.0f);   // past the last
}

TEST(MeshData, BilinearAndTrilinear) {
  // f = 1 + i + 10 j + 100 k is linear: every interpolation gives it back exactly inside.
  const auto f = [](uint32_t i, uint32_t j, uint32_t k) { return 1.0 + i + 10.0 * j + 100.0 * k; };
  const MeshData xz = grid(3, 1, 4, {0, 0, 0}, {0.5, 0, 0}, {}, {0, 0, 0.25}, f);
  EXPECT_EQ(meshInterpolation(xz).axes, 2u);
  EXPECT_NEAR(at(xz, 0, {0.6, 3, 0.3}), 1 + 1.2 + 120, 2e-4);
  const MeshData xyz = grid(3, 2, 4, {1, 1, 1}, {0.5, 0, 0}, {0, 2, 0}, {0, 0, 0.25}, f);
  EXPECT_EQ(meshInterpolation(xyz).axes, 3u);
  EXPECT_NEAR(at(xyz, 0, {1.6, 2.5, 1.3}), 1 + 1.2 + 7.5 + 120, 2e-4);
  // Clamped per axis: past the last j and below the first k.
  EXPECT_NEAR(at(xyz, 0, {1.6, 9, -4}), 1 + 1.2 + 10, 2e-4);
  // A bilinear surface that is not linear: the cell's midpoint is the mean of its corners.
  const MeshData saddle = grid(2, 2, 1, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {},
                               [](uint32_t i, uint32_t j, uint32_t) { return double(i * j); });
  EXPECT_FLOAT_EQ(at(saddle, 0, {0.5, 0.5, 7}), 0.25f);
}

// Per-column data (a zsurf, data12) of a grid with points in z too: only the first two axes.
TEST(MeshData, PerColumnDataUsesTheFirstTwoAxes) {
  MeshData m = grid(2, 2, 1, {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {},
                    [](uint32_t i, uint32_t j, uint32_t) { return 1.0 + i + 2.0 * j; });
  m.npt[2] = 5;
  m.vdp[2] = {0, 0, 0.1};
  m.data12 = true;
  EXPECT_EQ(meshInterpolation(m).axes, 2u);
  EXPECT_FLOAT_EQ(at(m, 0, {0.25, 0.5, 0.3}), 2.25f);
}

TEST(MeshData, VectorsComponentByComponent) {
  MeshData m;
  m.components = 3;
  m.npt[2] = 2;
  m.vdp[2] = {0, 0, 1};
  m.times = {0};
  m.values = {1, 2, 3, 3, 6, 9};
  float v[3];
  meshValueAt(m, meshInterpolation(m), 0, {0, 0, 0.5}, v);
  EXPECT_FLOAT_EQ(v[0], 2);
  EXPECT_FLOAT_EQ(v[1], 4);
  EXPECT_FLOAT_EQ(v[2], 6);
}

}  // namespace
}  // namespace sph
