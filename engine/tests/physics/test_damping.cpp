// Damping zones (<special><damping>): the factor of each shape at chosen points against the
// formulas of DualSPHysics 5.4 (physics/damping_physics.h), which particles are left alone, the reader
// and its errors, and a CPU run of a sloshing tank whose damped half calms faster.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "case/damping_reader.h"
#include "case/loader.h"
#include "physics/damping_physics.h"
#include "run/simulation.h"
#include "test_motion_cases.h"
#include "test_support.h"

namespace sph {
namespace {

// The velocity factor one zone applies at p after a step of dt (1: untouched).
double factorAt(const DampingZone& z, double x, double y, double zc, double dt = 0.01, int axis = 0) {
  const Real4<double> pos{x, y, zc, 0};
  Real4<double> vel{1, 1, 1, 1000};
  const uint32_t code = code::make(false, 0);
  dampParticle<double>(0, &pos, &vel, &code, &z, 1, dt);
  return axis == 0 ? vel.x : axis == 1 ? vel.y : vel.z;
}

DampingZone planeZone() {
  // limitmin (11, 0, 0), limitmax (15.5, 0, 0), overlimit 1, redumax 10: CasePistonDamping_REG.
  DampingZone z;
  z.shape = DampingShape::Plane;
  z.normal[0] = 1;
  z.origin[0] = 11;
  z.width = 4.5;
  z.overLimit = 1;
  z.reduMax = 10;
  return z;
}

TEST(DampingPhysics, PlaneGrowsAsTheSquareOfTheDepthIntoTheZone) {
  const DampingZone z = planeZone();
  const double dt = 0.01;
  EXPECT_EQ(factorAt(z, 10.9, 0, 0.3), 1.0);  // before the zone
  EXPECT_EQ(factorAt(z, 11.0, 0, 0.3), 1.0);  // on its plane (s = 0 is outside)
  for (double x : {11.5, 13.0, 15.0}) {
    const double f = (x - 11) / 4.5;
    EXPECT_DOUBLE_EQ(factorAt(z, x, 0, 0.3, dt), 1 - dt * f * f * 10) << x;
  }
  EXPECT_DOUBLE_EQ(factorAt(z, 16.0, 0, 0.3, dt), 1 - dt * 10);  // past limitmax, within overlimit
  EXPECT_DOUBLE_EQ(factorAt(z, 16.5, 0, 0.3, dt), 1 - dt * 10);  // at limitmax + overlimit
  EXPECT_EQ(factorAt(z, 16.6, 0, 0.3, dt), 1.0);                 // beyond
  // A step long enough to reverse the velocity stops it instead.
  EXPECT_EQ(factorAt(z, 16.0, 0, 0.3, 0.2), 0.0);
}

TEST(DampingPhysics, FactorsPerAxisAndOnlyFluidParticles) {
  DampingZone z = planeZone();
  z.factor[0] = 0.5, z.factor[1] = 0, z.factor[2] = 1;
  const double dt = 0.01;
  EXPECT_DOUBLE_EQ(factorAt(z, 16, 0, 0, dt, 0), 1 - dt * 10 * 0.5);
  EXPECT_DOUBLE_EQ(factorAt(z, 16, 0, 0, dt, 1), 1.0);
  EXPECT_DOUBLE_EQ(factorAt(z, 16, 0, 0, dt, 2), 1 - dt * 10);
  const Real4<double> pos{16, 0, 0, 0};
  for (uint32_t code : {code::make(true, 0), code::makeFloating(0), code::make(false, 0) | code::kParkedBit,
                        code::make(false, 0) | code::kExcludedBit}) {
    Real4<double> vel{1, 1, 1, 1000};
    dampParticle<double>(0, &pos, &vel, &code, &z, 1, dt);
    EXPECT_EQ(vel.x, 1.0) << std::hex << code;
  }
}

TEST(DampingPhysics, PlaneDomainLimitsTheZone) {
  DampingZone z = planeZone();
  z.domain = true;
  z.zMin = 0, z.zMax = 1;
  // The square 12..14 x -1..1 in the order DualSPHysics sorts it to (see the reader test).
  const double corners[4][2] = {{12, -1}, {14, -1}, {14, 1}, {12, 1}};
  for (int k = 0; k < 4; ++k) z.corner[k][0] = corners[k][0], z.corner[k][1] = corners[k][1];
  EXPECT_LT(factorAt(z, 13, 0, 0.5), 1.0);
  EXPECT_EQ(factorAt(z, 13, 0, 1.5), 1.0);  // above zmax
  EXPECT_EQ(factorAt(z, 15, 0, 0.5), 1.0);  // in the zone but outside the quadrilateral
  EXPECT_EQ(factorAt(z, 13, 2, 0.5), 1.0);
}

TEST(DampingPhysics, CylinderDampsBetweenItsRadii) {
  DampingZone z;
  z.shape = DampingShape::Cylinder;
  z.origin[0] = 1, z.origin[1] = 1, z.origin[2] = 0;
  z.end[0] = 1, z.end[1] = 1, z.end[2] = 2;  // vertical axis through (1, 1)
  z.rMin = 2, z.width = 1, z.overLimit = 0.5, z.reduMax = 10;
  const double dt = 0.01;
  EXPECT_EQ(factorAt(z, 2.5, 1, 0.3), 1.0);  // r = 1.5 < 2
  EXPECT_DOUBLE_EQ(factorAt(z, 1, 3.5, 0.3, dt), 1 - dt * 0.25 * 10);  // r = 2.5: f = 0.5
  EXPECT_DOUBLE_EQ(factorAt(z, 4.2, 1, 7.0, dt), 1 - dt * 10);          // r = 3.2: past the outer radius
  EXPECT_EQ(factorAt(z, 4.6, 1, 0.3), 1.0);                            // r = 3.6 > 3.5
}

TEST(DampingPhysics, BoxDampsAroundItsFreeInside) {
  // Free box 0..1 (all axes); full damping from 0.5 beyond it; overlimit 0.5 more. Damped sides:
  // right and top only (the reader's directions="right top").
  DampingZone z;
  z.shape = DampingShape::Box;
  z.reduMax = 10, z.overLimit = 0.5;
  for (int a = 0; a < 3; ++a) {
    z.min1[a] = 0, z.min2[a] = 1, z.max1[a] = 0, z.max2[a] = 1, z.over1[a] = 0, z.over2[a] = 1;
  }
  z.max2[0] = 1.5, z.over2[0] = 2.0, z.size2[0] = 0.5;
  z.max2[2] = 1.5, z.over2[2] = 2.0, z.size2[2] = 0.5;
  const double dt = 0.01;
  EXPECT_EQ(factorAt(z, 0.5, 0.5, 0.5), 1.0);                             // free inside
  EXPECT_DOUBLE_EQ(factorAt(z, 1.25, 0.5, 0.5, dt), 1 - dt * 0.25 * 10);  // half way to the right
  EXPECT_DOUBLE_EQ(factorAt(z, 1.1, 0.5, 1.4, dt), 1 - dt * 0.64 * 10);   // the deeper of the two
  EXPECT_DOUBLE_EQ(factorAt(z, 1.8, 0.5, 0.5, dt), 1 - dt * 10);          // in the overlimit
  EXPECT_EQ(factorAt(z, 2.1, 0.5, 0.5), 1.0);                             // beyond everything
  EXPECT_EQ(factorAt(z, -0.1, 0.5, 0.5), 1.0);                            // the left side is not damped
}

// The reader: a case's <damping> with the three shapes, DualSPHysics' defaults and its order of
// the domain's points.
TEST(DampingReader, ReadsTheThreeShapes) {
  test::PistonTank t;
  t.special = R"(
  <damping>
    <dampingzone>
      <limitmin x="0.3" y="0" z="0" /><limitmax x="0.5" y="0" z="0" /><overlimit value="0.1" />
      <domain zmin="-1" zmax="1"><point1 x="0.3" y="-1" /><point2 x="0.6" y="1" /><point3 x="0.3" y="1" />
        <point4 x="0.6" y="-1" /></domain>
    </dampingzone>
    <dampingbox>
      <directions value="all -left -bottom" /><overlimit value="0.05" /><redumax value="5" />
      <factorxyz x="1" y="0.5" /><limitmin><pointini x="0" y="-1" z="0" /><pointend x="0.4" y="1" z="0.2" /></limitmin>
      <limitmax><pointini x="-0.1" y="-1.1" z="-0.1" /><pointend x="0.5" y="1.1" z="0.3" /></limitmax>
    </dampingbox>
    <dampingcylinder>
      <point1 x="0.2" y="0" z="0" /><point2 x="0.2" y="0" z="1" /><limitmin radius="0.1" /><limitmax radius="0.3" />
      <overlimit value="0" />
    </dampingcylinder>
    <_dampingzone><limitmin x="0" y="0" z="0" /></_dampingzone>
  </damping>)";
  const CaseDefinition c = loadCase(test::writeFile(test::tempDir("damping") / "Read_Def.xml", test::pistonTankXml(t)));
  ASSERT_EQ(c.damping.size(), 3u);
  const DampingZone& p = c.damping[0];
  EXPECT_EQ(p.shape, DampingShape::Plane);
  EXPECT_DOUBLE_EQ(p.width, 0.2);
  EXPECT_DOUBLE_EQ(p.normal[0], 1);
  EXPECT_DOUBLE_EQ(p.reduMax, 10);  // DualSPHysics' default
  EXPECT_DOUBLE_EQ(p.factor[2], 1);
  EXPECT_TRUE(p.domain);
  // Points 2-4 sorted by the angle of (point1 - point): (0.6, -1) 180 deg, (0.6, 1) 261.5, (0.3, 1) 270.
  EXPECT_DOUBLE_EQ(p.corner[1][0], 0.6);
  EXPECT_DOUBLE_EQ(p.corner[1][1], -1);
  EXPECT_DOUBLE_EQ(p.corner[2][1], 1);
  EXPECT_DOUBLE_EQ(p.corner[2][0], 0.6);
  EXPECT_DOUBLE_EQ(p.corner[3][0], 0.3);
  EXPECT_LT(factorAt(p, 0.45, 0, 0.1), 1.0);  // that order makes the square an inside
  const DampingZone& b = c.damping[1];
  EXPECT_EQ(b.shape, DampingShape::Box);
  EXPECT_DOUBLE_EQ(b.reduMax, 5);
  EXPECT_DOUBLE_EQ(b.factor[1], 0.5);
  EXPECT_DOUBLE_EQ(b.factor[2], 1);
  EXPECT_DOUBLE_EQ(b.size1[0], 0);    // left: not damped
  EXPECT_DOUBLE_EQ(b.size2[0], 0.1);  // right
  EXPECT_DOUBLE_EQ(b.size1[2], 0);    // bottom: not damped
  EXPECT_DOUBLE_EQ(b.over2[2], 0.35);
  EXPECT_DOUBLE_EQ(b.over1[0], 0);    // collapsed onto the free box
  const DampingZone& y = c.damping[2];
  EXPECT_EQ(y.shape, DampingShape::Cylinder);
  EXPECT_DOUBLE_EQ(y.rMin, 0.1);
  EXPECT_DOUBLE_EQ(y.width, 0.2);
}

TEST(DampingReader, RefusesBadZonesNamingLineAndElement) {
  struct Bad {
    const char* name;
    std::string zone;
    const char* marker;
    const char* element;
    const char* what;
  };
  const std::vector<Bad> bad = {
      {"NoOverlimit", "<dampingzone>\n<limitmin x=\"0\" y=\"0\" z=\"0\" />\n<limitmax x=\"1\" y=\"0\" z=\"0\" />\n</dampingzone>",
       "<dampingzone>", "dampingzone", "missing element <overlimit>"},
      {"SamePoints", "<dampingzone>\n<limitmin x=\"1\" y=\"0\" z=\"0\" />\n<limitmax x=\"1\" y=\"0\" z=\"0\" />\n"
                     "<overlimit value=\"1\" />\n</dampingzone>",
       "<limitmax", "limitmax", "same point"},
      {"NegativeRedu", "<dampingzone>\n<limitmin x=\"0\" y=\"0\" z=\"0\" />\n<limitmax x=\"1\" y=\"0\" z=\"0\" />\n"
                       "<overlimit value=\"1\" />\n<redumax value=\"-1\" />\n</dampingzone>",
       "<redumax", "redumax", "must not be negative"},
      {"Unknown", "<dampingsphere>\n</dampingsphere>", "<dampingsphere", "dampingsphere", "unknown element"},
      {"BadSide", "<dampingbox>\n<directions value=\"up\" />\n<overlimit value=\"1\" />\n</dampingbox>", "<directions",
       "directions", "\"up\" is not a side"},
      {"BoxOutside",
       "<dampingbox>\n<overlimit value=\"1\" />\n<limitmin><pointini x=\"0\" y=\"0\" z=\"0\" /><pointend x=\"1\" y=\"1\" "
       "z=\"1\" /></limitmin>\n<limitmax><pointini x=\"0.5\" y=\"0\" z=\"0\" /><pointend x=\"2\" y=\"2\" z=\"2\" />"
       "</limitmax>\n</dampingbox>",
       "<limitmax>", "limitmax", "not inside"},
      {"Radii", "<dampingcylinder>\n<point1 x=\"0\" y=\"0\" z=\"0\" />\n<point2 x=\"0\" y=\"0\" z=\"1\" />\n"
                "<limitmin radius=\"0.3\" />\n<limitmax radius=\"0.2\" />\n<overlimit value=\"0\" />\n</dampingcylinder>",
       "<limitmax", "limitmax", "larger than"},
  };
  for (const Bad& b : bad) {
    SCOPED_TRACE(b.name);
    test::PistonTank t;
    t.special = "<damping>\n" + b.zone + "\n</damping>";
    const std::string xml = test::pistonTankXml(t);
    const std::string path = test::writeFile(test::tempDir("damping") / (std::string(b.name) + "_Def.xml"), xml);
    test::expectInputErrorAt(path, xml, b.marker, b.element, b.what);
  }
}

// A whole CPU run: a piston pushes waves along the tank; with a damping zone over the far half,
// the water there moves at less than half the speed it has without it.
double farHalfSpeed(bool damped) {
  test::PistonTank t;
  t.motion = R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrectsinu id="1" duration="10"><freq x="4" y="0" z="0" /><ampl x="0.01" y="0" z="0" /><phase x="0" y="0" z="0" /></mvrectsinu>
</objreal>)";
  if (damped)
    t.special = R"(<damping><dampingzone><limitmin x="0.3" y="0" z="0" /><limitmax x="0.5" y="0" z="0" />
<overlimit value="0.2" /><redumax value="500" /></dampingzone></damping>)";
  const CaseDefinition c =
      loadCase(test::writeFile(test::tempDir("damping_run") / (damped ? "Damped_Def.xml" : "Free_Def.xml"),
                               test::pistonTankXml(t)));
  RunOptions o;
  o.device = Device::Cpu;
  o.writeOutput = false;
  o.progress = false;
  Simulation sim(c, o);
  for (int k = 0; k < 400; ++k) sim.step();
  const ParticleSnapshot p = sim.snapshot();
  double sum = 0;
  int n = 0;
  for (size_t i = 0; i < p.count(); ++i) {
    if (p.type[i] != 1 || p.pos[3 * i] < 0.35) continue;  // fluid in the far half
    sum += std::hypot(p.vel[3 * i], p.vel[3 * i + 2]);
    ++n;
  }
  return sum / std::max(n, 1);
}

TEST(DampingRun, DampedZoneCalmsTheWater) {
  const double free = farHalfSpeed(false), damped = farHalfSpeed(true);
  EXPECT_GT(free, 1e-4);
  EXPECT_LT(damped, 0.5 * free) << "free " << free << " damped " << damped;
  std::printf("far-half mean speed: free %.4g m/s, damped %.4g m/s\n", free, damped);
}

}  // namespace
}  // namespace sph
