// Imposed motion of boundary objects, as read from a case's <motion> (DualSPHysics XML guide,
// "Motion"). Every angle is stored in radians and every frequency in Hz, whatever the XML's
// `anglesunits`; times are seconds.
//
// An object (<objreal ref="MK">) is the set of boundary particles of one mkbound value. It runs
// one chain of movements per <begin>: the movement `mov` starts at `start`; each movement lasts
// `duration` and is followed by the movement `next` (which may point back to an earlier one: a
// loop); `finish` (when given) stops the chain at that time whatever movement is running.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/case_ml_pistons.h"
#include "model/case_wave_paddles.h"
#include "model/vec3d.h"

namespace sph {

// Null: DualSPHysics' <mvnull>, a movement that moves nothing and ends its chain (cases use it to
// mark an object as moving whose motion comes from elsewhere, e.g. a wave paddle).
// RectFile, RotFile: <mvfile>/<mvrectfile> and <mvrotfile>, positions or angles from a data file.
// RotAdvFile, PathFile: <mvrotadvfile> and <mvpathfile>, three chained angles (and, for the path,
// positions) from a data file.
// Cir, CirSinu, CirAce: <mvcir>, <mvcirsinu>, <mvcirace>, the object translated (never turned) so
// that a reference point goes round the axis like mvrot, mvrotsinu, mvrotace turn it.
enum class MovementType {
  Wait,
  Rect,
  RectSinu,
  Rot,
  RotSinu,
  RectAce,
  RotAce,
  Null,
  RectFile,
  RotFile,
  Cir,
  CirSinu,
  CirAce,
  RotAdvFile,
  PathFile
};

// The rows of a movement's data file, times not decreasing (two rows of one time: the value jumps
// from the first's to the second's just after it): for mvfile each row's position (the components
// the file gives no column for stay 0), for mvrotfile its angle in radians.
struct MotionTable {
  std::string path;  // the data file, as opened (messages)
  std::vector<double> time;
  std::vector<Vec3d> pos;     // mvfile
  std::vector<double> angle;  // mvrotfile
  std::vector<Vec3d> angles;  // mvrotadvfile, mvpathfile: the three angles of each row, radians
};

struct Movement {
  MovementType type = MovementType::Wait;
  int id = 0;
  int next = -1;            // id of the following movement; -1: the chain ends after this one
  double duration = 0;      // >= 0
  int line = 0;             // line of the element in the case file (messages)
  // mvrect: constant velocity (m/s); mvrectace: initial velocity <velini>.
  Vec3d vel;
  // mvrectace: constant acceleration (m/s^2).
  Vec3d ace;
  // mvrectsinu, per axis: x(tau) = ampl sin(phase + 2 pi freq tau), tau = time in the movement.
  Vec3d freq, ampl, phase;
  // Rotations (mvrot*, mvcir*, mvrotfile) turn about the axis through axisP1 and axisP2 the way
  // DualSPHysics turns them: clockwise seen from axisP2 looking towards axisP1 for a positive
  // angle (the right-hand rule about the direction axisP2 -> axisP1).
  Vec3d axisP1, axisP2;
  double angVel = 0;  // mvrot, mvcir: rad/s; mvrotace, mvcirace: initial angular velocity <velini>
  double aceAng = 0;  // mvrotace, mvcirace: rad/s^2
  // mvrotsinu, mvcirsinu: angle(tau) = ampl sin(phase + 2 pi freq tau)
  double freqRot = 0, amplRot = 0, phaseRot = 0;
  // mvcir*: the reference point <ref> the object's displacement follows.
  Vec3d ref;
  // mvfile, mvrectfile, mvrotfile, mvrotadvfile, mvpathfile: the rows of the data file (shared:
  // copies of a case share them).
  std::shared_ptr<const MotionTable> table;
  // mvrotadvfile, mvpathfile: the object turns about `center` from the orientation of the file's
  // angles at one time to that at the next; the orientation of angles (a1, a2, a3) about the axes
  // named by `axes` is R(a1) R(a2) R(a3) (matrix product) when `intrinsic` is false and
  // R(a3) R(a2) R(a1) when it is true, as DualSPHysics 5.4 composes them (motion/motion_kinematics.h).
  // mvpathfile with moveCenter: the centre follows the path.
  Vec3d center;
  bool intrinsic = false, moveCenter = false;
  char axes[3] = {'X', 'Y', 'Z'};
  // mvrectsinu/mvrotsinu without <phase>: continue from the phase the previous movement of the
  // chain reached (DualSPHysics does this so that chained sinusoids join smoothly).
  bool phaseFromPrevious = false;
  // mvrectace/mvrotace without <velini>: start from the velocity the previous movement of the
  // chain ended with (DualSPHysics' "velpre": that of an mvrect/mvrectace, resp. mvrot/mvrotace;
  // zero after any other movement or at the start of the chain).
  bool velFromPrevious = false;
};

struct MotionBegin {
  int mov = 0;              // id of the first movement
  double start = 0;
  double finish = -1;       // < 0: none
  int line = 0;
};

// A <motion> object: an <objreal ref=...> (the case's motions), or an <obj> without particles (a
// frame, the case's motionFrames) whose motion its nested objects share.
struct MotionObject {
  int ref = 0;              // mkbound value (local, as in <setmkbound mk=...>); frames: -1
  uint16_t mkIndex = 0;     // index into CaseDefinition::mks of that boundary family
  int line = 0;
  std::vector<Movement> movements;
  std::vector<MotionBegin> begins;
  // The wave paddle of <special><wavepaddles> that drives this object, if any: its law is
  // added to the chains' movements.
  std::optional<WavePaddle> paddle;
  // The multi-layer piston of <special><mlayerpistons> that moves this object's particles layer
  // by layer (motion/ml_piston_law.h), if any.
  std::optional<MlPiston> mlPiston;
  // The object it is nested in (DualSPHysics' <obj> and <objreal> inside another), as an index
  // into the case's motions followed by its motionFrames; -1: none. Each step the parent's motion
  // moves the nested object's particles, its rotation axes and reference points, then the nested
  // object's own movements run about the moved axes (DualSPHysics' JMotionObj).
  int parent = -1;

  // Index into `movements` of the movement with that id, or -1.
  int find(int id) const {
    for (size_t k = 0; k < movements.size(); ++k)
      if (movements[k].id == id) return int(k);
    return -1;
  }
};

}  // namespace sph
