// Inlet/outlet zones per particle (physics/inout_physics.h, inout/inout_ops.h): the end-of-step
// rules of DualSPHysics 5.4's JSphInOut::ComputeStepCpu and CreateListCpu at chosen points, the
// imposed velocity profiles and hydrostatic density against their formulas, the time
// interpolation of a velocity table, and the integrators moving buffer particles with their
// imposed velocity alone.
#include <gtest/gtest.h>

#include <array>

#include <cmath>
#include <vector>

#include "inout/inout_ops.h"
#include "inout/inout_zones.h"
#include "physics/integrator_physics.h"
#include "physics/time_step.h"

namespace sph {
namespace {

// A zone whose plane is x = 0 with the domain on +x (an inlet on the left), 4 layers of dp 0.01.
InOutZoneData leftZone() {
  InOutZoneData z;
  z.dir[0] = 1;
  z.width = 0.04;
  z.boxMin[0] = -0.045;
  z.boxMax[0] = 0;
  z.boxMin[1] = -1;
  z.boxMax[1] = 1;
  z.boxMin[2] = 0;
  z.boxMax[2] = 0.1;
  z.refillFull = true;
  return z;
}

InOutParams paramsOf(const std::vector<InOutZoneData>& zones) {
  InOutParams p;
  p.zones = zones.data();
  p.count = uint32_t(zones.size());
  return p;
}

TEST(InOutPhysics, BufferParticleCrossingThePlaneBecomesFluidAndIsReplaced) {
  const std::vector<InOutZoneData> zones{leftZone()};
  const InOutParams p = paramsOf(zones);
  const uint32_t buffer = code::toInOut(code::make(false, 1), 0);
  uint32_t zone = 9;
  EXPECT_EQ(inOutClassify(buffer, -0.005, 0, 0.05, p, &zone), InOutAction::None);  // inside the buffer
  EXPECT_EQ(inOutClassify(buffer, 0.001, 0, 0.05, p, &zone), InOutAction::ToFluidSpawn);
  EXPECT_EQ(zone, 0u);
  EXPECT_EQ(inOutClassify(buffer, -0.041, 0, 0.05, p, &zone), InOutAction::Remove);  // out through the back
  EXPECT_EQ(inOutClassify(buffer, -0.039, 0, 0.05, p, &zone), InOutAction::None);
}

TEST(InOutPhysics, RefillingBelowZsurfOnlyReplacesParticlesAtOrBelowIt) {
  std::vector<InOutZoneData> zones{leftZone()};
  zones[0].refillFull = false;
  zones[0].zsurf = 0.06;
  const InOutParams p = paramsOf(zones);
  const uint32_t buffer = code::toInOut(code::make(false, 1), 0);
  uint32_t zone = 0;
  EXPECT_EQ(inOutClassify(buffer, 0.001, 0, 0.06, p, &zone), InOutAction::ToFluidSpawn);
  EXPECT_EQ(inOutClassify(buffer, 0.001, 0, 0.0601, p, &zone), InOutAction::ToFluid);
  // With <remove value="true">, a buffer particle above zsurf goes.
  zones[0].removeZsurf = true;
  EXPECT_EQ(inOutClassify(buffer, -0.01, 0, 0.07, p, &zone), InOutAction::Remove);
}

TEST(InOutPhysics, FluidEnteringAZoneFollowsItsInputTreatment) {
  std::vector<InOutZoneData> zones{leftZone()};
  const InOutParams p = paramsOf(zones);
  const uint32_t fluid = code::make(false, 1);
  uint32_t zone = 7;
  // Input 0: not even looked at.
  EXPECT_EQ(inOutClassify(fluid, -0.01, 0, 0.05, p, &zone), InOutAction::None);
  zones[0].checkInput = true;
  zones[0].input = 1;
  EXPECT_EQ(inOutClassify(fluid, -0.01, 0, 0.05, p, &zone), InOutAction::ToBuffer);
  EXPECT_EQ(zone, 0u);
  EXPECT_EQ(inOutClassify(fluid, 0.01, 0, 0.05, p, &zone), InOutAction::None);    // in the domain
  EXPECT_EQ(inOutClassify(fluid, -0.01, 0, 0.15, p, &zone), InOutAction::None);   // above the box
  zones[0].useBox = false;                                                        // the half-space
  EXPECT_EQ(inOutClassify(fluid, -0.01, 0, 0.15, p, &zone), InOutAction::ToBuffer);
  zones[0].input = 2;
  EXPECT_EQ(inOutClassify(fluid, -0.01, 0, 0.05, p, &zone), InOutAction::Remove);
  // Input 0 with remove above zsurf: fluid entering above it is removed, below it left alone.
  zones[0].input = 0;
  zones[0].removeZsurf = true;
  zones[0].zsurf = 0.05;
  EXPECT_EQ(inOutClassify(fluid, -0.01, 0, 0.06, p, &zone), InOutAction::Remove);
  EXPECT_EQ(inOutClassify(fluid, -0.01, 0, 0.04, p, &zone), InOutAction::None);
}

TEST(InOutPhysics, ProfilesAndTheirTimeInterpolation) {
  double c[3];
  InOutVelocityRow linear;
  linear.v[0] = 1;
  linear.v[1] = 3;
  linear.z[0] = 2;
  linear.z[1] = 3;
  inOutProfileCoefficients(InOutProfile::Linear, linear, c);
  EXPECT_DOUBLE_EQ(inOutProfile(c, 2.0), 1.0);
  EXPECT_DOUBLE_EQ(inOutProfile(c, 2.5), 2.0);
  EXPECT_DOUBLE_EQ(inOutProfile(c, 4.0), 5.0);  // DualSPHysics extrapolates, no clamp
  InOutVelocityRow parabola;
  const double v[3] = {0, 0.608, 3}, z[3] = {4, 4.5, 5};
  for (int k = 0; k < 3; ++k) {
    parabola.v[k] = v[k];
    parabola.z[k] = z[k];
  }
  inOutProfileCoefficients(InOutProfile::Parabolic, parabola, c);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(inOutProfile(c, z[k]), v[k], 1e-12);

  // A table 0 s: 2 m/s, 2 s: 0 m/s: 1 m/s at 1 s, constant outside.
  InOutZoneData zone = leftZone();
  zone.ca[0] = 2;
  zone.cb[0] = 0;
  zone.ta = 0;
  zone.tb = 2;
  InOutParams p;
  p.rho0 = 1000;
  double vel[3], rho;
  for (const auto& [t, want] : std::vector<std::pair<double, double>>{{-1, 2}, {1, 1}, {2, 0}, {3, 0}}) {
    p.time = t;
    inOutImposed(zone, p, std::array<double, 3>{-0.03, 0, 0.05}.data(), vel, &rho);
    EXPECT_DOUBLE_EQ(vel[0], want) << "t " << t;
    EXPECT_EQ(vel[1], 0);
    EXPECT_EQ(rho, 1000);
  }
}

TEST(InOutPhysics, HydrostaticDensityInvertsTaitBelowZsurfAndIsRho0AboveIt) {
  InOutZoneData zone = leftZone();
  zone.density = 1;
  zone.zsurf = 0.1;
  zone.refillFull = false;
  InOutParams p;
  p.rho0 = 1000;
  const double b = 56057.1, gamma = 7;
  p.coefHydro = 1000 * 9.81 / b;
  p.invGamma = 1 / gamma;
  double v[3], rho;
  inOutImposed(zone, p, std::array<double, 3>{-0.03, 0, 0.0}.data(), v, &rho);
  // Tait's pressure of that density is rho0 g depth.
  EXPECT_NEAR(b * (std::pow(rho / 1000, gamma) - 1), 1000 * 9.81 * 0.1, 1e-6);
  inOutImposed(zone, p, std::array<double, 3>{-0.03, 0, 0.2}.data(), v, &rho);
  EXPECT_EQ(rho, 1000);
  // Refilling 0 holds the buffer above zsurf still.
  zone.refillFull = true;
  zone.ca[0] = zone.cb[0] = 0.5;
  inOutImposed(zone, p, std::array<double, 3>{-0.03, 0, 0.2}.data(), v, &rho);
  EXPECT_EQ(v[0], 0);
  inOutImposed(zone, p, std::array<double, 3>{-0.03, 0, 0.05}.data(), v, &rho);
  EXPECT_EQ(v[0], 0.5);
}

// <jetcircle>: deeper than dp behind the plane the zone's uniform velocity; nearer, aimed from
// the particle at the jet's circle, its offset from the axis shrunk by jet radius / zone radius.
TEST(InOutPhysics, JetCircleAimsTheFrontLayerAtTheJet) {
  InOutZoneData zone = leftZone();
  zone.ca[0] = zone.cb[0] = 2;
  zone.jet = 1;
  zone.jetCentre[0] = 0.2;  // 0.2 m ahead of the plane x = 0
  zone.jetFraction = 0.05 / 0.1;
  zone.jetReach = 0.01;
  InOutParams p;
  p.rho0 = 1000;
  double v[3], rho;
  inOutImposed(zone, p, std::array<double, 3>{-0.03, 0.08, 0}.data(), v, &rho);
  EXPECT_EQ(v[0], 2);
  EXPECT_EQ(v[1], 0);
  inOutImposed(zone, p, std::array<double, 3>{-0.005, 0.08, 0}.data(), v, &rho);
  const double aim[2] = {0.2 + 0.005, 0.04 - 0.08}, length = std::hypot(aim[0], aim[1]);
  EXPECT_NEAR(v[0], 2 * aim[0] / length, 1e-12);
  EXPECT_NEAR(v[1], 2 * aim[1] / length, 1e-12);
  EXPECT_EQ(v[2], 0);
  EXPECT_NEAR(std::hypot(v[0], v[1]), 2, 1e-12);  // the speed stays the zone's
}

TEST(InOutPhysics, IntegratorsMoveBufferParticlesWithTheirImposedVelocityOnly) {
  PhysicsConstants<double> c;
  c.rho0 = 1000;
  c.cteB = 50000;
  c.gamma = 7;
  c.gz = -9.81;
  const uint32_t codes[2] = {code::toInOut(code::make(false, 1), 0), code::make(false, 1)};
  Real4<double> pos[2] = {{0, 0, 0.05, 0}, {0.1, 0, 0.05, 0}};
  Real4<double> vr[2] = {{0.5, 0, 0, 1010}, {0.5, 0, 0, 1010}};
  Real4<double> pre[2] = {{0.4, 0, 0, 1005}, {0.4, 0, 0, 1005}};
  const Real4<double> ace[2] = {{100, 0, 100, 50}, {100, 0, 100, 50}};
  IntegratorArrays<double> a{pos, vr, pre, nullptr, ace, 2, 0, codes};
  verletStepParticle<double>(0, a, c, 0.01, false);
  verletStepParticle<double>(1, a, c, 0.01, false);
  EXPECT_DOUBLE_EQ(pos[0].x, 0.005);  // v dt, no acceleration, no gravity
  EXPECT_DOUBLE_EQ(pos[0].z, 0.05);
  EXPECT_EQ(vr[0].x, 0.5);
  EXPECT_EQ(vr[0].w, 1010);
  EXPECT_NE(pos[1].z, 0.05);  // the fluid particle feels the forces
  // Symplectic: predictor and corrector leave velocity and density, move by v dt.
  Real4<double> sp[1] = {{0, 0, 0.05, 0}}, sv[1] = {{0.5, 0, 0, 1010}}, spre[1], sposPre[1];
  IntegratorArrays<double> s{sp, sv, spre, sposPre, ace, 1, 0, codes};
  symplecticPredictParticle<double>(0, s, c, 0.01);
  EXPECT_DOUBLE_EQ(sp[0].x, 0.0025);
  symplecticCorrectParticle<double>(0, s, c, 0.01);
  EXPECT_DOUBLE_EQ(sp[0].x, 0.005);
  EXPECT_EQ(sv[0].x, 0.5);
  EXPECT_EQ(sv[0].w, 1010);
  // The time step leaves a buffer particle's acceleration out.
  const double viscdt[2] = {0, 0};
  const DtTerms t0 = particleDtTerms<double>(0, 0, ace, viscdt, vr, false, codes);
  EXPECT_EQ(t0.ace2, 0);
  const DtTerms t1 = particleDtTerms<double>(1, 0, ace, viscdt, vr, false, codes);
  EXPECT_GT(t1.ace2, 0);
}

TEST(InOutPhysics, SpawnedParticleGoesTheZoneWidthBehindTheCrossingOne) {
  const std::vector<InOutZoneData> zones{leftZone()};
  InOutParams p = paramsOf(zones);
  p.rho0 = 1000;
  Real4<double> pos[2] = {{0.001, 0, 0.05, 0}, {}}, vr[2] = {{0.5, 0, 0, 1000}, {}}, pre[2];
  uint32_t code[2] = {0, 0}, id[2] = {5, 0};
  const uint32_t buffer = code::toInOut(code::make(false, 3), 0);
  InOutArrays<double> a;
  a.pos = pos;
  a.velrho = vr;
  a.velrhoPre = pre;
  a.code = code;
  a.id = id;
  a.n = 1;
  code[0] = buffer;
  applyInOutAction<double>(0, InOutAction::ToFluidSpawn, 0, a, ParkingLot{}, 0);
  EXPECT_FALSE(code::isInOut(code[0]));
  EXPECT_TRUE(code[0] & code::kInOutSpawnBit);
  InOutNewParticle n = takeInOutSpawner<double>(0, a, p);
  EXPECT_EQ(code[0], code::make(false, 3));  // ordinary fluid of its mk
  EXPECT_EQ(n.id, 5u);                       // the crossing particle's: it orders the new ones
  n.id = 77;
  placeInOutParticle<double>(1, n, a, p);
  EXPECT_TRUE(code::isInOut(code[1]));
  EXPECT_EQ(code::inOutZone(code[1]), 0u);
  EXPECT_EQ(code::mkIndex(code[1]), 3u);
  EXPECT_EQ(id[1], 77u);
  EXPECT_NEAR(pos[1].x, 0.001 - 0.04, 1e-15);
  EXPECT_EQ(pos[1].z, 0.05);
}

// A velocity grid (mode 3), as DualSPHysics' JSphInOutGridData interpolates it: linear in time
// between two rows, bilinear in x and z, the cell clamped to the grid and the weight taken from the
// unclamped position (so x before the grid's first column extrapolates, and beyond the last
// column or row the edge's values hold); the velocity is along x whatever the zone's direction,
// its z component imposed only when kept.
TEST(InOutPhysics, GridVelocityInterpolatesInTimeXAndZ) {
  // 2 x 2 points, dpx 0.1 from x0 -0.2, dpz 0.05 from z0 0: row A x velocities (1, 2 | 3, 4) and z
  // (0.1 ...); row B twice A.
  const float a[8] = {1, 2, 3, 4, 0.1f, 0.2f, 0.3f, 0.4f}, b[8] = {2, 4, 6, 8, 0.2f, 0.4f, 0.6f, 0.8f};
  InOutZoneData z;
  z.dir[1] = 1;  // not along x
  z.grid = 1;
  z.gridNx = z.gridNz = 2;
  z.gridX0 = -0.2;
  z.gridDpx = 0.1;
  z.gridDpz = 0.05;
  z.gridTa = 1;
  z.gridTb = 2;
  z.gridA = a;
  z.gridB = b;
  InOutParams p;
  p.time = 1.5;
  const double x[3] = {-0.15, 0, 0.025};
  double v[3], rho;
  inOutImposed(z, p, x, v, &rho);
  // Halfway in time (1.5 x A), halfway in x and z: 1.5 (1 + 2 + 3 + 4) / 4.
  EXPECT_NEAR(v[0], 3.75, 1e-12);
  EXPECT_EQ(v[1], 0);
  EXPECT_EQ(v[2], 0);  // reset
  z.gridVelz = 1;
  inOutImposed(z, p, x, v, &rho);
  EXPECT_NEAR(v[2], 0.375, 1e-7);
  // Before the first column: cell 0, weight -0.5 in x: 1.5 (1.5 - 0.5 (3.5 - 1.5)) at mid z.
  EXPECT_NEAR(inOutGridVelocity(z, 1.5, -0.25, 0.025, 0), 1.5 * (1.5 - 0.5 * 2), 1e-12);
  // Beyond the last column and row: the corner's value; after the last time: row B.
  EXPECT_NEAR(inOutGridVelocity(z, 1.5, 0.5, 0.4, 0), 1.5 * 4, 1e-12);
  EXPECT_NEAR(inOutGridVelocity(z, 7, -0.2, 0, 0), 2, 1e-12);
  EXPECT_NEAR(inOutGridVelocity(z, 0, -0.2, 0, 0), 1, 1e-12);
}

// Advanced refilling (DualSPHysics' ComputeStepFilling): a crossing particle leaves no new one;
// a buffer particle reaches a point of the plane when its foot on the plane is within dp of it,
// to its depth plus sqrt(dp^2 - r^2).
TEST(InOutPhysics, AdvancedRefillingReachesFromTheDeepestNearParticle) {
  InOutZoneData z = leftZone();  // plane x = 0, direction +x
  z.refillAdvanced = true;
  const std::vector<InOutZoneData> zones{z};
  const InOutParams p = paramsOf(zones);
  const uint32_t buffer = code::toInOut(code::make(false, 1), 0);
  uint32_t zone = 9;
  EXPECT_EQ(inOutClassify(buffer, 0.001, 0, 0.05, p, &zone), InOutAction::ToFluid);
  const double dp = 0.01, pt[3] = {0, 0, 0.05};
  // 0.025 behind the plane, its foot 0.006 from the point: 0.025 + sqrt(0.01^2 - 0.006^2) = 0.033.
  const double x[3] = {-0.025, 0, 0.056};
  EXPECT_NEAR(inOutRefillReach(z, x, pt, dp), 0.033, 1e-12);
  const double far[3] = {-0.025, 0, 0.061};  // foot 0.011 away: none
  EXPECT_LT(inOutRefillReach(z, far, pt, dp), 0);
}

}  // namespace
}  // namespace sph
