#include "motion_kinematics.h"

#include <algorithm>
#include <numbers>

#include <fmt/format.h>

#include "sph/errors.h"

namespace sph {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

}  // namespace

MotionKinematics::MotionKinematics(std::vector<MotionObject> objects) : objects_(std::move(objects)) {
  for (size_t o = 0; o < objects_.size(); ++o) {
    paddles_.emplace_back();
    if (objects_[o].paddle) paddles_.back().emplace(*objects_[o].paddle);
    for (const MotionBegin& b : objects_[o].begins) {
      Chain c;
      c.object = o;
      c.start = b.start;
      if (b.finish >= 0) c.stop = b.finish;
      const int mov = objects_[o].find(b.mov);
      if (mov < 0) continue;  // the reader refuses this; a hand-made object just never moves
      enter(c, mov, Handover{});
      chains_.push_back(c);
    }
  }
}

// Makes `mov` the running movement of c (its start time already set); `prev` is what the
// previous movement ended with, for sinusoids without <phase> and accelerations without <velini>.
void MotionKinematics::enter(Chain& c, int mov, const Handover& prev) const {
  c.mov = mov;
  const Movement& m = objects_[c.object].movements[size_t(mov)];
  c.phase = m.type == MovementType::RectSinu ? (m.phaseFromPrevious ? prev.phase : m.phase) : Vec3d{};
  c.phaseRot = m.type == MovementType::RotSinu ? (m.phaseFromPrevious ? prev.phaseRot : m.phaseRot) : 0.0;
  c.vel = m.type == MovementType::RectAce ? (m.velFromPrevious ? prev.vel : m.vel) : Vec3d{};
  c.angVel = m.type == MovementType::RotAce ? (m.velFromPrevious ? prev.angVel : m.angVel) : 0.0;
}

// The state movement m (running in c) hands on when it has run its whole duration. Only the kind
// that can continue it passes on each quantity: phases between sinusoids of the same kind,
// velocities from uniform or accelerated movements of the same kind (DualSPHysics resets the
// rest to zero when a movement starts).
MotionKinematics::Handover MotionKinematics::handover(const Movement& m, const Chain& c) const {
  Handover h;
  const double d = m.duration;
  switch (m.type) {
    case MovementType::RectSinu:
      // DualSPHysics advances a sinusoid's phase only on axes with a non-zero amplitude.
      h.phase = {c.phase.x + (m.ampl.x != 0 ? kTwoPi * m.freq.x * d : 0),
                 c.phase.y + (m.ampl.y != 0 ? kTwoPi * m.freq.y * d : 0),
                 c.phase.z + (m.ampl.z != 0 ? kTwoPi * m.freq.z * d : 0)};
      break;
    case MovementType::RotSinu:
      h.phaseRot = c.phaseRot + kTwoPi * m.freqRot * d;
      break;
    case MovementType::Rect:
      h.vel = m.vel;
      break;
    case MovementType::RectAce:
      h.vel = {c.vel.x + m.ace.x * d, c.vel.y + m.ace.y * d, c.vel.z + m.ace.z * d};
      break;
    case MovementType::Rot:
      h.angVel = m.angVel;
      break;
    case MovementType::RotAce:
      h.angVel = c.angVel + m.aceAng * d;
      break;
    case MovementType::Wait:
    case MovementType::Null:
      break;
  }
  return h;
}

// The transform of movement m (running since c.start) between the absolute times ta < tb.
RigidTransform MotionKinematics::piece(const Movement& m, const Chain& c, double ta, double tb) {
  const double a = ta - c.start, b = tb - c.start;  // time within the movement
  auto sinuStep = [&](double ampl, double freq, double phase) {
    return ampl * (std::sin(phase + kTwoPi * freq * b) - std::sin(phase + kTwoPi * freq * a));
  };
  // v0 tau + ace tau^2 / 2 between tau = a and b, factored so that a short piece late in a long
  // movement does not lose digits to the difference of two large squares.
  auto aceStep = [&](double v0, double ace) { return (b - a) * (v0 + 0.5 * ace * (a + b)); };
  switch (m.type) {
    case MovementType::Rect:
      return RigidTransform::translation(m.vel.x * (tb - ta), m.vel.y * (tb - ta), m.vel.z * (tb - ta));
    case MovementType::RectSinu:
      return RigidTransform::translation(sinuStep(m.ampl.x, m.freq.x, c.phase.x),
                                         sinuStep(m.ampl.y, m.freq.y, c.phase.y),
                                         sinuStep(m.ampl.z, m.freq.z, c.phase.z));
    case MovementType::Rot:
      return RigidTransform::rotation(m.angVel * (tb - ta), m.axisP1, m.axisP2);
    case MovementType::RotSinu:
      return RigidTransform::rotation(sinuStep(m.amplRot, m.freqRot, c.phaseRot), m.axisP1, m.axisP2);
    case MovementType::RectAce:
      return RigidTransform::translation(aceStep(c.vel.x, m.ace.x), aceStep(c.vel.y, m.ace.y),
                                         aceStep(c.vel.z, m.ace.z));
    case MovementType::RotAce:
      return RigidTransform::rotation(aceStep(c.angVel, m.aceAng), m.axisP1, m.axisP2);
    case MovementType::Wait:
    case MovementType::Null:
      break;
  }
  return RigidTransform{};
}

RigidTransform MotionKinematics::paddleStep(const WavePaddle& p, const RegularPaddleLaw& law, double ta, double tb) {
  const double step = law.at(tb) - law.at(ta);
  if (p.type == PaddleType::Flap) return RigidTransform::rotation(step, p.axis0, p.axis1);
  return RigidTransform::translation(p.direction.x * step, p.direction.y * step, p.direction.z * step);
}

void MotionKinematics::restore(const CheckpointReader& r) {
  std::vector<Chain> chains = r.vector<Chain>("motion.chains");
  if (chains.size() != chains_.size())
    throw InputError(fmt::format("{}: the checkpoint holds {} motion chains, the case {}", r.path().string(),
                                 chains.size(), chains_.size()));
  chains_ = std::move(chains);
}

std::vector<ObjectStep> MotionKinematics::advance(double t, double dt) {
  std::vector<ObjectStep> out(objects_.size());
  for (size_t o = 0; o < objects_.size(); ++o) out[o].mkIndex = objects_[o].mkIndex;
  const double t1 = t + dt;
  for (Chain& c : chains_) {
    while (c.mov >= 0) {
      const Movement& m = objects_[c.object].movements[size_t(c.mov)];
      const double end = std::min(c.start + m.duration, c.stop);
      const double a = std::max(t, c.start), b = std::min(t1, end);
      if (b > a && m.type != MovementType::Wait && m.type != MovementType::Null) {
        ObjectStep& s = out[c.object];
        s.transform = s.transform.then(piece(m, c, a, b));
        s.moved = true;
      }
      if (t1 < end) break;  // still running at the end of the step
      if (end >= c.stop || m.next < 0) {
        c.mov = -1;
        break;
      }
      // Hand over to `next` at `end`, passing on the phase or velocity reached.
      const Handover h = handover(m, c);
      c.start += m.duration;
      const int next = objects_[c.object].find(m.next);
      if (next < 0) {
        c.mov = -1;
        break;
      }
      enter(c, next, h);
    }
  }
  for (size_t o = 0; o < objects_.size(); ++o) {
    if (!paddles_[o]) continue;
    const WavePaddle& p = *objects_[o].paddle;
    const double end = p.duration > 0 ? p.start + p.duration : std::numeric_limits<double>::infinity();
    if (t1 <= p.start || t >= end) continue;  // at rest before its start and after its duration
    out[o].transform = out[o].transform.then(paddleStep(p, *paddles_[o], t, t1));
    out[o].moved = true;
  }
  return out;
}

}  // namespace sph
