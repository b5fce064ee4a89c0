// The motion kinematics against DualSPHysics 5.4's own runs (fixtures made as
// tools/dualsphysics/README.md shows): the cases are loaded by our reader, data files and all,
// their objects carried through steps of 1 ms to each time of DualSPHysics' parts, and each
// sampled particle's start position moved by its object's transform must land where
// DualSPHysics put it.
//  * FileMotions_Def.xml (2D): mvfile and mvrectfile (times from a first row at 2 s, columns
//    chosen by fields/fieldx/fieldz, held after the last row, the second file read from its first
//    row again), mvrotfile in radians, mvcir looping through a wait, mvcirsinu and mvcirace each
//    followed by one continuing its phase or velocity, mvrot, mvrotsinu.
//  * Rot3D_Def.xml: mvrot and mvcir about an oblique axis (the sense of the turn in 3D).
//  * AdvMotions_Def.xml (3D, DtFixed 1 ms): objects nested in an <obj> frame and in another
//    object (translation in a turning frame, a circle and a turn about axes their parents carry),
//    mvrotadvfile (XYZ extrinsic in degrees; ZYZ intrinsic in radians, columns permuted, a late
//    start) and mvpathfile (the centre moving with the path; fixed, ZYX intrinsic).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "case/loader.h"
#include "dualsphysics_fixture.h"
#include "model/case_model.h"
#include "motion/motion_kinematics.h"

namespace sph {
namespace {

// DualSPHysics moves its particles step by step (a transform per step, some thousands of them)
// and its positions drift from the closed form by up to ~5e-9 m in these runs; 1e-7 m is far
// below any difference of law (a wrong sense, phase or row is ~1e-3 m and more) and 1/500,000 of
// their dp.
constexpr double kTolerance = 1e-7;

void expectAgreement(const std::string& caseFile, const std::string& fixture) {
  const CaseDefinition c = loadCase(test::dualsphysicsData(caseFile));
  // time;mk;id;x0;y0;z0;x;y;z
  const std::vector<std::vector<double>> rows = test::readFixtureRows(test::dualsphysicsData(fixture), 9);
  ASSERT_FALSE(rows.empty());
  std::map<int, size_t> objectOfMk;
  for (size_t o = 0; o < c.motions.size(); ++o) objectOfMk[c.motions[o].ref] = o;
  MotionKinematics k(c.motions, c.motionFrames);
  std::vector<RigidTransform> total(c.motions.size());
  double t = 0;
  size_t checked = 0;
  for (const std::vector<double>& r : rows) {
    const double time = r[0];
    ASSERT_GE(time, t) << fixture << ": rows out of time order";
    while (t < time) {
      const double dt = std::min(1e-3, time - t);
      const std::vector<ObjectStep> st = k.advance(t, dt);
      for (size_t o = 0; o < st.size(); ++o) total[o] = total[o].then(st[o].transform);
      t = dt < 1e-3 ? time : t + dt;
    }
    const auto obj = objectOfMk.find(int(r[1]));
    ASSERT_NE(obj, objectOfMk.end()) << fixture << ": no motion for mkbound " << r[1];
    const Vec3d p = total[obj->second].apply({r[3], r[4], r[5]});
    EXPECT_NEAR(p.x, r[6], kTolerance) << fixture << ": mkbound " << r[1] << ", particle " << r[2] << ", t = " << time;
    EXPECT_NEAR(p.y, r[7], kTolerance) << fixture << ": mkbound " << r[1] << ", particle " << r[2] << ", t = " << time;
    EXPECT_NEAR(p.z, r[8], kTolerance) << fixture << ": mkbound " << r[1] << ", particle " << r[2] << ", t = " << time;
    ++checked;
  }
  EXPECT_EQ(checked, rows.size());
}

TEST(MotionDualSPHysics, FileAndCircularMovementsAgree) {
  expectAgreement("FileMotions_Def.xml", "FileMotions_motion.csv");
}

TEST(MotionDualSPHysics, TurnsAboutAnObliqueAxisAgree) { expectAgreement("Rot3D_Def.xml", "Rot3D_motion.csv"); }

TEST(MotionDualSPHysics, NestedObjectsAndAdvancedFileMovementsAgree) {
  expectAgreement("AdvMotions_Def.xml", "AdvMotions_motion.csv");
}

}  // namespace
}  // namespace sph
