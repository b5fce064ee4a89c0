// Planar polygons cut into triangles (geometry/polygon_triangles.h): the triangles cover the
// polygon once (their areas add up to its area, and each keeps the polygon's orientation), convex
// or not, in any plane; what has no region to draw is refused. GenCase's particles for such
// polygons are checked in test_gencase_parity (GcPolygon_Def.xml).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "case/loader.h"
#include "geometry/polygon_triangles.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace {

using sph::Vec3d;
using sph::gen::PolygonError;
using sph::gen::polygonTriangles;

Vec3d minus(const Vec3d& a, const Vec3d& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec3d crossOf(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dotOf(const Vec3d& a, const Vec3d& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// The polygon's vector area (Newell), and the sum of its triangles', each checked to face the same way.
void expectCovered(const std::vector<Vec3d>& p) {
  Vec3d area{0, 0, 0};
  for (size_t i = 0; i < p.size(); ++i) {
    const Vec3d c = crossOf(p[i], p[(i + 1) % p.size()]);
    area = {area.x + c.x / 2, area.y + c.y / 2, area.z + c.z / 2};
  }
  const auto tris = polygonTriangles(p);
  ASSERT_EQ(tris.size(), p.size() - 2);
  double sum = 0;
  for (const auto& t : tris) {
    const Vec3d c = crossOf(minus(p[t[1]], p[t[0]]), minus(p[t[2]], p[t[0]]));
    EXPECT_GE(dotOf(c, area), 0) << "a triangle faces the other way (it lies outside the polygon)";
    sum += std::sqrt(dotOf(c, c)) / 2;
  }
  EXPECT_NEAR(sum, std::sqrt(dotOf(area, area)), 1e-12);
}

TEST(PolygonTriangles, ConvexConcaveAndTilted) {
  expectCovered({{0, 0, 0}, {1, 0, 0}, {0.9, 0.5, 0}, {0.5, 0.9, 0}, {0, 1, 0}, {-0.5, 0.9, 0}});
  // An L with a notch, both ways round.
  std::vector<Vec3d> notch = {{0, 0, 0.5},      {0, 0.53, 0.5},   {0.31, 0.53, 0.5}, {0.31, 0.2, 0.5},
                              {0.6, 0.35, 0.5}, {0.77, 0.2, 0.5}, {0.77, 0, 0.5}};
  expectCovered(notch);
  std::reverse(notch.begin(), notch.end());
  expectCovered(notch);
  expectCovered({{-1, -1, 0.8}, {-0.2, -1, 1.2}, {-0.2, -0.4, 1.2}, {-0.6, -0.7, 1.0}, {-1, -0.3, 0.8}});
  // A vertical comb: many reflex corners, in the x-z plane.
  expectCovered({{0, 0, 0}, {4, 0, 0}, {4, 0, 2}, {3, 0, 1}, {2, 0, 2}, {1, 0, 1}, {0, 0, 2}});
}

TEST(PolygonTriangles, WhatHasNoRegionIsRefused) {
  auto error = [](const std::vector<Vec3d>& p) {
    try {
      polygonTriangles(p);
    } catch (const PolygonError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_NE(error({{0, 0, 0}, {1, 0, 0}}).find("at least 3"), std::string::npos);
  EXPECT_NE(error({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}).find("no area"), std::string::npos);
  EXPECT_NE(error({{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0.1}}).find("off the plane"), std::string::npos);
  EXPECT_NE(error({{0, 0, 0}, {2, 2, 0}, {2, 0, 0}, {0, 1, 0}}).find("cross"), std::string::npos);
}

TEST(PolygonTriangles, ACaseWithABentPolygonNamesTheElement) {
  std::string xml = sph::test::smallTankWithSpecial("", "");
  const std::string polygon =
      "<setmkbound mk=\"5\" />\n<drawpolygon>\n<point x=\"0\" y=\"0\" z=\"0.5\" />"
      "<point x=\"0.1\" y=\"0\" z=\"0.5\" /><point x=\"0.1\" y=\"0\" z=\"0.6\" />"
      "<point x=\"0\" y=\"0.1\" z=\"0.6\" /></drawpolygon>\n";
  xml.insert(xml.find("</mainlist>"), polygon);
  sph::test::expectLoadError("polygon_bent", xml, "<drawpolygon>", "<drawpolygon>", "off the plane");
}

}  // namespace
