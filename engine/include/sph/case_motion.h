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
#include <optional>
#include <vector>

#include "sph/case_wave_paddles.h"
#include "sph/vec3d.h"

namespace sph {

// Null: DualSPHysics' <mvnull>, a movement that moves nothing and ends its chain (cases use it to
// mark an object as moving whose motion comes from elsewhere, e.g. a wave paddle).
enum class MovementType { Wait, Rect, RectSinu, Rot, RotSinu, RectAce, RotAce, Null };

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
  // mvrot / mvrotsinu: rotation about the axis from axisP1 to axisP2 (right-handed).
  Vec3d axisP1, axisP2;
  double angVel = 0;        // mvrot: rad/s; mvrotace: initial angular velocity <velini>
  double aceAng = 0;        // mvrotace: rad/s^2
  double freqRot = 0, amplRot = 0, phaseRot = 0;  // mvrotsinu: angle(tau) = ampl sin(phase + 2 pi freq tau)
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

struct MotionObject {
  int ref = 0;              // mkbound value (local, as in <setmkbound mk=...>)
  uint16_t mkIndex = 0;     // index into CaseDefinition::mks of that boundary family
  int line = 0;
  std::vector<Movement> movements;
  std::vector<MotionBegin> begins;
  // The wave paddle of <special><wavepaddles> that drives this object, if any: its law is
  // added to the chains' movements.
  std::optional<WavePaddle> paddle;

  // Index into `movements` of the movement with that id, or -1.
  int find(int id) const {
    for (size_t k = 0; k < movements.size(); ++k)
      if (movements[k].id == id) return int(k);
    return -1;
  }
};

}  // namespace sph
