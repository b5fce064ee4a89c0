// <special><outputparts> (case/output_parts_reader.h, output/part_filter.h): each filter's test
// against the geometry worked by hand on a 2D tank's particles, the left fold of add / confirm /
// del with inverse and groups, <ignore nparts>, a followed floating body, the VTK parts of a run,
// and the errors.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <string>

#include <fmt/format.h>

#include "case/loader.h"
#include "output/part_filter.h"
#include "run/simulation.h"
#include "sph/plugin/errors.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr char kParameters[] = R"(<parameter key="StepAlgorithm" value="2" /><parameter key="TimeMax" value="0.04" />
<parameter key="TimeOut" value="0.01" />)";

CaseDefinition tankWith(const std::string& name, const std::string& outputparts) {
  const std::string xml = test::smallTankWithSpecial(outputparts, kParameters);
  return loadCase(test::writeFile(test::tempDir("part_filter") / (name + "_Def.xml"), xml));
}

// The case's particles as a snapshot (positions, mk, type).
ParticleSnapshot snapshotOf(const CaseDefinition& c) {
  ParticleSnapshot s;
  for (size_t i = 0; i < c.positions.size(); ++i) {
    const MkEntry& m = c.mks[c.mkIndex[i]];
    s.pos.insert(s.pos.end(), {c.positions[i].x, c.positions[i].y, c.positions[i].z});
    s.vel.insert(s.vel.end(), {0.f, 0.f, 0.f});
    s.rho.push_back(1000);
    s.press.push_back(0);
    s.type.push_back(m.bound ? 0 : 1);
    s.mk.push_back(m.mk);
    s.id.push_back(uint32_t(i));
  }
  return s;
}

// The ids the filters keep, and the ids `want` keeps of all particles.
template <typename F>
void expectKept(const std::string& name, const std::string& filters, F&& want) {
  SCOPED_TRACE(name);
  const CaseDefinition c = tankWith(name, filters);
  ASSERT_TRUE(c.outputParts.active);
  ParticleSnapshot s = snapshotOf(c);
  const ParticleSnapshot all = s;
  PartFilter(c.outputParts, c, {}).apply(s, {});
  std::set<uint32_t> kept(s.id.begin(), s.id.end()), expected;
  for (size_t i = 0; i < all.count(); ++i)
    if (want(Vec3d{all.pos[3 * i], all.pos[3 * i + 1], all.pos[3 * i + 2]}, all.type[i] == 1)) expected.insert(all.id[i]);
  EXPECT_EQ(kept, expected);
  EXPECT_GT(expected.size(), 0u);
  EXPECT_LT(expected.size(), all.count());
  // The kept particles keep their order and data.
  for (size_t k = 1; k < s.count(); ++k) EXPECT_LT(s.id[k - 1], s.id[k]);
}

TEST(PartFilter, EachFilterSelectsWhatItsGeometrySays) {
  // The tank: water 0..0.2 in x and z, walls bottom, left and right (x = 0 and 0.4), dp 0.02.
  expectKept("Pos", R"(<outputparts preselection="none"><filterpos operation="add">
<posmin x="0.1" /><posmax z="0.1" /></filterpos></outputparts>)",
             [](const Vec3d& p, bool) { return p.x >= 0.1 - 1e-12 && p.z <= 0.1 + 1e-12; });
  expectKept("Plane", R"(<outputparts preselection="none"><filterplane operation="add">
<point x="0.11" y="0" z="0" /><vector x="1" y="0" z="1" /><distance v="0.053" /></filterplane></outputparts>)",
             [](const Vec3d& p, bool) {
               const double d = (p.x - 0.11 + p.z) / std::sqrt(2.0);
               return d >= 0 && d <= 0.053;
             });
  expectKept("Sphere", R"(<outputparts preselection="none"><filtersphere operation="add">
<centre x="0.1" y="0" z="0.1" /><radius v="0.05" /></filtersphere></outputparts>)",
             [](const Vec3d& p, bool) { return std::hypot(p.x - 0.1, p.z - 0.1) <= 0.05 + 1e-9; });
  expectKept("Cylinder", R"(<outputparts preselection="none"><filtercylinder operation="add">
<point1 x="-0.001" y="0" z="0.05" /><point2 x="0.151" y="0" z="0.05" /><radius v="0.031" /></filtercylinder></outputparts>)",
             [](const Vec3d& p, bool) { return p.x >= -0.001 && p.x <= 0.151 && std::abs(p.z - 0.05) <= 0.031; });
  expectKept("Type", R"(<outputparts preselection="none"><filtertype operation="add"><type v="fluid" />
</filtertype></outputparts>)",
             [](const Vec3d&, bool fluid) { return fluid; });
  expectKept("Mk", R"(<outputparts preselection="none"><filtermk operation="add"><mkbound v="0" /></filtermk>
</outputparts>)",
             [](const Vec3d&, bool fluid) { return !fluid; });
}

TEST(PartFilter, OperationsFoldLeftWithInverseAndGroups) {
  // all, minus the fluid (del), plus the lower half inverted (add inverse: z > 0.1), confirmed
  // to x <= 0.1.
  expectKept("Fold", R"(<outputparts preselection="all">
<filtertype operation="del"><type v="fluid" /></filtertype>
<filterpos operation="add" inverse="true"><posmax z="0.1" /></filterpos>
<filterpos operation="confirm"><posmax x="0.1" /></filterpos>
</outputparts>)",
             [](const Vec3d& p, bool fluid) { return (!fluid || p.z > 0.1 + 1e-12) && p.x <= 0.1 + 1e-12; });
  // A group starts from its own preselection; its result is added like a filter's.
  expectKept("Group", R"(<outputparts preselection="none">
<filtertype operation="add"><type v="bound" /></filtertype>
<filtergroup preselection="all" operation="add">
  <filtertype operation="confirm"><type v="fluid" /></filtertype>
  <filterpos operation="del"><posmax x="0.1" /></filterpos>
</filtergroup>
<_filterpos operation="add"><posmin x="-5" /></_filterpos>
<filterpos operation="add" active="false"><posmin x="-5" /></filterpos>
</outputparts>)",
             [](const Vec3d& p, bool fluid) { return !fluid || p.x > 0.1 + 1e-12; });
}

TEST(PartFilter, IgnoreWritesEveryNthPartWhole) {
  const CaseDefinition c = tankWith("Ignore", R"(<outputparts preselection="none"><ignore nparts="3" />
<filtertype operation="add"><type v="fluid" /></filtertype></outputparts>)");
  const PartFilter f(c.outputParts, c, {});
  EXPECT_FALSE(f.filters(0));
  EXPECT_TRUE(f.filters(1));
  EXPECT_TRUE(f.filters(2));
  EXPECT_FALSE(f.filters(3));
  const CaseDefinition every = tankWith("Every", R"(<outputparts preselection="none">
<filtertype operation="add"><type v="fluid" /></filtertype></outputparts>)");
  EXPECT_TRUE(PartFilter(every.outputParts, every, {}).filters(0));
}

// The parts a run writes hold the selected particles; with <ignore nparts="2">, parts 0, 2, 4 all.
TEST(PartFilter, RunWritesFilteredParts) {
  const std::string xml = test::smallTankWithSpecial(R"(<outputparts preselection="none"><ignore nparts="2" />
<filtertype operation="add"><type v="fluid" /></filtertype></outputparts>)",
                                                     kParameters);
  const auto dir = test::tempDir("part_filter_run");
  const CaseDefinition c = loadCase(test::writeFile(dir / "Run_Def.xml", xml));
  RunOptions o;
  o.device = Device::Cpu;
  o.outDir = (dir / "out").string();
  o.progress = false;
  Simulation(c, o).run();
  const auto pointsIn = [&](int part) {
    std::ifstream in(dir / "out" / "vtk" / fmt::format("Part_{:04d}.vtk", part), std::ios::binary);
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("POINTS ", 0) == 0) return std::stoul(line.substr(7));
    return 0ul;
  };
  for (int part = 0; part <= 4; ++part)
    EXPECT_EQ(pointsIn(part), part % 2 == 0 ? c.positions.size() : size_t(c.nFluid)) << "part " << part;
}

// A filter following a floating body moves with its centre (translation only): particles moved
// with the body by (0.1, 0, 0.05) are kept as those at the start were.
TEST(PartFilter, FollowsAFloatingBody) {
  std::string xml = test::caseXml(
      R"(<definition dp="0.02"><pointmin x="-0.1" y="0" z="-0.1" /><pointmax x="1" y="0" z="1" /></definition>)",
      R"(<setmkfluid mk="0" />
<drawbox><boxfill>solid</boxfill><point x="0" y="-1" z="0" /><size x="0.2" y="2" z="0.2" /></drawbox>
<setmkbound mk="1" />
<drawbox><boxfill>solid</boxfill><point x="0.3" y="-1" z="0.3" /><size x="0.1" y="2" z="0.1" /></drawbox>)",
      kParameters);
  xml.insert(xml.find("  </casedef>"), R"(<floatings><floating mkbound="1" relativeweight="0.5" /></floatings>
)");
  xml.insert(xml.find("    <parameters>"), R"(<special><outputparts preselection="none">
<filtersphere operation="add"><ftfollow mk="11" /><radius v="0.035" /></filtersphere>
<filterpos operation="add"><ftfollow mkbound="1" /><posmin x="-0.001" /><posmax x="0.051" /></filterpos>
</outputparts></special>
)");
  const CaseDefinition c = loadCase(test::writeFile(test::tempDir("part_filter_follow") / "Follow_Def.xml", xml));
  const Vec3d start{0.35, 0, 0.35}, now{0.45, 0, 0.40};
  const PartFilter f(c.outputParts, c, {start});
  ParticleSnapshot atStart = snapshotOf(c), moved = snapshotOf(c);
  for (size_t i = 0; i < moved.count(); ++i) {
    moved.pos[3 * i] += 0.1;
    moved.pos[3 * i + 2] += 0.05;
  }
  f.apply(atStart, {start});
  f.apply(moved, {now});
  EXPECT_EQ(atStart.id, moved.id);
  // The sphere about the body's centre and the slab -0.001 <= x <= 0.051 at the start (limits off
  // the particles' lattice: a particle moved there and back may round either way).
  size_t expected = 0;
  for (const Vec3d& p : c.positions)
    expected += std::hypot(p.x - 0.35, p.z - 0.35) <= 0.035 + 1e-9 || (p.x >= -0.001 && p.x <= 0.051);
  EXPECT_EQ(atStart.count(), expected);
}

TEST(PartFilter, ErrorsNameTheElement) {
  const struct {
    const char* filters;
    const char* marker;
    const char* element;
    const char* what;
  } bad[] = {
      {"<outputparts>\n<filtertype operation=\"add\"><type v=\"fluid\" /></filtertype></outputparts>", "<outputparts",
       "preselection", "missing"},
      {"<outputparts preselection=\"none\">\n<filtertype operation=\"or\"><type v=\"fluid\" /></filtertype></outputparts>",
       "<filtertype", "filtertype", "add, del or confirm"},
      {"<outputparts preselection=\"none\"><filtertype operation=\"add\">\n<type v=\"water\" /></filtertype></outputparts>",
       "<type", "type", "not a particle type"},
      {"<outputparts preselection=\"none\">\n<filterbox operation=\"add\" /></outputparts>", "<filterbox", "filterbox",
       "unknown element"},
      {"<outputparts preselection=\"none\">\n<filtermk operation=\"add\"><mk v=\"1\" /><mkfluid v=\"0\" /></filtermk>"
       "</outputparts>",
       "<filtermk", "filtermk", "exactly one"},
      {"<outputparts preselection=\"none\">\n<filtermk operation=\"add\"><mkfluid v=\"4\" /></filtermk></outputparts>",
       "<filtermk", "filtermk", "mkfluid 4"},
      {"<outputparts preselection=\"none\">\n<filtermk operation=\"add\"><mk v=\"1-10\" /></filtermk></outputparts>",
       "<filtermk", "filtermk", "different types"},
      {"<outputparts preselection=\"none\">\n<filterpos operation=\"add\"><ftfollow mkbound=\"0\" /></filterpos>"
       "</outputparts>",
       "<filterpos", "ftfollow", "not a floating body"},
  };
  for (const auto& b : bad) {
    SCOPED_TRACE(b.filters);
    test::expectLoadError("part_filter_bad", test::smallTankWithSpecial(b.filters, kParameters), b.marker, b.element,
                          b.what);
  }
}

}  // namespace
}  // namespace sph
