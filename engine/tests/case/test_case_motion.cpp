// <motion> in the case loader: every supported movement type, DualSPHysics' CaseWavemaker
// motion, and the errors (file, line and element named).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include <tinyxml2.h>

#include "case/loader.h"
#include "case/motion_reader.h"
#include "model/case_model.h"
#include "sph/plugin/errors.h"
#include "test_motion_cases.h"
#include "test_support.h"

namespace sph {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

CaseDefinition loadPistonCase(const std::string& name, const std::string& motion, std::string* xmlOut = nullptr) {
  test::PistonTank t;
  t.motion = motion;
  const std::string xml = test::pistonTankXml(t);
  if (xmlOut) *xmlOut = xml;
  return loadCase(test::writeFile(test::tempDir("case_motion") / (name + "_Def.xml"), xml));
}

TEST(CaseMotion, ReadsEveryMovementType) {
  const CaseDefinition c = loadPistonCase("AllTypes", R"(
      <objreal ref="1">
        <begin mov="1" start="0.5" finish="20" />
        <wait id="1" duration="0.25" next="2" />
        <mvrect id="2" duration="1" next="3"><vel x="0.1" y="0" z="-0.2" /></mvrect>
        <mvrectsinu id="3" duration="2" next="4">
          <freq x="0.5" y="0" z="1.5" /><ampl x="0.1" y="0" z="0.02" /><phase x="90" y="0" z="180" />
        </mvrectsinu>
        <mvrectsinu id="4" duration="2" next="5" anglesunits="radians">
          <freq x="1" y="0" z="0" /><ampl x="0.05" y="0" z="0" />
        </mvrectsinu>
        <mvrot id="5" duration="3" next="6" anglesunits="degrees">
          <vel ang="45" /><axisp1 x="0" y="0" z="0.1" /><axisp2 x="0" y="1" z="0.1" />
        </mvrot>
        <mvrotsinu id="6" duration="4" next="-1" anglesunits="radians">
          <freq v="0.25" /><ampl v="0.3" /><phase v="1.5" /><axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="-1" z="0" />
        </mvrotsinu>
        <_mvrect id="9" duration="1"><vel x="1" y="0" z="0" /></_mvrect>
      </objreal>)");
  ASSERT_EQ(c.motions.size(), 1u);
  const MotionObject& o = c.motions[0];
  EXPECT_EQ(o.ref, 1);
  ASSERT_LT(o.mkIndex, c.mks.size());
  EXPECT_TRUE(c.mks[o.mkIndex].bound);
  EXPECT_EQ(c.mks[o.mkIndex].local, 1);
  EXPECT_EQ(c.mks[o.mkIndex].mk, 11);  // mkbound 1 + fluidcount 9 + 1
  ASSERT_EQ(o.begins.size(), 1u);
  EXPECT_EQ(o.begins[0].mov, 1);
  EXPECT_DOUBLE_EQ(o.begins[0].start, 0.5);
  EXPECT_DOUBLE_EQ(o.begins[0].finish, 20);
  ASSERT_EQ(o.movements.size(), 6u);  // the commented-out _mvrect is skipped

  const Movement& w = o.movements[0];
  EXPECT_EQ(w.type, MovementType::Wait);
  EXPECT_EQ(w.next, 2);
  EXPECT_DOUBLE_EQ(w.duration, 0.25);

  const Movement& r = o.movements[1];
  EXPECT_EQ(r.type, MovementType::Rect);
  EXPECT_DOUBLE_EQ(r.vel.x, 0.1);
  EXPECT_DOUBLE_EQ(r.vel.z, -0.2);

  const Movement& s = o.movements[2];
  EXPECT_EQ(s.type, MovementType::RectSinu);
  EXPECT_DOUBLE_EQ(s.freq.z, 1.5);
  EXPECT_DOUBLE_EQ(s.ampl.x, 0.1);
  EXPECT_FALSE(s.phaseFromPrevious);
  // Degrees by default, stored in radians (1 ulp of slack for the conversion).
  EXPECT_DOUBLE_EQ(s.phase.x, 90 * kDeg);
  EXPECT_DOUBLE_EQ(s.phase.z, 180 * kDeg);

  const Movement& s2 = o.movements[3];
  EXPECT_TRUE(s2.phaseFromPrevious);  // no <phase>: continues from movement 3
  EXPECT_EQ(s2.next, 5);

  const Movement& rot = o.movements[4];
  EXPECT_EQ(rot.type, MovementType::Rot);
  EXPECT_DOUBLE_EQ(rot.angVel, 45 * kDeg);
  EXPECT_DOUBLE_EQ(rot.axisP1.z, 0.1);
  EXPECT_DOUBLE_EQ(rot.axisP2.y, 1);

  const Movement& rs = o.movements[5];
  EXPECT_EQ(rs.type, MovementType::RotSinu);
  EXPECT_EQ(rs.next, -1);
  EXPECT_DOUBLE_EQ(rs.freqRot, 0.25);
  EXPECT_DOUBLE_EQ(rs.amplRot, 0.3);  // radians as given
  EXPECT_DOUBLE_EQ(rs.phaseRot, 1.5);
  EXPECT_FALSE(rs.phaseFromPrevious);
  EXPECT_DOUBLE_EQ(rs.axisP2.y, -1);
}

TEST(CaseMotion, NextAbsentZeroOrMinusOneEndsTheChain) {
  const CaseDefinition c = loadPistonCase("Ends", R"(
      <objreal ref="1">
        <begin mov="1" start="0" />
        <mvrect id="1" duration="1"><vel x="1" y="0" z="0" /></mvrect>
        <mvrect id="2" duration="1" next="0"><vel x="1" y="0" z="0" /></mvrect>
        <mvrect id="3" duration="1" next="-1"><vel x="1" y="0" z="0" /></mvrect>
      </objreal>)");
  for (const Movement& m : c.motions.at(0).movements) EXPECT_EQ(m.next, -1) << "movement " << m.id;
  EXPECT_LT(c.motions[0].begins[0].finish, 0);  // no finish
}

// Accelerated and null movements. The first two mvrotace are DualSPHysics' CasePump motion (its
// second movement has no <velini>: it keeps the velocity the first one reached).
TEST(CaseMotion, ReadsAcceleratedAndNullMovements) {
  const CaseDefinition c = loadPistonCase("Accelerated", R"(
      <objreal ref="1">
        <begin mov="1" start="0.5" finish="1000" />
        <mvrotace id="1" duration="2" next="2">
          <ace ang="500" units_comment="degrees/s^2" />
          <velini ang="90" units_comment="degrees/s" />
          <axisp1 x="-0.0176" y="-0.29" z="-0.7275" />
          <axisp2 x="-0.0176" y="-0.49" z="-0.7275" />
        </mvrotace>
        <mvrotace id="2" duration="1000" next="3">
          <ace ang="0" units_comment="degrees/s^2" />
          <axisp1 x="-0.0176" y="-0.29" z="-0.7275" />
          <axisp2 x="-0.0176" y="-0.49" z="-0.7275" />
        </mvrotace>
        <mvrectace id="3" duration="1.5" next="4"><ace x="0.5" y="0" z="-1" /><velini x="0.1" y="0" z="0" /></mvrectace>
        <mvrectace id="4" duration="1" next="5" anglesunits="radians"><ace x="-0.25" y="0" z="0" /></mvrectace>
        <mvnull id="5" />
      </objreal>)");
  const std::vector<Movement>& ms = c.motions.at(0).movements;
  ASSERT_EQ(ms.size(), 5u);
  EXPECT_EQ(ms[0].type, MovementType::RotAce);
  EXPECT_DOUBLE_EQ(ms[0].aceAng, 500 * kDeg);
  EXPECT_DOUBLE_EQ(ms[0].angVel, 90 * kDeg);
  EXPECT_FALSE(ms[0].velFromPrevious);
  EXPECT_DOUBLE_EQ(ms[0].axisP2.y, -0.49);
  EXPECT_EQ(ms[1].type, MovementType::RotAce);
  EXPECT_EQ(ms[1].aceAng, 0);
  EXPECT_TRUE(ms[1].velFromPrevious);
  EXPECT_EQ(ms[1].next, 3);
  EXPECT_EQ(ms[2].type, MovementType::RectAce);
  EXPECT_DOUBLE_EQ(ms[2].ace.x, 0.5);
  EXPECT_DOUBLE_EQ(ms[2].ace.z, -1);
  EXPECT_DOUBLE_EQ(ms[2].vel.x, 0.1);
  EXPECT_FALSE(ms[2].velFromPrevious);
  EXPECT_DOUBLE_EQ(ms[2].duration, 1.5);
  EXPECT_EQ(ms[3].type, MovementType::RectAce);
  EXPECT_DOUBLE_EQ(ms[3].ace.x, -0.25);  // lengths: anglesunits changes nothing
  EXPECT_TRUE(ms[3].velFromPrevious);
  EXPECT_EQ(ms[4].type, MovementType::Null);
  EXPECT_EQ(ms[4].id, 5);
  EXPECT_EQ(ms[4].duration, 0);
  EXPECT_EQ(ms[4].next, -1);
}

// DualSPHysics' wave-paddle cases: an object marked as moving by a lone <mvnull>.
TEST(CaseMotion, ReadsCircularMovements) {
  const CaseDefinition c = loadPistonCase("Circular", R"(
      <objreal ref="1">
        <begin mov="1" start="0" />
        <mvcir id="1" duration="1" next="2"><vel ang="90" /><ref x="0.1" y="0" z="0.3" />
          <axisp1 x="0" y="0" z="0.2" /><axisp2 x="0" y="1" z="0.2" /></mvcir>
        <mvcirsinu id="2" duration="1" next="3" anglesunits="radians"><freq v="0.5" /><ampl v="0.3" />
          <ref x="0.1" y="0" z="0.3" /><axisp1 x="0" y="0" z="0.2" /><axisp2 x="0" y="1" z="0.2" /></mvcirsinu>
        <mvcirace id="3" duration="1" next="4"><ace ang="20" /><velini ang="10" /><ref x="0.2" y="0" z="0.3" />
          <axisp1 x="0" y="0" z="0.2" /><axisp2 x="0" y="1" z="0.2" /></mvcirace>
        <mvcirace id="4" duration="1"><ace ang="-5" /><ref x="0.2" y="0" z="0.3" />
          <axisp1 x="0" y="0" z="0.2" /><axisp2 x="0" y="1" z="0.2" /></mvcirace>
      </objreal>)");
  const std::vector<Movement>& m = c.motions.at(0).movements;
  ASSERT_EQ(m.size(), 4u);
  EXPECT_EQ(m[0].type, MovementType::Cir);
  EXPECT_DOUBLE_EQ(m[0].angVel, 90 * kDeg);
  EXPECT_DOUBLE_EQ(m[0].ref.x, 0.1);
  EXPECT_DOUBLE_EQ(m[0].ref.z, 0.3);
  EXPECT_DOUBLE_EQ(m[0].axisP2.y, 1);
  EXPECT_EQ(m[1].type, MovementType::CirSinu);
  EXPECT_DOUBLE_EQ(m[1].freqRot, 0.5);
  EXPECT_DOUBLE_EQ(m[1].amplRot, 0.3);
  EXPECT_TRUE(m[1].phaseFromPrevious);
  EXPECT_EQ(m[2].type, MovementType::CirAce);
  EXPECT_DOUBLE_EQ(m[2].aceAng, 20 * kDeg);
  EXPECT_DOUBLE_EQ(m[2].angVel, 10 * kDeg);
  EXPECT_FALSE(m[2].velFromPrevious);
  EXPECT_DOUBLE_EQ(m[2].ref.x, 0.2);
  EXPECT_TRUE(m[3].velFromPrevious);
  EXPECT_DOUBLE_EQ(m[3].aceAng, -5 * kDeg);
}

TEST(CaseMotion, ReadsALoneNullMovement) {
  const CaseDefinition c = loadPistonCase("Null", R"(
      <objreal ref="1">
        <begin mov="1" start="0" />
        <mvnull id="1" />
      </objreal>)");
  ASSERT_EQ(c.motions.at(0).movements.size(), 1u);
  EXPECT_EQ(c.motions[0].movements[0].type, MovementType::Null);
}

// DualSPHysics' CaseWavemaker (reference/dualsphysics-cases, copied unchanged to tests/data).
const std::string kWavemakerDef = std::string(SPH_SOURCE_DIR) + "/engine/tests/data/CaseWavemaker_Def.xml";

// Its motion: three mvrectsinu, the first with a phase in radians, then 2 -> 3 -> 2 for ever
// (until finish="100"), the later ones continuing the phase. The file's geometry uses elements
// this engine may not generate yet, so its <motion> is read directly here, against the particle
// families the file defines (mkbound 0 and 10).
TEST(CaseMotion, ReadsTheCaseWavemakerMotion) {
  const std::string& ref = kWavemakerDef;
  tinyxml2::XMLDocument doc;
  ASSERT_EQ(doc.LoadFile(ref.c_str()), tinyxml2::XML_SUCCESS) << ref;
  const XMLElement* motion = doc.RootElement()->FirstChildElement("casedef")->FirstChildElement("motion");
  ASSERT_NE(motion, nullptr);
  const std::vector<MkEntry> mks = {{true, 0, 10, 100}, {true, 10, 20, 50}, {false, 0, 1, 1000}};
  std::vector<MotionObject> objs, frames;
  readMotion(XmlReader(ref), motion, mks, objs, frames);
  EXPECT_TRUE(frames.empty());
  ASSERT_EQ(objs.size(), 1u);
  const MotionObject& o = objs[0];
  EXPECT_EQ(o.ref, 10);
  EXPECT_EQ(o.mkIndex, 1);
  ASSERT_EQ(o.begins.size(), 1u);
  EXPECT_EQ(o.begins[0].mov, 1);
  EXPECT_EQ(o.begins[0].start, 0);
  EXPECT_EQ(o.begins[0].finish, 100);
  ASSERT_EQ(o.movements.size(), 3u);
  const Movement &m1 = o.movements[0], &m2 = o.movements[1], &m3 = o.movements[2];
  for (const Movement* m : {&m1, &m2, &m3}) {
    EXPECT_EQ(m->type, MovementType::RectSinu);
    EXPECT_DOUBLE_EQ(m->ampl.x, 0.25);
    EXPECT_EQ(m->ampl.y, 0);
    EXPECT_EQ(m->ampl.z, 0);
  }
  EXPECT_EQ(m1.id, 1);
  EXPECT_EQ(m1.next, 2);
  EXPECT_DOUBLE_EQ(m1.duration, 5);
  EXPECT_DOUBLE_EQ(m1.freq.x, 0.5);
  EXPECT_DOUBLE_EQ(m1.phase.x, 4.71238898);  // anglesunits="radians": taken as is
  EXPECT_FALSE(m1.phaseFromPrevious);
  EXPECT_EQ(m2.next, 3);
  EXPECT_DOUBLE_EQ(m2.freq.x, 0.75);
  EXPECT_DOUBLE_EQ(m2.duration, 10);
  EXPECT_TRUE(m2.phaseFromPrevious);
  EXPECT_EQ(m3.next, 2);  // the loop
  EXPECT_DOUBLE_EQ(m3.freq.x, 0.5);
  EXPECT_TRUE(m3.phaseFromPrevious);
}

// The whole reference file through loadCase(): geometry and motion load unchanged.
TEST(CaseMotion, CaseWavemakerLoadsUnchanged) {
  LoadOptions lo;
  lo.dpOverride = 0.05;  // the motion does not depend on dp; fewer particles to generate
  const CaseDefinition c = loadCase(kWavemakerDef, lo);
  ASSERT_EQ(c.motions.size(), 1u);
  EXPECT_EQ(c.motions[0].ref, 10);
  EXPECT_EQ(c.motions[0].movements.size(), 3u);
  EXPECT_GT(c.mks.at(c.motions[0].mkIndex).count, 0u);
}

struct BadMotion {
  const char* name;
  const char* motion;
  const char* element;  // the element the message must name, e.g. "<mvrect>"
  const char* lineOf;   // text whose line the message must give
  const char* words;    // part of the message
};

class CaseMotionErrors : public ::testing::TestWithParam<BadMotion> {};

TEST_P(CaseMotionErrors, NameFileLineAndElement) {
  const BadMotion& b = GetParam();
  std::string xml;
  try {
    loadPistonCase(b.name, b.motion, &xml);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    const int line = test::lineOf(xml, b.lineOf);
    ASSERT_GT(line, 0);
    EXPECT_NE(msg.find(std::string(b.name) + "_Def.xml:" + std::to_string(line) + ":"), std::string::npos) << msg;
    EXPECT_NE(msg.find(b.element), std::string::npos) << msg;
    EXPECT_NE(msg.find(b.words), std::string::npos) << msg;
  }
}

const BadMotion kBadMotions[] = {
    {"UnknownType", R"(<objreal ref="1"><begin mov="1" start="0" /><mvzigzag id="1" duration="1" /></objreal>)",
     "<mvzigzag>", "<mvzigzag", "unknown element inside <objreal>"},
    {"AdvancedFileWithoutCentre",
     R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrotadvfile id="1" duration="1"><file name="angles.csv" /></mvrotadvfile></objreal>)",
     "<mvrotadvfile>", "<mvrotadvfile", "missing element <center>"},
    {"AdvancedFileBadAxes",
     R"(<objreal ref="1"><begin mov="1" start="0" />
<mvpathfile id="1" duration="1"><file name="path.csv" /><center x="0" y="0" z="0" />
<axes value="XQZ" /></mvpathfile></objreal>)",
     "<axes>", "<axes value", "must be three of X, Y and Z"},
    {"AdvancedFileColumnOutside",
     R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrotadvfile id="1" duration="1"><file name="angles.csv" fields="3" /><center x="0" y="0" z="0" />
</mvrotadvfile></objreal>)",
     "<file>", "<file name", "fieldang3=\"3\" is not a column"},
    {"CirWithoutRef", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvcir id="1" duration="1"><vel ang="10" /><axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="1" z="0" /></mvcir>
</objreal>)",
     "<mvcir>", "<mvcir id", "missing element <ref>"},
    {"CirAceWithoutAce", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvcirace id="1" duration="1"><velini ang="10" /><ref x="0" y="0" z="0.1" />
<axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="1" z="0" /></mvcirace></objreal>)",
     "<mvcirace>", "<mvcirace id", "missing element <ace>"},
    {"CirSinuDegenerateAxis", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvcirsinu id="1" duration="1"><freq v="1" /><ampl v="10" /><ref x="0" y="0" z="0.1" />
<axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="0" z="0" /></mvcirsinu></objreal>)",
     "<mvcirsinu>", "<mvcirsinu id", "no rotation axis"},
    {"CirWithPhase", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvcir id="1" duration="1"><vel ang="10" /><ref x="0" y="0" z="0.1" />
<phase v="1" /><axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="1" z="0" /></mvcir></objreal>)",
     "<phase>", "<phase v", "unknown element inside <mvcir>"},
    {"RectAceWithoutAce", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrectace id="1" duration="1"><velini x="1" y="0" z="0" /></mvrectace></objreal>)",
     "<mvrectace>", "<mvrectace id", "missing element <ace>"},
    {"RectAceNegativeDuration", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrectace id="1" duration="-0.5"><ace x="1" y="0" z="0" /></mvrectace></objreal>)",
     "<mvrectace>", "duration=\"-0.5\"", "negative"},
    {"RectAceWithVel", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrectace id="1" duration="1"><ace x="1" y="0" z="0" />
<vel x="1" y="0" z="0" /></mvrectace></objreal>)",
     "<vel>", "<vel x", "unknown element inside <mvrectace>"},
    {"RotAceWithoutAce", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrotace id="1" duration="1"><velini ang="10" />
<axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="1" z="0" /></mvrotace></objreal>)",
     "<mvrotace>", "<mvrotace id", "missing element <ace>"},
    {"RotAceAngWithoutValue", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrotace id="1" duration="1"><ace x="10" /><axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="1" z="0" /></mvrotace>
</objreal>)",
     "<ace>", "<ace x", "missing attribute ang"},
    {"RotAceDegenerateAxis", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrotace id="1" duration="1"><ace ang="10" /><axisp1 x="1" y="0" z="0" /><axisp2 x="1" y="0" z="0" /></mvrotace>
</objreal>)",
     "<mvrotace>", "<mvrotace id", "no rotation axis"},
    {"NullWithChild", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvnull id="1"><vel x="1" y="0" z="0" /></mvnull></objreal>)",
     "<vel>", "<vel x", "unknown element inside <mvnull>"},
    {"NullWithoutId", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvnull /></objreal>)",
     "<mvnull>", "<mvnull", "missing attribute id"},
    {"MissingId", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrect duration="1"><vel x="1" y="0" z="0" /></mvrect></objreal>)",
     "<mvrect>", "<mvrect duration", "missing attribute id"},
    {"NextToMissingId", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrect id="1" duration="1" next="7"><vel x="1" y="0" z="0" /></mvrect></objreal>)",
     "<mvrect>", "next=\"7\"", "no movement with id 7"},
    {"BeginOfMissingId", R"(<objreal ref="1">
<begin mov="4" start="0" />
<mvrect id="1" duration="1"><vel x="1" y="0" z="0" /></mvrect></objreal>)",
     "<begin>", "<begin mov=\"4\"", "no movement with id 4"},
    {"NegativeDuration", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrect id="1" duration="-1"><vel x="1" y="0" z="0" /></mvrect></objreal>)",
     "<mvrect>", "duration=\"-1\"", "negative"},
    {"RepeatedId", R"(<objreal ref="1"><begin mov="1" start="0" />
<wait id="1" duration="1" />
<wait id="1" duration="2" /></objreal>)",
     "<wait>", "duration=\"2\"", "already used"},
    {"TimelessLoop", R"(<objreal ref="1"><begin mov="1" start="0" />
<wait id="1" duration="1" next="2" />
<wait id="2" duration="0" next="3" />
<wait id="3" duration="0" next="2" /></objreal>)",
     "<wait>", "<wait id=\"2\"", "total duration of zero"},
    {"RefWithoutParticles", R"(
<objreal ref="5"><begin mov="1" start="0" /><wait id="1" duration="1" /></objreal>)",
     "<objreal>", "<objreal ref=\"5\"", "no boundary particles have mkbound 5"},
    {"BadAnglesUnits", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrot id="1" duration="1" anglesunits="grads"><vel ang="1" />
<axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="1" z="0" /></mvrot></objreal>)",
     "<mvrot>", "<mvrot id", "anglesunits"},
    {"DegenerateAxis", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrot id="1" duration="1"><vel ang="1" /><axisp1 x="0" y="0" z="0" /><axisp2 x="0" y="0" z="0" /></mvrot></objreal>)",
     "<mvrot>", "<mvrot id", "no rotation axis"},
    {"MissingAxis", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrotsinu id="1" duration="1"><freq v="1" /><ampl v="10" /><axisp1 x="0" y="0" z="0" /></mvrotsinu></objreal>)",
     "<mvrotsinu>", "<mvrotsinu id", "missing element <axisp2>"},
    {"ChildOfWrongMovement", R"(<objreal ref="1"><begin mov="1" start="0" />
<mvrect id="1" duration="1"><vel x="1" y="0" z="0" />
<freq x="1" y="0" z="0" /></mvrect></objreal>)",
     "<freq>", "<freq x", "unknown element inside <mvrect>"},
    {"NestedObjUnknownChild", R"(
<obj><begin mov="1" start="0" /><wait id="1" duration="1" /><mvzigzag id="2" duration="1" /></obj>)",
     "<mvzigzag>", "<mvzigzag", "unknown element inside <obj>"},
    {"NestedObjectSameRef", R"(<objreal ref="1"><begin mov="1" start="0" /><wait id="1" duration="1" />
<objreal ref="1"><begin mov="1" start="0" /><wait id="1" duration="2" /></objreal></objreal>)",
     "<objreal>", "duration=\"2\"", "already has a motion"},
    {"SameRefTwice", R"(<objreal ref="1"><begin mov="1" start="0" /><wait id="1" duration="1" /></objreal>
<objreal ref="1"><begin mov="1" start="0" /><wait id="1" duration="2" /></objreal>)",
     "<objreal>", "duration=\"2\"", "already has a motion"},
    {"FinishBeforeStart", R"(<objreal ref="1">
<begin mov="1" start="2" finish="1" /><wait id="1" duration="1" /></objreal>)",
     "<begin>", "<begin mov", "comes before start"},
};

INSTANTIATE_TEST_SUITE_P(Motion, CaseMotionErrors, ::testing::ValuesIn(kBadMotions),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace sph
