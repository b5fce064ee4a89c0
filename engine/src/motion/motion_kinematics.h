// Kinematics of the <motion> objects (model/case_motion.h), in double precision on the host: for a
// step [t, t + dt], the rigid transform each object undergoes. As in DualSPHysics (JMotionObj):
//  * a chain starts its first movement at the <begin> start; each movement ends `duration`
//    later and hands over to `next` at that instant (a step that straddles the hand-over gets
//    the end of one movement and the start of the next); `finish` stops the chain;
//  * positions follow the analytic law of each movement, evaluated at the two ends of the part
//    of the step it covers: sinusoids as ampl (sin(phase(t + dt)) - sin(phase(t))), so summing
//    the steps telescopes to the analytic position and nothing drifts with the step count;
//  * a sinusoid without <phase> continues from the phase the previous movement reached
//    (zero after a movement that is not the same kind of sinusoid);
//  * an accelerated movement (mvrectace/mvrotace/mvcirace) moves by v0 tau + ace tau^2 / 2 at the
//    time tau into it; without <velini>, v0 is the velocity the previous movement ended with (that
//    of an mvrect/mvrectace, resp. mvrot/mvrotace/mvcir/mvcirace; zero otherwise);
//  * rotations turn the way DualSPHysics turns them (model/case_motion.h: Movement::axisP1);
//  * a file movement (mvfile/mvrotfile) reads its data file from the first row on: the row times
//    count from the first row's, which the movement's start meets; the position (angle) is the
//    file's, linear in time between rows and the last row's after them, less the first row's;
//    each time the chain enters the movement it starts again from the first row;
//  * a circular movement (mvcir/mvcirsinu/mvcirace) translates the object by the displacement of
//    its reference point, which goes round the axis by the angle of mvrot/mvrotsinu/mvrotace. The
//    point belongs to the movement and stays where it went: a chain that comes back to the
//    movement goes on round from there (another movement with the same <ref> has its own point);
//  * mvrotadvfile turns the object about its centre from the orientation of the file's three
//    angles at one end of the step to that at the other, R = O(new) O(old)^T, O composed as
//    model/case_motion.h says (DualSPHysics' JMatrix4::MatrixRotate, rotations about the fixed
//    x, y, z by the right-hand rule); mvpathfile also translates by the path's displacement d
//    (x' = c' + R (x + d - c')), the centre c' moving with the path when movecenter is on (and
//    staying where it went, like a circular movement's point);
//  * an object nested in another (model/case_motion.h: MotionObject::parent) first has its
//    rotation axes, reference points and particles carried by its parent's motion over the step,
//    then its own movements run about the carried axes: x' = own(parent(x));
//  * a wave paddle (model/case_wave_paddles.h, motion/paddle_law.h) moves by the difference of its law
//    between the ends of the step, after its object's chain, about a hinge or along a direction
//    fixed in space.
// The engine imposes x' = R x + b on the object's particles and the velocity (x' - x)/dt, the
// mean velocity over the step (DualSPHysics' MoveLinBound/MoveMatBound).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "model/case_motion.h"
#include "motion/paddle_law.h"
#include "output/checkpoint.h"

namespace sph {

// x' = r x + b (r row-major). `linear`: r is exactly the identity (a pure translation), so the
// engine can impose b/dt as velocity without differencing positions.
struct RigidTransform {
  double r[9] = {1, 0, 0, 0, 1, 0, 0, 0, 1};
  double b[3] = {0, 0, 0};
  bool linear = true;

  static RigidTransform translation(double dx, double dy, double dz) {
    RigidTransform t;
    t.b[0] = dx;
    t.b[1] = dy;
    t.b[2] = dz;
    return t;
  }

  // Right-handed rotation by `angle` (radians) about the axis through p1 pointing to p2
  // (Rodrigues' formula).
  static RigidTransform rotation(double angle, const Vec3d& p1, const Vec3d& p2) {
    double u[3] = {p2.x - p1.x, p2.y - p1.y, p2.z - p1.z};
    const double len = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
    for (double& v : u) v /= len;
    const double c = std::cos(angle), s = std::sin(angle), k = 1 - c;
    RigidTransform t;
    t.linear = false;
    t.r[0] = c + k * u[0] * u[0];
    t.r[1] = k * u[0] * u[1] - s * u[2];
    t.r[2] = k * u[0] * u[2] + s * u[1];
    t.r[3] = k * u[1] * u[0] + s * u[2];
    t.r[4] = c + k * u[1] * u[1];
    t.r[5] = k * u[1] * u[2] - s * u[0];
    t.r[6] = k * u[2] * u[0] - s * u[1];
    t.r[7] = k * u[2] * u[1] + s * u[0];
    t.r[8] = c + k * u[2] * u[2];
    // The axis stays in place: b = p1 - r p1.
    const double p[3] = {p1.x, p1.y, p1.z};
    for (int i = 0; i < 3; ++i) t.b[i] = p[i] - (t.r[3 * i] * p[0] + t.r[3 * i + 1] * p[1] + t.r[3 * i + 2] * p[2]);
    return t;
  }

  Vec3d apply(const Vec3d& x) const {
    return {r[0] * x.x + r[1] * x.y + r[2] * x.z + b[0], r[3] * x.x + r[4] * x.y + r[5] * x.z + b[1],
            r[6] * x.x + r[7] * x.y + r[8] * x.z + b[2]};
  }

  // This transform followed by `next`.
  RigidTransform then(const RigidTransform& next) const {
    RigidTransform t;
    t.linear = linear && next.linear;
    for (int i = 0; i < 3; ++i) {
      t.b[i] = next.b[i];
      for (int k = 0; k < 3; ++k) t.b[i] += next.r[3 * i + k] * b[k];
      if (!t.linear)
        for (int j = 0; j < 3; ++j)
          t.r[3 * i + j] = next.r[3 * i] * r[j] + next.r[3 * i + 1] * r[3 + j] + next.r[3 * i + 2] * r[6 + j];
    }
    return t;
  }
};

// One object's motion over a step.
struct ObjectStep {
  uint16_t mkIndex = 0;       // the boundary family that moves
  RigidTransform transform;   // identity when nothing moved
  bool moved = false;         // a movement other than <wait> ran during the step
};

class MotionKinematics {
 public:
  // `frames`: the <obj> frames (model/case_motion.h), which move no particles themselves.
  explicit MotionKinematics(std::vector<MotionObject> objects, std::vector<MotionObject> frames = {});

  // The motion of every object (in the order given, frames left out) over [t, t + dt]. Successive calls must
  // cover successive steps: t of a call is t + dt of the one before (the first may start at
  // any t >= 0; a chain's movements before it are taken as run). `paddleExtra`, when given, holds
  // per object a displacement added to its paddle's over the step (active absorption,
  // motion/paddle_awas.h).
  std::vector<ObjectStep> advance(double t, double dt, const std::vector<double>* paddleExtra = nullptr);

  // The objects, then the frames.
  const std::vector<MotionObject>& objects() const { return objects_; }
  // The law of object k's wave paddle (null when it has none). Copies share the second order's
  // samples of irregular waves, so a copy costs no second computation of them.
  const PaddleLaw* paddleLaw(size_t k) const { return paddles_[k] ? &*paddles_[k] : nullptr; }

  // Checkpoints: the running movement of every chain and the circular movements' reference
  // points, as advance() left them.
  void save(CheckpointWriter& w) const;
  void restore(const CheckpointReader& r);

 private:
  // The running movement of one <begin>.
  struct Chain {
    size_t object = 0;
    int mov = -1;               // index into the object's movements; -1: ended
    double start = 0;           // when the running movement started
    double stop = std::numeric_limits<double>::infinity();  // <begin finish>
    Vec3d phase;                // mvrectsinu: phase when the running movement started
    double phaseRot = 0;        // mvrotsinu, mvcirsinu: likewise
    Vec3d vel;                  // mvrectace: velocity when the running movement started
    double angVel = 0;          // mvrotace, mvcirace: likewise, angular (rad/s)
    Vec3d refStart;             // mvcir*: where the reference point was when the movement started
  };

  // What a movement hands on to the next one of its chain (DualSPHysics' JMotionMovActive
  // state): the sinusoids' phases and the velocities reached.
  struct Handover {
    Vec3d phase;
    double phaseRot = 0;
    Vec3d vel;
    double angVel = 0;
  };

  void enter(Chain& c, int mov, const Handover& prev) const;
  Handover handover(const Movement& m, const Chain& c) const;
  static RigidTransform piece(const Movement& m, const Chain& c, double ta, double tb);
  static Vec3d refPoint(const Movement& m, const Chain& c, double tau);
  // refs_ (and centers_) index of movement `mov` of the chain's object.
  size_t refIndex(const Chain& c, int mov) const { return refBase_[c.object] + size_t(mov); }
  void runChain(Chain& c, double t, double t1, ObjectStep& s);
  RigidTransform advancedFilePiece(const Chain& c, const Movement& m, double a, double b);
  // Object o's axes, reference points and centres carried by its parent's step transform p.
  void carry(size_t o, const RigidTransform& p);

  // The transform a paddle's law makes over [ta, tb], plus `extra` along a piston's direction.
  static RigidTransform paddleStep(const WavePaddle& p, const PaddleLaw& law, double ta, double tb, double extra);

  std::vector<MotionObject> objects_;  // the objects, then the frames
  size_t nObjects_ = 0;
  std::vector<size_t> order_;          // parents before the objects nested in them
  std::vector<Chain> chains_;
  std::vector<std::optional<PaddleLaw>> paddles_;  // per object
  // Where each circular movement's reference point is now, object by object, movement by
  // movement (its <ref> until it runs; unused for the other movements).
  std::vector<Vec3d> refs_;
  std::vector<size_t> refBase_;  // per object: its first movement's index in refs_
  // Where each mvpathfile's centre is now (movecenter moves it), indexed as refs_.
  std::vector<Vec3d> centers_;
};

}  // namespace sph
