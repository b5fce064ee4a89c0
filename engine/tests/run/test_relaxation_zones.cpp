// Relaxation zones (run/relaxation_zones.h, physics/relaxation_zone_physics.h): the weight as
// DualSPHysics logs its constants, the zones' time windows and velocity tables, the blend of one
// particle, and RelaxZone_id0.csv against the file DualSPHysics 5.4 wrote for the same case. The
// whole runs are checked against DualSPHysics in validation/test_dualsphysics_agreement.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "run/relaxation_zones.h"
#include "test_support.h"

namespace sph {
namespace {

// DualSPHysics' log: "psi:0.9 beta:1 (sub:0.856569 div:0.576026)", "psi:0.8 beta:2 (sub:0.618559
// div:1.22478)".
TEST(RelaxationZones, WeightIsOneAtTheCentreAndZeroAtTheEdges) {
  for (auto [psi, beta, sub, div] : {std::tuple{0.9, 1.0, 0.856569, 0.576026}, {0.8, 2.0, 0.618559, 1.22478}}) {
    RelaxZoneStep z;
    z.psi = psi;
    z.beta = beta;
    relax::weightConstants(psi, beta, z.sub, z.div);
    EXPECT_NEAR(z.sub, sub, 1e-6);
    EXPECT_NEAR(z.div, div, 1e-5);
    EXPECT_NEAR(relax::weight(z, 0), 1, 1e-15);
    EXPECT_NEAR(relax::weight(z, 1), 0, 1e-15);
    EXPECT_NEAR(relax::weight(z, -1), 0, 1e-15);
    EXPECT_NEAR(relax::weight(z, 0.4), relax::weight(z, -0.4), 1e-15);
    EXPECT_LT(relax::weight(z, 0.6), relax::weight(z, 0.3));
  }
}

CaseDefinition relaxZones2D() {
  return loadCase(std::string(SPH_SOURCE_DIR) + "/engine/tests/data/dualsphysics/RelaxZones2D_Def.xml");
}

// RelaxZones2D: the wave zone to the end of the run (0.1 s); the uniform zone from 2 ms for 4 ms
// at the velocity of its table at the step's start.
TEST(RelaxationZones, TimeWindowsAndVelocityTable) {
  const CaseDefinition c = relaxZones2D();
  const RelaxationZones zones(c.relaxZones, 9.81, 0.1, c.dp);
  std::vector<RelaxZoneStep> s;
  zones.stepZones(0.0, nullptr, s);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].kind, RelaxKind::Regular);
  zones.stepZones(0.003, nullptr, s);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[1].kind, RelaxKind::Uniform);
  // 0 at 0 s to 0.5 at 4 ms: 0.375 at 3 ms, along (-cos 20, 0, sin 20).
  EXPECT_NEAR(s[1].velocity[0], -0.375 * std::cos(20 * M_PI / 180), 1e-12);
  EXPECT_NEAR(s[1].velocity[2], 0.375 * std::sin(20 * M_PI / 180), 1e-12);
  EXPECT_DOUBLE_EQ(s[1].coefDt, 2000);
  zones.stepZones(0.006, nullptr, s);
  EXPECT_EQ(s.size(), 1u);
  zones.stepZones(0.1, nullptr, s);
  EXPECT_EQ(s.size(), 0u);
}

// One particle at the wave zone's centre with coefdt 0 takes the target velocity; at its edge,
// outside it, or on a wall, nothing changes.
TEST(RelaxationZones, BlendOfOneParticle) {
  CaseDefinition c = relaxZones2D();
  c.relaxZones.uniform.clear();
  c.relaxZones.waves[0].common.coefDt = 0;
  c.relaxZones.waves[0].coefDir = {1, 0, 1};
  c.relaxZones.waves[0].drift = 0;
  const RelaxationZones zones(c.relaxZones, 9.81, 0.1, c.dp);
  std::vector<RelaxZoneStep> s;
  zones.stepZones(0.05, nullptr, s);
  ASSERT_EQ(s.size(), 1u);
  std::vector<Real4<double>> pos{{0.8, 0, 0.3, 0}, {0.8, 0, 0.3, 0}, {2.5, 0, 0.3, 0}, {0.2, 0, 0.3, 0}};
  std::vector<Real4<double>> vel(4, Real4<double>{0.05, 0.01, -0.02, 1000});
  const std::vector<uint32_t> code{code::make(false, 0), code::make(true, 0), code::make(false, 0),
                                   code::make(false, 0)};
  for (uint32_t i = 0; i < 4; ++i) relaxParticle(i, pos.data(), vel.data(), code.data(), s[0], 1e-4);
  // Second-order Stokes waves, H 0.1 m, T 1.5 s, d 0.5 m, phase 0.3 pi, at the zone's centre
  // 0.2 m below the still water, 0.05 s after the start.
  const double g = 9.81, T = 1.5, d = 0.5, H = 0.1, w = 2 * M_PI / T;
  double k = 1;
  for (int i = 0; i < 200; ++i) k = w * w / (g * std::tanh(k * d));
  const double th = w * 0.05 + 0.3 * M_PI, zr = -0.2, sh = std::sinh(k * d);
  const double c2 = 0.75 * std::pow(H * k / 2, 2) * w / k;
  const double u = w * H / 2 * std::cosh(k * (d + zr)) / sh * std::cos(th) +
                   c2 * std::cosh(2 * k * (d + zr)) * std::cos(2 * th) / std::pow(sh, 4);
  const double uz = -w * H / 2 * std::sinh(k * (d + zr)) / sh * std::sin(th) -
                    c2 * std::sinh(2 * k * (d + zr)) * std::sin(2 * th) / std::pow(sh, 4);
  EXPECT_NEAR(vel[0].x, u, 1e-12);
  EXPECT_NEAR(vel[0].z, uz, 1e-12);
  EXPECT_EQ(vel[0].y, 0.01);
  for (int i : {1, 2}) {
    EXPECT_EQ(vel[i].x, 0.05);
    EXPECT_EQ(vel[i].z, -0.02);
  }
  EXPECT_NEAR(vel[3].x, 0.05, 1e-15);  // the zone's edge: weight 0
}

std::vector<std::vector<double>> dataRows(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::vector<std::vector<double>> rows;
  std::string line;
  bool data = false;
  while (std::getline(in, line)) {
    if (line.rfind("Time [s]", 0) == 0) {
      data = true;
      continue;
    }
    if (!data || line.empty()) continue;
    std::vector<double> r;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ';')) r.push_back(std::stod(cell));
    rows.push_back(r);
  }
  return rows;
}

// RelaxZone_id0.csv of RelaxZones2D (second order, phase 0.3 pi, 2 periods of 20 rows, xpos 0.8,
// zpos -0.2; the run ends at 0.1 s) against DualSPHysics' own, which prints 6 decimals.
TEST(RelaxationZones, SaveMotionFileAsDualSphysicsWritesIt) {
  const CaseDefinition c = relaxZones2D();
  const RelaxationZones zones(c.relaxZones, 9.81, 0.1, c.dp);
  const auto dir = test::tempDir("relax_savemotion");
  zones.writeSaveMotions(dir.string(), 0.1);
  const auto ours = dataRows((dir / "RelaxZone_id0.csv").string());
  const auto ds = dataRows(test::dualsphysicsData("RelaxZones2D_RelaxZone_id0.csv"));
  ASSERT_EQ(ours.size(), ds.size());
  ASSERT_EQ(ds.size(), 41u);
  for (size_t i = 0; i < ds.size(); ++i) {
    ASSERT_EQ(ours[i].size(), ds[i].size()) << "row " << i;
    for (size_t j = 0; j < ds[i].size(); ++j) EXPECT_NEAR(ours[i][j], ds[i][j], 1.5e-6) << "row " << i << " column " << j;
  }
  EXPECT_NE(ds[1][1], 0);  // 0.075 s: waves; 0.15 s: the run has ended
  EXPECT_EQ(ds[2][1], 0);
}

}  // namespace
}  // namespace sph
